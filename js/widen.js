// Widening bit patterns of the narrow float formats to Float32Array, for
// viewers: exactly (NaN payloads of the IEEE-style formats, infinities,
// signed zeros and subnormals kept), in the same wasm kernels the codecs
// use (kernels/widen.cpp). Synchronous: call after ready().
import { BytesCodec } from "./codecs/bytes.js";
import { describe, ZarrCodecError } from "./errors.js";

const tagOf = (x) => Object.prototype.toString.call(x).slice(8, -1);

/**
 * Bit patterns of `dataType` (float16, bfloat16, float8_*, float6_*,
 * float4_e2m1fn, or their complex forms, components interleaved) to
 * float32 values: Uint16Array for the 16-bit formats, Uint8Array (the
 * pattern in the low bits) for the others.
 * @param {string} dataType
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
  return codecFor(dataType, values.length).decode(values).data;
}

// Building a codec (validation, plan, embind instance) costs about ten
// times a 4 KiB widening, and viewers widen tile after tile of one length:
// the last codec of each data type is kept (at most one per type, a few
// hundred bytes each). A refused type or length is never cached.
const lastCodec = new Map();

function codecFor(dataType, length) {
  const last = lastCodec.get(dataType);
  if (last !== undefined && last.length === length) return last.codec;
  const complex = typeof dataType === "string" && dataType.startsWith("complex_");
  const shape = complex ? [length / 2] : [length];
  const codec = new BytesCodec({ endian: "little" }, { dataType, shape }, { presentation: "float32" });
  last?.codec.dispose();
  lastCodec.set(dataType, { length, codec });
  return codec;
}

function named(name, dataType, ArrayType) {
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

/** float16 bit patterns to Float32Array. */
export const float16ToFloat32 = named("float16ToFloat32", "float16", Uint16Array);
/** bfloat16 bit patterns to Float32Array: the top half of a float32. */
export const bfloat16ToFloat32 = named("bfloat16ToFloat32", "bfloat16", Uint16Array);
/** float4_e2m1fn bit patterns (low 4 bits of each byte) to Float32Array. */
export const float4E2m1fnToFloat32 = named("float4E2m1fnToFloat32", "float4_e2m1fn", Uint8Array);
/** float6_e2m3fn bit patterns (low 6 bits of each byte) to Float32Array. */
export const float6E2m3fnToFloat32 = named("float6E2m3fnToFloat32", "float6_e2m3fn", Uint8Array);
/** float6_e3m2fn bit patterns (low 6 bits of each byte) to Float32Array. */
export const float6E3m2fnToFloat32 = named("float6E3m2fnToFloat32", "float6_e3m2fn", Uint8Array);
