// read's answers where 0.4.0 gave wrong values or foreign errors, each
// against values worked out here by hand (or written by the tests' own
// encoders, never the package):
// - object-valued reads (strings, bytes) with an integer index followed by
//   two or more sliced axes;
// - a stale .zarray beside a v3 array's zarr.json;
// - shards whose index is at their start (zarr-python 3 writes either end),
//   and shards missing inner chunks of a two-part fill on zarrita 0.5/0.6;
// - selections numpy refuses (lists of indices, objects that are no
//   slice, 1.5);
// - missing chunks of variable-length bytes and scalar reads, whose cost
//   follows the selection, not the chunk (2^32- and 2^40-element chunks);
// - an `into` detached while read fills it.
import { beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { read, ready, register, withDataTypes, ZarrCodecError } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { memoryStore, rejectionOf, shard, v3Array } from "../support/memory-store.js";
import { vlenBytesEncodeReference } from "../support/vlen-bytes-reference.js";
import { hasArrayExtensions, ZARRITAS } from "../support/zarritas.js";

const encoder = new TextEncoder();
const json = (doc) => encoder.encode(JSON.stringify(doc));

beforeAll(async () => {
  await ready();
  for (const [, z] of ZARRITAS) register(z.registry);
});

// fixed_length_utf32 code points, little-endian, zero-padded.
function utf32(strings, codePoints) {
  const out = new Uint8Array(strings.length * codePoints * 4);
  const view = new DataView(out.buffer);
  strings.forEach((s, i) => Array.from(s).forEach((c, j) => view.setUint32(4 * (i * codePoints + j), c.codePointAt(0), true)));
  return out;
}

describe("arrays of JavaScript values: an integer index, then sliced axes", () => {
  // A [2, 3, 4] array of strings "a<i><j><k>", one chunk.
  const strings = [];
  for (let i = 0; i < 2; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 4; k++) strings.push(`a${i}${j}${k}`);

  test.each([
    [[1, null, null], strings.slice(12)],
    [[0, zarr.slice(1, 3), zarr.slice(0, 4, 2)], ["a010", "a012", "a020", "a022"]],
    [[zarr.slice(0, 2), 2, null], ["a020", "a021", "a022", "a023", "a120", "a121", "a122", "a123"]],
  ])("fixed_length_utf32 %j", async (selection, expected) => {
    const store = memoryStore([
      ["/s/zarr.json", v3Array({ shape: [2, 3, 4], data_type: { name: "fixed_length_utf32", configuration: { length_bytes: 16 } }, chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 3, 4] } }, fill_value: "" })],
      ["/s/c/0/0/0", utf32(strings, 4)],
    ]);
    const arr = await zarr.open(zarr.root(withDataTypes(store)).resolve("s"), { kind: "array" });
    const { data, shape } = await read(arr, selection);
    expect(shape).toEqual(expected.length === 12 ? [3, 4] : selection[0] === 0 ? [2, 2] : [2, 4]);
    expect(Object.keys(data)).toEqual(expected.map((_, i) => String(i))); // no holes, nothing on "NaN"
    expect(data).toEqual(expected);
  });

  test("variable_length_bytes [1, null, null]", async () => {
    const items = Array.from({ length: 8 }, (_, i) => Uint8Array.of(i, i + 1));
    const store = memoryStore([
      ["/b/zarr.json", v3Array({ shape: [2, 2, 2], data_type: "variable_length_bytes", chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 2, 2] } }, fill_value: "", codecs: [{ name: "vlen-bytes", configuration: {} }] })],
      ["/b/c/0/0/0", vlenBytesEncodeReference(items)],
    ]);
    const arr = await zarr.open(zarr.root(withDataTypes(store)).resolve("b"), { kind: "array" });
    const { data } = await read(arr, [1, null, null]);
    expect(data.map((b) => Array.from(b))).toEqual([[4, 5], [5, 6], [6, 7], [7, 8]]);
  });
});

test("a stale .zarray beside zarr.json: read decodes with the document zarrita opened", async () => {
  // A v3 uint16 array [1, 2, 3, 4] with v2 chunk keys, little-endian; the
  // .zarray beside it says big-endian (written earlier, never removed).
  const values = new Uint16Array([1, 2, 3, 4]);
  const store = memoryStore([
    ["/a/zarr.json", v3Array({ shape: [4], data_type: "uint16", chunk_key_encoding: { name: "v2", configuration: { separator: "." } } })],
    ["/a/.zarray", json({ zarr_format: 2, shape: [4], chunks: [4], dtype: ">u2", order: "C", compressor: null, filters: null, fill_value: 0 })],
    ["/a/0", new Uint8Array(values.buffer)],
  ]);
  const v3 = await zarr.open.v3(zarr.root(store).resolve("a"), { kind: "array" });
  expect(Array.from((await read(v3)).data)).toEqual([1, 2, 3, 4]);
  // Opened as v2, the same bytes are big-endian: [256, 512, 768, 1024].
  const v2 = await zarr.open.v2(zarr.root(store).resolve("a"), { kind: "array" });
  expect(Array.from((await read(v2)).data)).toEqual([256, 512, 768, 1024]);
});

