// The `packbits` codec: values of any bit width packed into a continuous
// bit stream, least significant bit first.
import { bytesOf, chunkBytes } from "./chunk.js";
import { chunkOf, nativeOf, outputOf, WasmCodec } from "./wasm-codec.js";

export class PackBitsCodec extends WasmCodec {
  kind = "array_to_bytes";

  /**
   * @param {{padding_encoding?: string | null, first_bit?: number | null,
   *   last_bit?: number | null} | undefined} configuration
   * @param {{dataType: string | object, shape: number[]}} meta
   * @param {{wrapBool?: (bytes: Uint8Array) => unknown, module?: object,
   *   presentation?: "native" | "float32"}} [adapter]
   *   internal: zarrita's bool container (register), another module
   *   instance (the benchmark's build without SIMD), widened floats
   *   (withDataTypes)
   */
  constructor(configuration, meta, adapter = {}) {
    const presentation = adapter.presentation ?? "native";
    super("packbits", (m, dataType) => new m.PackBitsCodec(dataType, configuration, meta.shape, presentation), meta, adapter);
  }

  static fromConfig(configuration, meta) {
    return new PackBitsCodec(configuration, meta);
  }

  /** Encoded bytes for a chunk of `decodedByteLength` bytes of this type. */
  computeEncodedSize(decodedByteLength) {
    return this[nativeOf].encodedSizeFor(decodedByteLength);
  }

  /**
   * @param {Uint8Array} input
   * @returns {{data: ArrayLike<unknown>, shape: number[], stride: number[]}}
   */
  decode(input) {
    return this[chunkOf](this[nativeOf].decodeArray("packbits", bytesOf("packbits", "decode input", input)));
  }

  /**
   * Decodes into the caller's array (the data type's container, of the
   * decoded size), allocating nothing. Returns `out`.
   * @template {ArrayBufferView} T
   * @param {Uint8Array} input
   * @param {T} out
   * @returns {T}
   */
  decodeInto(input, out) {
    const bytes = bytesOf("packbits", "decode input", input);
    this[nativeOf].decodeInto(bytes, this[outputOf](out, bytes));
    return out;
  }

  /**
   * @param {{data: ArrayBufferView, shape?: number[], stride?: number[]}} chunk
   * @returns {Uint8Array}
   */
  encode(chunk) {
    const n = this[nativeOf];
    return n.encode(chunkBytes("packbits", chunk, n.ArrayType));
  }
}
