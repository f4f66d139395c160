// The floating-point formats narrower than float32, as their data-type
// pages (zarr-extensions) lay them out: exponent and mantissa bits, bias,
// and kind. Every value of every format is a double exactly, so a code is
// read into a JavaScript number and a number that lies on a format's grid
// is written back to its code, with no rounding here (rounding.js decides
// which grid value a number becomes).
//
// The wasm core holds the same table (src/types/float_format.cpp,
// kFloatFormats); this copy lets the JavaScript codecs (cast_value,
// scale_offset, FixedScaleOffset) and the fill parser run without the
// wasm, and tests/js/codecs/float-formats-core.test.js checks every field
// of every format, and every code's value, against the core's (typeInfo).
//
// Kinds: "ieee" (all-ones exponent is infinity or NaN), "fnuz" (one NaN,
// 0x80; no -0; no infinity), "fn" (finite: every code a number), "e8m0"
// (no sign, no zero: 2^(code - 127); 0xFF is NaN). float32 and float64 are
// the platform's own (Math.fround, plain doubles).

export const FLOAT_FORMATS = new Map([
  ["float16", { bits: 16, exponentBits: 5, mantissaBits: 10, bias: 15, kind: "ieee" }],
  ["bfloat16", { bits: 16, exponentBits: 8, mantissaBits: 7, bias: 127, kind: "ieee" }],
  ["float8_e3m4", { bits: 8, exponentBits: 3, mantissaBits: 4, bias: 3, kind: "ieee" }],
  ["float8_e4m3", { bits: 8, exponentBits: 4, mantissaBits: 3, bias: 7, kind: "ieee" }],
  ["float8_e5m2", { bits: 8, exponentBits: 5, mantissaBits: 2, bias: 15, kind: "ieee" }],
  ["float8_e4m3fnuz", { bits: 8, exponentBits: 4, mantissaBits: 3, bias: 8, kind: "fnuz" }],
  ["float8_e4m3b11fnuz", { bits: 8, exponentBits: 4, mantissaBits: 3, bias: 11, kind: "fnuz" }],
  ["float8_e5m2fnuz", { bits: 8, exponentBits: 5, mantissaBits: 2, bias: 16, kind: "fnuz" }],
  ["float8_e8m0fnu", { bits: 8, exponentBits: 8, mantissaBits: 0, bias: 127, kind: "e8m0" }],
  ["float6_e2m3fn", { bits: 6, exponentBits: 2, mantissaBits: 3, bias: 1, kind: "fn" }],
  ["float6_e3m2fn", { bits: 6, exponentBits: 3, mantissaBits: 2, bias: 3, kind: "fn" }],
  ["float4_e2m1fn", { bits: 4, exponentBits: 2, mantissaBits: 1, bias: 1, kind: "fn" }],
]);

for (const format of FLOAT_FORMATS.values()) {
  const { exponentBits: e, mantissaBits: m, bias, kind } = format;
  // The largest exponent field that holds numbers: IEEE keeps the top one
  // for infinity and NaN; the others use it for numbers.
  const topField = kind === "ieee" ? 2 ** e - 2 : 2 ** e - 1;
  format.hasNaN = kind !== "fn";
  format.hasInfinity = kind === "ieee";
  format.hasNegativeZero = kind === "ieee" || kind === "fn";
  format.signed = kind !== "e8m0";
  // e8m0's top code is NaN, so its largest value is 2^(254 - 127).
  format.largest = kind === "e8m0" ? 2 ** (254 - bias) : (2 - 2 ** -m) * 2 ** (topField - bias);
  // The smallest positive value: the subnormal step (e8m0: 2^-127, code 0).
  format.least = kind === "e8m0" ? 2 ** -bias : 2 ** (1 - bias - m);
  // The smallest normal value: below it the spacing is `least`.
  format.minNormal = kind === "e8m0" ? 2 ** -bias : 2 ** (1 - bias);
  // The spec's "NaN" (the quiet NaN: the mantissa's top bit), -1: none.
  format.nanCode = kind === "ieee" ? (2 ** e - 1) * 2 ** m + 2 ** Math.max(m - 1, 0) : kind === "fnuz" ? 0x80 : kind === "e8m0" ? 0xff : -1;
  format.signBit = 2 ** (e + m);
}

