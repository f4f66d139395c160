// Fill values of float types, from their JSON forms (numbers, "NaN",
// "Infinity", "-Infinity", hex codes of the exact width) to bit codes, and
// codes to values: one value at a time through the same wasm kernels the
// codecs widen and narrow with (one source of truth).
import { BytesCodec } from "../codecs/bytes.js";
import { describe, ZarrCodecError } from "../errors.js";

/** The fill_value strings that name a special value (a Map: no prototype names). */
export const SPECIAL = new Map([
  ["NaN", NaN],
  ["Infinity", Infinity],
  ["-Infinity", -Infinity],
]);

export function refuseFill(where, fill, why) {
  return new ZarrCodecError("INVALID_METADATA", `${where}: fill_value ${showFill(fill)} ${why}`);
}

function showFill(fill) {
  try {
    if (typeof fill === "bigint") return String(fill);
    if (typeof fill === "number") return String(fill);
    if (Array.isArray(fill) && fill.length <= 8 && fill.every((v) => v === null || typeof v !== "object")) {
      return `[${fill.map((v) => (typeof v === "string" ? JSON.stringify(v) : String(v))).join(",")}]`;
    }
  } catch {
    // described below
  }
  return describe(fill);
}

/** A presented float as JSON can hold it: NaN and the infinities as strings. */
export function jsonFloat(x) {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return x;
}

/** The float32 value of a narrow format's code: one component through a one-value bytes codec in wasm. */
export function valueOfCode(component, code) {
  const codec = new BytesCodec({ endian: "little" }, { dataType: component, shape: [1] }, { floats: "float32" });
  try {
    const bytes = new Uint8Array([code & 0xff, code >> 8]).subarray(0, codec.computeEncodedSize(4));
    return codec.decode(bytes).data[0];
  } finally {
    codec.dispose();
  }
}

function narrowValue(component, x) {
  const codec = new BytesCodec({ endian: "little" }, { dataType: component, shape: [1] }, { floats: "float32" });
  try {
    const bytes = codec.encode({ data: new Float32Array([x]) });
    return bytes.length === 2 ? bytes[0] | (bytes[1] << 8) : bytes[0];
  } finally {
    codec.dispose();
  }
}

/**
 * A hex fill ("0x7fc0"): the code, with exactly the digits its bits take
 * (4 bits a digit: "0x7" for float4, "0x3f" for float6 and float8,
 * "0x7fc0" for bfloat16); undefined for a string that is no hex code.
 */
export function hexCode(where, fill, bits) {
  if (typeof fill !== "string" || !/^0x[0-9a-fA-F]+$/.test(fill)) return undefined;
  const digits = Math.ceil(bits / 4);
  if (fill.length !== 2 + digits) {
    throw refuseFill(where, fill, `must have exactly ${digits} hex digits for ${bits}-bit codes, got ${fill.length - 2}`);
  }
  const code = digits <= 8 ? parseInt(fill.slice(2), 16) : BigInt(fill);
  if (typeof code === "number" && code >= 2 ** bits) throw refuseFill(where, fill, `has more than ${bits} bits`);
  return code;
}

/** A fill as a JS number: BigInt literals (past 2^53) count as numbers. */
export function asNumber(fill) {
  return typeof fill === "bigint" ? Number(fill) : fill;
}

/**
 * The code of a narrow float component for a JSON fill value.
 * @param {object} t the component's typeInfo
 */
export function floatComponentCode(where, t, fill) {
  if (typeof fill === "string") {
    const hex = hexCode(where, fill, t.componentBits);
    if (hex !== undefined) return hex;
    if (fill === "NaN") {
      if (t.floatNanCode < 0) throw refuseFill(where, fill, `cannot be ${t.name}: the format has no NaN`);
      return t.floatNanCode;
    }
    if (fill === "Infinity" || fill === "-Infinity") {
      if (!t.floatHasInfinity) throw refuseFill(where, fill, `cannot be ${t.name}: the format has no infinity`);
      return narrowValue(t.name, SPECIAL.get(fill));
    }
  }
  const value = asNumber(fill);
  if (typeof value !== "number") {
    throw refuseFill(where, fill, `must be a number, "NaN", "Infinity", "-Infinity" or a hex code for ${t.name}`);
  }
  // Rounded to nearest even, as writes are; past the largest value (where
  // a write would overflow or saturate) it is not a value of the format.
  const ulp = 2 ** (Math.floor(Math.log2(t.floatLargest)) - t.floatMantissaBits);
  if (Math.abs(value) >= t.floatLargest + ulp / 2 && t.name !== "float8_e8m0fnu") {
    throw refuseFill(where, fill, `is beyond ${t.name}'s largest value ${t.floatLargest}`);
  }
  try {
    const code = narrowValue(t.name, value);
    if (!Number.isFinite(valueOfCode(t.name, code))) {
      throw refuseFill(where, fill, `is beyond ${t.name}'s largest value ${t.floatLargest}`);
    }
    return code;
  } catch (error) {
    if (error.code !== "VALUE_OUT_OF_RANGE") throw error;
    throw refuseFill(where, fill, `cannot be ${t.name}`);
  }
}

const NATIVE_BITS = new Map([["float16", 16], ["float32", 32], ["float64", 64]]);

/**
 * A fill of a float type zarrita reads itself (float16, float32, float64),
 * as the value zarrita fills with: a number, "NaN" or an infinity (hex is
 * not a form zarrita parses).
 */
export function nativeFloat(where, name, fill) {
  const bits = NATIVE_BITS.get(name);
  if (typeof fill === "number" || typeof fill === "bigint") return asNumber(fill);
  if (typeof fill === "string" && SPECIAL.has(fill)) return fill;
  const code = hexCode(where, fill, bits);
  if (code === undefined) {
    throw refuseFill(where, fill, `must be a number, "NaN", "Infinity", "-Infinity" or a hex code of ${bits / 4} digits for ${name}`);
  }
  if (bits === 16) return jsonFloat(valueOfCode("float16", code));
  const view = new DataView(new ArrayBuffer(8));
  if (bits === 32) {
    view.setUint32(0, code);
    return jsonFloat(view.getFloat32(0));
  }
  view.setBigUint64(0, code);
  return jsonFloat(view.getFloat64(0));
}
