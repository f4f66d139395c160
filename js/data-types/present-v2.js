// A Zarr v2 array's .zarray as withDataTypes presents it to zarrita, for
// the dtypes zarrita lacks: complex ("<c8", ">c16": float components with a
// trailing dimension of 2, the bytes unchanged), datetime64 and
// timedelta64 ("<M8[ns]", ">m8[s]": int64), float16 ("<f2") where the
// runtime has no Float16Array, structured dtypes (zarr-python 2's lists of
// fields: uint8 with a trailing dimension of the record's bytes, every
// field little-endian), void ("|V8": raw bytes), byte strings ("|S6",
// which zarrita reads, but with its base64 fill taken as text:
// byte-strings.js) and variable-length bytes ("|O" with a vlen-bytes
// filter: variable-bytes.js); and for one zarrita reads wrongly, unicode
// ("<U6", ">U6": an Array of strings, as v3's fixed_length_utf32;
// zarrita's own container cuts astral characters and drops U+0000).
// zarrita builds v2 codec
// chains itself, so where the bytes need converting the stored codec goes
// in as the last filter, and the dtype zarrita sees needs no bytes codec of
// its own.
import { describe, invalidMetadata, isPlainObject, prefix } from "../errors.js";
import { parseDataType } from "../types/data-type.js";
import { parseV2Scalar, parseV2Structured } from "../types/v2-dtype.js";
import { byteStringConversion, v2ByteStringType } from "./byte-strings.js";
import { presentFill } from "./fill-value.js";
import { isV2VariableBytes, variableBytesPresentation } from "./variable-bytes.js";
import { requireRegistration } from "../zarrita/registration.js";
import { presentationOfType } from "./presentation.js";
import { checkShape, withTrailing } from "./shapes.js";
import { codecFor, STORED_CODEC } from "./stored-codec.js";

const PRESENTED = /^[<>|](c8|c16|f2|[Mm]8|V\d|U\d|S\d)/;

/**
 * Whether withDataTypes presents a v2 array of `dtype` and `filters` (the
 * .zarray's; zarrita reads the rest).
 */
export function presentsV2(dtype, filters) {
  return Array.isArray(dtype) || (typeof dtype === "string" && PRESENTED.test(dtype)) || isV2VariableBytes(dtype, filters);
}

// The v2 dtype strings zarrita reads: "<f4" and the like.
const V2_NAMES = new Map([["float32", "f4"], ["float64", "f8"], ["int64", "i8"], ["uint16", "u2"]]);

/**
 * @param {string} path the array's path, for messages
 * @param {object} zarray
 * @param {{floats: "float32" | "bits", rounded: boolean,
 *   ticket: (conversion: object) => string}} options
 * @returns {{doc: object, presented: import("./present-v3.js").Presented} | null}
 */
