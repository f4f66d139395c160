// Missing chunks of arrays withDataTypes presents (issue 21, items 5 and
// 7): on zarrita 0.7.5 a missing inner chunk of a shard reads as the fill
// (struct, raw_bytes and complex fills whose parts differ), the rest of
// the shard as stored; a missing chunk costs memory in proportion to what
// is read, not to the chunk (a chunk of 2^40 elements reads); writes into
// a missing chunk fill the rest of it. zarrita 0.5 and 0.6 have no hook:
// they refuse what they would fill wrongly. Every expected value is
// worked out by hand from the fill and the bytes written.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { ready, register, withDataTypes } from "../../../js/index.js";
import { memoryStore, rejectionOf, shard, v3Array } from "../support/memory-store.js";
import { hex } from "../support/reference.js";
import { hasArrayExtensions, ZARRITAS } from "../support/zarritas.js";

const VERSIONS = ZARRITAS.filter(([v]) => v !== "0.6.1");
const zarr7 = ZARRITAS.find(([v]) => v.startsWith("0.7"))[1];
const LE = { name: "bytes", configuration: { endian: "little" } };
const grid = (chunk_shape) => ({ name: "regular", configuration: { chunk_shape } });
const sharded = (chunk_shape, codecs = [LE]) => [{
  name: "sharding_indexed",
  configuration: { chunk_shape, codecs, index_codecs: [LE, { name: "crc32c" }], index_location: "end" },
}];

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

async function open(zarr, store, path = "a") {
  return zarr.open(zarr.root(withDataTypes(store)).resolve(path), { kind: "array" });
}

// Three types whose fill zarrita cannot express with one number, each a
// [6] array in shards of [2], inner chunks of [1]: shard 0 whole, shard 1
// without its second inner chunk, shard 2 missing. Each element's
// presented bytes (or parts) are `element(i)` where stored, `fill` where
// missing.
const UNEVEN = {
  struct: {
    data_type: { name: "struct", configuration: { fields: [{ name: "x", data_type: "int16" }, { name: "y", data_type: "uint8" }] } },
    fill_value: { x: 258, y: 7 }, // x = 0x0102: bytes 02 01, then 07
    fill: [2, 1, 7],
    element: (i) => [10 * i, 0, i + 1],
    stored: (i) => new Uint8Array([10 * i, 0, i + 1]),
  },
  raw_bytes: {
    data_type: { name: "raw_bytes", configuration: { length_bytes: 2 } },
    fill_value: [1, 2],
    fill: [1, 2],
    element: (i) => [i, 255 - i],
    stored: (i) => new Uint8Array([i, 255 - i]),
  },
  complex64: {
    data_type: "complex64",
    fill_value: [1, 2],
    fill: [1, 2],
    element: (i) => [i + 0.5, -i],
    stored: (i) => new Uint8Array(new Float32Array([i + 0.5, -i]).buffer),
  },
};

function unevenStore(t) {
  return memoryStore([
    ["/a/zarr.json", v3Array({ shape: [6], data_type: t.data_type, chunk_grid: grid([2]), fill_value: t.fill_value, codecs: sharded([1]) })],
    ["/a/c/0", shard([t.stored(0), t.stored(1)])],
    ["/a/c/1", shard([t.stored(2), null])],
  ]);
}

describe.each(VERSIONS)("zarrita %s", (_version, zarr) => {
  test.each(Object.keys(UNEVEN))("sharded %s, fill parts that differ: a missing inner chunk or shard", async (name) => {
    const t = UNEVEN[name];
    const arr = await open(zarr, unevenStore(t));
    // Whole shards read on every zarrita.
    expect(Array.from((await zarr.get(arr, [zarr.slice(0, 2), null])).data)).toEqual([...t.element(0), ...t.element(1)]);
    if (!hasArrayExtensions(zarr)) {
      const error = await rejectionOf(zarr.get(arr, [zarr.slice(2, 4), null]));
      expect(error.code).toBe("UNFILLABLE_CHUNK");
      expect(error.message).toMatch(new RegExp(
        `^withDataTypes: shard /a/c/1 of array /a misses inner chunk 1, so it reads as the fill value \\[${t.fill.join(",")}\\] .*` +
          "this zarrita fills a missing inner chunk with one number, which would read a wrong value, so the read is refused " +
          "\\(zarrita >= 0.7 reads it, through withDataTypes' array extension\\)$",
      ));
      expect((await rejectionOf(zarr.get(arr, [5, null]))).message).toMatch(/^withDataTypes: shard \/a\/c\/2 of array \/a is missing/);
      return;
    }
    const all = (await zarr.get(arr)).data;
    expect(Array.from(all)).toEqual([...t.element(0), ...t.element(1), ...t.element(2), ...t.fill, ...t.fill, ...t.fill]);
  });

  test("a missing chunk of strings fills the rest of the chunk when written into", async () => {
    const store = memoryStore([["/a/zarr.json", v3Array({
      shape: [4], data_type: { name: "fixed_length_utf32", configuration: { length_bytes: 4 } }, chunk_grid: grid([4]),
      fill_value: "😀", codecs: [LE],
    })]]);
    const arr = await open(zarr, store);
    await zarr.set(arr, [1], "x");
    // U+1F600, "x", U+1F600, U+1F600: little-endian code units.
    expect(hex(store.files.get("/a/c/0"))).toBe("00f6010078000000" + "00f60100".repeat(2));
    expect((await zarr.get(arr)).data).toEqual(["😀", "x", "😀", "😀"]);
  });
});

