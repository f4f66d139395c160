// The viewer draws N5 arrays: tests/fixtures/n5-store.n5 served at the root
// of a server of its own (with CORS, as a store elsewhere would be), found
// to be N5 by its root attributes.json or named so by ?format=n5, read
// through withN5 and withDataTypes in the page and in the worker. Every
// pixel against the fixture's expected.json: zarr-python 2's values in its
// own (numpy's) axis order, which withN5 presents, so that an image shows
// as Fiji shows it (N5's x across); NaN and the infinities in their own
// colours.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { buildViewerWorker } from "../../../scripts/build-viewer-worker.mjs";
import { serve } from "../../../scripts/serve.mjs";
import { ARTIFACTS, launchChromium, openPage, serveRepository } from "../support/browser.js";
import {
  canvasRGBA, choose, DOCUMENTED, expectedRGBA, finiteRange, firstDifference, settled, smallestNonZero,
} from "../support/viewer-page.js";

jest.setTimeout(120000);

const FIXTURE = new URL("../../fixtures/n5-store.n5/", import.meta.url);
const expected = JSON.parse(readFileSync(new URL("expected.json", FIXTURE), "utf8"));

// An array of expected.json: its little-endian values as zarr-python 2
// reads them, and their shape (N5's dimensions reversed).
const TYPED = { uint16: Uint16Array, float32: Float32Array, float64: Float64Array };
function valuesOf(path) {
  const { numpy_le_hex: hex, dataType, numpy_shape: dimensions } = expected[path];
  const bytes = Uint8Array.from(hex.match(/../g), (h) => parseInt(h, 16));
  return { values: new TYPED[dataType](bytes.buffer), dimensions };
}

let browser;
let repository;
let n5;

beforeAll(async () => {
  await buildViewerWorker();
  repository = await serveRepository();
  n5 = await serve(new URL(FIXTURE).pathname, { headers: { "access-control-allow-origin": "*" } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  repository?.server.close();
  n5?.server.close();
});

// Opens the viewer; `problems` as openPage collects them, with the URL a
// console message is about.
async function openN5(query) {
  const { page, problems } = await openPage(browser);
  const located = [];
  page.on("console", (m) => m.type() === "error" && located.push(`${m.text()} [${m.location().url}]`));
  await page.goto(`${repository.url}/examples/viewer/?store=${encodeURIComponent(`${n5.url}/`)}&${query}`);
  await settled(page);
  return { page, problems, located, state: await page.evaluate(() => window.viewerState) };
}

describe.each(["main", "worker"])("viewer, decoding in %s", (mode) => {
  test("an N5 root is detected and its uint16 gzip array drawn, every pixel as expected.json has it", async () => {
    const { page, located, state } = await openN5(`decode=${mode}&array=volumes/raw/gzip`);
    expect(state.error).toBeNull();
    // N5's dimensions [7, 5] (7 columns, 5 rows), presented as [5, 7].
    expect(state.info).toMatchObject({ format: "N5 (read as Zarr v3 through withN5)", presented: "uint16", storedShape: [5, 7] });
    expect(state.info.codecs).toMatch(/^n5_default \[bytes \{"endian":"big"\} -> gzip \{"level":5\}\]$/);
    const { values, dimensions } = valuesOf("volumes/raw/gzip");
    expect(dimensions).toEqual([5, 7]);
    expect(await page.evaluate(() => [document.getElementById("canvas").height, document.getElementById("canvas").width])).toEqual(dimensions);
    const [lo, hi] = finiteRange(values);
    expect(state.range).toEqual([lo, hi]);
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(values, { lo, hi }), 5)).toBeNull();
    // detecting N5 asks for the root's zarr.json first: its 404 is the only
    // complaint (Chromium logs a worker's failed fetches in the worker's
    // console, not the page's)
    const probe = expect.stringMatching(new RegExp(`404.*\\[${n5.url}/zarr\\.json\\]$`));
    expect(located).toEqual(mode === "main" ? [probe] : []);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-n5-gzip-${mode}.png` });
    await page.close();
  });

  test.each(["raw", "zlib", "blosc", "zstd", "zstd_n5"])("uint16 compressed with %s (zarrita's numcodecs compressors in the page too)", async (name) => {
    const { page, state } = await openN5(`decode=${mode}&format=n5&array=volumes/raw/${name}`);
    expect(state.error).toBeNull();
    const { values } = valuesOf(`volumes/raw/${name}`);
    const [lo, hi] = finiteRange(values);
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(values, { lo, hi }), 5)).toBeNull();
    await page.close();
  });

  test("float64 with NaN, +Inf and -Inf: each in its own colour, listed in the legend; symlog copes with 1e308 and 5e-324", async () => {
    const { page, state } = await openN5(`decode=${mode}&format=n5&array=types/float64`);
    expect(state.error).toBeNull();
    const { values } = valuesOf("types/float64");
    const count = (p) => values.filter(p).length;
    const nan = count(Number.isNaN);
    const posInf = count((v) => v === Infinity);
    const negInf = count((v) => v === -Infinity);
    expect([nan, posInf, negInf].every((n) => n > 0)).toBe(true); // the fixture has each
    const [lo, hi] = finiteRange(values);
    expect(state.range).toEqual([lo, hi]);
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(values, { lo, hi }), 5)).toBeNull();

    const rgb = (c) => `rgb(${c.join(", ")})`;
    expect(state.legend.map(({ key, colors }) => [key, colors])).toEqual([
      ["window", [rgb([0, 0, 0]), rgb([255, 255, 255])]],
      ["nan", [rgb(DOCUMENTED.nan)]],
      ["posInf", [rgb(DOCUMENTED.posInf)]],
      ["negInf", [rgb(DOCUMENTED.negInf)]],
    ]);
    expect(state.legend.slice(1).map((e) => e.label)).toEqual([`NaN: ${nan} pixels`, `+Infinity: ${posInf} pixels`, `-Infinity: ${negInf} pixels`]);
    // the swatches on the page show those colours
    const swatches = await page.$$eval("#legend .swatch", (s) => s.slice(1).map((e) => getComputedStyle(e).backgroundColor));
    expect(swatches).toEqual([DOCUMENTED.nan, DOCUMENTED.posInf, DOCUMENTED.negInf].map(rgb));
    await page.screenshot({ path: `${ARTIFACTS}/viewer-n5-float64-${mode}.png` });

    await choose(page, "scale", "symlog");
    const c = smallestNonZero(values);
    expect(c).toBe(5e-324); // so |v| / C overflows for most values
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(values, { lo, hi, scale: "symlog", c }), 5)).toBeNull();
    await page.close();
  });

  test("a 3-D N5 array: the slice [0, :, :] of float32", async () => {
    const { page, located, state } = await openN5(`decode=${mode}&format=n5&array=types/float32`);
    expect(state.error).toBeNull();
    expect(located).toEqual([]); // ?format=n5: nothing probed
    const { values, dimensions } = valuesOf("types/float32");
    expect(state.info).toMatchObject({ storedShape: dimensions, selection: "0, :, :" });
    const slice = values.subarray(0, dimensions[1] * dimensions[2]);
    const [lo, hi] = finiteRange(slice);
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(slice, { lo, hi }), dimensions[2])).toBeNull();
    await page.close();
  });
});
