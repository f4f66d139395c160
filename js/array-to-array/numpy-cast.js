// numpy's `astype` between numeric types (numpy 1.24 on x86-64, what
// Debian's numcodecs 0.11 runs on), one element at a time: pure functions
// a wasm kernel can replace. The filters' own small helpers, separate from
// cast_value's (whose rules are the zarr-extensions page's, not numpy's).
//
// - to a float: the nearest value, ties to even (one rounding, also from
//   64-bit integers to float32);
// - float to integer: truncated toward zero; a value the machine
//   conversion cannot hold gives what x86's cvttsd2si gives numpy (the
//   "integer indefinite" 0x80...0), then the low bits. numpy documents
//   such values as undefined; these are the values it gives, measured in
//   scripts/make-filter-fixtures.py's edge cases;
// - integer to integer: the low bits (wrap-around), as C casts.

const TWO31 = 2 ** 31;
const TWO63 = 2 ** 63;
const INT64_MIN = -(2n ** 63n);

/** x86's 32-bit truncating conversion: out of range and NaN give INT_MIN. */
function cvt32(x) {
  const t = Math.trunc(x);
  return t >= -TWO31 && t < TWO31 ? t : -TWO31;
}

/** x86's 64-bit truncating conversion, as a BigInt. */
function cvt64(x) {
  const t = Math.trunc(x);
  return t >= -TWO63 && t < TWO63 ? BigInt(t) : INT64_MIN;
}

// float -> uint32 and uint64: numpy's compiled code subtracts 2^31 (2^63)
// from values at or above it and flips the top bit back; NaN takes the
// other branch. For uint32 this is numpy's vector loop (blocks of 4
// elements); its scalar loop, which takes the last elements of an array
// whose length is not a multiple of 4, gives 0 for NaN and -inf instead.
function floatToUint32(x) {
  if (x >= TWO31) return (cvt32(x - TWO31) ^ 0x80000000) >>> 0;
  return cvt32(x) >>> 0;
}

function floatToUint64(x) {
  if (x >= TWO63) return BigInt.asUintN(64, cvt64(x - TWO63) ^ INT64_MIN);
  return BigInt.asUintN(64, cvt64(x));
}

/**
 * A 64-bit integer as the nearest float32 (ties to even), rounded once:
 * Math.fround(Number(v)) would round twice (to 53 bits, then 24) and can
 * land on the other side of a tie. Bits below the 26 kept are folded into
 * the lowest one ("round to odd"), which a single later rounding to 24
 * bits reads exactly as the whole value.
 */
export function float32OfBigInt(v) {
  const negative = v < 0n;
  let a = negative ? -v : v;
  const length = a.toString(2).length;
  let scale = 1;
  if (length > 26) {
    const shift = BigInt(length - 26);
    const sticky = (a & ((1n << shift) - 1n)) !== 0n;
    a = (a >> shift) | (sticky ? 1n : 0n);
    scale = 2 ** (length - 26);
  }
  const x = Math.fround(Number(a) * scale);
  return negative ? -x : x;
}

const identity = (v) => v;
const toBigInt = (v) => BigInt(v);
const low32 = (v) => Number(BigInt.asIntN(32, v));

/**
 * The function that converts one element of type `from` into what a
 * TypedArray of `to` stores for it (its own assignment then wraps integers
 * to their width, as numpy's C casts do).
 * @param {import("./numpy-types.js").NumericType} from
 * @param {import("./numpy-types.js").NumericType} to
 * @returns {(value: any) => any}
 */
export function converter(from, to) {
  if (to.kind === "f") {
    if (from.big) return to.size === 4 ? float32OfBigInt : Number;
    return to.size === 4 ? Math.fround : identity;
  }
  if (from.kind === "f") {
    if (to.size === 8) return to.kind === "u" ? floatToUint64 : cvt64;
    if (to.size === 4 && to.kind === "u") return floatToUint32;
    return cvt32;
  }
  if (to.big) return from.big ? identity : toBigInt;
  return from.big ? low32 : identity;
}

/**
 * `input` (elements of `from`) as a new TypedArray of `to`: numpy's
 * `input.astype(to)`.
 */
export function castArray(input, from, to) {
  const out = new to.Array(input.length);
  const convert = converter(from, to);
  if (convert === identity) out.set(input);
  else for (let i = 0; i < input.length; i++) out[i] = convert(input[i]);
  return out;
}
