// Fill values, from the stored type's JSON form (the zarr-extensions page of
// each type; numbers, "NaN", "Infinity", "-Infinity", hex codes, [re, im],
// "NaT", raw bytes) to the presented type's. Scalar float conversions run
// in the same wasm kernels as the codecs (one source of truth).
import { BytesCodec } from "../codecs/bytes.js";
import { describe, ZarrCodecError } from "../errors.js";
import { wasm } from "../wasm/load.js";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const SPECIAL = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity };

function refuse(where, fill, why) {
  return new ZarrCodecError("INVALID_METADATA", `${where}: fill_value ${showFill(fill)} ${why}`);
}

function showFill(fill) {
  if (typeof fill === "bigint") return String(fill);
  if (Array.isArray(fill) && fill.length <= 8) return JSON.stringify(fill, (_, v) => (typeof v === "bigint" ? Number(v) : v));
  return typeof fill === "number" ? String(fill) : describe(fill);
}

/** A presented float as JSON can hold it: NaN and the infinities as strings. */
function jsonFloat(x) {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  return x;
}

// One component through a one-value bytes codec in wasm: its code widened
// to float32, or a float32 narrowed to its code.
function widenCode(component, code) {
  const codec = new BytesCodec({ endian: "little" }, { dataType: component, shape: [1] }, { presentation: "float32" });
  try {
    const bytes = new Uint8Array([code & 0xff, code >> 8]).subarray(0, codec.computeEncodedSize(4));
    return codec.decode(bytes).data[0];
  } finally {
    codec.dispose();
  }
}

function narrowValue(component, x) {
  const codec = new BytesCodec({ endian: "little" }, { dataType: component, shape: [1] }, { presentation: "float32" });
  try {
    const bytes = codec.encode({ data: new Float32Array([x]) });
    return bytes.length === 2 ? bytes[0] | (bytes[1] << 8) : bytes[0];
  } finally {
    codec.dispose();
  }
}

function hexCode(where, fill, bits) {
  if (!/^0x[0-9a-fA-F]+$/.test(fill)) return undefined;
  const code = parseInt(fill.slice(2), 16);
  if (code >= 2 ** bits) throw refuse(where, fill, `has more than ${bits} bits`);
  return code;
}

/**
 * The code of a narrow float component for a JSON fill value.
 * @param {object} t the component's dataTypeInfo
 */
function floatComponentCode(where, t, fill) {
  if (typeof fill === "string") {
    const hex = hexCode(where, fill, t.componentBits);
    if (hex !== undefined) return hex;
    if (fill === "NaN") {
      if (t.floatNanCode < 0) throw refuse(where, fill, `cannot be ${t.name}: the format has no NaN`);
      return t.floatNanCode;
    }
    if (fill === "Infinity" || fill === "-Infinity") {
      if (!t.floatHasInfinity) throw refuse(where, fill, `cannot be ${t.name}: the format has no infinity`);
      return narrowValue(t.name, SPECIAL[fill]);
    }
  }
  if (typeof fill !== "number") {
    throw refuse(where, fill, `must be a number, "NaN", "Infinity", "-Infinity" or a hex code for ${t.name}`);
  }
  // Rounded to nearest even, as writes are; past the largest value (where
  // a write would overflow or saturate) it is not a value of the format.
  const ulp = 2 ** (Math.floor(Math.log2(t.floatLargest)) - t.floatMantissaBits);
  if (Math.abs(fill) >= t.floatLargest + ulp / 2 && t.name !== "float8_e8m0fnu") {
    throw refuse(where, fill, `is beyond ${t.name}'s largest value ${t.floatLargest}`);
  }
  try {
    const code = narrowValue(t.name, fill);
    if (!Number.isFinite(widenCode(t.name, code))) {
      throw refuse(where, fill, `is beyond ${t.name}'s largest value ${t.floatLargest}`);
    }
    return code;
  } catch (error) {
    if (error.code !== "VALUE_OUT_OF_RANGE") throw error;
    throw refuse(where, fill, `cannot be ${t.name}`);
  }
}