const doubleBits = new DataView(new ArrayBuffer(8));

/**
 * floor(log2 a) of a positive finite double, exactly (from its bits; a
 * subnormal double's from its fraction).
 */
export function binade(a) {
  doubleBits.setFloat64(0, a);
  const field = doubleBits.getUint16(0) >> 4;
  if (field !== 0) return field - 1023;
  // A subnormal double: 2^-1074 times its 52-bit fraction.
  return Math.floor(Math.log2(a / 2 ** -1074)) - 1074;
}

// A NaN of an IEEE-style format as the double that carries its sign and
// payload (the mantissa at the top of float64's), as hardware widens it:
// a cast that keeps the number keeps them too (numeric-cast.js), as the
// wasm core's widening does.
function ieeeNaN(negative, mantissa, mantissaBits) {
  doubleBits.setUint32(0, (negative ? 0x80000000 : 0) | 0x7ff00000 | (mantissa * 2 ** (20 - mantissaBits)));
  doubleBits.setUint32(4, 0);
  return doubleBits.getFloat64(0);
}

// The code of a NaN double in an IEEE-style format: its sign and the top
// bits of its payload, quiet, as numpy's astype narrows a quiet NaN to
// float16 (and hardware to float32: the payload truncated, the quiet bit
// set, so a signalling NaN comes out quiet and no NaN becomes infinity).
function ieeeNaNCode(format, x) {
  doubleBits.setFloat64(0, x);
  const high = doubleBits.getUint32(0);
  const m = format.mantissaBits;
  // A double's payload's top 20 bits are in its high word; formats narrower
  // than float32 keep at most 10.
  const payload = (high & 0xfffff) >>> (20 - m);
  const sign = high >>> 31 ? format.signBit : 0;
  return sign + (2 ** format.exponentBits - 1) * 2 ** m + (payload | 2 ** (m - 1));
}

/** The number a code of `format` stands for (NaN, ±Infinity, ±0 included). */
export function valueOfCode(format, code) {
  const { exponentBits: e, mantissaBits: m, bias, kind } = format;
  if (kind === "e8m0") return code === 0xff ? NaN : 2 ** (code - bias);
  if (kind === "fnuz" && code === 0x80) return NaN;
  const sign = code & format.signBit ? -1 : 1;
  const field = (code >> m) & (2 ** e - 1);
  const mantissa = code & (2 ** m - 1);
  if (kind === "ieee" && field === 2 ** e - 1) return mantissa === 0 ? sign * Infinity : ieeeNaN(sign < 0, mantissa, m);
  if (field === 0) return sign * mantissa * 2 ** (1 - bias - m);
  return sign * (1 + mantissa / 2 ** m) * 2 ** (field - bias);
}

/**
 * The code of `x`, which must be a value of `format` (on its grid, within
 * its range, or a special value it has): the caller rounds first. A NaN
 * keeps its sign and payload's top bits where the format is IEEE-style;
 * the other formats have one NaN code.
 */
export function codeOfValue(format, x) {
  const { mantissaBits: m, bias, kind } = format;
  if (Number.isNaN(x)) return kind === "ieee" ? ieeeNaNCode(format, x) : format.nanCode;
  if (kind === "e8m0") return binade(x) + bias;
  const negative = x < 0 || Object.is(x, -0);
  const sign = negative && format.hasNegativeZero ? format.signBit : negative && x !== 0 ? format.signBit : 0;
  const a = Math.abs(x);
  if (a === Infinity) return sign | ((2 ** format.exponentBits - 1) << m);
  if (a === 0) return sign;
  if (a < format.minNormal) return sign | (a / format.least);
  const b = binade(a);
  return sign | ((b + bias) << m) | ((a / 2 ** b - 1) * 2 ** m);
}
