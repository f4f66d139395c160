// A data type as Zarr v3 metadata gives it -> one checked description (a
// DataType), the only place the package reads data-type JSON. Codecs build
// from its descriptor, withDataTypes presents from it, structFields splits
// by its record: parsed once, checked once (TensorStore's and numpy's
// "one parsed dtype" idea).
//
// Forms: a name ("int4", "r24"); an object { name, configuration } for
// numpy.datetime64 / numpy.timedelta64 (unit, scale_factor), struct and
// its legacy alias structured (fields), fixed_length_utf32, raw_bytes and
// null_terminated_bytes (length_bytes); any other name in object form with
// no configuration.
import { describe, hasOwn, invalidMetadata, isPlainObject, prefix, ZarrCodecError } from "../errors.js";
import { RecordType } from "./record-type.js";
import { elementBytes, typeInfo } from "./type-info.js";

/** numpy's units (zarr-extensions: numpy.datetime64). */
export const DATETIME_UNITS = [
  "Y", "M", "W", "D", "h", "m", "s", "ms", "us", "μs", "ns", "ps", "fs", "as", "generic",
];
const MAX_SCALE_FACTOR = 2 ** 31 - 1;
const TIME_TYPES = new Set(["numpy.datetime64", "numpy.timedelta64"]);
// Types that hold nothing of a fixed size: never a record's field.
const VARIABLE_LENGTH = new Set(["string", "bytes", "variable_length_bytes", "v2:object", "vlen-utf8", "vlen-bytes"]);
// Longer names are in no spec: refused without reaching wasm.
const MAX_NAME = 256;
// raw_bytes of more bytes than the core's r<N> (N <= 2^24 bits).
const MAX_RAW_BYTES = 2 ** 21;
// Nesting of structs, bounded so a hostile document cannot exhaust the stack.
export const MAX_STRUCT_DEPTH = 32;

/**
 * @typedef {object} DataType
 * @property {string} name         its name: "int4", "complex64", "struct",
 *   "fixed_length_utf32", "raw_bytes", "numpy.datetime64", "r24"
 * @property {string} descriptor   the core's (src/types/data_type.h)
 * @property {object} info         the core's typeInfo of the descriptor
 * @property {number} bytes        bytes of one element
 * @property {RecordType} [record] struct, structured: the fields
 * @property {number} [codePoints] fixed_length_utf32: its capacity
 * @property {number} [lengthBytes] fixed_length_utf32, raw_bytes,
 *   null_terminated_bytes: the configuration's length_bytes
 * @property {boolean} [nullTerminated] null_terminated_bytes (zarr-python
 *   3's numpy "|S<n>"): raw bytes read as a NUL-padded byte string
 */

// Marks a DataType this module made, so that codecs built from one (the
// stored codec, structFields) take it as it is instead of re-reading JSON.
const PARSED = Symbol("parsed data type");

/** A DataType of `descriptor` (the core's name for it), from parts checked by the caller. */
export function dataTypeOf(where, descriptor, name, extra) {
  const info = typeInfo(descriptor);
  if (info.code !== "OK") {
    throw new ZarrCodecError(info.code, `${where}: ${info.message.replace(/^zarr-codecs-wasm: /, "")}`);
  }
  return { name, descriptor, info, bytes: elementBytes(info), ...extra, [PARSED]: true };
}

function unknownName(where, name) {
  return new ZarrCodecError(
    "UNKNOWN_DATA_TYPE",
    `${where}: unknown data type ${JSON.stringify(prefix(name, 64))} (expected a Zarr v3 data type such as uint16, complex64 or r16)`,
  );
}

/**
 * Checks a data type as metadata gives it. `where` starts the messages
 * ("packbits", "withDataTypes: array /a").
 * @param {string} where
 * @param {unknown} spec
 * @param {number} [depth] struct nesting so far
 * @returns {DataType}
 */
export function parseDataType(where, spec, depth = 0) {
  if (spec?.[PARSED]) return spec;
  if (typeof spec === "string") {
    if (spec.length > MAX_NAME) throw unknownName(where, spec);
    if (TIME_TYPES.has(spec)) {
      throw invalidMetadata(where, `data type ${spec} needs its object form { "name": "${spec}", "configuration": { "unit", "scale_factor" } }`);
    }
    if (["struct", "structured", "fixed_length_utf32", "raw_bytes", "null_terminated_bytes"].includes(spec)) {
      throw invalidMetadata(where, `data type ${spec} needs its object form { "name": "${spec}", "configuration": { ... } }`);
    }
    return dataTypeOf(where, spec, spec);
  }
  if (!isPlainObject(spec) || typeof spec.name !== "string") {
    throw invalidMetadata(where, `a data type must be a name or { name, configuration }, got ${describe(spec)}`);
  }
  for (const key of Object.keys(spec)) {
    if (key !== "name" && key !== "configuration") {
      throw invalidMetadata(where, `data type ${prefix(spec.name, 64)} has an unknown member ${describe(key)} (expected name and configuration)`);
    }
  }
  const { name, configuration } = spec;
  if (name.length > MAX_NAME) throw unknownName(where, name);
  if (TIME_TYPES.has(name)) return dataTypeOf(where, name, name, { time: checkTime(where, name, configuration) });
  if (name === "struct" || name === "structured") return parseStruct(where, name, configuration, depth);
  if (name === "fixed_length_utf32") {
    const length = lengthBytes(where, name, configuration, (n) => n > 0 && n % 4 === 0, "a positive multiple of 4");
    return dataTypeOf(where, `fixed_length_utf32/${length}`, name, { codePoints: length / 4, lengthBytes: length });
  }
  if (name === "raw_bytes" || name === "null_terminated_bytes") {
    // zarr-python 3 refuses a length below 1 for both ("length must be >=
    // 1": no value would fit).
    const length = lengthBytes(where, name, configuration, (n) => n > 0, "a positive integer");
    if (length > MAX_RAW_BYTES) {
      throw new ZarrCodecError("UNSUPPORTED_DATA_TYPE", `${where}: ${name} of ${length} bytes is larger than the ${MAX_RAW_BYTES} bytes this package supports`);
    }
    const extra = name === "null_terminated_bytes" ? { lengthBytes: length, nullTerminated: true } : { lengthBytes: length };
    return dataTypeOf(where, `r${8 * length}`, name, extra);
  }
  // Other types take no configuration; an empty one says the same.
  if (configuration !== undefined && !(isPlainObject(configuration) && Object.keys(configuration).length === 0)) {
    throw invalidMetadata(where, `data type ${prefix(name, 64)} takes no configuration, got ${describe(configuration)}`);
  }
  return parseDataType(where, name, depth);
}

