// read() of chains with array -> array codecs, which read now decodes
// itself (issue 35: js/read/decode/value-steps.js, values-decoder.js), and
// read's `dtype` option (js/read/plan/typed-plan.js). Stores are written
// by hand (tests/js/support/hand-store.js: the stored values as the
// encoded type, then the metadata given its codecs); what read must give
// is computed here from the zarr-extensions pages' arithmetic, element by
// element (Math.fround for float32's rounding after each operation), and
// checked against zarr.get on zarrita 0.5, 0.6 and 0.7. Each read must have
// decoded its chunks itself (diagnostics().reads(): none via zarrita).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { createChunkCache, createReadPool, read, ready, register } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { memoryStore } from "../support/memory-store.js";
import { cOrder, difference, pathsTaken } from "../support/read-compare.js";
import { randomBytes } from "../support/reference.js";
import { ZARRITAS } from "../support/zarritas.js";

const zarr7 = ZARRITAS.find(([v]) => v.startsWith("0.7"))[1];
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const product = (v) => v.reduce((a, b) => a * b, 1);

let pool;
beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
  pool = createReadPool({ workers: 2, inThreadChunks: 0 });
});
afterAll(() => pool?.close());

function randomOf(ArrayType, n, seed, map) {
  const out = new ArrayType(randomBytes(n * ArrayType.BYTES_PER_ELEMENT, seed).buffer);
  if (map) for (let i = 0; i < n; i++) out[i] = map(out[i], i);
  return out;
}

/**
 * A store at /a: `stored` (C order, of the encoded type) written chunk by
 * chunk by the hand store, then the metadata given the array's own data
 * type, fill and `arrayToArray` codecs before the array -> bytes codec.
 */
function storeWith({ shape, chunkShape, stored, storedType, dataType, fillValue, storedFill, arrayToArray, order, arrayToBytes, compressors, missing }) {
  const map = new Map();
  writeArray(map, "/a", { shape, chunkShape, dataType: storedType, values: stored, fillValue: 0, fillElement: storedFill, order, arrayToBytes, compressors, missing });
  const doc = JSON.parse(decoder.decode(map.get("/a/zarr.json")));
  doc.data_type = dataType;
  doc.fill_value = fillValue;
  doc.codecs = [...arrayToArray, ...doc.codecs];
  map.set("/a/zarr.json", encoder.encode(JSON.stringify(doc)));
  return memoryStore([...map]);
}

/** The page's decode of scale_offset after cast_value to uint16, in float32: fround(fround(k / scale) + offset). */
const scaleOffsetF32 = (k, scale, offset) => Math.fround(Math.fround(k / Math.fround(scale)) + Math.fround(offset));

function expectSameBits(ours, want) {
  expect(ours.data.constructor).toBe(want.constructor);
  expect(ours.data.length).toBe(want.length);
  const a = new Uint8Array(ours.data.buffer, ours.data.byteOffset, ours.data.byteLength);
  const b = new Uint8Array(want.buffer, want.byteOffset, want.byteLength);
  let first = -1;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) { first = i; break; }
  if (first !== -1) {
    const e = Math.floor(first / want.BYTES_PER_ELEMENT);
    throw new Error(`element ${e}: read gave ${ours.data[e]}, expected ${want[e]}`);
  }
}

// Values of the whole array (C order) for missing chunks: the fill.
function withMissing(values, shape, chunkShape, missing, fill) {
  const out = values.slice();
  const stride = cOrder(shape);
  for (let i = 0; i < out.length; i++) {
    const coords = shape.map((_, k) => Math.floor(Math.floor(i / stride[k]) % shape[k] / chunkShape[k]));
    if (missing(coords)) out[i] = fill;
  }
  return out;
}

// A selection as zarrita takes it, and the C-order indexes it picks.
function picked(shape, ranges) {
  const idx = [];
  const walk = (axis, base) => {
    if (axis === shape.length) return idx.push(base);
    const [start, stop, step] = ranges[axis];
    for (let i = start; i < stop; i += step) walk(axis + 1, base + i * cOrder(shape)[axis]);
  };
  walk(0, 0);
  return idx;
}

