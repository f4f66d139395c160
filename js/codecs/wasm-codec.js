// What the three codec classes share: one embind instance each (owned
// through NativeCodec, freed when the codec is collected or disposed), the
// chunk's shape and C-order stride, zarrita's bool container, and the
// caller's output for decodeInto. Each class adds its own decode and
// encode on top.
import { wasm } from "../wasm/load.js";
import { cOrderStrides, outputBytes } from "./chunk.js";
import { metaDataType } from "./data-type.js";
import { NativeCodec } from "./native-codec.js";

// The subclasses' handles on what the base holds; symbols, so they stay
// out of the codecs' API.
export const nativeOf = Symbol("native codec");
export const chunkOf = Symbol("chunk of decoded values");
export const outputOf = Symbol("decodeInto's output bytes");

export class WasmCodec {
  #name;
  #native;
  #shape;
  #stride;
  #wrap;
  #lastOut = {};

  /**
   * @param {string} name the codec's name, for messages
   * @param {(module: object, dataType: string | object) => object} create
   *   makes the embind instance of this codec
   * @param {{dataType: string | object, shape: number[]}} meta
   * @param {{wrapBool?: (bytes: Uint8Array) => unknown, module?: object}} adapter
   */
  constructor(name, create, meta, adapter) {
    const dataType = metaDataType(name, meta);
    const module = adapter.module ?? wasm();
    const instance = create(module, dataType);
    this.#name = name;
    this.#native = new NativeCodec(this, module, instance, name);
    this.#shape = meta.shape.slice();
    this.#stride = cOrderStrides(this.#shape);
    this.#wrap = instance.valueType() === "bool" ? adapter.wrapBool : undefined;
  }

  get [nativeOf]() {
    return this.#native;
  }

  /** Decoded values as zarrita's chunk (bools in zarrita's container). */
  [chunkOf](data) {
    return { data: this.#wrap ? this.#wrap(data) : data, shape: this.#shape, stride: this.#stride };
  }

  /** The bytes of decodeInto's `out` (see outputBytes), checked against `input`. */
  [outputOf](out, input, ArrayType = this.#native.ArrayType) {
    return outputBytes(this.#name, ArrayType, this.#native.decodedBytes, out, input, this.#lastOut);
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
if (typeof Symbol.dispose === "symbol") WasmCodec.prototype[Symbol.dispose] = WasmCodec.prototype.dispose;
