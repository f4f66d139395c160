// viv reads N5 in Chromium: the app in tests/apps/viv (viv's @vivjs/loaders
// 0.21.0 with zarrita 0.5.4 from npm) bundled by esbuild around
// open-stores.js, the code docs/recipes/viv.md shows. Its ZarrPixelSource
// reads every tile and the full raster of the 2-D arrays of
// tests/fixtures/n5-store.n5 (written by zarr-python 2) served over HTTP:
// uint16 under each compression the fixture has that zarrita reads (raw,
// gzip, zlib, blosc, zstd), uint16 and int32 with truncated boundary blocks
// as Java N5 writes them, uint32 with a missing block. Every pixel is
// compared with expected.json, zarr-python's values in its own (numpy's)
// axis order, which withN5 presents: the image as Fiji shows it, N5's x
// across. Failures come back as errors, not hangs. The recipe's OME-Zarr
// opener reads one image too.
import { afterAll, beforeAll, beforeEach, expect, jest, test } from "@jest/globals";
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openLoadedPage, ROOT } from "../support/browser.js";
import { bundleVivPage, VIV_APP } from "../support/viv-app.js";
import { fixturePath } from "../support/fixtures.js";
import { CHUNK_SHAPE, IMAGE_SHAPE, pixel, writeImageStore } from "../support/image-store.js";

jest.setTimeout(60000);

const APP = VIV_APP;
const FIXTURE = fixturePath("n5-store.n5");
const EXPECTED = JSON.parse(readFileSync(join(FIXTURE, "expected.json"), "utf8"));

// The 2-D arrays viv can draw (it has no 64-bit integer types).
const ARRAYS = [
  ["volumes/raw/raw", "Uint16"],
  ["volumes/raw/gzip", "Uint16"],
  ["volumes/raw/zlib", "Uint16"],
  ["volumes/raw/blosc", "Uint16"],
  ["volumes/raw/zstd", "Uint16"],
  ["volumes/raw/zstd_n5", "Uint16"],
  ["volumes/truncated/gzip_2d", "Uint16"],
  ["volumes/truncated/raw_2d", "Int32"],
  ["labels/segmentation/cells", "Uint32"],
];
const TYPED = { uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array };

// An array of expected.json: its values as zarr-python 2 reads them (C
// order of N5's dimensions reversed), the order withN5 presents.
function expectedValues(path) {
  const { numpy_le_hex: hex, dataType } = EXPECTED[path];
  return Array.from(new TYPED[dataType](new Uint8Array(Buffer.from(hex, "hex")).buffer));
}

// The N5 blocks a tile reads, keyed as N5 orders the grid: x (the image's
// column) first.
function blocksOf({ x, y, width, height }, tileSize, blockSize) {
  const keys = new Set();
  for (let r = y * tileSize; r < y * tileSize + height; r++) {
    for (let c = x * tileSize; c < x * tileSize + width; c++) {
      keys.add(`${Math.floor(c / blockSize[0])}/${Math.floor(r / blockSize[1])}`);
    }
  }
  return [...keys];
}

// Blocks reaching past the array's end: truncated, or padded (zarr-python).
function boundaryBlocks({ dimensions, blockSize }) {
  const keys = [];
  for (let g0 = 0; g0 * blockSize[0] < dimensions[0]; g0++) {
    for (let g1 = 0; g1 * blockSize[1] < dimensions[1]; g1++) {
      if ((g0 + 1) * blockSize[0] > dimensions[0] || (g1 + 1) * blockSize[1] > dimensions[1]) keys.push(`${g0}/${g1}`);
    }
  }
  return keys;
}

let out;
let meta;
let session;
let page;
let problems;
const located = [];

