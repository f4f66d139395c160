// A fill value the metadata gives that its data type cannot hold: the
// package's INVALID_METADATA, showing the fill as the metadata wrote it.
import { describe, ZarrCodecError } from "../errors.js";

/** `${where}: fill_value <the fill> <why>`. */
export function refuseFill(where, fill, why) {
  return new ZarrCodecError("INVALID_METADATA", `${where}: fill_value ${showFill(fill)} ${why}`);
}

/**
 * The refusal of a 64-bit integer fill past 2^53 that zarrita's
 * consolidated layer has rounded before the package saw it.
 */
export function refuseRoundedFill(where, fill) {
  return refuseFill(
    where,
    fill,
    "lies beyond 2^53 and reached withDataTypes through zarrita's consolidated metadata, which rounds such numbers; compose " +
      "withConsolidatedMetadata(withDataTypes(store)) instead, so the metadata is read first by withDataTypes",
  );
}

/** A fill as JSON shows it (bounded): numbers and short arrays of scalars as written. */
export function showFill(fill) {
  try {
    if (typeof fill === "bigint" || typeof fill === "number") return String(fill);
    if (typeof fill === "string") return JSON.stringify(fill.length > 64 ? `${fill.slice(0, 64)}...` : fill);
    if (Array.isArray(fill) && fill.length <= 8 && fill.every((v) => v === null || typeof v !== "object")) {
      return `[${fill.map((v) => (typeof v === "string" ? JSON.stringify(v) : String(v))).join(",")}]`;
    }
  } catch {
    // described below
  }
  return describe(fill);
}
