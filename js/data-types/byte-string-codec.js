// The stored codec of byte strings (zarr-python 3's null_terminated_bytes,
// Zarr v2's "|S<n>") that withDataTypes presents as zarrita's "v2:S<n>":
// the stored bytes are the presented bytes, so decoding is zarrita's own
// view of them (its ByteStringArray), after one check zarrita's bytes
// codec does not make: a chunk holds exactly its elements' bytes. An
// 11-byte chunk of [3] "|S4" elements would read as "AAA" through it, an
// empty chunk as "", where the chunk is corrupt. Byte strings have no byte
// order: nothing is swapped (zarrita's codec would swap each string by its
// width under endian "big").
import { bytesOf, cOrderStrides } from "../codecs/chunk.js";
import { describe, ZarrCodecError } from "../errors.js";

export class ByteStringCodec {
  kind = "array_to_bytes";
  #width;
  #shape;
  #stride;
  #bytes;
  #wrap;

  /**
   * @param {number} width bytes of one element
   * @param {number[]} shape the chunk's shape
   * @param {{wrapByteStrings?: (bytes: Uint8Array, chars: number) => unknown}} adapter
   *   zarrita's container (without one, the bytes as they are)
   */
  constructor(width, shape, adapter = {}) {
    this.#width = width;
    this.#shape = shape.slice();
    this.#stride = cOrderStrides(this.#shape);
    this.#bytes = this.#shape.reduce((a, b) => a * b, 1) * width;
    this.#wrap = adapter.wrapByteStrings ?? ((bytes) => bytes);
  }

  /** Bytes of one decoded chunk (read copies them into place itself). */
  get decodedBytes() {
    return this.#bytes;
  }

  decode(input) {
    const bytes = bytesOf("bytes", "decode input", input);
    if (bytes.byteLength !== this.#bytes) {
      throw new ZarrCodecError(
        "LENGTH_MISMATCH",
        `bytes: null_terminated_bytes of ${this.#width} bytes shape [${this.#shape.join(", ")}] needs ${this.#bytes} bytes, got ${bytes.byteLength}`,
      );
    }
    return { data: this.#wrap(bytes, this.#width), shape: this.#shape, stride: this.#stride };
  }

  /** @param {{data: {buffer: ArrayBufferLike, byteOffset: number, byteLength: number}}} chunk */
  encode(chunk) {
    const data = chunk?.data;
    let bytes;
    try {
      bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    } catch {
      bytes = undefined;
    }
    if (bytes?.byteLength !== this.#bytes) {
      throw new ZarrCodecError("INVALID_INPUT", `bytes: encode needs ${this.#bytes} bytes of byte strings, got ${describe(data)}`);
    }
    return bytes.slice();
  }

  computeEncodedSize(decodedSize) {
    return decodedSize;
  }

  dispose() {}
}