function onlyMembers(where, name, configuration, members) {
  if (!isPlainObject(configuration)) {
    throw invalidMetadata(where, `${name} needs a configuration { ${members.join(", ")} }, got ${describe(configuration)}`);
  }
  for (const key of Object.keys(configuration)) {
    if (!members.includes(key)) {
      throw invalidMetadata(where, `${name} configuration has an unknown member ${describe(key)} (expected ${members.join(" and ")})`);
    }
  }
}

function checkTime(where, name, configuration) {
  onlyMembers(where, name, configuration, ["unit", "scale_factor"]);
  const { unit, scale_factor: scale } = configuration;
  if (!DATETIME_UNITS.includes(unit)) {
    throw invalidMetadata(where, `${name} unit must be one of ${DATETIME_UNITS.join(", ")}, got ${describe(unit)}`);
  }
  if (!(Number.isInteger(scale) && scale >= 1 && scale <= MAX_SCALE_FACTOR)) {
    throw invalidMetadata(where, `${name} scale_factor must be an integer in 1..${MAX_SCALE_FACTOR}, got ${describe(scale)}`);
  }
  return { unit, scale };
}

function lengthBytes(where, name, configuration, ok, expected) {
  onlyMembers(where, name, configuration, ["length_bytes"]);
  const n = configuration.length_bytes;
  if (!(Number.isSafeInteger(n) && ok(n))) {
    throw invalidMetadata(where, `${name} length_bytes must be ${expected}, got ${describe(n)}`);
  }
  return n;
}

// struct: fields as objects { name, data_type }; its legacy alias
// structured also as [name, data_type] pairs.
function parseStruct(where, name, configuration, depth) {
  if (depth >= MAX_STRUCT_DEPTH) {
    throw invalidMetadata(where, `${name} is nested more than ${MAX_STRUCT_DEPTH} levels deep`);
  }
  onlyMembers(where, name, configuration, ["fields"]);
  const { fields } = configuration;
  if (!Array.isArray(fields)) throw invalidMetadata(where, `${name} fields must be an array, got ${describe(fields)}`);
  if (fields.length === 0) throw invalidMetadata(where, `${name} must have at least one field`);
  const parsed = fields.map((field, i) => {
    let fieldName, fieldType;
    if (Array.isArray(field) && name === "structured") {
      if (field.length !== 2) {
        throw invalidMetadata(where, `${name} field ${i} must be a [name, data_type] pair, got an Array of length ${field.length}`);
      }
      [fieldName, fieldType] = field;
    } else if (isPlainObject(field)) {
      for (const key of Object.keys(field)) {
        if (key !== "name" && key !== "data_type") {
          throw invalidMetadata(where, `${name} field ${i} has an unknown member ${describe(key)} (expected name and data_type)`);
        }
      }
      if (!hasOwn(field, "name") || !hasOwn(field, "data_type")) {
        throw invalidMetadata(where, `${name} field ${i} must have a name and a data_type`);
      }
      fieldName = field.name;
      fieldType = field.data_type;
    } else {
      const expected = name === "structured" ? "an object { name, data_type } or a [name, data_type] pair" : "an object { name, data_type }";
      throw invalidMetadata(where, `${name} field ${i} must be ${expected}, got ${describe(field)}`);
    }
    return { name: fieldName, type: fieldType };
  });
  const record = RecordType.from(where, name, parsed, (fieldWhere, type) => {
    if (typeof type === "string" && VARIABLE_LENGTH.has(type)) {
      throw new ZarrCodecError(
        "UNSUPPORTED_DATA_TYPE",
        `${fieldWhere} has the variable-length data type ${type}, which a record of fixed size cannot hold`,
      );
    }
    return parseDataType(where, type, depth + 1);
  });
  return dataTypeOf(where, record.descriptor, name, { record, legacy: name === "structured" });
}

/**
 * The data type of a codec's `meta`: meta.dataType (zarrita 0.7) or
 * meta.data_type (zarrita 0.5 and 0.6, which viv, vizarr and worker pools
 * use); `meta` as metaOf (codecs/arguments.js) read it.
 * @param {string} codec
 * @param {{dataType?: unknown, data_type?: unknown}} meta
 * @returns {DataType}
 */
export function metaDataType(codec, meta) {
  const spec = meta.dataType !== undefined ? meta.dataType : meta.data_type;
  if (spec?.[PARSED]) return spec;
  if (typeof spec !== "string" && !isPlainObject(spec)) {
    throw new ZarrCodecError(
      "INVALID_METADATA",
      `${codec}: meta.dataType must be a data type name or { name, configuration }, got ${describe(spec)}`,
    );
  }
  return parseDataType(codec, spec);
}
