// An array zarrita reads itself (bool, the integers, float32, float64, and
// float16 where the runtime has Float16Array): nothing is presented but
// its fill value. The fill is parsed by the same rules as a presented
// type's (fills/stored-fill.js), so a fill the type's spec forbids is
// refused for that array alone (a float32 fill "constructor" would read as
// NaN), and where zarrita would parse the metadata's fill into another
// value, the metadata it reads says the same value in a form it parses
// exactly: an int64 past 2^53 as a decimal string (zarrita's JSON.parse
// rounds the number, every zarrita reads BigInt("...") exactly), a hex
// float as its number (zarrita would fill 1069547520 for "0x3fc00000"),
// Zarr v2's null for int64 as "0" (zarrita's BigInt64Array refuses
// null). A fill no JSON gives zarrita exactly (a NaN's payload) is kept
// as bytes: withDataTypes fills such missing chunks itself (zarrita 0.7)
// or refuses them (0.5, 0.6). zarrita's own string and byte types keep
// their own rules.
import { prefix } from "../errors.js";
import { parseDataType } from "../types/data-type.js";
import { parseV2Scalar } from "../types/v2-dtype.js";
import { nativeFill, zarritaFills } from "./fill-value.js";
import { zarritaReads } from "./presentation.js";

const NUMERIC = new Set(["bool", "signed", "unsigned", "float"]);

/** Whether a v3 data type or v2 dtype, as metadata gives it, has a fill this module reads. */
export function checksNativeFill(doc) {
  if (doc?.dtype !== undefined) return typeof doc.dtype === "string" && /^[<>|][biuf]\d+$/.test(doc.dtype);
  return typeof doc?.data_type === "string" && zarritaReads(doc.data_type);
}

/**
 * The metadata zarrita reads for an array of a type it reads itself: the
 * document (the same object where its fill needs no other form) and what
 * withDataTypes keeps of the fill; null where this module reads no fill
 * of the type. Throws INVALID_METADATA for a fill the type cannot hold.
 * Needs the wasm module (the core's type table).
 * @param {string} path
 * @param {object} doc a v3 zarr.json or a v2 .zarray (exact: json/lossless.js)
 * @param {{rounded?: boolean}} [options] the document came through
 *   zarrita's consolidated layer, which rounds integers past 2^53
 * @returns {{doc: object, fill: import("./fill-value.js").PresentedFill, dataType: object} | null}
 */
export function presentNative(path, doc, { rounded = false } = {}) {
  if (!checksNativeFill(doc)) return null;
  const where = `withDataTypes: array ${prefix(path, 256) || "/"}`;
  const v2 = doc.dtype !== undefined;
  const type = v2 ? parseV2Scalar(where, doc.dtype)?.type : parseDataType(where, doc.data_type);
  if (!type || !NUMERIC.has(type.info.typeClass)) return null;
  const fill = nativeFill(where, type, doc.fill_value, { v2, rounded });
  // The metadata as it is, where zarrita reads its fill right already.
  const right = fill.beyondZarrita === undefined && zarritaFills(type.info.name, doc.fill_value, fill.element);
  return { doc: right ? doc : { ...doc, fill_value: fill.value }, fill, dataType: type };
}
