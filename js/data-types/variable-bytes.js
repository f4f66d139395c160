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
import { describe, invalidMetadata, isPlainObject, ZarrCodecError } from "../errors.js";
import { allocate, cOrderStrides } from "../codecs/chunk.js";
import { VARIABLE_LENGTH_BYTES } from "../types/variable-length-bytes.js";
import { requireRegistration } from "../zarrita/registration.js";

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

/**
 * A missing chunk's maker: every element its own view of the fill's
 * bytes, in one buffer (as decoded chunks are: codecs/vlen-bytes.js).
 * @param {Uint8Array} fill
 */
export function filledVariableBytes(fill) {
  return (p) => {
    const size = p.chunkShape.reduce((a, b) => a * b, 1);
    const bytes = allocate("withDataTypes", Uint8Array, size * fill.length);
    let items;
    try {
      items = new Array(size);
    } catch (cause) {
      throw new ZarrCodecError("OUT_OF_MEMORY", `withDataTypes: cannot allocate an Array of ${size} values for a missing chunk`, { cause });
    }
    for (let i = 0; i < size; i++) {
      bytes.set(fill, i * fill.length);
      items[i] = new Uint8Array(bytes.buffer, i * fill.length, fill.length);
    }
    return { data: items, shape: p.chunkShape, stride: cOrderStrides(p.chunkShape) };
  };
}
