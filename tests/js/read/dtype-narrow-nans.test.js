// read's `dtype: "float16"` and `"bfloat16"` keep a NaN's sign and the top
// bits of its payload, as numpy's astype does (docs/read.md). The expected
// float16 codes are Debian numpy's: `astype(np.float16)` of the same bit
// patterns, computed here through python3. numpy has no bfloat16; its rule
// is defined as the same truncation (docs/read.md): the sign, then the top
// 7 bits of the payload, which for these quiet NaNs is the top half of
// numpy's float32 (`astype(np.float32)`, so a float64's NaN is narrowed by
// numpy too). Finite values ride along, so that nothing else moves: their
// float16 codes are numpy's too; their bfloat16 codes are the scalar
// reference's (tests/js/support/narrow-float-reference.js), for values
// that one rounding and Eigen's two agree on.
//
// Every way a chunk's values reach the cast: read in this thread (the
// values decoder's JS path: wasm value programs convert to float32 and
// float64 only), read into, a pool's workers, a chunk cache (chunks
// decoded whole), chunks zarrita decoded (an array extension's getChunk:
// the typed plan casts them), and cast_value's codec (its decode of a
// float16 or bfloat16 array stored as float32/float64, and its encode).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import * as zarr from "zarrita";
import { CastValueCodec, createChunkCache, createReadPool, diagnostics, read, ready, register } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { memoryStore } from "../support/memory-store.js";
import { narrowReference } from "../support/narrow-float-reference.js";

// Quiet NaNs of both signs, with payload bits that float16 and bfloat16
// keep (the top ones), drop (the bottom ones) or keep in part; then
// finite values and infinities.
const SOURCES = {
  float32: {
    Container: Float32Array,
    Bits: Uint32Array,
    nans: [0x7fc00000, 0xffc00000, 0x7fe00000, 0xffe00000, 0x7fc02000, 0xffc01fff, 0x7fd55555, 0x7fffffff],
    finite: [1, -2, 0.5, -0, 65504, 1e-3, Infinity, -Infinity],
  },
  float64: {
    Container: Float64Array,
    Bits: BigUint64Array,
    nans: [0x7ff8000000000000n, 0xfff8000000000000n, 0x7ffc000000000000n, 0xfff8040000000000n, 0x7ff803ffffffffffn, 0xfffaaaaaaaaaaaaan, 0x7fffffffffffffffn],
    finite: [1, -0.25, 3, -0, 1e300, -1e300, Infinity],
  },
};

/** The stored values: the NaNs' bit patterns, then the finite values. */
function valuesOf(source) {
  const { Container, Bits, nans, finite } = SOURCES[source];
  const values = new Container(nans.length + finite.length);
  new Bits(values.buffer).set(nans);
  values.set(finite, nans.length);
  return values;
}

const hex = (values) => Array.from(new Uint8Array(values.buffer, values.byteOffset, values.byteLength), (b) => b.toString(16).padStart(2, "0")).join("");

/**
 * numpy's astype of the values' bits: [float16 codes, float32 codes].
 * The values travel as their bytes, so nothing on the way touches a NaN.
 */
function numpyCodes(source) {
  const script =
    "import json, sys, warnings\nimport numpy as np\nwarnings.simplefilter('ignore')\n" +
    "a = np.frombuffer(bytes.fromhex(sys.argv[2]), dtype='<' + {'float32': 'f4', 'float64': 'f8'}[sys.argv[1]])\n" +
    "print(json.dumps([a.astype('<f2').view('<u2').tolist(), a.astype('<f4').view('<u4').tolist()]))";
  return JSON.parse(execFileSync("/usr/bin/python3", ["-c", script, source, hex(valuesOf(source))], { encoding: "utf8" }));
}

/** The codes read must give for the values of `source` read as `dtype`. */
function expectedCodes(source, dtype) {
  const [float16, float32] = numpyCodes(source);
  if (dtype === "float16") return float16;
  const { nans, finite } = SOURCES[source];
  // bfloat16: a NaN's top half of numpy's float32; a number the reference's.
  return [...float32.slice(0, nans.length).map((bits) => bits >>> 16), ...finite.map((x) => narrowReference("bfloat16", x))];
}

/** A store at /a of `values` (two chunks) of `storedType`. */
function storeOf(values, storedType) {
  const map = new Map();
  const n = values.length;
  writeArray(map, "/a", { shape: [n], chunkShape: [Math.ceil(n / 2)], dataType: storedType, values, fillValue: 0, fillElement: values.constructor.of(0) });
  return memoryStore([...map]);
}

