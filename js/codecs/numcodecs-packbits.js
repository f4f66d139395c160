// `numcodecs.packbits`: numcodecs' PackBits filter, an array -> array codec
// from a bool chunk to a 1-d uint8 chunk (a padding-count byte, then the
// bits most significant first, as numpy.packbits writes them). zarrita names
// Zarr v2 filters `numcodecs.<id>`; zarr-python 3 writes it in v3 metadata,
// followed by `bytes`.
import { configurationOf } from "./arguments.js";
import { bytesOf, chunkBytes } from "./chunk.js";
import { chunkOf, coreOf, outputOf, WasmCodec } from "./wasm-codec.js";

export class NumcodecsPackBitsCodec extends WasmCodec {
  kind = "array_to_array";

  /**
   * @param {{} | undefined} configuration PackBits has no parameters
   * @param {{dataType: string | object, shape: number[]}} meta
   * @param {import("./wasm-codec.js").Adapter} [adapter] internal
   */
  constructor(configuration, meta, adapter = {}) {
    super(
      "numcodecs.packbits",
      (m) => {
        // Zarr v2 metadata may carry numcodecs' own "id".
        configurationOf("numcodecs.packbits", configuration, ["id"], "(PackBits has none)");
        return (dataType, shape) => new m.NumcodecsPackBitsCodec(dataType.descriptor, shape);
      },
      meta,
      adapter,
    );
  }

  static fromConfig(configuration, meta) {
    return new NumcodecsPackBitsCodec(configuration, meta);
  }

  /** What the next codec sees: a 1-d uint8 chunk of 1 + ceil(n / 8). */
  getEncodedMeta(meta) {
    return { ...meta, dataType: "uint8", shape: [this[coreOf].encodedBytes], fillValue: 0 };
  }

  /**
   * @param {{data: ArrayBufferView}} chunk the uint8 chunk
   * @returns {{data: ArrayLike<unknown>, shape: number[], stride: number[]}}
   */
  decode(chunk) {
    const bytes = bytesOf("numcodecs.packbits", "chunk.data", chunk?.data);
    return this[chunkOf](this[coreOf].decodeArray("numcodecs.packbits", bytes));
  }

  /**
   * Decodes into the caller's Uint8Array (or BoolArray) of n bools,
   * allocating nothing. Returns `out`.
   * @template {ArrayBufferView} T
   * @param {{data: ArrayBufferView}} chunk
   * @param {T} out
   * @returns {T}
   */
  decodeInto(chunk, out) {
    const bytes = bytesOf("numcodecs.packbits", "chunk.data", chunk?.data);
    this[coreOf].decodeInto(bytes, this[outputOf](out, bytes, Uint8Array));
    return out;
  }

  /**
   * @param {{data: ArrayBufferView}} chunk the bool chunk
   * @returns {{data: Uint8Array, shape: number[], stride: number[]}}
   */
  encode(chunk) {
    const data = this[coreOf].encode("numcodecs.packbits", chunkBytes("numcodecs.packbits", chunk, Uint8Array));
    return { data, shape: [data.length], stride: [1] };
  }
}
