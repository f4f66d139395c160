// read() over the compressed fixture stores (scripts/make-compressed-stores.py:
// zarr-python 2, zarr-python 3's format, zarr-python 2's N5Store; zstd,
// gzip, zlib, lz4, blosc with every cname and shuffle), through zarrita
// 0.5, 0.6 and 0.7: every selection (whole, a region, steps, an integer
// index, and into a given array) value for value against numpy's values
// in expected.json; each array's chain is one compressor (and a crc32c)
// before the array -> bytes step, so every chunk must take the chain in
// wasm (diagnostics().reads().decompressed grows, nothing goes through
// zarrita's getChunk). Shards with the index at the start, which zarr.get
// misreads (zarrita reads every index from the end), read right here.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { read, ready, register } from "../../../js/index.js";
import {
  differsFrom, expectedSelection, layoutOf, N5_NAMES, openFixtureArray, selectionsFor, V2_NAMES, V3_NAMES, withTrailing,
} from "../support/compressed-fixtures.js";
import { cOrder, pathsTaken } from "../support/read-compare.js";
import { ZARRITAS } from "../support/zarritas.js";

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

const ARRAYS = [...V2_NAMES.map((n) => ["v2", n]), ...V3_NAMES.map((n) => ["v3", n]), ...N5_NAMES.map((n) => ["n5", n])];

describe.each(ZARRITAS)("zarrita %s", (version, zarr) => {
  test.each(ARRAYS)("%s %s: every selection as numpy reads it, every chunk through the chain in wasm", async (format, name) => {
    const layout = layoutOf(format, name);
    const arr = await openFixtureArray(zarr, format, name);
    for (const [what, selection, ranges] of selectionsFor(zarr, layout.shape)) {
      const want = expectedSelection(layout.hex, layout.shape, layout.width, ranges);
      const { value: ours, taken } = await pathsTaken(() => read(arr, withTrailing(selection, layout)));
      expect([what, differsFrom(ours, want, layout)]).toEqual([what, ""]);
      expect(ours.stride).toEqual(cOrder(ours.shape));
      expect([what, taken.viaZarrita]).toEqual([what, 0]);
      expect([what, taken.decompressed > 0]).toEqual([what, true]);
      // Every chunk placed from a compressed frame was decompressed in wasm
      // (the rest are missing chunks, filled).
      expect([what, taken.decompressed]).toEqual([what, taken.decoded + taken.copied + taken.n5]);
      // Into a given array: the same values, in place.
      const into = new ours.data.constructor(ours.data.length);
      const again = await read(arr, withTrailing(selection, layout), { into });
      expect(again.data).toBe(into);
      expect([what, differsFrom(again, want, layout)]).toEqual([what, ""]);
    }
  });
});