const open = (store) => zarr.open(zarr.root(store).resolve("a"), { kind: "array" });
const codes = (data) => Array.from(new Uint16Array(data.buffer, data.byteOffset, data.length));

let pool;
beforeAll(async () => {
  await ready();
  register(zarr.registry);
  pool = createReadPool({ workers: 1, inThreadChunks: 0 });
});
afterAll(() => pool?.close());

describe.each([
  ["float32", "float16"],
  ["float32", "bfloat16"],
  ["float64", "float16"],
  ["float64", "bfloat16"],
])("%s read with dtype %s", (source, dtype) => {
  const values = valuesOf(source);
  let want;
  let arr;
  beforeAll(async () => {
    want = expectedCodes(source, dtype);
    arr = await open(storeOf(values, source));
  });

  test("the expected codes keep the NaNs' signs and payloads (numpy's, not one NaN code)", () => {
    const nanCodes = want.slice(0, SOURCES[source].nans.length);
    expect(new Set(nanCodes).size).toBeGreaterThan(4);
    expect(nanCodes.some((c) => c >= 0x8000)).toBe(true);
  });

  test("read, read into, a pool, a chunk cache", async () => {
    expect(codes((await read(arr, null, { dtype })).data)).toEqual(want);
    const into = new Uint16Array(values.length);
    await read(arr, null, { dtype, into });
    expect(codes(into)).toEqual(want);
    expect(codes((await read(arr, null, { dtype, pool })).data)).toEqual(want);
    const cache = createChunkCache();
    expect(codes((await read(arr, null, { dtype, cache })).data)).toEqual(want);
    expect(codes((await read(arr, null, { dtype, cache })).data)).toEqual(want);
  });

  test("chunks zarrita decoded (an array extension's getChunk), then cast", async () => {
    const extended = await zarr.extendArray(arr, zarr.defineArrayExtension((a) => ({ getChunk: (coords, options) => a.getChunk(coords, options) })));
    const before = diagnostics().reads().viaZarrita;
    expect(codes((await read(extended, null, { dtype })).data)).toEqual(want);
    expect(diagnostics().reads().viaZarrita - before).toBe(2);
  });

});

// zarrita (0.7, Node 20: no Float16Array) opens no float16 or bfloat16
// array, so cast_value's own narrowing is checked on the codec zarr.get
// runs: decode from the stored type, and encode to it.
describe.each([
  ["float32", "float16"],
  ["float32", "bfloat16"],
  ["float64", "float16"],
  ["float64", "bfloat16"],
])("cast_value between %s and %s", (source, narrow) => {
  test("decode (stored as the wider type) and encode (array of the wider type) narrow NaNs as numpy's astype", () => {
    const want = expectedCodes(source, narrow);
    const values = valuesOf(source);
    const chunk = { data: values, shape: [values.length], stride: [1] };
    const decoding = new CastValueCodec({ data_type: source, out_of_range: "clamp" }, { dataType: narrow });
    expect(codes(decoding.decode(chunk).data)).toEqual(want);
    const encoding = new CastValueCodec({ data_type: narrow, out_of_range: "clamp" }, { dataType: source });
    expect(codes(encoding.encode(chunk).data)).toEqual(want);
  });
});

describe("a signalling NaN comes out quiet (docs/read.md)", () => {
  // numpy 1.24 narrows to float16 bit by bit and keeps it signalling
  // (0x7c01, 0xfd00); read quiets it, as every widening and the wasm
  // core's float32 conversions do: the quiet bit set, sign and the
  // payload's top bits kept (hand-worked from the layouts).
  test.each([
    ["float64", 0x7ff0000000000001n, "float16", 0x7e00],
    ["float64", 0xfff4000000000000n, "float16", 0xff00],
    ["float64", 0x7ff0000000000001n, "bfloat16", 0x7fc0],
    ["float32", 0x7f800001, "float16", 0x7e00],
    ["float32", 0xffa00000, "bfloat16", 0xffe0],
  ])("%s %p as %s -> %p", async (source, bits, dtype, code) => {
    const { Container, Bits } = SOURCES[source];
    const values = new Container(new Bits([bits]).buffer);
    const arr = await open(storeOf(values, source));
    expect(codes((await read(arr, null, { dtype })).data)).toEqual([code]);
    expect(codes((await read(arr, null, { dtype, pool })).data)).toEqual([code]);
  });
});
