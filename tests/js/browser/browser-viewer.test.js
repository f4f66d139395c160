// The viewer in Chromium: every canvas pixel, decoded in the page and in a
// Web Worker, against the values Node computes from the sample generator.
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { makeViewerStore } from "../../../scripts/make-viewer-store.mjs";
import { makeImage, makeMask, SHAPE } from "../../../examples/sample-store.mjs";
import { ARTIFACTS, launchChromium, openPage, serveRepository } from "../support/browser.js";

jest.setTimeout(120000);

let browser;
let server;
let url;

beforeAll(async () => {
  await makeViewerStore();
  ({ server, url } = await serveRepository());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

// The expected canvas, from the source values (not from any decode): the
// window [lo, hi] mapped to 0..255 gray, masked pixels half-way to red.
function expectedRGBA({ lo, hi, overlay }) {
  const image = makeImage();
  const mask = makeMask(image);
  const out = new Uint8Array(image.length * 4);
  for (let i = 0; i < image.length; i++) {
    const g = Math.min(255, Math.max(0, Math.round(((image[i] - lo) * 255) / (hi - lo))));
    const red = overlay && mask[i];
    out.set([red ? Math.round((g + 255) / 2) : g, red ? Math.round(g / 2) : g, red ? Math.round(g / 2) : g, 255], 4 * i);
  }
  return out;
}

async function canvasRGBA(page) {
  const base64 = await page.evaluate(() => {
    const canvas = document.getElementById("canvas");
    const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    let s = "";
    for (let i = 0; i < data.length; i += 8192) s += String.fromCharCode(...data.subarray(i, i + 8192));
    return btoa(s);
  });
  return new Uint8Array(Buffer.from(base64, "base64"));
}

function firstDifference(got, want) {
  for (let i = 0; i < want.length; i++) {
    if (got[i] !== want[i]) {
      const pixel = i >> 2;
      return `pixel (${Math.floor(pixel / SHAPE[1])}, ${pixel % SHAPE[1]}) channel ${i & 3}: ${got[i]} != ${want[i]}`;
    }
  }
  return null;
}

describe.each(["main", "worker"])("viewer, decoding in %s", (mode) => {
  test("every canvas pixel matches Node's values; contrast and overlay controls redraw", async () => {
    const { page, problems } = await openPage(browser);
    await page.goto(`${url}/examples/viewer/?decode=${mode}`);
    await page.waitForFunction(() => window.viewerState?.ready || window.viewerState?.error);
    const state = await page.evaluate(() => window.viewerState);
    expect(state.error).toBeNull();
    expect(state.where).toBe(mode);
    expect(await page.textContent("#status")).toContain(mode === "worker" ? "a Web Worker" : "this page");
    expect(state.chunkMs.image).toHaveLength(16);
    expect(state.chunkMs.mask).toHaveLength(16);
    expect(firstDifference(await canvasRGBA(page), expectedRGBA({ lo: 0, hi: 4095, overlay: true }))).toBeNull();
    await page.screenshot({ path: `${ARTIFACTS}/viewer-${mode}.png` });

    // Narrow the window and hide the mask, as a person would with the controls.
    await page.evaluate(() => {
      const set = (id, value) => {
        const input = document.getElementById(id);
        if (input.type === "checkbox") input.checked = value;
        else input.value = value;
        input.dispatchEvent(new Event("input"));
      };
      set("lo", 1000);
      set("hi", 3000);
      set("overlay", false);
    });
    expect(firstDifference(await canvasRGBA(page), expectedRGBA({ lo: 1000, hi: 3000, overlay: false }))).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });
});
