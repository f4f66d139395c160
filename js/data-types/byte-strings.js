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
import { fillByteString, showBytes } from "./byte-fills.js";
import { refuseFill } from "./float-codes.js";

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

// The presented array -> bytes codec: bytes as zarrita reads "v2:S".
function arrayToBytes(where, entry) {
  const { name } = entry;
  if (name === "bytes" || name === "endian") return { name: "bytes" };
  if (name === "packbits" || name === "vlen-bytes" || name === "vlen-utf8") {
    throw invalidMetadata(where, `null_terminated_bytes cannot be encoded by the ${describe(name)} codec (expected bytes)`);
  }
  return undefined;
}

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
    arrayToBytes,
  };
}

/**
 * The presented fill: the string ByteStringArray.fill writes the fill's
 * bytes with, or where none does, "" with `objectFill` (missing chunks are
 * then refused, see with-data-types.js).
 * @param {string} where
 * @param {{dataType: {lengthBytes: number}}} p
 * @param {unknown} fill base64; null in Zarr v2 (no fill: zeros)
 * @param {{nullable?: boolean}} [options]
 */
export function byteStringFill(where, p, fill, { nullable = false } = {}) {
  const width = p.dataType.lengthBytes;
  if (fill === null && nullable) return { value: "" };
  const bytes = fillByteString(where, fill);
  if (bytes.length > width) {
    throw refuseFill(where, fill, `holds ${bytes.length} bytes, more than the ${width} of each element`);
  }
  try {
    return { value: utf8.decode(bytes) };
  } catch {
    return {
      value: "",
      objectFill: {
        shown: showBytes(bytes),
        why: "zarrita fills a missing chunk with a string's UTF-8 bytes, and these bytes are no UTF-8, so the read is refused",
      },
    };
  }
}
