// What the three codec classes share: their arguments read and checked
// (arguments.js, types/data-type.js), one core codec each (core-codec.js:
// owned, freed when the codec is collected or disposed), the chunk's shape
// and C-order stride, zarrita's containers, and the caller's output for
// decodeInto. Each class adds its own decode and encode on top.
import { metaDataType } from "../types/data-type.js";
import { wasm } from "../wasm/load.js";
import { metaOf, shapeOf } from "./arguments.js";
import { cOrderStrides, outputBytes } from "./chunk.js";
import { CoreCodec } from "./core-codec.js";
import { describe, ZarrCodecError } from "../errors.js";

// The subclasses' handles on what the base holds; symbols, so they stay
// out of the codecs' API.
export const coreOf = Symbol("core codec");
export const chunkOf = Symbol("chunk of decoded values");
export const outputOf = Symbol("decodeInto's output bytes");

/**
 * @typedef {object} Adapter  how a codec is used (internal)
 * @property {(bytes: Uint8Array) => unknown} [wrapBool] zarrita's BoolArray
 * @property {(bytes: Uint8Array, chars: number) => unknown} [wrapStrings]
 *   zarrita's UnicodeStringArray
 * @property {object} [module] another module instance (the benchmark's
 *   build without SIMD)
 * @property {"float32" | "bits"} [floats] narrow floats widened (withDataTypes)
 * @property {number[]} [chunkShape] the shape decoded chunks report, where
 *   it has a trailing dimension the codec's data type holds (withDataTypes'
 *   records and raw bytes)
 */

export class WasmCodec {
  #name;
  #core;
  #shape;
  #stride;
  #wrap;
  #lastOut = {};

  /**
   * @param {string} name the codec's name, for messages
   * @param {(module: object, dataType: import("../types/data-type.js").DataType,
   *   shape: string) => object} create makes the embind instance, from
   *   checked arguments (it reads the configuration itself, first)
   * @param {unknown} meta
   * @param {Adapter} adapter
   */
  constructor(name, create, meta, adapter) {
    const m = metaOf(name, meta);
    const module = adapter.module ?? wasm();
    create(module); // reads and checks the configuration first
    const shape = shapeOf(name, m.shape);
    const dataType = metaDataType(name, m);
    this.#name = name;
    this.#core = new CoreCodec(this, module, (into) => create(into)(dataType, shape.text), name);
    this.#shape = adapter.chunkShape ? adapter.chunkShape.slice() : shape.dims;
    this.#stride = cOrderStrides(this.#shape);
    const valueType = this.#core.valueType;
    if (valueType === "bool" && adapter.wrapBool) this.#wrap = adapter.wrapBool;
    if (valueType === "utf32" && adapter.wrapStrings) {
      const chars = this.#core.valuesPerElement;
      this.#wrap = (bytes) => adapter.wrapStrings(bytes, chars);
    }
  }

  get [coreOf]() {
    return this.#core;
  }

  /** Decoded values as zarrita's chunk (bools and strings in zarrita's containers). */
  [chunkOf](data) {
    return { data: this.#wrap ? this.#wrap(data) : data, shape: this.#shape, stride: this.#stride };
  }

  /** The bytes of decodeInto's `out` (see outputBytes), checked against `input`. */
  [outputOf](out, input, ArrayType = this.#core.ArrayType) {
    return outputBytes(this.#name, ArrayType, this.#core.decodedBytes, out, input, this.#lastOut);
  }

  /** The encoded size of `decodedByteLength` decoded bytes. */
  computeEncodedSize(decodedByteLength) {
    if (!Number.isSafeInteger(decodedByteLength) || decodedByteLength < 0) {
      throw new ZarrCodecError(
        "INVALID_INPUT",
        `${this.#name}: computeEncodedSize needs a byte length (a non-negative integer), got ${describe(decodedByteLength)}`,
      );
    }
    return this.#core.encodedSizeFor(decodedByteLength);
  }

  /** Frees the wasm side now (it is freed when collected otherwise). */
  dispose() {
    this.#core.dispose();
  }
}
if (typeof Symbol.dispose === "symbol") WasmCodec.prototype[Symbol.dispose] = WasmCodec.prototype.dispose;
