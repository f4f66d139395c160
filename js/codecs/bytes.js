// The `bytes` codec (also registered under its legacy name `endian`).
// Little-endian data on a little-endian host decodes to a zero-copy view, as
// in zarrita; everything else (big-endian swaps, one-byte sub-byte values,
// widening to float32) runs in wasm.
import { wasm } from "../wasm/load.js";
import { bytesOf, chunkBytes, cOrderStrides, outputBytes, viewAs } from "./chunk.js";
import { metaDataType } from "./data-type.js";
import { NativeCodec } from "./native-codec.js";

export class BytesCodec {
  kind = "array_to_bytes";
  #native;
  #shape;
  #stride;
  #wrap;
  #lastOut = {};

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
    const dataType = metaDataType("bytes", meta);
    const module = adapter.module ?? wasm();
    const instance = new module.BytesCodec(dataType, configuration, meta.shape, adapter.presentation ?? "native");
    this.#native = new NativeCodec(this, module, instance, "bytes");
    this.#shape = meta.shape.slice();
    this.#stride = cOrderStrides(this.#shape);
    this.#wrap = instance.valueType() === "bool" ? adapter.wrapBool : undefined;
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
    return this.#native.encodedSizeFor(decodedByteLength);
  }

  /**
   * @param {Uint8Array} input
   * @returns {{data: ArrayLike<unknown>, shape: number[], stride: number[]}}
   */
  decode(input) {
    const bytes = bytesOf("bytes", "decode input", input);
    const n = this.#native;
    let data;
    if (n.decodeIsCopy && bytes.byteLength === n.decodedBytes) {
      data = viewAs(n.ArrayType, bytes);
    } else {
      data = n.decodeArray("bytes", bytes);
    }
    return { data: this.#wrap ? this.#wrap(data) : data, shape: this.#shape, stride: this.#stride };
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
    const n = this.#native;
    const dst = outputBytes("bytes", n.ArrayType, n.decodedBytes, out, bytes, this.#lastOut);
    if (n.decodeIsCopy && bytes.byteLength === n.decodedBytes) dst.set(bytes);
    else n.decodeInto(bytes, dst);
    return out;
  }

  /**
   * @param {{data: ArrayBufferView, shape?: number[], stride?: number[]}} chunk
   * @returns {Uint8Array} fresh bytes; the chunk is never changed
   */
  encode(chunk) {
    const n = this.#native;
    const bytes = chunkBytes("bytes", chunk, n.ArrayType);
    if (n.encodeIsCopy && bytes.byteLength === n.decodedBytes) return bytes.slice();
    return n.encode(bytes);
  }

  /** Frees the wasm side now (it is freed when collected otherwise). */
  dispose() {
    this.#native.dispose(this);
  }

  /** @internal the embind instance (low-level API, benchmark) */
  get native() {
    return this.#native.instance;
  }
}
if (typeof Symbol.dispose === "symbol") BytesCodec.prototype[Symbol.dispose] = BytesCodec.prototype.dispose;
