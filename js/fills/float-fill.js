// A float component's fill (float16, float32, float64, bfloat16 and the
// narrow formats of the registry) from its JSON forms to the component's
// bit code: a number, "NaN" (the format's own NaN code), "Infinity" and
// "-Infinity", or a hex code of exactly the format's digits (any bit
// pattern: NaN payloads, -0). The code is the fill, so nothing on its way
// to the stored bytes goes through a JavaScript number (which would drop a
// NaN's payload).
//
// A number is the double JSON gives, narrowed as the writers narrow it
// (docs/data-types.md, "Fill values of narrow floats"): rounded once, to
// nearest with ties to even, straight from the double (numpy's float16,
// ml_dtypes' float8/float6/float4 scalars), except bfloat16, which
// ml_dtypes (Eigen's bfloat16) rounds to float32 first. Past the largest
// value it is what those libraries give: infinity, NaN or the largest
// value, by format. The core's kernels only encode the exact result (one
// source of truth for the formats' layouts); they never round it.
import { BytesCodec } from "../codecs/bytes.js";
import { binade } from "../floats/float-formats.js";
import { refuseFill } from "./refusal.js";

/** The fill_value strings that name a special value (a Map: no prototype names). */
export const SPECIAL = new Map([
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
]);

/**
 * A hex fill ("0x7fc0"): the code, with exactly the digits its bits take
 * (4 bits a digit: "0x7" for float4, "0x3f" for float6 and float8,
 * "0x7fc0" for bfloat16, 16 digits for float64, as a BigInt); undefined
 * for a string that is no hex code.
 */
export function hexCode(where, fill, bits) {
  if (typeof fill !== "string" || !/^0x[0-9a-fA-F]+$/.test(fill)) return undefined;
  const digits = Math.ceil(bits / 4);
  if (fill.length !== 2 + digits) {
    throw refuseFill(where, fill, `must have exactly ${digits} hex digits for ${bits}-bit codes, got ${fill.length - 2}`);
  }
  if (digits > 8) return BigInt(fill);
  const code = parseInt(fill.slice(2), 16);
  if (code >= 2 ** bits) throw refuseFill(where, fill, `has more than ${bits} bits`);
  return code;
}

/** A number, or a BigInt literal (past 2^53) as the number it is. */
function numberOf(fill) {
  if (typeof fill === "bigint") return Number(fill);
  if (typeof fill === "string" && SPECIAL.has(fill)) return SPECIAL.get(fill);
  return fill;
}

// A narrow format's code for `x`, through the core's narrowing; `x` is a
// value of the format (or an infinity), so the kernel encodes, not rounds.
function narrowCode(name, x) {
  const codec = new BytesCodec({ endian: "little" }, { dataType: name, shape: [1] }, { floats: "float32" });
  try {
    const bytes = codec.encode({ data: new Float32Array([x]) });
    return bytes.length === 2 ? bytes[0] | (bytes[1] << 8) : bytes[0];
  } finally {
    codec.dispose();
  }
}

// The float32 value of a narrow format's code, through the core's widening.
function widenCode(name, code) {
  const codec = new BytesCodec({ endian: "little" }, { dataType: name, shape: [1] }, { floats: "float32" });
  try {
    const bytes = new Uint8Array([code & 0xff, code >> 8]).subarray(0, codec.computeEncodedSize(4));
    return codec.decode(bytes).data[0];
  } finally {
    codec.dispose();
  }
}

// Formats whose writer narrows a double through float32 (two roundings):
// ml_dtypes' bfloat16 is Eigen's, whose constructor from a double is
// `float_to_bfloat16_rtne(static_cast<float>(value))`.
const VIA_FLOAT32 = new Set(["bfloat16"]);

// Each format's grid, from the core's own codes (a Map: no prototype names).
const grids = new Map();

/**
 * What rounding needs of a narrow format: its mantissa bits, `unit` (the
 * value of code 1: the smallest subnormal, and for float8_e8m0fnu 2^-126,
 * the step below which ml_dtypes rounds as if subnormals were there),
 * `least` (code 0's value: 0, or 2^-127 for float8_e8m0fnu, which has no
 * zero), its largest value, and what lies past it.
 */
