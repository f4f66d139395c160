// Fill values, from the stored type's JSON form (the zarr-extensions page of
// each type: numbers, "NaN", "Infinity", "-Infinity", hex codes, [re, im],
// "NaT", raw bytes, a struct's object of field fills, legacy base64 record
// bytes, strings) to what zarrita fills the presented array with.
import { BytesCodec } from "../codecs/bytes.js";
import { parseDataType } from "../types/data-type.js";
import { typeInfo } from "../types/type-info.js";
import { fillBytes, INT64_EXPECTED, INT64_MIN, int64Of } from "./fill-bytes.js";
import { asNumber, floatComponentCode, jsonFloat, nativeFloat, refuseFill, SPECIAL, valueOfCode } from "./float-codes.js";
import { byteStringFill } from "./byte-strings.js";
import { variableBytesFill } from "./variable-bytes.js";

/**
 * One presented component of the fill: what zarrita fills with.
 * @param {import("./presentation.js").Presentation} p
 */
function componentFill(where, p, fill) {
  const t = typeInfo(p.component);
  if (p.kind === "int") {
    const bits = t.componentBits;
    const [lo, hi] = t.typeClass === "signed" ? [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1] : [0, 2 ** bits - 1];
    if (!Number.isInteger(fill) || fill < lo || fill > hi) {
      throw refuseFill(where, fill, `is outside ${t.name}'s range ${lo}..${hi}`);
    }
    return fill;
  }
  if (p.kind === "float") {
    const code = floatComponentCode(where, t, fill);
    return p.widen ? jsonFloat(valueOfCode(t.name, code)) : code;
  }
  // A type zarrita reads (a complex type's float32 component, say).
  if (p.presented === "float16" || p.presented === "float32" || p.presented === "float64") {
    return nativeFloat(where, p.presented, fill);
  }
  // bool or an integer type in object form ({ "name": "int16" }): checked
  // as the type's own fill, and given to zarrita as it is.
  fillBytes(where, parseDataType(where, p.component), fill);
  return fill;
}

/**
 * The refusal of a 64-bit integer fill past 2^53 that zarrita's
 * consolidated layer has rounded before withDataTypes saw it.
 */
export function refuseRoundedFill(where, fill) {
  return refuseFill(
    where,
    fill,
    "lies beyond 2^53 and reached withDataTypes through zarrita's consolidated metadata, which rounds such numbers; compose " +
      "withConsolidatedMetadata(withDataTypes(store)) instead, so the metadata is read first by withDataTypes",
  );
}

/** A datetime fill as zarrita's metadata holds int64s: a decimal string. */
function timeFill(where, fill, { rounded }) {
  let n = int64Of(fill);
  // -2^63 (NaT) is a double exactly; where zarrita's consolidated layer has
  // rounded the text already, this is how NaT arrives.
  if (n === undefined && fill === -(2 ** 63)) n = INT64_MIN;
  else if (n === undefined && rounded && Number.isInteger(fill)) throw refuseRoundedFill(where, fill);
  if (n === undefined) throw refuseFill(where, fill, INT64_EXPECTED);
  return String(n);
}

// base64 -> bytes, strictly (atob accepts more than base64 does);
// undefined for a fill that is no base64 string. `what` names the element
// in the message ("a record").
function fromBase64(where, fill, bytes, what) {
  if (typeof fill !== "string" || !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(fill)) {
    return undefined;
  }
  const text = atob(fill);
  if (text.length !== bytes) throw refuseFill(where, fill, `holds ${text.length} bytes in base64, but ${what} has ${bytes}`);
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/**
 * Raw bytes' fill: the registry's array of byte values, or the base64 of
 * the bytes, as zarr-python 2 writes a void dtype's fill ("|V3": "AAAA").
 * Raw bytes are never swapped.
 */
function rawFill(where, p, fill) {
  return fromBase64(where, fill, p.dataType.bytes, "a value") ?? fillBytes(where, p.dataType, fill);
}

/** A record's fill as its presented bytes (every field little-endian). */
function recordFill(where, p, fill, storedEndian) {
  const type = p.dataType;
  const stored = fromBase64(where, fill, type.bytes, "a record");
  if (stored) {
    // Legacy structured and Zarr v2: the packed bytes as stored.
    const codec = new BytesCodec({ endian: storedEndian ?? "little" }, { dataType: type, shape: [1] });
    try {
      return codec.decode(stored).data.slice();
    } finally {
      codec.dispose();
    }
  }
  return fillBytes(where, type, fill);
}

/** A presented fill value as the presented container holds it. */
function containerValue(p, value) {
  if (typeof value === "string" && SPECIAL.has(value)) return SPECIAL.get(value);
  if (p.presented === "int64" || p.presented === "uint64") return BigInt(value);
  return asNumber(value);
}

/**
 * The presented fill: `value` for zarrita's metadata; `element`, the
 * values of one presented element as its container holds them (one value,
 * or one per position of the trailing dimension); and where zarrita
 * cannot fill with one number (a complex fill whose parts differ, raw or
 * record bytes that differ), `parts`, the same values; for byte values
 * zarrita cannot fill with at all, `objectFill` (byte-strings.js,
 * variable-bytes.js).
 * @param {string} where
 * @param {import("./presentation.js").Presentation} p
 * @param {unknown} fill
 * @param {{nullable?: boolean, rounded?: boolean, storedEndian?: string}} [options]
 *   Zarr v2 allows null (no fill); `rounded`: the metadata came through
 *   zarrita's consolidated layer (numbers past 2^53 rounded);
 *   `storedEndian`: the bytes codec's, for record fills as stored bytes
 * @returns {{value: unknown, element?: unknown[], parts?: unknown[], objectFill?: object}}
 */
export function presentFill(where, p, fill, { nullable = false, rounded = false, storedEndian } = {}) {
  if (p.kind === "byte-string") return byteStringFill(where, p, fill, { nullable });
  if (p.kind === "variable-bytes") return variableBytesFill(where, fill, { v2: nullable });
  if (p.kind === "string") {
    // Zarr v2's null: what numpy's empty strings are. Trailing U+0000 is
    // padding (the type's JSON form drops it): a missing chunk reads as a
    // stored one does.
    const text = fill === null && nullable ? "" : fill;
    fillBytes(where, p.dataType, text); // checks it is a string that fits
    const value = text.replace(/\0+$/, "");
    return { value, element: [value] };
  }
  if (fill === null && nullable) {
    // zarrita fills with null, which its typed arrays hold as 0.
    return { value: null, element: Array.from({ length: p.trailing || 1 }, () => containerValue(p, 0)) };
  }
  if (p.kind === "time") {
    const value = timeFill(where, fill, { rounded });
    return { value, element: [BigInt(value)] };
  }
  if (p.trailing === 0) {
    const value = componentFill(where, p, fill);
    return { value, element: [containerValue(p, value)] };
  }
  let parts;
  if (p.kind === "record") {
    parts = Array.from(recordFill(where, p, fill, storedEndian));
  } else if (p.kind === "raw") {
    parts = Array.from(rawFill(where, p, fill));
  } else {
    if (!Array.isArray(fill) || fill.length !== 2) {
      throw refuseFill(where, fill, "must be [real, imaginary]");
    }
    parts = fill.map((part) => componentFill(where, p, part));
  }
  const element = parts.map((v) => containerValue(p, v));
  if (element.every((v) => Object.is(v, element[0]))) return { value: parts[0], element };
  return { value: parts[0], element, parts: element };
}