const SELECTIONS = (shape) => [
  [null, shape.map((n) => [0, n, 1])],
  [shape.map((n) => zarr7.slice(1, n - 1)), shape.map((n) => [1, n - 1, 1])],
  [shape.map((n) => zarr7.slice(0, n, 3)), shape.map((n) => [0, n, 3])],
];

const CHAINS = {
  // In wasm: uint16 -> float32, then scale and offset in float32 (gzip
  // decompressed there too).
  scale_offset_cast_value_uint16_gzip: () => {
    const shape = [37, 45];
    const chunkShape = [8, 16];
    const stored = randomOf(Uint16Array, product(shape), 1);
    const missing = (c) => (c[0] + 2 * c[1]) % 5 === 1;
    const want = withMissing(Float32Array.from(stored, (k) => scaleOffsetF32(k, 100, 250)), shape, chunkShape, missing, 250);
    const store = storeWith({
      shape, chunkShape, stored, storedType: "uint16", storedFill: Uint16Array.of(0), dataType: "float32", fillValue: 250, missing,
      arrayToArray: [{ name: "scale_offset", configuration: { scale: 100, offset: 250 } }, { name: "cast_value", configuration: { data_type: "uint16" } }],
      compressors: ["gzip"],
    });
    return { shape, store, want };
  },
  // In JS (big-endian stored values), transposed: the same arithmetic.
  scale_offset_cast_value_big_endian_int16_transposed: () => {
    const shape = [21, 34];
    const stored = randomOf(Int16Array, product(shape), 2);
    const want = Float32Array.from(stored, (k) => scaleOffsetF32(k, 0.25, -3.5));
    const store = storeWith({
      shape, chunkShape: [16, 8], stored, storedType: "int16", storedFill: Int16Array.of(0), dataType: "float32", fillValue: -3.5, order: [1, 0],
      arrayToArray: [{ name: "scale_offset", configuration: { scale: 0.25, offset: -3.5 } }, { name: "cast_value", configuration: { data_type: "int16" } }],
      arrayToBytes: { name: "bytes", endian: "big" },
    });
    return { shape, store, want };
  },
  // float64 scale and offset after int32 (exact in float64): wasm.
  scale_offset_float64_cast_value_int32_zlib: () => {
    const shape = [19, 23];
    const stored = randomOf(Int32Array, product(shape), 3);
    const want = Float64Array.from(stored, (k) => k / 1e-3 + 1e6);
    const store = storeWith({
      shape, chunkShape: [5, 7], stored, storedType: "int32", storedFill: Int32Array.of(-1e9), dataType: "float64", fillValue: 0, order: [1, 0],
      arrayToArray: [{ name: "scale_offset", configuration: { scale: 1e-3, offset: 1e6 } }, { name: "cast_value", configuration: { data_type: "int32" } }],
      compressors: ["zlib"],
    });
    return { shape, store, want };
  },
  // cast_value from int32 to float32 rounding towards zero: JS (the
  // rounding is not IEEE's default). The reference: float32 nearest, then
  // one step towards zero where that went past the value.
  cast_value_int32_towards_zero: () => {
    const shape = [30, 17];
    const stored = randomOf(Int32Array, product(shape), 4);
    const towardsZero = (k) => {
      const r = Math.fround(k);
      if (Math.abs(r) <= Math.abs(k)) return r;
      const bits = new Uint32Array(Float32Array.of(r).buffer);
      bits[0] -= 1; // one unit less in magnitude (k is no power of two here)
      return new Float32Array(bits.buffer)[0];
    };
    const want = Float32Array.from(stored, towardsZero);
    const store = storeWith({
      shape, chunkShape: [8, 8], stored, storedType: "int32", storedFill: Int32Array.of(0), dataType: "float32", fillValue: 0,
      arrayToArray: [{ name: "cast_value", configuration: { data_type: "int32", rounding: "towards-zero" } }],
    });
    return { shape, store, want };
  },
  // float16 stored, float32 array: exact widening, in wasm.
  cast_value_float16_to_float32: () => {
    const shape = [13, 40];
    // Finite float16 codes only (NaN payloads are compared as NaNs below).
    const stored = randomOf(Uint16Array, product(shape), 5, (c) => ((c & 0x7c00) === 0x7c00 ? c & 0x83ff : c));
    const f16 = (c) => {
      const s = c & 0x8000 ? -1 : 1;
      const e = (c >> 10) & 0x1f;
      const m = c & 0x3ff;
      return s * (e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15));
    };
    const want = Float32Array.from(stored, f16);
    const store = storeWith({
      shape, chunkShape: [4, 16], stored, storedType: "uint16", storedFill: Uint16Array.of(0), dataType: "float32", fillValue: 0,
      arrayToArray: [{ name: "cast_value", configuration: { data_type: "float16" } }],
    });
    // The chunks are float16 codes: the document says so.
    const doc = JSON.parse(decoder.decode(store.files.get("/a/zarr.json")));
    return { shape, store, want, doc };
  },
  // numcodecs' delta (after a transpose: in the stored order) then bytes:
  // JS. The reference: a running sum along the stored order, wrapping.
  numcodecs_delta_after_transpose: () => {
    const shape = [9, 12];
    const chunkShape = [3, 4];
    const values = randomOf(Int16Array, product(shape), 6);
    // Stored chunk by chunk as differences of the stored (transposed) order.
    const map = new Map();
    writeArray(map, "/a", { shape, chunkShape, dataType: "int16", values, fillValue: 0, fillElement: Int16Array.of(0), order: [1, 0] });
    for (const [key, bytes] of map) {
      if (key.endsWith("zarr.json")) continue;
      const v = new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
      const d = new Int16Array(v.length);
      for (let i = v.length - 1; i >= 0; i--) d[i] = i === 0 ? v[0] : v[i] - v[i - 1];
      map.set(key, new Uint8Array(d.buffer));
    }
    const doc = JSON.parse(decoder.decode(map.get("/a/zarr.json")));
    doc.codecs = [doc.codecs[0], { name: "numcodecs.delta", configuration: { dtype: "<i2" } }, ...doc.codecs.slice(1)];
    map.set("/a/zarr.json", encoder.encode(JSON.stringify(doc)));
    return { shape, store: memoryStore([...map]), want: values, onlyZarrita7: true };
  },
};

