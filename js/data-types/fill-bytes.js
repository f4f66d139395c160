// A fill value of any fixed-size type as its element's bytes, every
// multi-byte component little-endian: how a struct's fill (each field's
// fill, by the field's own rules) becomes the record bytes withDataTypes
// presents, and raw bytes' fills their bytes.
import { isPlainObject, hasOwn, prefix } from "../errors.js";
import { typeInfo } from "../types/type-info.js";
import { asNumber, floatComponentCode, hexCode, refuseFill, SPECIAL } from "./float-codes.js";

export const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** The refusal of a datetime fill int64Of does not take. */
export const INT64_EXPECTED = 'must be an integer in -2^63..2^63-1 or "NaT"';

/**
 * A datetime fill as an int64: "NaT" (-2^63), a BigInt (the lossless JSON
 * parser's form past 2^53) or a safe integer, within int64's range;
 * undefined for anything else.
 */
export function int64Of(fill) {
  let n;
  if (fill === "NaT") n = INT64_MIN;
  else if (typeof fill === "bigint") n = fill;
  else if (Number.isSafeInteger(fill)) n = BigInt(fill);
  return n !== undefined && n >= INT64_MIN && n <= INT64_MAX ? n : undefined;
}

/**
 * @param {string} where
 * @param {import("../types/data-type.js").DataType} type
 * @param {unknown} fill its JSON form (BigInt where it was past 2^53)
 * @returns {Uint8Array}
 */
export function fillBytes(where, type, fill) {
  const out = new Uint8Array(type.bytes);
  write(where, type, fill, out, 0);
  return out;
}

function write(where, type, fill, out, at) {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const t = type.info;
  if (type.record) {
    if (!isPlainObject(fill)) throw refuseFill(where, fill, `must be an object with a value for each field of the ${type.name}`);
    const names = new Set(type.record.fields.map((f) => f.name));
    for (const key of Object.keys(fill)) {
      if (!names.has(key)) throw refuseFill(where, fill, `has a member ${JSON.stringify(prefix(key, 64))} that is no field of the ${type.name}`);
    }
    for (const field of type.record.fields) {
      if (!hasOwn(fill, field.name)) throw refuseFill(where, fill, `has no value for field ${JSON.stringify(prefix(field.name, 64))}`);
      write(`${where}: field ${JSON.stringify(prefix(field.name, 64))}`, field.type, fill[field.name], out, at + field.offset);
    }
    return;
  }
  if (type.name === "fixed_length_utf32") {
    if (typeof fill !== "string") throw refuseFill(where, fill, "must be a string");
    const points = Array.from(fill, (c) => c.codePointAt(0));
    if (points.length > type.codePoints) {
      throw refuseFill(where, fill, `has ${points.length} code points, more than the ${type.codePoints} of the fixed_length_utf32`);
    }
    points.forEach((p, i) => view.setUint32(at + 4 * i, p, true));
    return;
  }
  if (t.typeClass === "raw") {
    const n = type.bytes;
    if (!Array.isArray(fill) || fill.length !== n || !fill.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
      throw refuseFill(where, fill, `must be an array of ${n} byte values (0..255)`);
    }
    out.set(fill, at);
    return;
  }
  if (t.componentCount === 2) {
    if (!Array.isArray(fill) || fill.length !== 2) throw refuseFill(where, fill, "must be [real, imaginary]");
    const part = typeInfo(componentName(t.name));
    writeComponent(where, part, fill[0], view, at);
    writeComponent(where, part, fill[1], view, at + t.containerBytes);
    return;
  }
  if (type.time) {
    const n = int64Of(fill);
    if (n === undefined) throw refuseFill(where, fill, INT64_EXPECTED);
    view.setBigInt64(at, n, true);
    return;
  }
  writeComponent(where, t, fill, view, at);
}

/** complex64 -> float32, complex_bfloat16 -> bfloat16. */
export function componentName(name) {
  if (name === "complex64") return "float32";
  if (name === "complex128") return "float64";
  return name.replace(/^complex_/, "");
}

function writeComponent(where, t, fill, view, at) {
  const bits = t.componentBits;
  switch (t.typeClass) {
    case "bool":
      if (fill !== true && fill !== false) throw refuseFill(where, fill, "must be true or false for bool");
      view.setUint8(at, fill ? 1 : 0);
      return;
    case "signed":
    case "unsigned": {
      const signed = t.typeClass === "signed";
      const lo = signed ? -(2n ** BigInt(bits - 1)) : 0n;
      const hi = signed ? 2n ** BigInt(bits - 1) - 1n : 2n ** BigInt(bits) - 1n;
      const n = typeof fill === "bigint" ? fill : Number.isSafeInteger(fill) ? BigInt(fill) : undefined;
      if (n === undefined || n < lo || n > hi) throw refuseFill(where, fill, `is outside ${t.name}'s range ${lo}..${hi}`);
      // Sub-byte values take a byte each, sign- or zero-extended.
      const bytes = Math.max(1, bits / 8);
      for (let i = 0; i < bytes; i++) view.setUint8(at + i, Number((BigInt.asUintN(64, n) >> BigInt(8 * i)) & 0xffn));
      return;
    }
    case "float": {
      if (t.floatFormat) {
        const code = floatComponentCode(where, t, fill);
        view.setUint8(at, code & 0xff);
        if (t.containerBytes === 2) view.setUint8(at + 1, code >> 8);
        return;
      }
      const hex = hexCode(where, fill, bits);
      if (hex !== undefined) {
        if (bits === 32) view.setUint32(at, hex, true);
        else view.setBigUint64(at, hex, true);
        return;
      }
      const value = typeof fill === "string" && SPECIAL.has(fill) ? SPECIAL.get(fill) : asNumber(fill);
      if (typeof value !== "number") {
        throw refuseFill(where, fill, `must be a number, "NaN", "Infinity", "-Infinity" or a hex code of ${bits / 4} digits for ${t.name}`);
      }
      if (bits === 32) view.setFloat32(at, value, true);
      else view.setFloat64(at, value, true);
      return;
    }
    default:
      throw refuseFill(where, fill, `cannot be a fill of ${t.name}`);
  }
}
