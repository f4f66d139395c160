// The viewer draws N5 arrays: tests/fixtures/n5-store.n5 served at the root
// of a server of its own (with CORS, as a store elsewhere would be), found
// to be N5 by its root attributes.json (with no 404 where its URL ends in
// .n5) or named so by ?format=n5, read through withN5 and withDataTypes in
// the page and in the worker. Every pixel against the fixture's
// expected.json: zarr-python 2's values in its own (numpy's) axis order,
// which withN5 presents, so that an image shows as Fiji shows it (N5's x
// across), through the automatic window; NaN and the infinities in their
// own colours.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { buildViewerWorker } from "../../../scripts/build-viewer-worker.mjs";
import { serve } from "../../../scripts/serve.mjs";
import { ARTIFACTS, launchChromium, openPage, serveRepository } from "../support/browser.js";
import {
  autoWindow, canvasRGBA, choose, DOCUMENTED, expectedRGBA, firstDifference, settled, smallestNonZero,
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
let fixtures; // tests/fixtures: the container at /n5-store.n5/
let bare; // the container at the root of its server, a URL without .n5

beforeAll(async () => {
  await buildViewerWorker();
  repository = await serveRepository();
  fixtures = await serve(new URL("..", FIXTURE).pathname);
  bare = await serve(new URL(FIXTURE).pathname);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  for (const s of [repository, fixtures, bare]) s?.server.close();
});

// Opens the viewer; `problems` as openPage collects them, with the URL a
// console message is about.
async function openN5(query, store = `${fixtures.url}/n5-store.n5/`) {
  const { page, problems } = await openPage(browser);
  const located = [];
  page.on("console", (m) => m.type() === "error" && located.push(`${m.text()} [${m.location().url}]`));
  await page.goto(`${repository.url}/examples/viewer/?store=${encodeURIComponent(store)}&${query}`);
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
    const [lo, hi] = autoWindow(values, { integer: true });
    expect(state.range).toEqual([lo, hi]);
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(values, { lo, hi }), 5)).toBeNull();
    // a URL ending in .n5 is detected by its attributes.json alone: no 404
    // (Chromium logs a worker's failed fetches in the worker's console,
    // not the page's: the main page is where this shows)
    expect(located).toEqual([]);
    await page.screenshot({ path: `${ARTIFACTS}/viewer-n5-gzip-${mode}.png` });
    await page.close();
  });

  test("a container whose URL does not end in .n5 is detected too, after asking for a zarr.json (its one 404)", async () => {
    const { page, located, state } = await openN5(`decode=${mode}&array=volumes/raw/gzip`, `${bare.url}/`);
    expect(state.error).toBeNull();
    expect(state.info.format).toBe("N5 (read as Zarr v3 through withN5)");
    const probe = expect.stringMatching(new RegExp(`404.*\\[${bare.url}/zarr\\.json\\]$`));
    expect(located).toEqual(mode === "main" ? [probe] : []);
    await page.close();
  });

  test.each(["raw", "zlib", "blosc", "zstd", "zstd_n5"])("uint16 compressed with %s (zarrita's numcodecs compressors in the page too)", async (name) => {
    const { page, state } = await openN5(`decode=${mode}&format=n5&array=volumes/raw/${name}`);
    expect(state.error).toBeNull();
    const { values } = valuesOf(`volumes/raw/${name}`);
    const [lo, hi] = autoWindow(values, { integer: true });
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
    // the automatic window leaves the two 1.8e308s out (min to max, the
    // image would be black but for them)
    const [lo, hi] = autoWindow(values);
    expect(state.range).toEqual([lo, hi]);
    expect(hi).toBeLessThan(1e4);
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
    const [lo, hi] = autoWindow(slice);
    expect(firstDifference(await canvasRGBA(page), expectedRGBA(slice, { lo, hi }), dimensions[2])).toBeNull();
    await page.close();
  });
});
