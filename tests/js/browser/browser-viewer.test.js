// The viewer in Chromium: every canvas pixel, decoded in the page and in a
// Web Worker, against the values Node computes from the sample generator:
// the 12-bit image with its mask, the int4 weights and the float8_e4m3
// activations (both through withDataTypes) on the linear and the
// symmetric-log scale, with the automatic and the min/max window; decode
// times printed with 3 significant digits, their median summarised.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { VIEWER_STORE } from "../../../scripts/make-viewer-store.mjs";
import { describe, expect, jest, test } from "@jest/globals";
import { makeActivations, makeImage, makeMask, makeWeights, SHAPE } from "../../../examples/sample-store.mjs";
import { ARTIFACTS } from "../support/browser.js";
import { formatBytes, formatDuration } from "../../../examples/viewer/format.js";
import {
  autoWindow, canvasRGBA, choose, expectedRGBA, finiteRange, firstDifference, openViewer, setControls, smallestNonZero, viewerSession,
} from "../support/viewer-page.js";

jest.setTimeout(120000);

// The sample store, the worker bundle, the served repository and Chromium.
const viewer = viewerSession();

const differs = async (page, values, view, mask) => firstDifference(await canvasRGBA(page), expectedRGBA(values, view, mask), SHAPE[1]);

/** Every file under `dir`. */
const filesUnder = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));

const WHERE = { main: "this page", worker: "a Web Worker", pool: "a read pool of " };

