// The `bytes` codec (also registered under its legacy name `endian`).
// Little-endian data on a little-endian host decodes to a zero-copy view, as
// in zarrita; everything else (big-endian swaps, records field by field,
// one-byte sub-byte values, widening to float32) runs in wasm.
import { codecOptions, configurationOf, optionalText } from "./arguments.js";
import { bytesOf, chunkBytes, viewAs } from "./chunk.js";
import { chunkOf, coreOf, outputOf, WasmCodec } from "./wasm-codec.js";

/**
 * The presentation the core decodes `dataType` into for an adapter
 * (wasm-codec.js): `floats: "float32"` widens the narrow float formats
 * only, the one kind of type it applies to.
 */
export function presentationOf(adapter, dataType) {
  return adapter.floats === "float32" && dataType.info.floatFormat ? "float32" : "stored";
}

export class BytesCodec extends WasmCodec {
  kind = "array_to_bytes";

  /**
   * @param {{endian?: "big" | "little"} | undefined} configuration
   * @param {{dataType: string | object, shape: number[]}} meta
   * @param {import("./wasm-codec.js").Adapter} [adapter] internal
   */
  constructor(configuration, meta, adapter = {}) {
    super(
      "bytes",
      (m) => {
        const config = configurationOf("bytes", configuration, ["endian"], '(expected "endian")');
        const endian = optionalText("bytes", "endian", config.endian, '"big" or "little"');
        return (dataType, shape) => new m.BytesCodec(dataType.descriptor, endian, shape, presentationOf(adapter, dataType));
      },
      meta,
      adapter,
    );
  }

  /**
   * @param {{endian?: "big" | "little"} | undefined} configuration
   * @param {{dataType: string | object, shape: number[]}} meta
   * @param {{floats?: "bits" | "float32"}} [options] narrow floats as bit
   *   patterns (default) or widened to float32
   */
  static fromConfig(configuration, meta, options) {
    return new BytesCodec(configuration, meta, codecOptions("bytes", options));
  }

  /**
   * @param {Uint8Array} input
   * @returns {{data: ArrayLike<unknown>, shape: number[], stride: number[]}}
   */
  decode(input) {
    const bytes = bytesOf("bytes", "decode input", input);
    const core = this[coreOf];
    const zeroCopy = core.decodeIsCopy && bytes.byteLength === core.decodedBytes;
    return this[chunkOf](zeroCopy ? viewAs(core.ArrayType, bytes) : core.decodeArray("bytes", bytes));
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
    const core = this[coreOf];
    const dst = this[outputOf](out, bytes);
    if (core.decodeIsCopy && bytes.byteLength === core.decodedBytes) dst.set(bytes);
    else core.decodeInto(bytes, dst);
    return out;
  }

  /**
   * @param {{data: ArrayBufferView, shape?: number[], stride?: number[]}} chunk
   * @returns {Uint8Array} fresh bytes; the chunk is never changed
   */
  encode(chunk) {
    const core = this[coreOf];
    const bytes = chunkBytes("bytes", chunk, core.ArrayType);
    if (core.encodeIsCopy && bytes.byteLength === core.decodedBytes) return bytes.slice();
    return core.encode("bytes", bytes);
  }
}