describe("shards", () => {
  const values = Int32Array.from({ length: 24 }, (_, i) => i * 1000 - 7);
  const layout = (indexLocation, missing = () => false) => ({
    shape: [4, 6], chunkShape: [2, 6], dataType: "int32", values, fillValue: -1, fillElement: Int32Array.of(-1),
    sharding: { chunkShape: [2, 3], indexLocation }, missing,
  });

  test.each(ZARRITAS)("index at the start: read with zarrita %s, and zarr.get through withDataTypes", async (_v, z) => {
    const files = new Map();
    writeArray(files, "/s", layout("start", ([r, c]) => r === 1 && c === 1));
    // Inner chunk (1, 1) covers rows 2..3, columns 3..5.
    const expected = Array.from(values).map((v, i) => (Math.floor(i / 6) >= 2 && i % 6 >= 3 ? -1 : v));
    const plain = await z.open(z.root(memoryStore([...files])).resolve("s"), { kind: "array" });
    expect(Array.from((await read(plain)).data)).toEqual(expected);
    expect(Array.from((await read(plain, [zarr.slice(1, 4), 4])).data)).toEqual([expected[10], expected[16], expected[22]]);
    const typed = await z.open(z.root(withDataTypes(memoryStore([...files]))).resolve("s"), { kind: "array" });
    expect(Array.from((await z.get(typed)).data)).toEqual(expected);
  });

  test.each(ZARRITAS)("an index with no crc32c: read, and zarr.get through withDataTypes, with zarrita %s", async (_v, z) => {
    // zarrita 0.5 and 0.6 ask for 4 bytes of checksum more than such an
    // index has, and read them as part of it.
    const inner = [Uint8Array.of(1, 2), Uint8Array.of(3, 4)];
    const index = new DataView(new ArrayBuffer(32));
    index.setBigUint64(0, 0n, true);
    index.setBigUint64(8, 2n, true);
    index.setBigUint64(16, 2n, true);
    index.setBigUint64(24, 2n, true);
    const shardBytes = new Uint8Array([...inner[0], ...inner[1], ...new Uint8Array(index.buffer)]);
    const files = [
      ["/n/zarr.json", v3Array({
        shape: [4], data_type: "uint8", chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
        codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [2], codecs: [{ name: "bytes" }], index_codecs: [{ name: "bytes", configuration: { endian: "little" } }] } }],
      })],
      ["/n/c/0", shardBytes],
    ];
    const plain = await z.open(z.root(memoryStore(files)).resolve("n"), { kind: "array" });
    expect(Array.from((await read(plain)).data)).toEqual([1, 2, 3, 4]);
    const typed = await z.open(z.root(withDataTypes(memoryStore(files))).resolve("n"), { kind: "array" });
    expect(Array.from((await z.get(typed)).data)).toEqual([1, 2, 3, 4]);
  });

  test("a shard whose index checksum is wrong is the package's error", async () => {
    const files = new Map();
    writeArray(files, "/s", layout("start"));
    const bytes = files.get("/s/c/0/0").slice();
    bytes[3] ^= 1; // an index entry's byte
    files.set("/s/c/0/0", bytes);
    const arr = await zarr.open(zarr.root(memoryStore([...files])).resolve("s"), { kind: "array" });
    const error = await rejectionOf(read(arr));
    expect(error).toBeInstanceOf(ZarrCodecError);
    expect(error.code).toBe("CHECKSUM_MISMATCH");
    expect(error.message).toMatch(/^read: shard \/s\/c\/0\/0: its index's crc32c is 0x[0-9a-f]{8}, the index's bytes give 0x[0-9a-f]{8} \(the shard's first 36 bytes are not an intact index: a damaged index, or a shard cut short\)$/);
  });

  test.each(ZARRITAS)("complex fill parts that differ, an inner chunk missing: filled by read with zarrita %s", async (_v, z) => {
    // complex64 [2] chunks of [1], each shard 2 inner chunks; the second
    // inner chunk of shard 0 is missing: it reads as [1.5, -2].
    const inner = new Float32Array([3, 4]);
    const store = memoryStore([
      ["/c/zarr.json", v3Array({
        shape: [2], data_type: "complex64", fill_value: [1.5, -2],
        chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
        codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [1], codecs: [{ name: "bytes", configuration: { endian: "little" } }], index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }] } }],
      })],
      ["/c/c/0", shard([new Uint8Array(inner.buffer), null])],
    ]);
    const arr = await z.open(z.root(withDataTypes(store)).resolve("c"), { kind: "array" });
    expect(Array.from((await read(arr)).data)).toEqual([3, 4, 1.5, -2]);
    if (!hasArrayExtensions(z)) expect((await rejectionOf(z.get(arr))).code).toBe("UNFILLABLE_CHUNK");
  });
});

