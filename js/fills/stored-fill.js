// The one place a fill value is parsed: from the metadata's JSON (read
// exactly: integers past 2^53 as BigInt, json/lossless.js) into the bytes
// of one stored element, as the `bytes` codec with endian "little" would
// write it (every multi-byte component little-endian, a record's fields in
// order, sub-byte integers one byte each sign- or zero-extended, strings'
// code points, byte strings zero-padded). Every path that fills (missing
// chunks through zarrita, read's fills, withDataTypes' presentation,
// sharded inner chunks, N5 blocks, records) starts from these bytes, so no
// two paths can read one fill differently.
//
// The JSON forms are the data types' pages' (zarr-extensions) and Zarr
// v2's: numbers, "NaN", "Infinity", "-Infinity" and hex codes of floats,
// [real, imaginary], "NaT", integers of any size, base64 (Zarr v2 byte
// strings, void and structured dtypes; legacy structured records;
// null_terminated_bytes), arrays of byte values (raw bytes), a struct's
// object of field fills, strings; Zarr v2's null (no fill: zeros).
import { hasOwn, isPlainObject, prefix } from "../errors.js";
import { BytesCodec } from "../codecs/bytes.js";
import { typeInfo } from "../types/type-info.js";
import { base64Bytes, byteValues, fillByteString } from "./byte-fill.js";
import { floatCode } from "./float-fill.js";
import { refuseFill, refuseRoundedFill } from "./refusal.js";

