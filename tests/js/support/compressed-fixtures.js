// The compressed fixture stores (scripts/make-compressed-stores.py:
// tests/fixtures/v2-compressed.zarr, v3-compressed.zarr, n5-compressed.n5)
// as the tests read them: each array's store wrapping (withDataTypes where
// zarrita lacks the type, withN5 for N5), what zarrita presents (element
// width, a trailing dimension), the selections each test reads, and the
// bytes expected.json says each selection holds, selected here element by
// element from numpy's values.
import { readFileSync } from "node:fs";
import FileSystemStore from "@zarrita/storage/fs";
import { withDataTypes, withN5, ZarrCodecError } from "../../../js/index.js";
import { cOrderBytes } from "./c-order-bytes.js";
import { fixturePath } from "./fixtures.js";

export { cOrderBytes };

export const V2_ROOT = fixturePath("v2-compressed.zarr");
export const V3_ROOT = fixturePath("v3-compressed.zarr");
export const N5_ROOT = fixturePath("n5-compressed.n5");
const load = (root) => JSON.parse(readFileSync(`${root}/expected.json`, "utf8"));
export const V2_EXPECTED = load(V2_ROOT);
export const V3_EXPECTED = load(V3_ROOT);
export const N5_EXPECTED = load(N5_ROOT);

const WIDTH = { u1: 1, i1: 1, u2: 2, i2: 2, i4: 4, u4: 4, f4: 4, f8: 8, c8: 8, c16: 16 };
const V3_WIDTH = { uint8: 1, uint16: 2, int32: 4, float32: 4, float64: 8, complex128: 16, int4: 1, float8_e4m3: 1 };
const N5_WIDTH = { uint8: 1, uint16: 2, int32: 4, float64: 8 };

/**
 * How an array of the fixtures is read: `width` bytes per element of
 * expected.json's values, `trailing` (complex parts, record bytes) the
 * length of the trailing dimension zarrita presents (0 if none), and the
 * store wrapping it needs.
 */
export function layoutOf(format, name) {
  if (format === "n5") {
    const e = N5_EXPECTED[name];
    return { width: N5_WIDTH[e.dataType], trailing: 0, wrap: "n5", shape: e.numpy_shape, hex: e.numpy_le_hex };
  }
  const e = format === "v2" ? V2_EXPECTED[name] : V3_EXPECTED[name];
  if (Array.isArray(e.dtype)) {
    // A record: withDataTypes presents its packed bytes (every field little-endian).
    const width = e.dtype.reduce((n, [, t]) => n + WIDTH[t.slice(1)], 0);
    return { width, trailing: width, wrap: "types", shape: e.shape, hex: e.little_endian_hex };
  }
  const width = format === "v2" ? WIDTH[e.dtype.slice(1)] : V3_WIDTH[e.dtype];
  const complex = /c(8|16)$/.test(e.dtype) || e.dtype === "complex128";
  if (complex) return { width, trailing: 2, wrap: "types", shape: e.shape, hex: e.little_endian_hex };
  if (e.dtype === "int4") return { width, trailing: 0, wrap: "types", shape: e.shape, hex: e.little_endian_hex };
  // float8 read as its codes (the widening has tests of its own).
  if (e.dtype === "float8_e4m3") return { width, trailing: 0, wrap: "bits", shape: e.shape, hex: e.little_endian_hex };
  return { width, trailing: 0, wrap: "plain", shape: e.shape, hex: e.little_endian_hex };
}

const stores = new Map();

/** The store an array of `format` is read through (one per wrapping, shared). */
export function storeFor(format, wrap) {
  const key = `${format}:${wrap}`;
  if (!stores.has(key)) {
    const root = format === "v2" ? V2_ROOT : format === "v3" ? V3_ROOT : N5_ROOT;
    const fs = new FileSystemStore(root);
    stores.set(key, wrap === "n5" ? withN5(fs) : wrap === "types" ? withDataTypes(fs) : wrap === "bits" ? withDataTypes(fs, { floats: "bits" }) : fs);
  }
  return stores.get(key);
}

