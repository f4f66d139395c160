// bitround (the zarr-extensions page; "numcodecs.bitround" and Zarr v2's
// `{"id": "bitround", "keepbits"}` are the same codec): values rounded to
// `keepbits` significant bits so that a compressor after it finds repeats.
//   decode: nothing (the bits dropped are gone; the values are stored as
//           they read), for every data type;
//   encode, floats (float32, float64): numcodecs' BitRound on the value's
//           bits as a signed integer b, with maskbits = mantissa bits -
//           keepbits: b += ((b >> maskbits) & 1) + (2^(maskbits-1) - 1),
//           then the low maskbits bits cleared (round to nearest, ties to
//           even; the addition wraps as numpy's does); keepbits equal to
//           the mantissa bits leaves the values as they are;
//   encode, integers (the page's, not numcodecs'): the bits as unsigned,
//           kept from the most significant set bit, as zarrs (the page's
//           reference implementation) rounds them: the same rounding,
//           saturating at the type's maximum.
// keepbits 0 is accepted (numcodecs allows it; the page asks for >= 1).
import { describe, isPlainObject, ZarrCodecError } from "../errors.js";
import { chunkMetaOf, elementsOf } from "./filter-chunk.js";
import { typeNamed } from "./numpy-types.js";

const NAME = "bitround";
const MANTISSA_BITS = { float32: 23, float64: 52 };

/** numcodecs' rounding of a float32's bits (an int32) to keepbits. */
export function roundFloat32Bits(b, keepbits) {
  const maskbits = 23 - keepbits;
  const mask = (-1 >> maskbits) << maskbits;
  const halfQuantum1 = (1 << (maskbits - 1)) - 1;
  return ((b + ((b >> maskbits) & 1) + halfQuantum1) | 0) & mask;
}

/** numcodecs' rounding of a float64's bits (an int64 BigInt) to keepbits. */
export function roundFloat64Bits(b, keepbits) {
  const maskbits = BigInt(52 - keepbits);
  const mask = (-1n >> maskbits) << maskbits;
  const halfQuantum1 = (1n << (maskbits - 1n)) - 1n;
  return BigInt.asIntN(64, b + ((b >> maskbits) & 1n) + halfQuantum1) & mask;
}

/**
 * An unsigned integer's bits (a BigInt of `width` bits) rounded to keepbits
 * from its most significant set bit, saturating at 2^width - 1.
 */
export function roundIntegerBits(u, keepbits, width) {
  const maxbits = u === 0n ? 0 : u.toString(2).length;
  if (keepbits >= maxbits) return u;
  const maskbits = BigInt(maxbits - keepbits);
  const all = (1n << BigInt(width)) - 1n;
  const mask = ((all >> maskbits) << maskbits) & all;
  const halfQuantum1 = (1n << (maskbits - 1n)) - 1n;
  const sum = u + ((u >> maskbits) & 1n) + halfQuantum1;
  return (sum > all ? all : sum) & mask;
}

export class BitroundCodec {
  kind = "array_to_array";
  #keepbits;
  #dataType;

  constructor(configuration, meta) {
    const keepbits = isPlainObject(configuration) ? configuration.keepbits : undefined;
    if (!Number.isInteger(keepbits) || keepbits < 0) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: keepbits must be an integer >= 0, got ${describe(keepbits)}`);
    }
    const dataType = chunkMetaOf(meta).dataType;
    const mantissa = MANTISSA_BITS[dataType];
    if (mantissa !== undefined && keepbits > mantissa) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: keepbits must be at most ${mantissa} for ${dataType} (its mantissa bits), got ${keepbits}`);
    }
    this.#keepbits = keepbits;
    this.#dataType = dataType;
  }

  static fromConfig(configuration, meta) {
    return new BitroundCodec(configuration, meta);
  }

  /** The values as stored: rounding is not undone. */
  decode(chunk) {
    return chunk;
  }

  encode(chunk) {
    const keepbits = this.#keepbits;
    const type = typeNamed(this.#dataType);
    if (type === undefined) {
      throw new ZarrCodecError("UNSUPPORTED_DATA_TYPE", `${NAME}: encoding ${describe(this.#dataType)} is not supported (float32, float64 and the integer types are)`);
    }
    const values = elementsOf(NAME, chunk, type);
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength).slice();
    if (type.kind === "f" && keepbits < MANTISSA_BITS[type.name]) {
      if (type.size === 4) {
        const b = new Int32Array(bytes.buffer);
        for (let i = 0; i < b.length; i++) b[i] = roundFloat32Bits(b[i], keepbits);
      } else {
        const b = new BigInt64Array(bytes.buffer);
        for (let i = 0; i < b.length; i++) b[i] = roundFloat64Bits(b[i], keepbits);
      }
    } else if (type.kind !== "f") {
      const width = type.size * 8;
      const b = new (typeNamed(`uint${width}`).Array)(bytes.buffer);
      for (let i = 0; i < b.length; i++) {
        const rounded = roundIntegerBits(BigInt(b[i]), keepbits, width);
        b[i] = width === 64 ? rounded : Number(rounded);
      }
    }
    return { data: new type.Array(bytes.buffer), shape: chunk.shape, stride: chunk.stride };
  }
}