function gridOf(t) {
  let grid = grids.get(t.name);
  if (!grid) {
    grid = {
      mantissaBits: t.floatMantissaBits,
      unit: widenCode(t.name, 1),
      least: widenCode(t.name, 0),
      largest: t.floatLargest,
      // ml_dtypes' non-saturating conversion gives the format's
      // `infinity()`: infinity where there is one, the NaN code for fnuz
      // and float8_e8m0fnu, the largest value for float4/float6 (which
      // name it their infinity).
      overflow: t.floatHasInfinity ? "infinity" : t.floatNanCode < 0 ? "largest" : "nan",
    };
    grids.set(t.name, grid);
  }
  return grid;
}

/**
 * |x| rounded once to the format's grid: the nearest multiple of the
 * spacing at |x| (2^(binade - mantissa bits), never finer than `unit`),
 * ties to the even multiple. Every step is exact in doubles: the spacing
 * is a power of two, the quotient has at most 53 bits, and the floor and
 * the difference of a number below 2^12 are exact.
 */
function roundToGrid(grid, a) {
  const spacing = Math.max(2 ** (binade(a) - grid.mantissaBits), grid.unit);
  const q = a / spacing;
  let n = Math.floor(q);
  const rest = q - n;
  if (rest > 0.5 || (rest === 0.5 && n % 2 === 1)) n += 1;
  return n * spacing;
}

/** The code of the finite number `x` in a narrow format, as its writer narrows it. */
function narrowNumber(t, x) {
  const grid = gridOf(t);
  const value = VIA_FLOAT32.has(t.name) ? Math.fround(x) : x;
  if (!Number.isFinite(value)) return narrowCode(t.name, value); // float32 overflowed: infinity
  if (grid.least !== 0 && !(value > 0)) {
    // float8_e8m0fnu: no sign and no zero; ml_dtypes gives NaN.
    return t.floatNanCode;
  }
  const magnitude = roundToGrid(grid, Math.abs(value));
  const sign = value < 0 || Object.is(value, -0) ? -1 : 1;
  if (magnitude > grid.largest) {
    if (grid.overflow === "infinity") return narrowCode(t.name, sign * Infinity);
    if (grid.overflow === "largest") return narrowCode(t.name, sign * grid.largest);
    return t.floatNanCode;
  }
  // Zero is the least code where the format has no zero (float8_e8m0fnu,
  // as ml_dtypes reads its subnormal step's zero).
  return narrowCode(t.name, sign * Math.max(magnitude, grid.least));
}

const scratch = new DataView(new ArrayBuffer(8));

/**
 * The bit code of a float component's fill.
 * @param {string} where
 * @param {object} t the component's typeInfo (typeClass "float")
 * @param {unknown} fill its JSON form
 * @returns {number | bigint} a BigInt for 64-bit formats
 */
export function floatCode(where, t, fill) {
  const bits = t.componentBits;
  const hex = hexCode(where, fill, bits);
  if (hex !== undefined) return hex;
  const value = numberOf(fill);
  if (typeof value !== "number") {
    const hexForm = t.floatFormat ? "a hex code" : `a hex code of ${Math.ceil(bits / 4)} digits`;
    throw refuseFill(where, fill, `must be a number, "NaN", "Infinity", "-Infinity" or ${hexForm} for ${t.name}`);
  }
  if (!t.floatFormat) {
    // float32, float64: IEEE 754 as the platform rounds; NaN is the quiet
    // NaN with no payload, as numpy writes "NaN".
    if (bits === 32) {
      scratch.setFloat32(0, Number.isNaN(value) ? NaN : value, true);
      return Number.isNaN(value) ? 0x7fc00000 : scratch.getUint32(0, true);
    }
    if (Number.isNaN(value)) return 0x7ff8000000000000n;
    scratch.setFloat64(0, value, true);
    return scratch.getBigUint64(0, true);
  }
  if (Number.isNaN(value)) {
    if (t.floatNanCode < 0) throw refuseFill(where, fill, `cannot be ${t.name}: the format has no NaN`);
    return t.floatNanCode;
  }
  if (!Number.isFinite(value)) {
    if (!t.floatHasInfinity) throw refuseFill(where, fill, `cannot be ${t.name}: the format has no infinity`);
    return narrowCode(t.name, value);
  }
  return narrowNumber(t, value);
}

