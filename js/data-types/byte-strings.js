// Byte strings: zarr-python 3's null_terminated_bytes (numpy "|S<n>",
// { "name": "null_terminated_bytes", "configuration": { "length_bytes": n } },
// proposed to the registry in zarr-extensions PR #60) and Zarr v2's "|S<n>",
// presented as zarrita's byte strings: "v2:S<n>", what zarrita gives for v2
// "|S" (its ByteStringArray, n bytes per element).
//
// The stored bytes are the presented bytes, so zarrita's own bytes codec
// reads them as they are (a view, as for v2 "|S"); its configuration is
// dropped, since zarrita would swap each string by its width under
// endian "big" (a byte string has no byte order). What withDataTypes adds
// is the fill value: zarr-python 3 and the Zarr v2 spec write it base64,
// where zarrita fills with the fill_value text itself ("YWI=" for b"ab"),
// and with null it would fill with the text "null". Presented, the fill is
// the string whose UTF-8 is the fill's bytes (ByteStringArray.fill writes
// UTF-8); where the fill's bytes are no UTF-8, no string writes them, and a
// missing chunk is refused (UNFILLABLE_CHUNK) rather than read wrong.
//
// What a reader gets (docs/data-types.md): the stored bytes exactly, in the
// array's buffer; ByteStringArray.get(i) decodes them as UTF-8 and removes
// every NUL, numpy keeps interior NULs and any byte.
import { describe, invalidMetadata } from "../errors.js";
import { parseDataType } from "../types/data-type.js";
import { STORED_CODEC } from "./stored-codec.js";

const V2_BYTE_STRING = /^[<>|]S(\d+)$/;
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * A Zarr v2 "|S<n>" dtype as the null_terminated_bytes type zarr-python 3
 * maps it to, or undefined for any other dtype.
 */
export function v2ByteStringType(where, dtype) {
  const m = typeof dtype === "string" ? V2_BYTE_STRING.exec(dtype) : null;
  if (!m) return undefined;
  return parseDataType(where, { name: "null_terminated_bytes", configuration: { length_bytes: Number(m[1]) } });
}

/**
 * The conversion of byte strings' stored codec (byte-string-codec.js):
 * the bytes as zarrita reads "v2:S", each chunk's length checked.
 */
export function byteStringConversion(dataType) {
  return { codec: { name: "bytes" }, dataType, adapter: {}, dropTrailing: false, byteStrings: true };
}

// The presented array -> bytes codec: the stored codec, as zarrita reads
// "v2:S" but with each chunk's length checked.
const arrayToBytesOf = (dataType) => (where, entry, ticket) => {
  const { name } = entry;
  if (name === "bytes" || name === "endian") {
    return { name: STORED_CODEC, configuration: { ticket: ticket(byteStringConversion(dataType), where) } };
  }
  if (name === "packbits" || name === "vlen-bytes" || name === "vlen-utf8") {
    throw invalidMetadata(where, `null_terminated_bytes cannot be encoded by the ${describe(name)} codec (expected bytes)`);
  }
  return undefined;
};

/**
 * @param {import("../types/data-type.js").DataType} dataType null_terminated_bytes
 * @returns {import("./presentation.js").Presentation}
 */
export function byteStringPresentation(dataType) {
  return {
    dataType,
    presented: `v2:S${dataType.lengthBytes}`,
    component: "uint8",
    trailing: 0,
    widen: false,
    codec: false,
    kind: "byte-string",
    arrayToBytes: arrayToBytesOf(dataType),
  };
}
