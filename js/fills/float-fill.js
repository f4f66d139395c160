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
// ml_dtypes (Eigen's bfloat16) rounds to float32 first. That is
// cast_value's nearest-even (floats/rounding.js), the one rounding to a
// narrow grid; float8_e8m0fnu alone rounds by ml_dtypes' own rule (below).
// Past the largest value it is what those libraries give: infinity, NaN or
// the largest value, by format. Pure JavaScript over the formats' table
// (floats/float-formats.js, checked against the wasm core's), so that
// cast_value's and scale_offset's scalars parse with no wasm loaded.
import { ZarrCodecError } from "../errors.js";
import { binade, codeOfValue, FLOAT_FORMATS } from "../floats/float-formats.js";
import { roundToFormat } from "../floats/rounding.js";
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

// Formats whose writer narrows a double through float32 (two roundings):
// ml_dtypes' bfloat16 is Eigen's, whose constructor from a double is
// `float_to_bfloat16_rtne(static_cast<float>(value))`.
const VIA_FLOAT32 = new Set(["bfloat16"]);

// What a writer gives past the largest value: ml_dtypes' non-saturating
// conversion gives the format's `infinity()`: infinity where there is one,
// the NaN code for fnuz, the largest value for float4/float6 (which name
// it their infinity).
function overflowCode(format, negative) {
  if (format.hasInfinity) return codeOfValue(format, negative ? -Infinity : Infinity);
  if (format.kind === "fnuz") return format.nanCode;
  return codeOfValue(format, negative ? -format.largest : format.largest);
}

// float8_e8m0fnu as ml_dtypes' ConvertImpl narrows a double, which is not
// cast_value's rounding: its significand's rounding bit is the implicit
// one, so from 2^-126 up a value rounds to the power of two below it
// until 1.5 times that power and to the one above from there (halfway
// rounds up, not to the even code); below 2^-126, 2^-127 (code 0: there
// is no zero) up to 2^-127 itself and 2^-126 above it. Zero, negative
// numbers and what rounds past 2^127 are NaN.
function e8m0Code(format, x) {
  if (!(x > 0)) return format.nanCode;
  const least = format.least;
  const b = binade(x);
  const exponent = x <= least ? -format.bias : x < 2 * least ? 1 - format.bias : x >= 1.5 * 2 ** b ? b + 1 : b;
  const code = exponent + format.bias;
  return code >= format.nanCode ? format.nanCode : code;
}

/** The code of the finite number `x` in a narrow format, as its writer narrows it. */
function narrowNumber(name, format, x) {
  if (format.kind === "e8m0") return e8m0Code(format, x);
  const value = VIA_FLOAT32.has(name) ? Math.fround(x) : x;
  if (!Number.isFinite(value)) return codeOfValue(format, value); // float32 overflowed: infinity
  const rounded = roundToFormat(value, format, "nearest-even");
  if (Math.abs(rounded) > format.largest) return overflowCode(format, rounded < 0);
  return codeOfValue(format, rounded);
}

const scratch = new DataView(new ArrayBuffer(8));

/**
 * The bit code of a float component's fill.
 * @param {string} where
 * @param {string} name the component's type: "float32", "float64" or a
 *   narrow format (floats/float-formats.js)
 * @param {unknown} fill its JSON form
 * @returns {number | bigint} a BigInt for 64-bit formats
 */
export function floatCode(where, name, fill) {
  const format = FLOAT_FORMATS.get(name);
  const bits = format ? format.bits : name === "float32" ? 32 : name === "float64" ? 64 : 0;
  // A float type of the core's with no layout here (a format added to
  // src/types/float_format.cpp alone): refused, never written as another.
  if (bits === 0) throw new ZarrCodecError("UNSUPPORTED_DATA_TYPE", `${where}: no float layout for ${name} (expected float32, float64 or one of ${[...FLOAT_FORMATS.keys()].join(", ")})`);
  const hex = hexCode(where, fill, bits);
  if (hex !== undefined) return hex;
  const value = numberOf(fill);
  if (typeof value !== "number") {
    const hexForm = format ? "a hex code" : `a hex code of ${Math.ceil(bits / 4)} digits`;
    throw refuseFill(where, fill, `must be a number, "NaN", "Infinity", "-Infinity" or ${hexForm} for ${name}`);
  }
  if (!format) {
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
    if (!format.hasNaN) throw refuseFill(where, fill, `cannot be ${name}: the format has no NaN`);
    return format.nanCode;
  }
  if (!Number.isFinite(value)) {
    if (!format.hasInfinity) throw refuseFill(where, fill, `cannot be ${name}: the format has no infinity`);
    return codeOfValue(format, value);
  }
  return narrowNumber(name, format, value);
}
