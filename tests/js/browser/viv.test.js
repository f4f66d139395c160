// viv in Chromium: the app in tests/apps/viv (viv's @vivjs/loaders 0.21.0
// with zarrita 0.5.4 from npm, one zarrita copy through overrides) bundled
// by esbuild; its ZarrPixelSource reads every tile of 12-bit packbits and
// big-endian images after the app's register(), each value checked against
// the pattern the store was written from.
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openLoadedPage } from "../support/browser.js";
import { bundleVivPage, VIV_APP } from "../support/viv-app.js";
import { IMAGE_SHAPE, IMAGES, pixel, writeImageStore } from "../support/image-store.js";

jest.setTimeout(180000);

const APP = VIV_APP;
let out;
let meta;
let session;
let page;
let problems;

beforeAll(async () => {
  ({ out, meta } = bundleVivPage("main.js", "index.html", "viv"));
  writeImageStore(join(out, "data.zarr"));
  session = await openLoadedPage(out, "index.html");
  ({ page, problems } = session);
});

afterAll(async () => {
  await session?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

test("the bundle holds one zarrita, 0.5.4, shared by viv and the app", () => {
  const copies = new Set(
    Object.keys(meta.inputs).filter((p) => /node_modules\/zarrita\//.test(p)).map((p) => p.replace(/\/zarrita\/.*/, "/zarrita")),
  );
  expect([...copies]).toEqual(["node_modules/zarrita"]);
  expect(JSON.parse(readFileSync(join(APP, "node_modules/zarrita/package.json"), "utf8")).version).toBe("0.5.4");
});

test("control: before register(), viv's zarrita cannot read the packbits image", async () => {
  const error = await page.evaluate(() => window.app.readTiles("packbits12").then(() => null, (e) => String(e.message)));
  expect(error).toMatch(/packbits/);
});

test.each(Object.keys(IMAGES))("after register(), ZarrPixelSource.getTile reads every tile of %s exactly", async (name) => {
  await page.evaluate(() => window.app.register());
  const { dtype, tiles } = await page.evaluate((n) => window.app.readTiles(n), name);
  expect(dtype).toBe("Uint16");
  expect(tiles).toHaveLength(4 * 3);
  const bits = IMAGES[name].bits;
  let checked = 0;
  for (const { x, y, width, height, data } of tiles) {
    expect([width, height]).toEqual([Math.min(64, IMAGE_SHAPE[1] - 64 * x), Math.min(64, IMAGE_SHAPE[0] - 64 * y)]);
    const expected = [];
    for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) expected.push(pixel(bits, 64 * y + r, 64 * x + c));
    expect(data).toEqual(expected);
    checked += data.length;
  }
  expect(checked).toBe(IMAGE_SHAPE[0] * IMAGE_SHAPE[1]);
  expect(problems).toEqual([]);
});