describe.each(["pool", "main", "worker"])("viewer, decoding in %s", (mode) => {
  test("the sample image: every canvas pixel matches Node's values; contrast and overlay controls redraw", async () => {
    const { page, problems, state } = await openViewer(viewer.browser, viewer.url, `decode=${mode}`);
    expect(state.error).toBeNull();
    expect(state.where).toBe(mode);
    expect(state.kind).toBe("image");
    expect(await page.textContent("#status")).toContain(WHERE[mode]);
    if (mode === "pool") {
      // Each chunk of the grid names the pool's worker that decoded it.
      const workers = await page.$$eval("#times td", (cells) => cells.map((c) => c.dataset.worker));
      expect(workers).toHaveLength(16);
      for (const w of workers) expect(w).toMatch(/^\d+$/);
      expect(state.chunkWorkers).toEqual(workers.map(Number));
      expect(await page.textContent("#workers")).toMatch(/^decoded by the read pool's workers \(\d+ at most\): worker 0: \d+ chunks? /);
      expect(new Set(workers).size).toBeGreaterThanOrEqual(1);
    } else {
      expect(await page.$$eval("#times td[data-worker]", (cells) => cells.length)).toBe(0);
    }
    expect(state.info).toMatchObject({ stored: "uint16", presented: "uint16", codecs: 'packbits {"last_bit":11}', format: "Zarr v3" });
    expect(state.range).toEqual([0, 4095]); // the 12 bits packbits keeps
    expect(state.chunkMs).toHaveLength(16);
    expect(state.overlayChunkMs).toHaveLength(16);
    const image = makeImage();
    const mask = makeMask(image);
    expect(await differs(page, image, { lo: 0, hi: 4095, overlay: true }, mask)).toBeNull();
    // the legend: the window, and the overlay with its pixel count
    const masked = mask.reduce((a, b) => a + b, 0);
    expect(state.legend.map((e) => e.key)).toEqual(["window", "overlay"]);
    expect(state.legend[1].label).toBe(`mask overlay: ${masked} pixels blended half-way to red`);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-${mode}.png` });

    // one slider step per 12-bit value
    await setControls(page, { lo: 1000, hi: 3000, overlay: false });
    expect(await differs(page, image, { lo: 1000, hi: 3000 })).toBeNull();
    expect(await page.textContent("#lo-value")).toBe("1000");
    expect((await page.evaluate(() => window.viewerState)).legend.map((e) => e.key)).toEqual(["window"]);

    // every time with 3 significant digits and a unit, never "0.000"
    const times = await page.$$eval("#times td", (cells) => cells.map((c) => c.textContent));
    expect(times).toHaveLength(16);
    for (const t of times) expect(t).toMatch(/^(\d\.\d\d|\d\d\.\d|\d{3}) (ns|µs|ms|s)$/);
    // the summary: the median over the 16 chunks, not a mean one slow chunk can move
    const { chunkMs, medianMs } = await page.evaluate(() => window.viewerState);
    const sorted = [...chunkMs].sort((a, b) => a - b);
    expect(medianMs).toBe((sorted[7] + sorted[8]) / 2);
    expect(await page.textContent("#summary")).toMatch(
      new RegExp(`^image: ${formatDuration(medianMs).replace(".", "\\.")} per chunk, the median of 16 chunks \\(mean (\\d\\.\\d\\d|\\d\\d\\.\\d|\\d{3}) (ns|µs|ms|s); `),
    );
    // What the read of the image asked the store for (read's own count):
    // one request per chunk, each chunk file's bytes, nothing over-read.
    const chunkBytes = filesUnder(join(VIEWER_STORE, "image", "c")).reduce((n, f) => n + statSync(f).size, 0);
    expect(state.requests).toEqual({ requests: 16, bytes: chunkBytes, overReadBytes: 0, retries: 0, sharedRequests: 0 });
    expect(await page.textContent("#requests")).toBe(`read of image: 16 requests, ${formatBytes(chunkBytes)}`);
    expect(problems).toEqual([]);
    await page.close();
  });

  test("int4 weights (packbits), presented as int8 over the type's range", async () => {
    const { page, problems, state } = await openViewer(viewer.browser, viewer.url, `decode=${mode}&array=weights`);
    expect(state.error).toBeNull();
    expect(state.info).toMatchObject({ stored: "int4", storedName: "int4", presented: "int8", codecs: "packbits" });
    expect(await page.textContent("#info")).toContain("int4");
    expect(state.range).toEqual([-8, 7]);
    expect(state.chunkMs).toHaveLength(16);
    expect(state.overlayChunkMs).toEqual([]);
    expect(await page.isDisabled("#overlay")).toBe(true);
    const weights = makeWeights();
    expect(await differs(page, weights, { lo: -8, hi: 7 })).toBeNull();
    await setControls(page, { lo: 4, hi: 12 }); // slider steps are values: -4 .. 4
    expect(await differs(page, weights, { lo: -4, hi: 4 })).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });

  test("float8_e4m3 activations (bytes), widened to float32: the automatic window, min to max, then symmetric log", async () => {
    const { page, problems, state } = await openViewer(viewer.browser, viewer.url, `decode=${mode}&array=activations`);
    expect(state.error).toBeNull();
    expect(state.info).toMatchObject({ stored: "float8_e4m3", presented: "float32", codecs: "bytes" });
    const activations = makeActivations();
    // automatic: the 0.5th and 99.5th percentiles of the 262,144 values
    const auto = autoWindow(activations);
    expect(state).toMatchObject({ window: "auto", range: auto, scale: "linear" });
    expect(auto).toEqual([-192, 224]);
    expect(await differs(page, activations, { lo: auto[0], hi: auto[1] })).toBeNull();
    await page.screenshot({ path: `${ARTIFACTS}/viewer-activations-${mode}.png` });

    // min to max, chosen as a person would
    await choose(page, "window", "minmax");
    const [min, max] = finiteRange(activations);
    const minmax = await page.evaluate(() => ({ state: window.viewerState, search: location.search }));
    expect(minmax.state).toMatchObject({ window: "minmax", range: [min, max], lo: min, hi: max });
    expect(minmax.search).toContain("window=minmax");
    expect(await differs(page, activations, { lo: min, hi: max })).toBeNull();

    // symlog, chosen as a person would: C is the smallest non-zero magnitude
    // (float8_e4m3's smallest subnormal, 2^-9, is among the values)
    await choose(page, "scale", "symlog");
    const c = smallestNonZero(activations);
    expect(c).toBe(2 ** -9);
    const after = await page.evaluate(() => ({ state: window.viewerState, search: location.search }));
    expect(after.state).toMatchObject({ scale: "symlog", c, lo: min, hi: max });
    expect(after.search).toContain("contrast=symlog");
    expect(await differs(page, activations, { lo: min, hi: max, scale: "symlog", c })).toBeNull();
    // docs/viewer.md: values in the legend with 6 significant digits
    expect(after.state.legend[0].label).toBe(`${min} (black) to ${max} (white), symmetric log, linear within ±${Number(c.toPrecision(6))}; ` +
      "values beyond the window clip to black or white");
    await page.screenshot({ path: `${ARTIFACTS}/viewer-activations-symlog-${mode}.png` });
    // the sliders move evenly in symlog's T: the middle position is T = 0, value 0
    await setControls(page, { lo: 500 });
    expect(await differs(page, activations, { lo: 0, hi: max, scale: "symlog", c })).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });
});

test("?contrast=symlog&window=minmax opens on the symmetric-log scale over the whole range", async () => {
  const { page, state } = await openViewer(viewer.browser, viewer.url, "array=activations&contrast=symlog&window=minmax");
  const activations = makeActivations();
  expect([state.scale, state.window]).toEqual(["symlog", "minmax"]);
  expect(await page.isChecked("input[name=scale][value=symlog]")).toBe(true);
  expect(await page.isChecked("input[name=window][value=minmax]")).toBe(true);
  expect(await differs(page, activations, { lo: -240, hi: 240, scale: "symlog", c: smallestNonZero(activations) })).toBeNull();
  await page.close();
});

// Two shapes the sample store lacks, from tests/fixtures/v3-data-types.zarr
// (int4 codes in its expected.json): a sharded array (zarrita reads its
// parts by range, through the viewer's fetch cache) and a 0-d one (zarr.get
// returns its value alone).
describe("arrays of the data-type fixtures", () => {
  const fixtures = JSON.parse(readFileSync(new URL("../../fixtures/v3-data-types.zarr/expected.json", import.meta.url), "utf8"));
  const store = encodeURIComponent("/tests/fixtures/v3-data-types.zarr/");

  test.each(["main", "worker"])("sharded int4, decoding in %s", async (mode) => {
    const { page, problems, state } = await openViewer(viewer.browser, viewer.url, `decode=${mode}&store=${store}&array=sharded_int4`);
    expect(state.error).toBeNull();
    expect(state.info.codecs).toMatch(/^sharding_indexed /);
    const { codes, shape } = fixtures.sharded_int4;
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(codes, { lo: -8, hi: 7 }), shape[1])).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });

  test("a 0-d int4 array: one pixel", async () => {
    const { page, state } = await openViewer(viewer.browser, viewer.url, `store=${store}&array=scalar_int4`);
    expect(state.error).toBeNull();
    expect(state.info).toMatchObject({ storedShape: [], selection: "" });
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(fixtures.scalar_int4.codes, { lo: -8, hi: 7 }), 1)).toBeNull();
    await page.close();
  });
});