describe.each(Object.keys(CHAINS))("%s", (name) => {
  const c = CHAINS[name]();
  if (c.doc) {
    // cast_value's data_type is the stored one: float16 (not uint16).
    c.doc.codecs[0].configuration.data_type = "float16";
    c.store.files.set("/a/zarr.json", encoder.encode(JSON.stringify(c.doc)));
  }

  test.each(ZARRITAS)("zarrita %s: the page's values, as zarr.get gives them, decoded by read itself", async (version, zarr) => {
    const arr = await zarr.open(zarr.root(c.store).resolve("a"), { kind: "array" });
    for (const [selection, ranges] of SELECTIONS(c.shape)) {
      const { value: ours, taken } = await pathsTaken(() => read(arr, selection));
      const idx = picked(c.shape, ranges);
      expectSameBits(ours, c.want.constructor.from(idx, (i) => c.want[i]));
      expect(taken.viaZarrita).toBe(0);
      expect(taken.decoded).toBeGreaterThan(0);
      // zarrita 0.5 and 0.6 do not read numcodecs.delta's v3 name.
      if (c.onlyZarrita7 && !version.startsWith("0.7")) continue;
      expect(difference(ours, await zarr.get(arr, selection))).toBe("");
    }
  });

  test("through a pool's workers: the same values", async () => {
    const arr = await zarr7.open(zarr7.root(c.store).resolve("a"), { kind: "array" });
    const jobs = pool.stats().jobs;
    const pooled = await read(arr, null, { pool });
    expectSameBits(pooled, c.want);
    expect(pool.stats().jobs).toBeGreaterThan(jobs);
  });
});

