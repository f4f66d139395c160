// What withDataTypes should present for an array of
// tests/fixtures/v3-data-types.zarr: its stored codes (expected.json) turned
// into the presented container by the references of reference.js, from
// the types' definitions alone.
import { floatFormatBits, floatFormatValue, FLOAT_FORMATS } from "./reference.js";

const INTS = {
  int2: Int8Array, int4: Int8Array, uint2: Uint8Array, uint4: Uint8Array,
  uint8: Uint8Array, uint16: Uint16Array, int64: BigInt64Array,
};

/**
 * @param {{component: string, shape: number[], trailing: number, codes: (number|string)[]}} entry
 * @param {"float32" | "bits"} floats
 * @returns {{data: ArrayLike<unknown>, shape: number[], widened: boolean}}
 */
export function presentedOf(entry, floats) {
  const { component, codes } = entry;
  const shape = entry.trailing ? [...entry.shape, entry.trailing] : entry.shape;
  let data;
  let widened = false;
  if (INTS[component]) {
    data = INTS[component] === BigInt64Array
      ? BigInt64Array.from(codes, (c) => BigInt(c))
      : INTS[component].from(codes);
  } else if (component === "float32" || component === "float64") {
    const bits = component === "float32" ? Uint32Array.from(codes) : BigUint64Array.from(codes, (c) => BigInt(c));
    data = component === "float32" ? new Float32Array(bits.buffer) : new Float64Array(bits.buffer);
  } else if (FLOAT_FORMATS[component]) {
    const native = component === "float16" && typeof globalThis.Float16Array === "function";
    const mask = 2 ** floatFormatBits(component) - 1;
    if (native || floats === "bits") {
      // Bit patterns (the ignored upper bits cleared); float16 natively where
      // the runtime has Float16Array, compared by its bits.
      data = (floatFormatBits(component) > 8 ? Uint16Array : Uint8Array).from(codes, (c) => c & mask);
    } else {
      data = Float32Array.from(codes, (c) => floatFormatValue(component, c & mask));
      widened = true;
    }
  } else {
    throw new Error(`presentedOf: no reference for ${component}`);
  }
  return { data, shape, widened };
}

const bytesOf = (x) => new Uint8Array(x.buffer, x.byteOffset, x.byteLength);

/**
 * zarr.get's result in C order: zarrita returns an array in its native
 * order (a transpose codec's), with the strides to match.
 */
export function inCOrder({ data, shape, stride }) {
  const n = shape.reduce((a, b) => a * b, 1);
  const c = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  if (stride.every((s, i) => s === c[i] || shape[i] === 1)) return data;
  const out = new data.constructor(n);
  for (let i = 0; i < n; i++) {
    let rem = i;
    let at = 0;
    for (let d = shape.length - 1; d >= 0; d--) {
      at += (rem % shape[d]) * stride[d];
      rem = Math.floor(rem / shape[d]);
    }
    out[i] = data[at];
  }
  return out;
}

/**
 * Compares decoded values with the reference: bit for bit, or where
 * widened (float32 values from a narrower format), value for value with
 * any NaN where the reference has NaN. "" when they agree.
 */
export function sameValues(actual, expected, widened) {
  if (!widened) {
    const [x, y] = [bytesOf(actual), bytesOf(expected)];
    if (x.length !== y.length) return `${x.length} bytes, expected ${y.length}`;
    const at = x.findIndex((b, i) => b !== y[i]);
    return at < 0 ? "" : `byte ${at}: ${x[at]}, expected ${y[at]}`;
  }
  const a = actual;
  if (a.length !== expected.length) return `length ${a.length}, expected ${expected.length}`;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = expected[i];
    const same = widened && Number.isNaN(y) ? Number.isNaN(x) : Object.is(x, y);
    if (!same) return `value ${i}: ${x}, expected ${y}`;
  }
  return "";
}