describe("zarrita 0.7.5: a missing chunk costs what is read, not the chunk", () => {
  const huge = [2 ** 20, 2 ** 20]; // 2^40 elements: no chunk of it could be allocated
  const hugeStore = (data_type, fill_value, codecs = [LE]) =>
    memoryStore([["/a/zarr.json", v3Array({ shape: huge, data_type, chunk_grid: grid(huge), fill_value, codecs })]]);

  test.each([
    ["complex64 with parts that differ", "complex64", [1, 2], [5, 7], [1, 2]],
    ["int4", "int4", 3, [5, 7], 3],
    ["fixed_length_utf32", { name: "fixed_length_utf32", configuration: { length_bytes: 8 } }, "😀a", [5, 7], "😀a"],
    ["a struct", { name: "struct", configuration: { fields: [{ name: "x", data_type: "int4" }, { name: "y", data_type: "uint16" }] } }, { x: -1, y: 513 }, [5, 7], [255, 1, 2]],
  ])("%s: one element of a chunk of 2^40", async (_name, dataType, fill, at, want) => {
    const codecs = dataType === "int4" ? [{ name: "packbits" }] : [LE];
    const arr = await open(zarr7, hugeStore(dataType, fill, codecs));
    const trailing = Array.isArray(want) ? [null] : [];
    const got = await zarr7.get(arr, [...at, ...trailing]);
    if (Array.isArray(want)) expect(Array.from(got.data)).toEqual(want);
    else expect(got).toBe(want);
    // A region, across a missing chunk, in C order.
    const region = await zarr7.get(arr, [zarr7.slice(3, 5), zarr7.slice(0, 3), ...trailing]);
    const one = Array.isArray(want) ? want : [want];
    expect(Array.from(region.data)).toEqual(Array(6).fill(one).flat());
    expect(region.shape).toEqual(Array.isArray(want) ? [2, 3, want.length] : [2, 3]);
  });

  test("a write into a missing chunk too large to allocate is the package's OUT_OF_MEMORY, and nothing is written", async () => {
    const store = hugeStore("complex64", [1, 2]);
    const arr = await open(zarr7, store);
    const error = await rejectionOf(zarr7.set(arr, [0, 0, null], { data: new Float32Array([5, 6]), shape: [2], stride: [1] }));
    expect(error.code).toBe("OUT_OF_MEMORY");
    expect(error.message).toMatch(/^withDataTypes: array \/a: cannot allocate \d+ bytes for the output$/);
    expect([...store.files.keys()]).toEqual(["/a/zarr.json"]);
  });

  test("a write into part of a missing chunk stores the fill everywhere else", async () => {
    const store = memoryStore([["/a/zarr.json", v3Array({ shape: [2, 3], data_type: "complex64", chunk_grid: grid([2, 3]), fill_value: [1, 2] })]]);
    const arr = await open(zarr7, store);
    await zarr7.set(arr, [0, 1, null], { data: new Float32Array([5, 6]), shape: [2], stride: [1] });
    const want = new Float32Array([1, 2, 5, 6, 1, 2, 1, 2, 1, 2, 1, 2]);
    expect(hex(store.files.get("/a/c/0/0"))).toBe(hex(new Uint8Array(want.buffer)));
  });

  test("getChunk called directly (as a viewer calls it) gives the whole chunk, in C order", async () => {
    const store = memoryStore([["/a/zarr.json", v3Array({ shape: [4, 6], data_type: "complex64", chunk_grid: grid([2, 3]), fill_value: [1, 2] })]]);
    const arr = await open(zarr7, store);
    for (const chunk of [await arr.getChunk([1, 1]), await arr.getChunk([1, 1], { signal: undefined })]) {
      expect(chunk.shape).toEqual([2, 3, 2]);
      expect(chunk.stride).toEqual([6, 2, 1]);
      expect(Array.from(chunk.data)).toEqual(Array(6).fill([1, 2]).flat());
    }
  });

  test("a transposed array's missing chunk, read in part", async () => {
    const store = memoryStore([["/a/zarr.json", v3Array({
      shape: [3, 4], data_type: "complex64", chunk_grid: grid([3, 4]), fill_value: [1, 2],
      codecs: [{ name: "transpose", configuration: { order: [1, 0] } }, LE],
    })]]);
    const arr = await open(zarr7, store);
    const { data, shape } = await zarr7.get(arr, [zarr7.slice(1, 3), 2, null]);
    expect(shape).toEqual([2, 2]);
    expect(Array.from(data)).toEqual([1, 2, 1, 2]);
  });
});