test("a chunk of the wrong length in a wasm value chain: the package's error naming the chunk, and the rest of the array reads", async () => {
  const c = CHAINS.scale_offset_cast_value_uint16_gzip();
  const { gzipSync } = await import("node:zlib");
  const short = memoryStore([...c.store.files]);
  short.files.set("/a/c/0/0", gzipSync(new Uint8Array(10)));
  const arr = await zarr7.open(zarr7.root(short).resolve("a"), { kind: "array" });
  const error = await read(arr, [zarr7.slice(0, 8), zarr7.slice(0, 16)]).then(() => undefined, (e) => e);
  expect(error?.name).toBe("ZarrCodecError");
  expect(error.message).toMatch(/chunk \[0, 0\]|chunk 0[,.]0|c\/0\/0/);
  const rest = await read(arr, [zarr7.slice(8, 16), null]);
  expect(rest.shape).toEqual([8, 45]);
});

describe("read(arr, selection, { dtype })", () => {
  // float64 values past float32's range and precision, signed zeros,
  // infinities and NaN; the fill 0.1 (not a float32).
  const shape = [11, 13];
  const chunkShape = [4, 5];
  const special = [0, -0, 1e300, -1e300, Infinity, -Infinity, NaN, 1 + 2 ** -24, 1 + 3 * 2 ** -24, 3.4028235e38, 3.40282357e38, 2 ** -149, 2 ** -151, 1e-320];
  const f64 = randomOf(Float64Array, product(shape), 7, (v, i) => (i < special.length ? special[i] : Number.isFinite(v) ? v : i * 0.3));
  const missing = (cc) => cc[0] === 2 && cc[1] === 1;
  const stored64 = new Map();
  writeArray(stored64, "/a", { shape, chunkShape, dataType: "float64", values: f64, fillValue: 0.1, fillElement: Float64Array.of(0.1), missing });
  const store64 = memoryStore([...stored64]);
  const with64 = withMissing(f64, shape, chunkShape, missing, 0.1);

  // float32 values for a cast to int16: ties, beyond the range, -0.
  const f32 = Float32Array.from({ length: product(shape) }, (_, i) => [0.5, 1.5, 2.5, -0.5, -2.5, 40000.7, -40000.2, -0, 32767.5, -32768.5][i % 10] + (i >= 10 ? (i % 97) - 48 : 0));
  const stored32 = new Map();
  writeArray(stored32, "/a", { shape, chunkShape, dataType: "float32", values: f32, fillValue: 1e6, fillElement: Float32Array.of(1e6), arrayToBytes: { name: "bytes", endian: "big" }, compressors: ["gzip"] });
  const store32 = memoryStore([...stored32]);

  // cast_value's rules for read's dtype: nearest-even, out of range clamped.
  const halfEven = (x) => {
    const f = Math.floor(x);
    const d = x - f;
    return d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f;
  };
  const toInt16 = (x) => Math.min(32767, Math.max(-32768, halfEven(x)));
  const sameNumbers = (ours, want) => {
    expect(ours.constructor).toBe(want.constructor);
    for (let i = 0; i < want.length; i++) {
      // NaN: any NaN (a float64 NaN narrowed keeps its payload's top bits).
      if (Number.isNaN(want[i])) expect(Number.isNaN(ours[i])).toBe(true);
      else if (!Object.is(ours[i], want[i])) throw new Error(`element ${i}: read gave ${ours[i]}, expected ${want[i]}`);
    }
  };

  test.each(ZARRITAS)("zarrita %s: float64 as float32 (nearest-even, past the range an infinity, -0 kept), the fill cast too", async (version, zarr) => {
    const arr = await zarr.open(zarr.root(store64).resolve("a"), { kind: "array" });
    for (const [selection, ranges] of SELECTIONS(shape)) {
      const { value: ours, taken } = await pathsTaken(() => read(arr, selection, { dtype: "float32" }));
      const idx = picked(shape, ranges);
      sameNumbers(ours.data, Float32Array.from(idx, (i) => Math.fround(with64[i])));
      expect(taken.viaZarrita).toBe(0);
    }
  });

  test("float32 (big-endian, gzip) as int16: ties to even, clamped, the fill clamped; in a pool too", async () => {
    const arr = await zarr7.open(zarr7.root(store32).resolve("a"), { kind: "array" });
    const want = Int16Array.from(f32, toInt16);
    const ours = await read(arr, null, { dtype: "int16" });
    expect(Array.from(ours.data)).toEqual(Array.from(want));
    const pooled = await read(arr, null, { dtype: "int16", pool });
    expect(Array.from(pooled.data)).toEqual(Array.from(want));
  });

  test("the fill of a missing chunk, cast: uint16 1000 as uint8 is 255", async () => {
    const map = new Map();
    const values = randomOf(Uint16Array, 20, 8);
    writeArray(map, "/a", { shape: [20], chunkShape: [5], dataType: "uint16", values, fillValue: 1000, fillElement: Uint16Array.of(1000), missing: (cc) => cc[0] === 1 });
    const arr = await zarr7.open(zarr7.root(memoryStore([...map])).resolve("a"), { kind: "array" });
    const ours = await read(arr, null, { dtype: "uint8" });
    expect(Array.from(ours.data)).toEqual(Array.from(values, (v, i) => (i >= 5 && i < 10 ? 255 : Math.min(v, 255))));
  });

  test("a chain and a dtype: scale_offset + cast_value as float64 (three steps in wasm)", async () => {
    const c = CHAINS.scale_offset_cast_value_uint16_gzip();
    const arr = await zarr7.open(zarr7.root(c.store).resolve("a"), { kind: "array" });
    const ours = await read(arr, null, { dtype: "float64" });
    expectSameBits(ours, Float64Array.from(c.want));
  });

  test("into: an array of the dtype's container, filled in place; another container is refused", async () => {
    const arr = await zarr7.open(zarr7.root(store64).resolve("a"), { kind: "array" });
    const into = new Float32Array(product(shape));
    const ours = await read(arr, null, { dtype: "float32", into });
    expect(ours.data).toBe(into);
    sameNumbers(into, Float32Array.from(with64, Math.fround));
    const error = await read(arr, null, { dtype: "float32", into: new Float64Array(product(shape)) }).then(() => undefined, (e) => e);
    expect(error?.code).toBe("INVALID_INPUT");
  });

  test("with a chunk cache: entries per dtype, each read the right type; a second read asks the store for nothing", async () => {
    const arr = await zarr7.open(zarr7.root(store64).resolve("a"), { kind: "array" });
    const cache = createChunkCache();
    const as32 = await read(arr, null, { dtype: "float32", cache });
    const as64 = await read(arr, null, { cache });
    sameNumbers(as32.data, Float32Array.from(with64, Math.fround));
    sameNumbers(as64.data, with64);
    const { taken } = await pathsTaken(() => read(arr, null, { dtype: "float32", cache }));
    expect(taken.cached).toBe(product(shape.map((n, i) => Math.ceil(n / chunkShape[i]))));
  });

  test("a NaN cast to an integer type: the package's error (VALUE_OUT_OF_RANGE), naming the cast", async () => {
    const arr = await zarr7.open(zarr7.root(store64).resolve("a"), { kind: "array" });
    const error = await read(arr, null, { dtype: "int32" }).then(() => undefined, (e) => e);
    expect(error?.code).toBe("VALUE_OUT_OF_RANGE");
    expect(error.message).toMatch(/float64 -> int32/);
    expect(error.message).toMatch(/NaN|Infinity/);
  });

  test.each([["float128"], ["string"], [42], [{}]])("dtype %p: refused (INVALID_INPUT), naming what read casts to", async (dtype) => {
    const arr = await zarr7.open(zarr7.root(store64).resolve("a"), { kind: "array" });
    const error = await read(arr, null, { dtype }).then(() => undefined, (e) => e);
    expect(error?.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(/dtype must name a numeric data type/);
  });

  test("the array's own type, bool too, reads as without dtype", async () => {
    const map = new Map();
    writeArray(map, "/m", { shape: [9], chunkShape: [4], dataType: "bool", values: Uint8Array.of(1, 0, 0, 1, 1, 1, 0, 1, 0), fillValue: false, fillElement: Uint8Array.of(0) });
    const arr = await zarr7.open(zarr7.root(memoryStore([...map])).resolve("m"), { kind: "array" });
    const own = await read(arr, null, { dtype: "bool" });
    expect(difference(own, await zarr7.get(arr, null))).toBe("");
    const error = await read(arr, null, { dtype: "uint8" }).then(() => undefined, (e) => e);
    expect(error?.code).toBe("INVALID_INPUT");
  });

  test("dtype on an array of strings: refused (INVALID_INPUT)", async () => {
    const map = new Map([["/s/zarr.json", encoder.encode(JSON.stringify({ zarr_format: 3, node_type: "array", shape: [2], data_type: "string", chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } }, chunk_key_encoding: { name: "default" }, fill_value: "", codecs: [{ name: "vlen-utf8" }] }))]]);
    const arr = await zarr7.open(zarr7.root(memoryStore([...map])).resolve("s"), { kind: "array" });
    const error = await read(arr, null, { dtype: "float32" }).then(() => undefined, (e) => e);
    expect(error?.code).toBe("INVALID_INPUT");
  });
});