beforeAll(async () => {
  ({ out, meta } = bundleVivPage("n5.js", "n5.html", "viv-n5"));

  // The fixture, plus a copy of one array whose first block lost its last
  // byte (the fixture itself stays as zarr-python wrote it).
  const n5 = join(out, "n5-store.n5");
  cpSync(FIXTURE, n5, { recursive: true });
  cpSync(join(n5, "volumes/raw/raw"), join(n5, "hostile/short_block"), { recursive: true });
  const block = readFileSync(join(n5, "hostile/short_block/0/0"));
  writeFileSync(join(n5, "hostile/short_block/0/0"), block.subarray(0, block.length - 1));

  // An OME-Zarr (0.5) image: one level, the 12-bit packbits + gzip image.
  const images = join(out, "images.zarr");
  writeImageStore(images);
  mkdirSync(join(out, "image.ome.zarr"));
  renameSync(join(images, "packbits12-gzip"), join(out, "image.ome.zarr/0"));
  writeFileSync(join(out, "image.ome.zarr/zarr.json"), JSON.stringify({
    zarr_format: 3,
    node_type: "group",
    attributes: {
      ome: {
        version: "0.5",
        multiscales: [{
          axes: [{ name: "y", type: "space" }, { name: "x", type: "space" }],
          datasets: [{ path: "0", coordinateTransformations: [{ type: "scale", scale: [1, 1] }] }],
        }],
      },
    },
  }));

  session = await openLoadedPage(out, "n5.html", (page, url) => {
    // Chromium's console names a failed fetch only in the message's location.
    page.on("console", (m) => m.type() === "error" && located.push(`${m.text()} [${m.location().url.replace(url, "")}]`));
  });
  ({ page, problems } = session);
});

