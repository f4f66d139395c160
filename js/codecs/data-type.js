// The data type a codec is built for, as metadata names it: a name
// ("int4", "r16") or an object { name, configuration } (numpy.datetime64,
// numpy.timedelta64, or any type written in its object form). zarrita 0.7
// hands it as meta.dataType, 0.5 and 0.6 as meta.data_type.
import { describe, ZarrCodecError } from "../errors.js";

/** numpy's units (zarr-extensions: numpy.datetime64). */
export const DATETIME_UNITS = [
  "Y", "M", "W", "D", "h", "m", "s", "ms", "us", "μs", "ns", "ps", "fs", "as", "generic",
];
const MAX_SCALE_FACTOR = 2 ** 31 - 1;
const TIME_TYPES = new Set(["numpy.datetime64", "numpy.timedelta64"]);

function invalid(where, message) {
  return new ZarrCodecError("INVALID_METADATA", `${where}: ${message}`);
}

function isPlainObject(x) {
  return x !== null && typeof x === "object" && !Array.isArray(x);
}

/**
 * Checks a data type as metadata gives it and returns its name. `where`
 * starts the messages ("packbits", "withDataTypes: array /a").
 * @param {string} where
 * @param {unknown} spec
 * @returns {string}
 */
export function dataTypeName(where, spec) {
  if (typeof spec === "string") {
    if (TIME_TYPES.has(spec)) {
      throw invalid(where, `data type ${spec} needs its object form { "name": "${spec}", "configuration": { "unit", "scale_factor" } }`);
    }
    return spec;
  }
  if (!isPlainObject(spec) || typeof spec.name !== "string") {
    throw invalid(where, `a data type must be a name or { name, configuration }, got ${describe(spec)}`);
  }
  for (const key of Object.keys(spec)) {
    if (key !== "name" && key !== "configuration") {
      throw invalid(where, `data type ${spec.name} has an unknown member ${describe(key)} (expected name and configuration)`);
    }
  }
  const { name, configuration } = spec;
  if (!TIME_TYPES.has(name)) {
    // Other types take no configuration; an empty one says the same.
    if (configuration !== undefined && !(isPlainObject(configuration) && Object.keys(configuration).length === 0)) {
      throw invalid(where, `data type ${name} takes no configuration, got ${describe(configuration)}`);
    }
    return name;
  }
  if (!isPlainObject(configuration)) {
    throw invalid(where, `${name} needs a configuration { unit, scale_factor }, got ${describe(configuration)}`);
  }
  for (const key of Object.keys(configuration)) {
    if (key !== "unit" && key !== "scale_factor") {
      throw invalid(where, `${name} configuration has an unknown member ${describe(key)} (expected unit and scale_factor)`);
    }
  }
  const { unit, scale_factor: scale } = configuration;
  if (!DATETIME_UNITS.includes(unit)) {
    throw invalid(where, `${name} unit must be one of ${DATETIME_UNITS.join(", ")}, got ${describe(unit)}`);
  }
  if (!(Number.isInteger(scale) && scale >= 1 && scale <= MAX_SCALE_FACTOR)) {
    throw invalid(where, `${name} scale_factor must be an integer in 1..${MAX_SCALE_FACTOR}, got ${describe(scale)}`);
  }
  return name;
}

/**
 * The data type of a codec's `meta`: meta.dataType (zarrita 0.7) or
 * meta.data_type (zarrita 0.5 and 0.6, which viv, vizarr and worker pools
 * use).
 * @param {string} codec
 * @param {unknown} meta
 */
export function metaDataType(codec, meta) {
  if (!isPlainObject(meta)) {
    throw new ZarrCodecError("INVALID_METADATA", `${codec}: meta must be an object { dataType, shape }, got ${describe(meta)}`);
  }
  const spec = meta.dataType !== undefined ? meta.dataType : meta.data_type;
  if (typeof spec !== "string" && !isPlainObject(spec)) {
    throw new ZarrCodecError(
      "INVALID_METADATA",
      `${codec}: meta.dataType must be a data type name or { name, configuration }, got ${describe(spec)}`,
    );
  }
  return dataTypeName(codec, spec);
}