describe("selections numpy refuses", () => {
  test.each([
    [[[1, 2, 3], null], /^read: axis 0: expected an integer, null or zarr\.slice\(start, stop, step\), got an Array of length 3 \(lists of indices are not supported\)$/],
    [[{}, null], /^read: axis 0: expected an integer, null or zarr\.slice\(start, stop, step\), got an object/],
    [[{ start: 0, stop: 2 }, null], /^read: axis 0: expected an integer, null or zarr\.slice/],
    [[1.5, 0], /^read: axis 0: an index must be an integer, got 1\.5$/],
    [[0, -0.5], /^read: axis 1: an index must be an integer, got -0\.5$/],
  ])("%j", async (selection, message) => {
    const store = memoryStore([["/a/zarr.json", v3Array({ shape: [4, 4], chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 2] } } })]]);
    const arr = await zarr.open(zarr.root(store).resolve("a"), { kind: "array" });
    const error = await rejectionOf(read(arr, selection));
    expect(error.code).toBe("INVALID_SELECTION");
    expect(error.message).toMatch(message);
  });
});

describe("missing chunks cost what the selection takes", () => {
  test("variable_length_bytes: a missing chunk of 2^32 elements, two of them read", async () => {
    const store = memoryStore([
      ["/b/zarr.json", v3Array({ shape: [2 ** 33], data_type: "variable_length_bytes", chunk_grid: { name: "regular", configuration: { chunk_shape: [2 ** 32] } }, fill_value: "AQI=", codecs: [{ name: "vlen-bytes", configuration: {} }] })],
    ]);
    const arr = await zarr.open(zarr.root(withDataTypes(store)).resolve("b"), { kind: "array" });
    const { data } = await read(arr, [zarr.slice(2 ** 32 - 1, 2 ** 32 + 1)]);
    expect(data.map((b) => Array.from(b))).toEqual([[1, 2], [1, 2]]);
    expect(data[0]).not.toBe(data[1]); // each element its own bytes
    const got = (await zarr.get(arr, [zarr.slice(5, 7)])).data;
    expect(got.map((b) => Array.from(b))).toEqual([[1, 2], [1, 2]]);
    got[0][0] = 9; // zarr.get's elements are their own too
    expect(Array.from(got[1])).toEqual([1, 2]);
  });

  test.each(ZARRITAS)("zarrita %s: one value of a missing 2^40-element chunk, int64 and complex", async (_v, z) => {
    const store = memoryStore([
      ["/i/zarr.json", v3Array({ shape: [2 ** 41], data_type: "int64", chunk_grid: { name: "regular", configuration: { chunk_shape: [2 ** 40] } }, fill_value: -5 })],
      ["/c/zarr.json", v3Array({ shape: [8], data_type: "complex64", chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } }, fill_value: [1, 2] })],
    ]);
    const typed = withDataTypes(store);
    const i64 = await z.open(z.root(typed).resolve("i"), { kind: "array" });
    expect(await read(i64, [2 ** 40 + 3])).toBe(-5n);
    const c64 = await z.open(z.root(typed).resolve("c"), { kind: "array" });
    expect(await read(c64, [6, 0])).toBe(1);
    expect(await read(c64, [6, 1])).toBe(2);
  });
});

test("into detached while read fills it is the package's error", async () => {
  const into = new Uint16Array(8);
  const files = new Map();
  writeArray(files, "/a", { shape: [8], chunkShape: [4], dataType: "uint16", values: Uint16Array.from({ length: 8 }, (_, i) => i), fillValue: 0, fillElement: Uint16Array.of(0) });
  const store = memoryStore([...files]);
  const get = store.get;
  let detach = false;
  store.get = async (key, opts) => {
    if (detach && key.includes("/c/")) structuredClone(into.buffer, { transfer: [into.buffer] });
    return get(key, opts);
  };
  const arr = await zarr.open(zarr.root(store).resolve("a"), { kind: "array" });
  detach = true;
  const error = await rejectionOf(read(arr, null, { into }));
  expect(error).toBeInstanceOf(ZarrCodecError);
  expect(error.code).toBe("INVALID_INPUT");
  expect(error.message).toBe("read: into was detached (its buffer transferred) while the read was filling it");
});