afterAll(async () => {
  await session?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

// Each test answers for its own complaints only.
beforeEach(() => {
  located.length = 0;
  problems.length = 0;
});

// The page's console errors (with their URLs) and uncaught exceptions in this test.
function complaints() {
  return [...located, ...problems.filter((p) => p.startsWith("pageerror"))];
}

// A fetch answered 404, as Chromium's console reports it; `path` from the server's root.
const notFound = (path) => `Failed to load resource: the server responded with a status of 404 (Not Found) [/${path}]`;

test("the bundle holds one zarrita, 0.5.4, shared by viv and the app", () => {
  const copies = new Set(
    Object.keys(meta.inputs).filter((p) => /node_modules\/zarrita\//.test(p)).map((p) => p.replace(/\/zarrita\/.*/, "/zarrita")),
  );
  expect([...copies]).toEqual(["node_modules/zarrita"]);
  expect(JSON.parse(readFileSync(join(APP, "node_modules/zarrita/package.json"), "utf8")).version).toBe("0.5.4");
});

test("docs/recipes/viv.md shows open-stores.js, the code this page runs", () => {
  const source = readFileSync(join(APP, "open-stores.js"), "utf8");
  const code = source.slice(source.indexOf("import "));
  const blocks = [...readFileSync(join(ROOT, "docs/recipes/viv.md"), "utf8").matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  expect(blocks).toContain(code);
});

test.each(ARRAYS)("%s: every pixel of every tile and of the raster, as zarr-python wrote it", async (path, dtype) => {
  const e = EXPECTED[path];
  // N5's dimensions are [width, height]: x (columns) first, as Fiji shows them.
  const [width, height] = e.dimensions;
  expect(e.numpy_shape).toEqual([height, width]);
  const values = expectedValues(path);
  expect(values).toHaveLength(height * width);
  const boundary = boundaryBlocks(e);
  // The fixture's Java-style arrays truncate every boundary block.
  if (e.truncated_blocks.length) expect([...e.truncated_blocks].sort()).toEqual([...boundary].sort());

  // The 404s the console should show: one per read of a missing block
  // (whose zeros the values above include).
  const missing = [];
  // 2: what viv's loaders guess for these blocks (the largest power of two
  // within one); 4: tiles that straddle blocks in both axes.
  for (const tileSize of [2, 4]) {
    const read = await page.evaluate(([p, t]) => window.app.readN5(p, t), [path, tileSize]);
    expect(read.shape).toEqual([height, width]);
    expect(read.dtype).toBe(dtype);
    const kinds = new Set();
    for (const tile of read.tiles) {
      const { x, y } = tile;
      expect(tile.type).toBe(`${dtype}Array`);
      expect([tile.width, tile.height]).toEqual([Math.min(tileSize, width - tileSize * x), Math.min(tileSize, height - tileSize * y)]);
      const want = [];
      for (let r = 0; r < tile.height; r++) {
        for (let c = 0; c < tile.width; c++) want.push(values[(tileSize * y + r) * width + tileSize * x + c]);
      }
      expect([x, y, tile.data]).toEqual([x, y, want]);
      const blocks = blocksOf(tile, tileSize, e.blockSize);
      if (blocks.every((b) => !boundary.includes(b))) kinds.add("interior");
      if (blocks.every((b) => boundary.includes(b))) kinds.add("edge");
    }
    expect(read.tiles).toHaveLength(Math.ceil(height / tileSize) * Math.ceil(width / tileSize));
    // Both kinds were read whole: tiles of full blocks only, tiles of
    // boundary blocks only (truncated ones where the fixture has them).
    expect([...kinds].sort()).toEqual(["edge", "interior"]);
    expect(read.raster).toEqual({ type: `${dtype}Array`, width, height, data: values });
    for (const tile of read.tiles) {
      for (const b of blocksOf(tile, tileSize, e.blockSize)) if (e.missing_blocks?.includes(b)) missing.push(notFound(`n5-store.n5/${path}/${b}`));
    }
    for (const b of e.missing_blocks ?? []) missing.push(notFound(`n5-store.n5/${path}/${b}`)); // the raster's
  }
  expect(complaints().sort()).toEqual(missing.sort());
});

test("a missing array path: zarrita's error (N5 paths without attributes.json are groups)", async () => {
  expect(await page.evaluate(() => window.app.failure("volumes/raw/missing"))).toEqual({
    zarrCodecError: false, name: "Error", message: "Expected node of kind array, found group.",
  });
  expect(complaints()).toEqual([notFound("n5-store.n5/volumes/raw/missing/attributes.json")]);
});

test("a compression zarrita cannot read: the package's INVALID_METADATA, naming it", async () => {
  const error = await page.evaluate(() => window.app.failure("refused/bzip2"));
  expect(error).toMatchObject({ zarrCodecError: true, name: "ZarrCodecError", code: "INVALID_METADATA" });
  expect(error.message).toBe(
    "withN5: array /refused/bzip2: its N5 compression bzip2 has no Zarr codec that reads it (N5 compressions read here: raw, gzip, blosc, zstd)",
  );
  expect(complaints()).toEqual([]);
});

test("a block one byte short, read by getTile: the package's LENGTH_MISMATCH, naming the block", async () => {
  expect(await page.evaluate(() => window.app.failure("hostile/short_block"))).toEqual({
    zarrCodecError: true,
    name: "ZarrCodecError",
    code: "LENGTH_MISMATCH",
    message: "n5_default: block /hostile/short_block/0/0: uint16 chunk [2, 3] (axes reversed): a block of shape [3, 2] needs 12 bytes after its header, got 11",
  });
  expect(complaints()).toEqual([]);
});

test("the recipe's OME-Zarr opener: viv's loader reads the packbits image's first tile", async () => {
  const read = await page.evaluate(() => window.app.readOmeZarr("image.ome.zarr"));
  const [tile] = CHUNK_SHAPE;
  expect(read).toMatchObject({ levels: 1, labels: ["y", "x"], tileSize: tile, shape: IMAGE_SHAPE, type: "Uint16Array", width: tile, height: tile });
  const want = [];
  for (let r = 0; r < tile; r++) for (let c = 0; c < tile; c++) want.push(pixel(12, r, c));
  expect(read.data).toEqual(want);
  // viv's loader opens with zarr.open, which looks for Zarr v2 metadata first.
  expect(complaints().sort()).toEqual([notFound("image.ome.zarr/.zattrs"), notFound("image.ome.zarr/.zgroup")]);
});
