// `numcodecs.packbits`: numcodecs' PackBits filter, an array -> array codec
// from a bool chunk to a 1-d uint8 chunk (a padding-count byte, then the
// bits most significant first, as numpy.packbits writes them). zarrita names
// Zarr v2 filters `numcodecs.<id>`; zarr-python 3 writes it in v3 metadata,
// followed by `bytes`.
import { wasm } from "../wasm/load.js";
import { bytesOf, chunkBytes, cOrderStrides, outputBytes } from "./chunk.js";
import { metaDataType } from "./data-type.js";
import { NativeCodec } from "./native-codec.js";

export class NumcodecsPackBitsCodec {
  kind = "array_to_array";
  #native;
  #shape;
  #stride;
  #wrap;
  #lastOut = {};

  /**
   * @param {{} | undefined} configuration PackBits has no parameters
   * @param {{dataType: string | object, shape: number[]}} meta
   * @param {{wrapBool?: (bytes: Uint8Array) => unknown, module?: object}} [adapter]
   *   internal: zarrita's bool container (register), another module
   *   instance (the benchmark's build without SIMD)
   */
  constructor(configuration, meta, adapter = {}) {
    const dataType = metaDataType("numcodecs.packbits", meta);
    const module = adapter.module ?? wasm();
    const instance = new module.NumcodecsPackBitsCodec(dataType, configuration, meta.shape);
    this.#native = new NativeCodec(this, module, instance, "numcodecs.packbits");
    this.#shape = meta.shape.slice();
    this.#stride = cOrderStrides(this.#shape);
    this.#wrap = adapter.wrapBool;
  }

  static fromConfig(configuration, meta) {
    return new NumcodecsPackBitsCodec(configuration, meta);
  }

  /** What the next codec sees: a 1-d uint8 chunk of 1 + ceil(n / 8). */
  getEncodedMeta(meta) {
    return { ...meta, dataType: "uint8", shape: [this.#native.encodedBytes], fillValue: 0 };
  }

  /**
   * @param {{data: ArrayBufferView}} chunk the uint8 chunk
   * @returns {{data: ArrayLike<unknown>, shape: number[], stride: number[]}}
   */
  decode(chunk) {
    const bytes = bytesOf("numcodecs.packbits", "chunk.data", chunk?.data);
    const data = this.#native.decodeArray("numcodecs.packbits", bytes);
    return { data: this.#wrap ? this.#wrap(data) : data, shape: this.#shape, stride: this.#stride };
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
    const n = this.#native;
    n.decodeInto(bytes, outputBytes("numcodecs.packbits", Uint8Array, n.decodedBytes, out, bytes, this.#lastOut));
    return out;
  }

  /**
   * @param {{data: ArrayBufferView}} chunk the bool chunk
   * @returns {{data: Uint8Array, shape: number[], stride: number[]}}
   */
  encode(chunk) {
    const data = this.#native.encode(chunkBytes("numcodecs.packbits", chunk, Uint8Array));
    return { data, shape: [data.length], stride: [1] };
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
if (typeof Symbol.dispose === "symbol") {
  NumcodecsPackBitsCodec.prototype[Symbol.dispose] = NumcodecsPackBitsCodec.prototype.dispose;
}
