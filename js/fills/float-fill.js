// A float component's fill (float16, float32, float64, bfloat16 and the
// narrow formats of the registry) from its JSON forms to the component's
// bit code: a number (rounded to nearest even, as writes are), "NaN" (the
// format's own NaN code), "Infinity" and "-Infinity", or a hex code of
// exactly the format's digits (any bit pattern: NaN payloads, -0). The
// code is the fill, so nothing on its way to the stored bytes goes
// through a JavaScript number (which would drop a NaN's payload). Narrow
// formats round through the same wasm kernels the codecs write with (one
// source of truth for their rules).
import { BytesCodec } from "../codecs/bytes.js";
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

// A narrow format's code for `x`, through the core's narrowing.
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
  // Rounded to nearest even, as writes are; past the largest value (where
  // a write would overflow or saturate) it is not a value of the format.
  const ulp = 2 ** (Math.floor(Math.log2(t.floatLargest)) - t.floatMantissaBits);
  if (Math.abs(value) >= t.floatLargest + ulp / 2 && t.name !== "float8_e8m0fnu") {
    throw refuseFill(where, fill, `is beyond ${t.name}'s largest value ${t.floatLargest}`);
  }
  let code;
  try {
    code = narrowCode(t.name, value);
  } catch (error) {
    if (error.code !== "VALUE_OUT_OF_RANGE") throw error;
    throw refuseFill(where, fill, `cannot be ${t.name}`);
  }
  if (!Number.isFinite(widenCode(t.name, code))) {
    throw refuseFill(where, fill, `is beyond ${t.name}'s largest value ${t.floatLargest}`);
  }
  return code;
}
