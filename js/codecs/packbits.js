// The `packbits` codec: values of any bit width packed into a continuous
// bit stream, least significant bit first.
import { wasm } from "../wasm/load.js";
import { bytesOf, chunkBytes, cOrderStrides, outputBytes } from "./chunk.js";
import { metaDataType } from "./data-type.js";
import { NativeCodec } from "./native-codec.js";

export class PackBitsCodec {
  kind = "array_to_bytes";
  #native;
  #shape;
  #stride;
  #wrap;
  #lastOut = {};

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
    const dataType = metaDataType("packbits", meta);
    const module = adapter.module ?? wasm();
    const instance = new module.PackBitsCodec(dataType, configuration, meta.shape, adapter.presentation ?? "native");
    this.#native = new NativeCodec(this, module, instance, "packbits");
    this.#shape = meta.shape.slice();
    this.#stride = cOrderStrides(this.#shape);
    this.#wrap = instance.valueType() === "bool" ? adapter.wrapBool : undefined;
  }

  static fromConfig(configuration, meta) {
    return new PackBitsCodec(configuration, meta);
  }

  /** Encoded bytes for a chunk of `decodedByteLength` bytes of this type. */
  computeEncodedSize(decodedByteLength) {
    return this.#native.encodedSizeFor(decodedByteLength);
  }

  /**
   * @param {Uint8Array} input
   * @returns {{data: ArrayLike<unknown>, shape: number[], stride: number[]}}
   */
  decode(input) {
    const data = this.#native.decodeArray("packbits", bytesOf("packbits", "decode input", input));
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
    const bytes = bytesOf("packbits", "decode input", input);
    const n = this.#native;
    n.decodeInto(bytes, outputBytes("packbits", n.ArrayType, n.decodedBytes, out, bytes, this.#lastOut));
    return out;
  }

  /**
   * @param {{data: ArrayBufferView, shape?: number[], stride?: number[]}} chunk
   * @returns {Uint8Array}
   */
  encode(chunk) {
    const n = this.#native;
    return n.encode(chunkBytes("packbits", chunk, n.ArrayType));
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
if (typeof Symbol.dispose === "symbol") PackBitsCodec.prototype[Symbol.dispose] = PackBitsCodec.prototype.dispose;