/** Opens `name` of `format` with `zarr` (a zarrita module). */
export async function openFixtureArray(zarr, format, name) {
  const { wrap } = layoutOf(format, name);
  const location = zarr.root(storeFor(format, wrap)).resolve(name);
  return format === "v2" ? zarr.open.v2(location, { kind: "array" }) : zarr.open(location, { kind: "array" });
}

/**
 * The selections each array is read with: [name, zarrita's selection (for
 * `shape`, 2-d), the same per axis as an integer or [start, stop, step]].
 */
export function selectionsFor(zarr, shape) {
  const [a, b] = shape;
  return [
    ["whole", null, [[0, a, 1], [0, b, 1]]],
    ["region", [zarr.slice(3, a - 2), zarr.slice(5, b - 1)], [[3, a - 2, 1], [5, b - 1, 1]]],
    ["steps", [zarr.slice(1, a, 3), zarr.slice(0, b, 4)], [[1, a, 3], [0, b, 4]]],
    ["an integer index", [a - 7, zarr.slice(2, b - 1, 2)], [a - 7, [2, b - 1, 2]]],
  ];
}

/** `selection` with the trailing dimension, where there is one, taken whole. */
export function withTrailing(selection, layout) {
  return selection && layout.trailing ? [...selection, null] : selection;
}

/**
 * The bytes (C order) of `ranges` of an array of `shape` whose values are
 * `hex` (C order, `width` bytes each), and the selection's shape.
 */
export function expectedSelection(hex, shape, width, ranges) {
  const src = Buffer.from(hex, "hex");
  const axes = ranges.map((r) => {
    if (typeof r === "number") return [r];
    const out = [];
    for (let v = r[0]; v < r[1]; v += r[2]) out.push(v);
    return out;
  });
  const outShape = ranges.flatMap((r, i) => (typeof r === "number" ? [] : [axes[i].length]));
  const stride = shape.map((_, i) => shape.slice(i + 1).reduce((x, y) => x * y, 1));
  const n = axes.reduce((x, list) => x * list.length, 1);
  const out = new Uint8Array(n * width);
  const index = new Array(shape.length).fill(0);
  for (let k = 0; k < n; k++) {
    const at = index.reduce((s, v, i) => s + axes[i][v] * stride[i], 0);
    out.set(src.subarray(at * width, at * width + width), k * width);
    for (let i = shape.length - 1; i >= 0 && ++index[i] === axes[i].length; i--) index[i] = 0;
  }
  return { bytes: out, shape: outShape };
}

/** "" where `result` holds `want` ({bytes, shape}), else what differs first. */
export function differsFrom(result, want, layout) {
  const shape = layout.trailing ? [...want.shape, layout.trailing] : want.shape;
  if (JSON.stringify(result.shape) !== JSON.stringify(shape)) return `shape ${JSON.stringify(result.shape)}, expected ${JSON.stringify(shape)}`;
  const got = cOrderBytes(result);
  if (got.length !== want.bytes.length) return `${got.length} bytes, expected ${want.bytes.length}`;
  const first = got.findIndex((v, i) => v !== want.bytes[i]);
  return first < 0 ? "" : `element ${Math.floor(first / layout.width)} differs (byte ${first})`;
}

export const V2_NAMES = Object.keys(V2_EXPECTED);
export const V3_NAMES = Object.keys(V3_EXPECTED);
export const N5_NAMES = Object.keys(N5_EXPECTED).filter((k) => !N5_EXPECTED[k].refused);

/** The package's error in `error` or its causes (zarrita wraps codec errors as their cause). */
export function packageErrorOf(error) {
  for (let e = error, depth = 0; e && depth < 6; e = e.cause, depth++) {
    if (e instanceof ZarrCodecError) return e;
  }
  return undefined;
}
