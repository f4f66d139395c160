// What these codecs read of zarrita's `meta` and chunks: the data type's
// name (meta.dataType in zarrita 0.7, meta.data_type in 0.5 and 0.6), the
// fill (0.7 only: 0.5 and 0.6 hand codecs none), and the chunk they are
// given. The data type must be one of numeric-types.js's.
import { describe, isPlainObject, ZarrCodecError } from "../errors.js";
import { NUMERIC_TYPE_NAMES, numericType } from "./numeric-types.js";

/** A data type as metadata names it ("uint8", or { "name": "uint8" }) -> its NumericType. */
export function numericTypeOf(where, what, spec, code = "INVALID_CONFIGURATION") {
  const name = isPlainObject(spec) && (spec.configuration === undefined || (isPlainObject(spec.configuration) && Object.keys(spec.configuration).length === 0))
    ? spec.name
    : spec;
  const type = numericType(name);
  if (!type) {
    throw new ZarrCodecError(
      code,
      `${where}: ${what} must be one of ${NUMERIC_TYPE_NAMES.join(", ")}, got ${typeof name === "string" ? JSON.stringify(name.slice(0, 64)) : describe(name)}`,
    );
  }
  return type;
}

/** The array -> array codec's input data type, from zarrita's meta. */
export function metaType(where, meta) {
  if (!isPlainObject(meta)) throw new ZarrCodecError("INVALID_INPUT", `${where}: meta must be an object with a data type, got ${describe(meta)}`);
  const spec = meta.dataType !== undefined ? meta.dataType : meta.data_type;
  return numericTypeOf(where, "the data type it is given", spec, "UNSUPPORTED_DATA_TYPE");
}

/** The fill zarrita gives (0.7's meta.fillValue) as a value of `type`, or undefined. */
export function metaFill(type, meta) {
  const fill = meta?.fillValue;
  if (typeof fill === "bigint") return type.big ? fill : Number(fill);
  if (typeof fill === "number") return type.big && Number.isInteger(fill) ? BigInt(fill) : fill;
  return undefined;
}

/** The same scalar (NaN equals NaN; zeros of either sign equal). */
export function sameScalar(a, b) {
  if (typeof a === "number" && typeof b === "number" && Number.isNaN(a)) return Number.isNaN(b);
  return a == b;
}

/** chunk.data, checked to be an object with data; shape and stride are passed through. */
export function chunkData(where, chunk) {
  if (!isPlainObject(chunk) && !(chunk && typeof chunk === "object")) {
    throw new ZarrCodecError("INVALID_INPUT", `${where}: expected a chunk { data, shape, stride }, got ${describe(chunk)}`);
  }
  return chunk.data;
}
