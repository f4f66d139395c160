// numcodecs' Shuffle filter (Zarr v2 `{"id": "shuffle", "elementsize": n}`,
// zarrita 0.7's "numcodecs.shuffle", 0.5 and 0.6 have none): the bytes of
// each element regrouped, byte 0 of every element first, then byte 1...;
// bytes past the last whole element stay where they are. A bytes -> bytes
// codec: its element size is the configuration's, as numcodecs writes it,
// never the data type's (zarrita's own takes the type's, which for a type
// withDataTypes presents, float16 as float32 or complex as its parts, is
// not the stored element's size).
import { bytesOf } from "./chunk.js";
import { describe, isPlainObject, ZarrCodecError } from "../errors.js";

const MAX_ELEMENT = 1 << 16;

export class ShuffleCodec {
  kind = "bytes_to_bytes";
  #size;

  /** @param {{elementsize?: number} | undefined} configuration */
  constructor(configuration) {
    const size = isPlainObject(configuration) && configuration.elementsize !== undefined ? configuration.elementsize : 4;
    if (!Number.isInteger(size) || size < 1 || size > MAX_ELEMENT) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `shuffle: elementsize must be an integer in 1..${MAX_ELEMENT}, got ${describe(size)}`);
    }
    this.#size = size;
  }

  static fromConfig(configuration) {
    return new ShuffleCodec(configuration);
  }

  /** @param {Uint8Array} input */
  encode(input) {
    return this.#regroup(bytesOf("shuffle", "encode input", input), true);
  }

  /** @param {Uint8Array} input */
  decode(input) {
    return this.#regroup(bytesOf("shuffle", "decode input", input), false);
  }

  computeEncodedSize(size) {
    return size;
  }

  #regroup(bytes, shuffling) {
    const size = this.#size;
    const count = Math.floor(bytes.length / size);
    const out = new Uint8Array(bytes.length);
    if (size === 1) out.set(bytes);
    else {
      for (let b = 0; b < size; b++) {
        const plane = b * count;
        for (let i = 0; i < count; i++) {
          if (shuffling) out[plane + i] = bytes[i * size + b];
          else out[i * size + b] = bytes[plane + i];
        }
      }
    }
    out.set(bytes.subarray(count * size), count * size);
    return out;
  }
}
