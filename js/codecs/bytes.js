// The `bytes` codec (also registered under its legacy name `endian`).
// Little-endian data on a little-endian host decodes to a zero-copy view, as
// in zarrita; everything else (big-endian swaps, one-byte sub-byte values,
// widening to float32) runs in wasm.
import { bytesOf, chunkBytes, viewAs } from "./chunk.js";
import { chunkOf, nativeOf, outputOf, WasmCodec } from "./wasm-codec.js";

export class BytesCodec extends WasmCodec {
  kind = "array_to_bytes";

  /**
   * @param {{endian?: "big" | "little"} | undefined} configuration
   * @param {{dataType: string | object, shape: number[]}} meta
   * @param {{wrapBool?: (bytes: Uint8Array) => unknown, module?: object,
   *   presentation?: "native" | "float32"}} [adapter]
   *   internal: zarrita's bool container (register), another module
   *   instance (the benchmark's build without SIMD), widened floats
   *   (withDataTypes)
   */
  constructor(configuration, meta, adapter = {}) {
    const presentation = adapter.presentation ?? "native";
    super("bytes", (m, dataType) => new m.BytesCodec(dataType, configuration, meta.shape, presentation), meta, adapter);
  }

  /**
   * @param {{endian?: "big" | "little"} | undefined} configuration
   * @param {{dataType: string | object, shape: number[]}} meta
   */
  static fromConfig(configuration, meta) {
    return new BytesCodec(configuration, meta);
  }

  /** The encoded size equals the decoded size. */
  computeEncodedSize(decodedByteLength) {
    return this[nativeOf].encodedSizeFor(decodedByteLength);
  }

  /**
   * @param {Uint8Array} input
   * @returns {{data: ArrayLike<unknown>, shape: number[], stride: number[]}}
   */
  decode(input) {
    const bytes = bytesOf("bytes", "decode input", input);
    const n = this[nativeOf];
    const zeroCopy = n.decodeIsCopy && bytes.byteLength === n.decodedBytes;
    return this[chunkOf](zeroCopy ? viewAs(n.ArrayType, bytes) : n.decodeArray("bytes", bytes));
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
    const bytes = bytesOf("bytes", "decode input", input);
    const n = this[nativeOf];
    const dst = this[outputOf](out, bytes);
    if (n.decodeIsCopy && bytes.byteLength === n.decodedBytes) dst.set(bytes);
    else n.decodeInto(bytes, dst);
    return out;
  }

  /**
   * @param {{data: ArrayBufferView, shape?: number[], stride?: number[]}} chunk
   * @returns {Uint8Array} fresh bytes; the chunk is never changed
   */
  encode(chunk) {
    const n = this[nativeOf];
    const bytes = chunkBytes("bytes", chunk, n.ArrayType);
    if (n.encodeIsCopy && bytes.byteLength === n.decodedBytes) return bytes.slice();
    return n.encode(bytes);
  }
}