// The wasm value program and the codecs in JS (big-endian stored values
// take the JS path) must agree: values, NaNs' signs and payloads, errors.
describe("the wasm path and the JS path give the same answers", () => {
  async function bothEndians(dataType, stored, arrayToArray, options) {
    const out = [];
    for (const endian of ["little", "big"]) {
      const store = storeWith({ shape: [stored.length], chunkShape: [stored.length], stored, storedType: dataType, storedFill: stored.constructor.of(0), dataType, fillValue: 0, arrayToArray, arrayToBytes: { name: "bytes", endian } });
      const arr = await zarr7.open(zarr7.root(store).resolve("a"), { kind: "array" });
      out.push(await read(arr, null, options).then((r) => r.data, (e) => e));
    }
    return out;
  }
  const bits = (data) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("hex");

  test("scale_offset that overflows: VALUE_OUT_OF_RANGE on both, as zarr.get; an infinity in stays one", async () => {
    const [little, big] = await bothEndians("float32", Float32Array.of(1, 1e30), [{ name: "scale_offset", configuration: { scale: 1e-30 } }]);
    for (const e of [little, big]) {
      expect(e?.code).toBe("VALUE_OUT_OF_RANGE");
      expect(e.message).toMatch(/scale_offset \(float32\) decode: .* overflows float32/);
    }
    const [a, b] = await bothEndians("float64", Float64Array.of(Infinity, 2), [{ name: "scale_offset", configuration: { scale: 2, offset: 1 } }]);
    expect(Array.from(a)).toEqual([Infinity, 2]);
    expect(Array.from(b)).toEqual([Infinity, 2]);
    const [x, y] = await bothEndians("float64", Float64Array.of(Infinity), [{ name: "scale_offset", configuration: { offset: "-Infinity" } }]);
    expect([x?.code, y?.code]).toEqual(["VALUE_OUT_OF_RANGE", "VALUE_OUT_OF_RANGE"]);
  });

  test("NaNs keep their sign and payload's top bits, as numpy's astype: float64 as float32 (dtype), float16 as float32 (cast_value)", async () => {
    const nans = new Float64Array(new BigUint64Array([0xfff8000020000000n, 0x7ff4000000000001n, 0x7ff8000000000000n]).buffer);
    const [little, big] = await bothEndians("float64", nans, [], { dtype: "float32" });
    // numpy: np.array([...], "<u8").view("<f8").astype("<f4")
    expect(bits(little)).toBe("0100c0ff0000e07f0000c07f");
    expect(bits(big)).toBe(bits(little));
    const map = new Map();
    writeArray(map, "/h", { shape: [2], chunkShape: [2], dataType: "uint16", values: Uint16Array.of(0xfe01, 0x7e10), fillValue: 0, fillElement: Uint16Array.of(0) });
    const doc = JSON.parse(decoder.decode(map.get("/h/zarr.json")));
    Object.assign(doc, { data_type: "float32", codecs: [{ name: "cast_value", configuration: { data_type: "float16" } }, ...doc.codecs] });
    map.set("/h/zarr.json", encoder.encode(JSON.stringify(doc)));
    const arr = await zarr7.open(zarr7.root(memoryStore([...map])).resolve("h"), { kind: "array" });
    // numpy: np.array([0xfe01, 0x7e10], "<u2").view("<f2").astype("<f4")
    expect(bits((await read(arr, null)).data)).toBe("0020c0ff0000c27f");
    expect(bits((await zarr7.get(arr, null)).data)).toBe("0020c0ff0000c27f");
  });
});
