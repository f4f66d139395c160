// The `packbits` codec: values of any bit width packed into a continuous
// bit stream, least significant bit first.
import { codecOptions, configurationOf, optionalBitIndex, optionalText } from "./arguments.js";
import { presentationOf } from "./bytes.js";
import { bytesOf, chunkBytes } from "./chunk.js";
import { chunkOf, coreOf, outputOf, WasmCodec } from "./wasm-codec.js";

export class PackBitsCodec extends WasmCodec {
  kind = "array_to_bytes";

  /**
   * @param {{padding_encoding?: string | null, first_bit?: number | null,
   *   last_bit?: number | null} | undefined} configuration
   * @param {{dataType: string | object, shape: number[]}} meta
   * @param {import("./wasm-codec.js").Adapter} [adapter] internal
   */
  constructor(configuration, meta, adapter = {}) {
    super(
      "packbits",
      (m) => {
        const config = configurationOf(
          "packbits",
          configuration,
          ["padding_encoding", "first_bit", "last_bit"],
          "(expected padding_encoding, first_bit or last_bit)",
        );
        const first = optionalBitIndex("first_bit", config.first_bit);
        const last = optionalBitIndex("last_bit", config.last_bit);
        const padding = optionalText("packbits", "padding_encoding", config.padding_encoding, '"none", "first_byte" or "last_byte"');
        return (dataType, shape) =>
          new m.PackBitsCodec(dataType.descriptor, first, last, padding, shape, presentationOf(adapter, dataType));
      },
      meta,
      adapter,
    );
  }

  /**
   * @param {{padding_encoding?: string | null, first_bit?: number | null,
   *   last_bit?: number | null} | undefined} configuration
   * @param {{dataType: string | object, shape: number[]}} meta
   * @param {{floats?: "bits" | "float32"}} [options] narrow floats as bit
   *   patterns (default) or widened to float32
   */
  static fromConfig(configuration, meta, options) {
    return new PackBitsCodec(configuration, meta, codecOptions("packbits", options));
  }

  /**
   * @param {Uint8Array} input
   * @returns {{data: ArrayLike<unknown>, shape: number[], stride: number[]}}
   */
  decode(input) {
    return this[chunkOf](this[coreOf].decodeArray("packbits", bytesOf("packbits", "decode input", input)));
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
    this[coreOf].decodeInto(bytes, this[outputOf](out, bytes));
    return out;
  }

  /**
   * @param {{data: ArrayBufferView, shape?: number[], stride?: number[]}} chunk
   * @returns {Uint8Array}
   */
  encode(chunk) {
    const core = this[coreOf];
    return core.encode("packbits", chunkBytes("packbits", chunk, core.ArrayType));
  }
}
