// The fill value of an array zarrita reads itself (bool, the integers,
// float32, float64, float16 where the runtime has Float16Array): nothing is
// presented, but a fill the type's spec forbids is refused by the same rules
// as a presented type's (fill-bytes.js), for that array alone, rather than
// read as whatever zarrita makes of it (a float32 fill "constructor" would
// read as NaN). zarrita's own string and byte types keep their own rules.
import { prefix } from "../errors.js";
import { parseDataType } from "../types/data-type.js";
import { parseV2Scalar } from "../types/v2-dtype.js";
import { fillBytes } from "./fill-bytes.js";
import { refuseRoundedFill } from "./fill-value.js";
import { zarritaReads } from "./presentation.js";

const NUMERIC = new Set(["bool", "signed", "unsigned", "float"]);

/** Whether a v3 data type or v2 dtype, as metadata gives it, has a fill this module checks. */
export function checksNativeFill(doc) {
  if (doc?.dtype !== undefined) return typeof doc.dtype === "string" && /^[<>|][biuf]\d+$/.test(doc.dtype);
  return typeof doc?.data_type === "string" && zarritaReads(doc.data_type);
}

/**
 * Throws INVALID_METADATA where `doc` (a v3 zarr.json or a v2 .zarray of a
 * type zarrita reads) has a fill its type cannot hold. Needs the wasm
 * module (the core's type table). `rounded`: the document came through
 * zarrita's consolidated layer, which rounds integers past 2^53.
 */
export function checkNativeFill(path, doc, { rounded = false } = {}) {
  if (!checksNativeFill(doc)) return;
  const where = `withDataTypes: array ${prefix(path, 256) || "/"}`;
  const v2 = doc.dtype !== undefined;
  const type = v2 ? parseV2Scalar(where, doc.dtype)?.type : parseDataType(where, doc.data_type);
  if (!type || !NUMERIC.has(type.info.typeClass)) return;
  const fill = doc.fill_value;
  // Zarr v2 allows null: no fill value.
  if (v2 && fill === null) return;
  if (rounded && typeof fill === "number" && Number.isInteger(fill) && !Number.isSafeInteger(fill) && type.info.componentBits === 64 && type.info.typeClass !== "float") {
    throw refuseRoundedFill(where, fill);
  }
  fillBytes(where, type, fill);
}
