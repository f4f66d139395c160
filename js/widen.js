// Widening bit patterns of the narrow float formats to Float32Array, for
// viewers: exactly (NaN payloads of the IEEE-style formats, infinities,
// signed zeros and subnormals kept), in the same wasm kernels the codecs
// use (kernels/widen.cpp). Synchronous: call after ready().
import { BytesCodec } from "./codecs/bytes.js";
import { describe, tagOf, ZarrCodecError } from "./errors.js";
import { parseDataType } from "./types/data-type.js";

/**
 * Bit patterns of `dataType` (float16, bfloat16, float8_*, float6_*,
 * float4_e2m1fn, or their complex forms, components interleaved) to
 * float32 values: Uint16Array for the 16-bit formats, Uint8Array (the
 * pattern in the low bits) for the others.
 * @param {string | {name: string}} dataType
 * @param {Uint8Array | Uint16Array} values
 * @returns {Float32Array}
 */
export function widenToFloat32(dataType, values) {
  if (!ArrayBuffer.isView(values) || (tagOf(values) !== "Uint8Array" && tagOf(values) !== "Uint16Array")) {
    throw new ZarrCodecError(
      "INVALID_INPUT",
      `widenToFloat32: expected a Uint8Array or Uint16Array of ${describe(dataType)} bit patterns, got ${describe(values)}`,
    );
  }
  return codecFor(parseDataType("widenToFloat32", dataType), values.length).decode(values).data;
}

// Building a codec (validation, plan, embind instance) costs about ten
// times a 4 KiB widening, and viewers widen tile after tile of one length:
// the last codec of each data type is kept, keyed by its canonical name (at
// most one per type, a few hundred bytes each). A refused type or length
// is never kept.
const lastCodec = new Map();

function codecFor(type, length) {
  const key = type.descriptor;
  const last = lastCodec.get(key);
  if (last !== undefined && last.length === length) return last.codec;
  const parts = type.info.componentCount;
  if (length % parts !== 0) {
    throw new ZarrCodecError("INVALID_INPUT", `widenToFloat32: ${type.name} values come in (real, imaginary) pairs, got ${length} bit patterns`);
  }
  const codec = new BytesCodec({ endian: "little" }, { dataType: type, shape: [length / parts] }, { floats: "float32" });
  last?.codec.dispose();
  lastCodec.set(key, { length, codec });
  return codec;
}

function deprecated(name, dataType, ArrayType) {
  return (values) => {
    if (tagOf(values) !== ArrayType.name) {
      throw new ZarrCodecError(
        "INVALID_INPUT",
        `${name}: expected a ${ArrayType.name} of bit patterns, got ${describe(values)}`,
      );
    }
    return widenToFloat32(dataType, values);
  };
}

/** @deprecated since 0.3.0: widenToFloat32("float16", bits). */
export const float16ToFloat32 = deprecated("float16ToFloat32", "float16", Uint16Array);
/** @deprecated since 0.3.0: widenToFloat32("bfloat16", bits). */
export const bfloat16ToFloat32 = deprecated("bfloat16ToFloat32", "bfloat16", Uint16Array);
/** @deprecated since 0.3.0: widenToFloat32("float4_e2m1fn", bits). */
export const float4E2m1fnToFloat32 = deprecated("float4E2m1fnToFloat32", "float4_e2m1fn", Uint8Array);
/** @deprecated since 0.3.0: widenToFloat32("float6_e2m3fn", bits). */
export const float6E2m3fnToFloat32 = deprecated("float6E2m3fnToFloat32", "float6_e2m3fn", Uint8Array);
/** @deprecated since 0.3.0: widenToFloat32("float6_e3m2fn", bits). */
export const float6E3m2fnToFloat32 = deprecated("float6E3m2fnToFloat32", "float6_e3m2fn", Uint8Array);