export function presentV2(path, zarray, { floats, rounded, ticket }) {
  const where = `withDataTypes: array ${prefix(path, 256) || "/"}`;
  if (!presentsV2(zarray.dtype, zarray.filters)) return null;
  const variableBytes = isV2VariableBytes(zarray.dtype, zarray.filters);
  if (variableBytes) requireRegistration(where, "its chunks are read through the codec vlen-bytes");
  const record = variableBytes ? undefined : parseV2Structured(where, zarray.dtype);
  const byteString = record || variableBytes ? undefined : v2ByteStringType(where, zarray.dtype);
  const scalar = record || variableBytes ? undefined : byteString ? { type: byteString } : parseV2Scalar(where, zarray.dtype);
  if (!record && !scalar && !variableBytes) return null;
  const order = scalar?.order === ">" ? ">" : "<";
  const shown = variableBytes ? variableBytesPresentation() : presentationOfType(record ?? scalar.type, floats);
  const dataType = shown?.dataType;
  // float16 where the runtime has Float16Array: zarrita reads it.
  if (!shown) return null;
  // Void ("|V8") is zarrita's own "|u1" with a trailing dimension: the
  // bytes need no codec, unlike v3's raw_bytes.
  const p = shown.kind === "raw" ? { ...shown, codec: false } : shown;
  checkShape(where, "shape", zarray.shape);
  checkShape(where, "chunks", zarray.chunks, { positive: true, rank: zarray.shape.length });
  const separator = zarray.dimension_separator ?? ".";
  if (separator !== "/" && separator !== ".") {
    throw invalidMetadata(where, `dimension_separator must be "/" or ".", got ${describe(separator)}`);
  }
  const filters = zarray.filters ?? [];
  if (!Array.isArray(filters)) throw invalidMetadata(where, `filters must be an array or null, got ${describe(filters)}`);
  // Order "F" with a trailing dimension: zarrita would transpose it with
  // the array's axes, so the stored codec reads such chunks in their
  // storage order (fortran-chunks.js). Where at most one axis of a chunk
  // is longer than 1, "F" and "C" are the same bytes.
  const fortran = Boolean(p.trailing) && zarray.order === "F" && zarray.chunks.filter((n) => n > 1).length > 1;
  // Byte strings are presented as stored, and variable-length bytes' filter
  // is their codec: filters run on the stored values.
  // numcodecs' Shuffle regroups the stored bytes by its own element size:
  // it runs on the stored values whatever is presented (after the stored
  // codec, as a bytes -> bytes codec).
  const shuffles = filters.filter((f) => isPlainObject(f) && f.id === "shuffle");
  if (p.kind !== "time" && p.kind !== "byte-string" && p.kind !== "variable-bytes" && filters.length > shuffles.length) {
    const ids = filters.map((f) => (typeof f?.id === "string" ? JSON.stringify(prefix(f.id, 64)) : describe(f?.id)));
    throw invalidMetadata(where, `filters [${ids.join(",")}] would run on the presented ${p.presented} values rather than the stored ones; withDataTypes cannot present this array`);
  }
  const fill = presentFill(where, p, zarray.fill_value, { v2: true, rounded });
  const doc = { ...zarray, fill_value: fill.value };
  if (p.trailing && zarray.order === "F") doc.order = "C";
  const chunks = withTrailing(where, "chunks", zarray.chunks, p.trailing);
  if (p.codec || fortran) {
    // The stored codec decodes the stored bytes (either byte order, or each
    // field's own, or in order "F"); zarrita, told a little-endian or
    // one-byte dtype, adds no bytes codec of its own.
    const complex = p.trailing === 2 && p.kind !== "record" && p.kind !== "raw";
    const conversion = {
      codec: { name: "bytes", configuration: { endian: order === ">" ? "big" : "little" } },
      dataType: complex ? parseDataType(where, p.component) : dataType,
      adapter: { floats: p.widen ? "float32" : "bits" },
      dropTrailing: p.kind === "record" || p.kind === "raw",
      strings: p.kind === "string",
      fortran,
    };
    codecFor(conversion, chunks).dispose();
    doc.filters = [{ id: STORED_CODEC, ticket: ticket(conversion, where) }, ...shuffles];
    doc.dtype = p.kind === "record" || p.kind === "raw" ? "|u1" : p.kind === "string" ? "|O" : `<${V2_NAMES.get(p.presented)}`;
  } else if (p.kind === "raw") {
    doc.dtype = "|u1";
  } else if (p.kind === "byte-string") {
    // zarrita reads the dtype as it is, through the stored codec as the
    // last filter, which checks each chunk's length (byte-string-codec.js).
    const conversion = byteStringConversion(dataType);
    doc.filters = [...filters, { id: STORED_CODEC, ticket: ticket(conversion, where) }];
  } else if (p.kind === "variable-bytes") {
    // zarrita reads the dtype as it is.
  } else {
    doc.dtype = `${order}${V2_NAMES.get(p.presented)}`;
  }
  if (p.trailing) {
    doc.shape = withTrailing(where, "shape", zarray.shape, p.trailing);
    doc.chunks = chunks;
  }
  return {
    doc,
    presented: {
      stored: zarray.dtype,
      dataType,
      floats,
      trailing: p.trailing,
      encoding: { name: "v2", separator },
      rank: zarray.shape.length + (p.trailing ? 1 : 0),
      presented: p.presented,
      fillBeyondZarrita: fill.beyondZarrita,
      fillElement: fill.element,
      fillByteString: fill.byteString,
      objectFill: fill.objectFill,
      chunkShape: doc.chunks,
    },
  };
}
