// The viewer's layout from a phone's 360 px and 390 px to a desktop's
// 1280 px: the page never scrolls sideways (wide tables scroll in their own
// box), no word is broken mid-way (long URLs and codec JSON break only
// where the viewer allows, after / , { [ : = & ?), and the image's
// controls (contrast, the field drawn) sit right under the image, not
// below every other panel. Screenshots of each view at each width go to
// tests/artifacts/.
import { describe, expect, jest, test } from "@jest/globals";
import { ARTIFACTS } from "../support/browser.js";
import { openViewer, viewerSession } from "../support/viewer-page.js";

jest.setTimeout(120000);

// The sample store, the worker bundle, the served repository and Chromium.
const viewer = viewerSession();

const VIEWS = {
  image: "",
  activations: "array=activations&contrast=symlog",
  detections: "array=detections",
  labels: "array=labels",
  "n5-float64": `store=${encodeURIComponent("/tests/fixtures/n5-store.n5/")}&array=types/float64`,
  error: `array=${"a-long-name-".repeat(4)}nowhere`,
};

// Words of visible text (runs of non-space, hyphens allowed to end a line)
// that the viewer.browser laid out over more than one line.
function brokenWords() {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("[hidden], script, style, select") || !parent.getClientRects().length) continue;
    for (const m of node.data.matchAll(/[^\s-]+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}

// Pixels between the image's bottom and its contrast controls: the legend
// (up to four entries, wrapped on a phone) and margins.
const CONTROLS_WITHIN = 240;

describe.each([360, 390, 1280])("%i px wide", (width) => {
  test.each(Object.keys(VIEWS))("%s: no sideways scrolling, no word broken, the controls under the image", async (view) => {
    const { page, state } = await openViewer(viewer.browser, viewer.url, VIEWS[view], { width, height: 800 });
    expect(state.error === null).toBe(view !== "error");
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    expect(await page.evaluate(brokenWords)).toEqual([]);
    if (["image", "activations", "detections", "n5-float64"].includes(view)) {
      const { canvas, contrast } = await page.evaluate(() => {
        const box = (id) => document.getElementById(id).getBoundingClientRect();
        return { canvas: box("canvas"), contrast: box("contrast-panel") };
      });
      const gap = contrast.top - canvas.bottom;
      expect({ view, width, gap, under: gap >= 0 && gap <= CONTROLS_WITHIN }).toEqual({ view, width, gap, under: true });
    }
    await page.screenshot({ path: `${ARTIFACTS}/viewer-layout-${view}-${width}.png`, fullPage: true });
    await page.close();
  });
});
