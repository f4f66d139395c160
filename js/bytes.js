// The `bytes` codec (also registered under its legacy name `endian`).
// Little-endian data on a little-endian host decodes to a zero-copy view, as
// in zarrita; big-endian data is swapped in wasm, streamed in blocks.
import {
  allocate,
  bytesOf,
  checkConfiguration,
  checkMeta,
  chunkBytes,
  cOrderStrides,
  outputBytes,
  viewAs,
} from "./chunk.js";
import { arrayTypeFor } from "./data-types.js";
import { describe, throwIfFailed, ZarrCodecError } from "./errors.js";
import { SCRATCH_BYTES, streamThroughHeap } from "./heap.js";
import { wasm } from "./module.js";

export class BytesCodec {
  kind = "array_to_bytes";
  #module;
  #plan;
  #ArrayType;
  #shape;
  #stride;
  #adapter;
  #swapStream;
  #normalizeStream;

  /**
   * @param {{endian?: "big" | "little"} | undefined} configuration
   * @param {{dataType: string, shape: number[]}} meta
   * @param {{wrapBool?: (bytes: Uint8Array) => unknown, module?: object}} [adapter]
   *   internal: zarrita's bool container (register), another module
   *   instance (the benchmark's build without SIMD)
   */
  constructor(configuration, meta, adapter = {}) {
    const config = checkConfiguration("bytes", configuration, ["endian"], '(expected "endian")');
    const endian = config.endian ?? undefined;
    if (endian !== undefined && typeof endian !== "string") {
      throw new ZarrCodecError(
        "INVALID_CONFIGURATION",
        `bytes: endian must be "big" or "little", got ${describe(endian)}`,
      );
    }
    checkMeta("bytes", meta);
    this.#module = adapter.module ?? wasm();
    this.#plan = throwIfFailed(
      this.#module.planBytes(meta.dataType, endian, meta.shape),
    );
    this.#ArrayType = arrayTypeFor(this.#plan.dataType);
    this.#shape = meta.shape.slice();
    this.#stride = cOrderStrides(this.#shape);
    this.#adapter = adapter;
    this.#swapStream = this.#heapStream(false);
    this.#normalizeStream = this.#heapStream(this.#plan.normalizeBool);
  }

  /**
   * @param {{endian?: "big" | "little"} | undefined} configuration
   * @param {{dataType: string, shape: number[]}} meta
   */
  static fromConfig(configuration, meta) {
    return new BytesCodec(configuration, meta);
  }

  /** The encoded size equals the decoded size. */
  computeEncodedSize(decodedByteLength) {
    return decodedByteLength;
  }

  /**
   * @param {Uint8Array} input
   * @returns {{data: ArrayLike<unknown>, shape: number[], stride: number[]}}
   */
  decode(input) {
    const bytes = bytesOf("bytes", "decode input", input);
    this.#checkLength("encoded bytes", bytes.byteLength);
    let data;
    if (this.#plan.swapWidth === 1) {
      data = viewAs(this.#ArrayType, bytes);
    } else {
      data = allocate("bytes", this.#ArrayType, bytes.byteLength);
      streamThroughHeap(this.#module, this.#swapStream, bytes, new Uint8Array(data.buffer));
    }
    return {
      data: this.#plan.normalizeBool && this.#adapter.wrapBool
        ? this.#adapter.wrapBool(data)
        : data,
      shape: this.#shape,
      stride: this.#stride,
    };
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
    this.#checkLength("encoded bytes", bytes.byteLength);
    const dst = outputBytes("bytes", this.#ArrayType, this.#plan.byteLength, out, bytes);
    if (this.#plan.swapWidth === 1) dst.set(bytes);
    else streamThroughHeap(this.#module, this.#swapStream, bytes, dst);
    return out;
  }

  /**
   * @param {{data: ArrayBufferView, shape?: number[], stride?: number[]}} chunk
   * @returns {Uint8Array} fresh bytes; the chunk is never changed
   */
  encode(chunk) {
    const bytes = chunkBytes("bytes", chunk, this.#ArrayType);
    this.#checkLength("bytes of input", bytes.byteLength);
    if (this.#plan.swapWidth === 1 && !this.#plan.normalizeBool) {
      return bytes.slice();
    }
    const out = allocate("bytes", Uint8Array, bytes.byteLength);
    streamThroughHeap(this.#module, this.#normalizeStream, bytes, out);
    return out;
  }

  #checkLength(what, length) {
    if (length !== this.#plan.byteLength) {
      throwIfFailed(this.#module.bytesLengthError(this.#plan, what, length));
    }
  }

  /** @returns {import("./heap.js").HeapStream} */
  #heapStream(normalizeBool) {
    const module = this.#module;
    const unit = this.#plan.swapWidth;
    const normalize = normalizeBool ? 1 : 0;
    return {
      units: this.#plan.byteLength / unit,
      unitsPerBlock: Math.floor(SCRATCH_BYTES / unit),
      srcOffset: (u) => u * unit,
      dstOffset: (u) => u * unit,
      kernel: (srcPtr, dstPtr, _start, count) =>
        module._zcw_bytes_transform(unit, normalize, srcPtr, dstPtr, count * unit),
    };
  }
}