// A hex fill of a float zarrita reads itself (hex is not a form zarrita
// parses), as a number.
function nativeFloat(where, name, fill) {
  if (typeof fill === "number" || fill in SPECIAL) return fill;
  const bits = { float16: 16, float32: 32, float64: 64 }[name];
  if (typeof fill === "string" && /^0x[0-9a-fA-F]+$/.test(fill) && fill.length === 2 + bits / 4) {
    if (bits === 16) return jsonFloat(widenCode("float16", parseInt(fill, 16)));
    const view = new DataView(new ArrayBuffer(8));
    if (bits === 32) {
      view.setUint32(0, parseInt(fill, 16));
      return jsonFloat(view.getFloat32(0));
    }
    view.setBigUint64(0, BigInt(fill));
    return jsonFloat(view.getFloat64(0));
  }
  throw refuse(where, fill, `must be a number, "NaN", "Infinity", "-Infinity" or a ${bits / 4}-digit hex code for ${name}`);
}

/**
 * One presented component of the fill: what zarrita fills with.
 * @param {import("./presentation.js").Presentation} p
 */
function componentFill(where, p, fill) {
  const t = wasm().dataTypeInfo(p.component);
  if (p.kind === "int") {
    const bits = t.componentBits;
    const [lo, hi] = t.typeClass === "signed" ? [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1] : [0, 2 ** bits - 1];
    if (!Number.isInteger(fill) || fill < lo || fill > hi) {
      throw refuse(where, fill, `is outside ${t.name}'s range ${lo}..${hi}`);
    }
    return fill;
  }
  if (p.kind === "float") {
    const code = floatComponentCode(where, t, fill);
    return p.widen ? jsonFloat(widenCode(t.name, code)) : code;
  }
  // A type zarrita reads (a complex type's float32 component, say).
  if (p.presented === "float16" || p.presented === "float32" || p.presented === "float64") {
    return nativeFloat(where, p.presented, fill);
  }
  return fill;
}

/**
 * The presented fill: `value` for zarrita's metadata, and where zarrita
 * cannot fill with one number (a complex fill whose parts differ, raw
 * bytes that differ), `parts`, the values of one element along the
 * trailing dimension.
 * @param {string} where
 * @param {import("./presentation.js").Presentation} p
 * @param {unknown} fill
 * @param {{nullable?: boolean}} [options] Zarr v2 allows null (no fill)
 * @returns {{value: unknown, parts?: unknown[]}}
 */
export function presentFill(where, p, fill, { nullable = false } = {}) {
  if (fill === null && nullable) return { value: null };
  if (p.kind === "time") {
    let n;
    if (fill === "NaT") n = INT64_MIN;
    else if (typeof fill === "bigint") n = fill;
    else if (Number.isSafeInteger(fill) || (Number.isInteger(fill) && fill === -(2 ** 63))) n = BigInt(fill);
    if (n === undefined || n < INT64_MIN || n > INT64_MAX) {
      throw refuse(where, fill, 'must be an integer in -2^63..2^63-1 or "NaT"');
    }
    // As a decimal string: zarrita takes BigInt(fill_value), exact.
    return { value: String(n) };
  }
  if (p.trailing === 0) return { value: componentFill(where, p, fill) };
  let parts;
  if (p.kind === "raw") {
    if (!Array.isArray(fill) || fill.length !== p.trailing || !fill.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
      throw refuse(where, fill, `must be an array of ${p.trailing} byte values (0..255)`);
    }
    parts = fill;
  } else {
    if (!Array.isArray(fill) || fill.length !== 2) {
      throw refuse(where, fill, "must be [real, imaginary]");
    }
    parts = fill.map((part) => componentFill(where, p, part));
  }
  const numeric = parts.map((v) => (typeof v === "string" ? SPECIAL[v] : v));
  if (numeric.every((v) => Object.is(v, numeric[0]))) return { value: parts[0] };
  return { value: parts[0], parts: numeric };
}
