// Variable-length bytes as metadata names the type: zarr-python 3's
// VariableLengthBytes writes "variable_length_bytes" (src/zarr/core/dtype/
// npy/bytes.py) and reads "bytes" as its alias, which is the registry's
// name (zarr-extensions data-types/bytes), in object form too
// ({ "name": "bytes" }, no configuration). zarrita opens such an array as
// "v2:object" (zarr-python 2's "|O" with a vlen-bytes filter, or an array
// withDataTypes presents). Not a fixed-size type, so not parseDataType's.
import { isPlainObject } from "../errors.js";

const NAMES = new Set(["variable_length_bytes", "bytes"]);

/** The v3 name zarr-python 3 writes. */
export const VARIABLE_LENGTH_BYTES = "variable_length_bytes";

/**
 * Whether `spec` (a data type as v3 metadata gives it) is variable-length
 * bytes: one of the names, or its object form with an empty or absent
 * configuration.
 */
export function isVariableLengthBytes(spec) {
  if (typeof spec === "string") return NAMES.has(spec);
  if (!isPlainObject(spec) || !NAMES.has(spec.name)) return false;
  const keys = Object.keys(spec);
  if (!keys.every((k) => k === "name" || k === "configuration")) return false;
  const c = spec.configuration;
  return c === undefined || (isPlainObject(c) && Object.keys(c).length === 0);
}
