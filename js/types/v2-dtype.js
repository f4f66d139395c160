// Zarr v2 dtypes (numpy's array-protocol strings, and lists of fields for
// structured dtypes, as zarr-python 2 writes them) -> DataTypes. A field
// keeps its own byte order ("<", ">" or "|"), which the core's record
// descriptor carries per leaf: a v2 record may mix them.
import { describe, invalidMetadata, prefix } from "../errors.js";
import { DATETIME_UNITS, dataTypeOf, MAX_STRUCT_DEPTH } from "./data-type.js";
import { RecordType } from "./record-type.js";

const SIMPLE = /^([<>|])([biufcMmUSV])(\d+)(?:\[(\d*)([A-Za-zμ]+)\])?$/;
const NUMERIC = new Map([
  ["b1", "bool"], ["i1", "int8"], ["u1", "uint8"], ["i2", "int16"], ["u2", "uint16"],
  ["i4", "int32"], ["u4", "uint32"], ["i8", "int64"], ["u8", "uint64"],
  ["f2", "float16"], ["f4", "float32"], ["f8", "float64"], ["c8", "complex64"], ["c16", "complex128"],
]);
const MAX_ITEMS = 2 ** 21;

/**
 * A simple v2 dtype string ("<f4", ">M8[10s]", "<U6") as a DataType, and
 * its byte order ("<", ">" or undefined for "|" and one-byte types); null
 * for a string that is no numpy dtype.
 */
export function parseV2Scalar(where, dtype) {
  const m = typeof dtype === "string" ? SIMPLE.exec(dtype) : null;
  if (!m) return null;
  const [, order, kind, size, scale, unit] = m;
  const n = Number(size);
  let type;
  if (kind === "M" || kind === "m") {
    if (n !== 8) return null;
    const name = kind === "M" ? "numpy.datetime64" : "numpy.timedelta64";
    const u = unit ?? "generic";
    if (!DATETIME_UNITS.includes(u)) {
      throw invalidMetadata(where, `dtype ${prefix(dtype, 64)} has the unit ${JSON.stringify(prefix(u, 32))}, which is not one of numpy's (${DATETIME_UNITS.join(", ")})`);
    }
    const s = scale === undefined || scale === "" ? 1 : Number(scale);
    if (!(Number.isSafeInteger(s) && s >= 1 && s <= 2 ** 31 - 1)) {
      throw invalidMetadata(where, `dtype ${prefix(dtype, 64)} has a scale outside 1..2147483647`);
    }
    type = dataTypeOf(where, name, name, { time: { unit: u, scale: s } });
  } else if (unit !== undefined) {
    return null;
  } else if (kind === "U") {
    if (!(n >= 1 && n <= MAX_ITEMS)) return null;
    type = dataTypeOf(where, `fixed_length_utf32/${4 * n}`, "fixed_length_utf32", { codePoints: n, lengthBytes: 4 * n });
  } else if (kind === "S" || kind === "V") {
    if (!(n >= 1 && n <= MAX_ITEMS)) return null;
    type = dataTypeOf(where, `r${8 * n}`, `r${8 * n}`);
  } else {
    const name = NUMERIC.get(`${kind}${size}`);
    if (!name) return null;
    type = dataTypeOf(where, name, name);
  }
  const multiByte = type.info.containerBytes > 1 && type.info.typeClass !== "raw";
  return { type, order: multiByte && order !== "|" ? order : undefined };
}

/**
 * A v2 structured dtype ([["x", "<f4"], ["pos", ">f8", [3]], ["p", [...]]])
 * as a DataType, or null where `dtype` is not a list.
 */
export function parseV2Structured(where, dtype, depth = 0) {
  if (!Array.isArray(dtype)) return null;
  if (depth >= MAX_STRUCT_DEPTH) throw invalidMetadata(where, `structured dtype is nested more than ${MAX_STRUCT_DEPTH} levels deep`);
  if (dtype.length === 0) throw invalidMetadata(where, "structured dtype must have at least one field");
  const fields = dtype.map((field, i) => {
    if (!Array.isArray(field) || (field.length !== 2 && field.length !== 3)) {
      throw invalidMetadata(where, `structured dtype field ${i} must be [name, dtype] or [name, dtype, shape], got ${describe(field)}`);
    }
    const [name, type, shape = []] = field;
    if (!Array.isArray(shape) || shape.length > 32 || !shape.every((d) => Number.isSafeInteger(d) && d >= 1)) {
      throw invalidMetadata(where, `structured dtype field ${i}'s shape must be positive integers, got ${describe(shape)}`);
    }
    const nested = parseV2Structured(where, type, depth + 1);
    if (nested) return { name, type: nested, shape };
    const scalar = parseV2Scalar(where, type);
    if (!scalar) throw invalidMetadata(where, `structured dtype field ${i} has the dtype ${describe(type)}, which is no fixed-size numpy dtype`);
    return { name, type: scalar.type, shape, order: scalar.order };
  });
  // Types are parsed above; the record lays them out, each leaf in its order.
  const record = RecordType.from(where, "structured dtype", fields, (_, type) => type);
  return dataTypeOf(where, record.descriptor, "structured", { record, v2: true });
}

