// The viewer in Chromium: every canvas pixel, decoded in the page and in a
// Web Worker, against the values Node computes from the sample generator:
// the 12-bit image with its mask, the int4 weights and the float8_e4m3
// activations (both through withDataTypes).
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { buildViewerWorker } from "../../../scripts/build-viewer-worker.mjs";
import { makeViewerStore } from "../../../scripts/make-viewer-store.mjs";
import { makeActivations, makeImage, makeMask, makeWeights, SHAPE } from "../../../examples/sample-store.mjs";
import { ARTIFACTS, launchChromium, openPage, serveRepository } from "../support/browser.js";

jest.setTimeout(120000);

let browser;
let server;
let url;

beforeAll(async () => {
  await makeViewerStore();
  await buildViewerWorker();
  ({ server, url } = await serveRepository());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

// The expected canvas, from the source values (not from any decode): the
// window [lo, hi] mapped to 0..255 gray, masked pixels half-way to red.
function expectedRGBA(values, { lo, hi, overlay }, mask = null) {
  const out = new Uint8Array(values.length * 4);
  for (let i = 0; i < values.length; i++) {
    const g = Math.min(255, Math.max(0, Math.round((values[i] - lo) * (255 / (hi - lo)))));
    const red = overlay && mask[i];
    out.set([red ? Math.round((g + 255) / 2) : g, red ? Math.round(g / 2) : g, red ? Math.round(g / 2) : g, 255], 4 * i);
  }
  return out;
}

async function openViewer(query) {
  const { page, problems } = await openPage(browser);
  await page.goto(`${url}/examples/viewer/?${query}`);
  await page.waitForFunction(() => window.viewerState?.ready || window.viewerState?.error);
  return { page, problems, state: await page.evaluate(() => window.viewerState) };
}

// Moves a control as a person would.
async function setControls(page, values) {
  await page.evaluate((values) => {
    for (const [id, value] of Object.entries(values)) {
      const input = document.getElementById(id);
      if (input.type === "checkbox") input.checked = value;
      else input.value = value;
      input.dispatchEvent(new Event("input"));
    }
  }, values);
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
  test("the sample image: every canvas pixel matches Node's values; contrast and overlay controls redraw", async () => {
    const { page, problems, state } = await openViewer(`decode=${mode}`);
    expect(state.error).toBeNull();
    expect(state.where).toBe(mode);
    expect(await page.textContent("#status")).toContain(mode === "worker" ? "a Web Worker" : "this page");
    expect(state.info).toMatchObject({ stored: "uint16", presented: "uint16", codecs: 'packbits {"last_bit":11}' });
    expect(state.range).toEqual([0, 4095]); // the 12 bits packbits keeps
    expect(state.chunkMs).toHaveLength(16);
    expect(state.overlayChunkMs).toHaveLength(16);
    const image = makeImage();
    const mask = makeMask(image);
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(image, { lo: 0, hi: 4095, overlay: true }, mask))).toBeNull();
    await page.screenshot({ path: `${ARTIFACTS}/viewer-${mode}.png` });

    // one slider step per 12-bit value
    await setControls(page, { lo: 1000, hi: 3000, overlay: false });
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(image, { lo: 1000, hi: 3000, overlay: false }))).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });

  test("int4 weights (packbits), presented as int8 over the type's range", async () => {
    const { page, problems, state } = await openViewer(`decode=${mode}&array=weights`);
    expect(state.error).toBeNull();
    expect(state.info).toMatchObject({ stored: "int4", storedName: "int4", presented: "int8", codecs: "packbits" });
    expect(await page.textContent("#info")).toContain("int4");
    expect(state.range).toEqual([-8, 7]);
    expect(state.chunkMs).toHaveLength(16);
    expect(state.overlayChunkMs).toEqual([]);
    const weights = makeWeights();
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(weights, { lo: -8, hi: 7, overlay: false }))).toBeNull();
    await setControls(page, { lo: 4, hi: 12 }); // slider steps are values: -4 .. 4
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(weights, { lo: -4, hi: 4, overlay: false }))).toBeNull();
    expect(problems).toEqual([]);
    await page.close();
  });

  test("float8_e4m3 activations (bytes), widened to float32, window from the data", async () => {
    const { page, problems, state } = await openViewer(`decode=${mode}&array=activations`);
    expect(state.error).toBeNull();
    expect(state.info).toMatchObject({ stored: "float8_e4m3", presented: "float32", codecs: "bytes" });
    const activations = makeActivations();
    const min = activations.reduce((a, b) => Math.min(a, b));
    const max = activations.reduce((a, b) => Math.max(a, b));
    expect(state.range).toEqual([min, max]);
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(activations, { lo: min, hi: max, overlay: false }))).toBeNull();
    await page.screenshot({ path: `${ARTIFACTS}/viewer-activations-${mode}.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});

test("an array that is not in the store is a clear error on the page", async () => {
  const { page, state } = await openViewer("array=nowhere");
  expect(state.error).toMatch(/nowhere/);
  expect(await page.textContent("#status")).toContain("error:");
  await page.close();
});
