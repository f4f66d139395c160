// Variable-length bytes: zarr-python 3's variable_length_bytes (its alias,
// the registry's `bytes`) with the vlen-bytes codec, and Zarr v2's "|O"
// with a vlen-bytes filter (zarr-python 2), presented as zarrita's
// "v2:object": a plain Array holding one Uint8Array per element, the way
// zarrita presents `string` arrays as JS strings. The chunks decode through
// the vlen-bytes codec register() sets (codecs/vlen-bytes.js), so the codec
// chain stays as it is.
//
// The fill value is bytes (base64, or the registry's array of byte values),
// which no JSON fill_value can give zarrita: it would fill every element
// of a missing chunk with the same metadata value. So missing chunks are
// filled by withDataTypes' array extension (zarrita 0.7), each element its
// own view of the fill's bytes, and refused where zarrita gives no hook
// (0.5, 0.6) or inside shards (UNFILLABLE_CHUNK). The presented fill_value
// is null, which no element can be mistaken for.
import { describe, invalidMetadata, isPlainObject } from "../errors.js";
import { allocate, cOrderStrides } from "../codecs/chunk.js";
import { VARIABLE_LENGTH_BYTES } from "../types/variable-length-bytes.js";
import { requireRegistration } from "../zarrita/registration.js";
import { fillByteString, showBytes } from "./byte-fills.js";

// The presented array -> bytes codec: vlen-bytes, as it is.
function arrayToBytes(where, entry) {
  const { name, configuration } = entry;
  if (name === "vlen-bytes") {
    if (configuration !== undefined && !(isPlainObject(configuration) && Object.keys(configuration).length === 0)) {
      throw invalidMetadata(where, `the vlen-bytes codec takes no configuration, got ${describe(configuration)}`);
    }
    requireRegistration(where, "its chunks are read through the codec vlen-bytes");
    return entry;
  }
  if (name === "bytes" || name === "endian" || name === "packbits" || name === "vlen-utf8") {
    throw invalidMetadata(where, `variable-length bytes cannot be encoded by the ${describe(name)} codec (expected vlen-bytes)`);
  }
  return undefined;
}

/** @returns {import("./presentation.js").Presentation} */
export function variableBytesPresentation() {
  return {
    dataType: { name: VARIABLE_LENGTH_BYTES, variableLength: true },
    presented: "v2:object",
    component: "uint8",
    trailing: 0,
    widen: false,
    codec: false,
    kind: "variable-bytes",
    arrayToBytes,
  };
}

/** Whether a Zarr v2 array holds variable-length bytes ("|O", a vlen-bytes filter). */
export function isV2VariableBytes(dtype, filters) {
  return dtype === "|O" && Array.isArray(filters) && filters.some((f) => isPlainObject(f) && f.id === "vlen-bytes");
}

// A missing chunk: every element its own view of the fill's bytes, in one
// buffer (as decoded chunks are: codecs/vlen-bytes.js).
function filledChunk(fill) {
  return (p) => {
    const size = p.chunkShape.reduce((a, b) => a * b, 1);
    const bytes = allocate("withDataTypes", Uint8Array, size * fill.length);
    const items = new Array(size);
    for (let i = 0; i < size; i++) {
      bytes.set(fill, i * fill.length);
      items[i] = new Uint8Array(bytes.buffer, i * fill.length, fill.length);
    }
    return { data: items, shape: p.chunkShape, stride: cOrderStrides(p.chunkShape) };
  };
}

/**
 * The presented fill (null) and how missing chunks are filled.
 * @param {string} where
 * @param {unknown} fill v3: base64 or an array of byte values; Zarr v2
 *   (`v2`): also 0 and null, which read as empty bytes (numcodecs'
 *   VLenBytes writes 0 and None as b"", and zarr-python 2 writes fill 0)
 */
export function variableBytesFill(where, fill, { v2 = false } = {}) {
  const bytes = v2 && (fill === 0 || fill === null) ? new Uint8Array(0) : fillByteString(where, fill, { arrays: !v2 });
  return {
    value: null,
    objectFill: {
      shown: showBytes(bytes),
      why:
        "this zarrita fills a missing chunk with the metadata's fill_value itself, which cannot be a Uint8Array, so the read is refused " +
        "(zarrita >= 0.7 fills it, through withDataTypes' array extension)",
      chunk: filledChunk(bytes),
    },
  };
}
