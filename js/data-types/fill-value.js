// Fill values, from the stored type's JSON form (the zarr-extensions page of
// each type: numbers, "NaN", "Infinity", "-Infinity", hex codes, [re, im],
// "NaT", raw bytes, a struct's object of field fills, legacy base64 record
// bytes, strings) to what zarrita fills the presented array with.
import { BytesCodec } from "../codecs/bytes.js";
import { parseDataType } from "../types/data-type.js";
import { typeInfo } from "../types/type-info.js";
import { fillBytes, INT64_EXPECTED, INT64_MIN, int64Of } from "./fill-bytes.js";
import { asNumber, floatComponentCode, jsonFloat, nativeFloat, refuseFill, SPECIAL, valueOfCode } from "./float-codes.js";

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

// base64 -> bytes, strictly (atob accepts more than base64 does).
function fromBase64(where, fill, bytes) {
  if (typeof fill !== "string" || !/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(fill)) {
    return undefined;
  }
  const text = atob(fill);
  if (text.length !== bytes) throw refuseFill(where, fill, `holds ${text.length} bytes in base64, but a record has ${bytes}`);
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** A record's fill as its presented bytes (every field little-endian). */
function recordFill(where, p, fill, storedEndian) {
  const type = p.dataType;
  const stored = fromBase64(where, fill, type.bytes);
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

/**
 * The presented fill: `value` for zarrita's metadata, and where zarrita
 * cannot fill with one number (a complex fill whose parts differ, raw or
 * record bytes that differ), `parts`, the values of one element along the
 * trailing dimension.
 * @param {string} where
 * @param {import("./presentation.js").Presentation} p
 * @param {unknown} fill
 * @param {{nullable?: boolean, rounded?: boolean, storedEndian?: string}} [options]
 *   Zarr v2 allows null (no fill); `rounded`: the metadata came through
 *   zarrita's consolidated layer (numbers past 2^53 rounded);
 *   `storedEndian`: the bytes codec's, for record fills as stored bytes
 * @returns {{value: unknown, parts?: unknown[]}}
 */
export function presentFill(where, p, fill, { nullable = false, rounded = false, storedEndian } = {}) {
  if (fill === null && nullable) return { value: null };
  if (p.kind === "time") return { value: timeFill(where, fill, { rounded }) };
  if (p.kind === "string") {
    fillBytes(where, p.dataType, fill); // checks it is a string that fits
    return { value: fill };
  }
  if (p.trailing === 0) return { value: componentFill(where, p, fill) };
  let parts;
  if (p.kind === "record") {
    parts = Array.from(recordFill(where, p, fill, storedEndian));
  } else if (p.kind === "raw") {
    parts = Array.from(fillBytes(where, p.dataType, fill));
  } else {
    if (!Array.isArray(fill) || fill.length !== 2) {
      throw refuseFill(where, fill, "must be [real, imaginary]");
    }
    parts = fill.map((part) => componentFill(where, p, part));
  }
  const numeric = parts.map((v) => (typeof v === "string" && SPECIAL.has(v) ? SPECIAL.get(v) : asNumber(v)));
  if (numeric.every((v) => Object.is(v, numeric[0]))) return { value: parts[0] };
  return { value: parts[0], parts: numeric };
}