export const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * @typedef {object} FillOptions
 * @property {boolean} [v2]  Zarr v2 metadata: null is "no fill" (zeros),
 *   and records, void and byte strings are base64
 * @property {"big" | "little"} [storedEndian]  the bytes codec's, for a
 *   record fill given as the stored bytes in base64 (legacy structured)
 * @property {boolean} [rounded]  the JSON came through a parser that
 *   rounds integers past 2^53 (zarrita's consolidated metadata): such an
 *   integer is refused, not read as the wrong value
 */

/**
 * One stored element's bytes for the fill value `fill` of `type`.
 * @param {string} where starts every message ("withDataTypes: array /a")
 * @param {import("../types/data-type.js").DataType} type
 * @param {unknown} fill the metadata's JSON value
 * @param {FillOptions} [options]
 * @returns {Uint8Array}
 */
export function storedFill(where, type, fill, options = {}) {
  const out = new Uint8Array(type.bytes);
  if (fill === null && options.v2) return out;
  write(where, type, fill, out, 0, options);
  return out;
}

/**
 * The fill of variable-length bytes (variable_length_bytes, Zarr v2's "|O"
 * with vlen-bytes): the one value's bytes, of any length.
 * @param {string} where
 * @param {unknown} fill v3: base64 or an array of byte values; Zarr v2:
 *   also 0 and null, which read as empty bytes (numcodecs' VLenBytes
 *   writes 0 and None as b"", and zarr-python 2 writes fill 0)
 * @param {{v2?: boolean}} [options]
 * @returns {Uint8Array}
 */
export function variableBytesFill(where, fill, { v2 = false } = {}) {
  if (v2 && (fill === 0 || fill === null)) return new Uint8Array(0);
  return fillByteString(where, fill, { arrays: !v2 });
}

/**
 * An int64 from a datetime fill: "NaT" (-2^63), a BigInt or a safe
 * integer, within int64's range; undefined for anything else.
 */
function int64Of(fill) {
  let n;
  if (fill === "NaT") n = INT64_MIN;
  else if (typeof fill === "bigint") n = fill;
  else if (Number.isSafeInteger(fill)) n = BigInt(fill);
  // -2^63 is a double exactly: NaT as Zarr v2 writes it, rounded or not.
  else if (fill === -(2 ** 63)) n = INT64_MIN;
  return n !== undefined && n >= INT64_MIN && n <= INT64_MAX ? n : undefined;
}

/** A number past 2^53 that a rounding parser made of the metadata's integer. */
function roundedInteger(fill, options) {
  return options.rounded && typeof fill === "number" && Number.isInteger(fill) && !Number.isSafeInteger(fill);
}

function write(where, type, fill, out, at, options) {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const t = type.info;
  if (type.record) {
    writeRecord(where, type, fill, out, at, options);
    return;
  }
  if (type.nullTerminated) {
    // numpy's "|S<n>": the bytes, zero-padded (NULs at the end are padding).
    const bytes = fillByteString(where, fill);
    if (bytes.length > type.lengthBytes) {
      throw refuseFill(where, fill, `holds ${bytes.length} bytes, more than the ${type.lengthBytes} of each element`);
    }
    out.set(bytes, at);
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
    // The registry's array of byte values, or base64 (Zarr v2's void
    // dtypes: zarr-python 2 writes "|V3" fills as "AAAA"). Never swapped.
    const n = type.bytes;
    const base64 = base64Bytes(fill);
    if (base64 && base64.length !== n) throw refuseFill(where, fill, `holds ${base64.length} bytes in base64, but a value has ${n}`);
    const bytes = base64 ?? byteValues(fill);
    if (!bytes || bytes.length !== n) throw refuseFill(where, fill, `must be an array of ${n} byte values (0..255)`);
    out.set(bytes, at);
    return;
  }
  if (type.time) {
    if (roundedInteger(fill, options) && fill !== -(2 ** 63)) throw refuseRoundedFill(where, fill);
    const n = int64Of(fill);
    if (n === undefined) throw refuseFill(where, fill, 'must be an integer in -2^63..2^63-1 or "NaT"');
    view.setBigInt64(at, n, true);
    return;
  }
  if (t.componentCount === 2) {
    if (!Array.isArray(fill) || fill.length !== 2) throw refuseFill(where, fill, "must be [real, imaginary]");
    const part = typeInfo(componentName(t.name));
    writeComponent(where, part, fill[0], view, at, options);
    writeComponent(where, part, fill[1], view, at + t.containerBytes, options);
    return;
  }
  writeComponent(where, t, fill, view, at, options);
}

// A struct's object of field fills (each by its field's type), or a
// record's stored bytes in base64 (legacy structured, Zarr v2), read in
// the stored byte order and written with every field little-endian.
function writeRecord(where, type, fill, out, at, options) {
  const stored = base64Bytes(fill);
  if (stored) {
    if (stored.length !== type.bytes) throw refuseFill(where, fill, `holds ${stored.length} bytes in base64, but a record has ${type.bytes}`);
    const codec = new BytesCodec({ endian: options.storedEndian ?? "little" }, { dataType: type, shape: [1] });
    try {
      out.set(codec.decode(stored).data, at);
    } finally {
      codec.dispose();
    }
    return;
  }
  if (!isPlainObject(fill)) throw refuseFill(where, fill, `must be an object with a value for each field of the ${type.name}, or the record's bytes in base64`);
  const names = new Set(type.record.fields.map((f) => f.name));
  for (const key of Object.keys(fill)) {
    if (!names.has(key)) throw refuseFill(where, fill, `has a member ${JSON.stringify(prefix(key, 64))} that is no field of the ${type.name}`);
  }
  for (const field of type.record.fields) {
    if (!hasOwn(fill, field.name)) throw refuseFill(where, fill, `has no value for field ${JSON.stringify(prefix(field.name, 64))}`);
    write(`${where}: field ${JSON.stringify(prefix(field.name, 64))}`, field.type, fill[field.name], out, at + field.offset, options);
  }
}

/** complex64 -> float32, complex_bfloat16 -> bfloat16. */
export function componentName(name) {
  if (name === "complex64") return "float32";
  if (name === "complex128") return "float64";
  return name.replace(/^complex_/, "");
}

function writeComponent(where, t, fill, view, at, options) {
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
      if (roundedInteger(fill, options)) throw refuseRoundedFill(where, fill);
      const n = typeof fill === "bigint" ? fill : Number.isSafeInteger(fill) ? BigInt(fill) : undefined;
      if (n === undefined || n < lo || n > hi) throw refuseFill(where, fill, `is outside ${t.name}'s range ${lo}..${hi}`);
      // Sub-byte values take a byte each, sign- or zero-extended.
      const bytes = Math.max(1, bits / 8);
      for (let i = 0; i < bytes; i++) view.setUint8(at + i, Number((BigInt.asUintN(64, n) >> BigInt(8 * i)) & 0xffn));
      return;
    }
    case "float": {
      const code = floatCode(where, t.name, fill);
      if (bits === 64) view.setBigUint64(at, code, true);
      else if (bits === 32) view.setUint32(at, code, true);
      else if (t.containerBytes === 2) view.setUint16(at, code, true);
      else view.setUint8(at, code);
      return;
    }
    default:
      throw refuseFill(where, fill, `cannot be a fill of ${t.name}`);
  }
}
