// The `packbits` codec: values of any bit width packed into a continuous
// bit stream, least significant bit first.
import {
  allocate,
  bytesOf,
  checkConfiguration,
  checkMeta,
  chunkBytes,
  cOrderStrides,
  outputBytes,
} from "./chunk.js";
import { arrayTypeFor } from "./data-types.js";
import { describe, throwIfFailed, ZarrCodecError } from "./errors.js";
import { SCRATCH_BYTES, streamThroughHeap } from "./heap.js";
import { wasm } from "./module.js";

function checkPackBitsConfig(configuration) {
  const config = checkConfiguration("packbits", configuration,
    ["padding_encoding", "first_bit", "last_bit"],
    "(expected padding_encoding, first_bit or last_bit)");
  for (const key of ["first_bit", "last_bit"]) {
    const v = config[key];
    if (v !== undefined && v !== null && typeof v !== "number") {
      throw new ZarrCodecError(
        "INVALID_CONFIGURATION",
        `packbits: ${key} must be an integer or null, got ${describe(v)}`,
      );
    }
  }
  const padding = config.padding_encoding;
  if (padding !== undefined && padding !== null && typeof padding !== "string") {
    throw new ZarrCodecError(
      "INVALID_CONFIGURATION",
      `packbits: padding_encoding must be "none", "first_byte" or "last_byte", got ${describe(padding)}`,
    );
  }
  return config;
}

export class PackBitsCodec {
  kind = "array_to_bytes";
  #module;
  #planArgs;
  #plan;
  #ArrayType;
  #shape;
  #stride;
  #adapter;
  #decodeStream;
  #encodeStream;

  /**
   * @param {{padding_encoding?: string | null, first_bit?: number | null,
   *   last_bit?: number | null} | undefined} configuration
   * @param {{dataType: string, shape: number[]}} meta
   * @param {{wrapBool?: (bytes: Uint8Array) => unknown, module?: object}} [adapter]
   *   internal: zarrita's bool container (register), another module
   *   instance (the benchmark's build without SIMD)
   */
  constructor(configuration, meta, adapter = {}) {
    const config = checkPackBitsConfig(configuration);
    checkMeta("packbits", meta);
    this.#module = adapter.module ?? wasm();
    this.#planArgs = [
      meta.dataType,
      config.first_bit ?? null,
      config.last_bit ?? null,
      config.padding_encoding ?? null,
    ];
    this.#plan = throwIfFailed(
      this.#module.planPackBits(...this.#planArgs, meta.shape),
    );
    this.#ArrayType = arrayTypeFor(this.#plan.dataType);
    this.#shape = meta.shape.slice();
    this.#stride = cOrderStrides(this.#shape);
    this.#adapter = adapter;
    this.#decodeStream = this.#heapStream("decode");
    this.#encodeStream = this.#heapStream("encode");
  }

  static fromConfig(configuration, meta) {
    return new PackBitsCodec(configuration, meta);
  }

  /** Encoded bytes for a chunk of `decodedByteLength` bytes of this type. */
  computeEncodedSize(decodedByteLength) {
    const { containerBytes, componentCount } = this.#plan.dataType;
    const elements = decodedByteLength / (containerBytes * componentCount);
    const plan = throwIfFailed(
      this.#module.planPackBits(...this.#planArgs, [elements]),
    );
    return plan.encodedBytes;
  }

  /**
   * @param {Uint8Array} input
   * @returns {{data: ArrayLike<unknown>, shape: number[], stride: number[]}}
   */
  decode(input) {
    const body = this.#body(input);
    const data = allocate("packbits", this.#ArrayType, this.#plan.decodedBytes);
    streamThroughHeap(this.#module, this.#decodeStream, body, new Uint8Array(data.buffer));
    return {
      data: this.#plan.isBool && this.#adapter.wrapBool ? this.#adapter.wrapBool(data) : data,
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
    const body = this.#body(input);
    const dst = outputBytes("packbits", this.#ArrayType, this.#plan.decodedBytes, out, body);
    streamThroughHeap(this.#module, this.#decodeStream, body, dst);
    return out;
  }

  /** The packed bits of a checked frame. */
  #body(input) {
    const bytes = bytesOf("packbits", "decode input", input);
    const plan = this.#plan;
    const length = bytes.byteLength;
    const stored =
      plan.padding === "first_byte" ? bytes[0]
      : plan.padding === "last_byte" ? bytes[length - 1]
      : 0;
    if (
      length !== plan.encodedBytes ||
      (plan.padding !== "none" && stored !== plan.paddingBits)
    ) {
      throwIfFailed(
        this.#module.packbitsFrameError(...this.#planArgs, this.#shape, length, stored ?? 0),
      );
    }
    const bodyStart = plan.padding === "first_byte" ? 1 : 0;
    return bytes.subarray(bodyStart, bodyStart + plan.bodyBytes);
  }

  /**
   * @param {{data: ArrayBufferView, shape?: number[], stride?: number[]}} chunk
   * @returns {Uint8Array}
   */
  encode(chunk) {
    const bytes = chunkBytes("packbits", chunk, this.#ArrayType);
    const plan = this.#plan;
    if (bytes.byteLength !== plan.decodedBytes) {
      throwIfFailed(
        this.#module.packbitsInputError(...this.#planArgs, this.#shape, bytes.byteLength),
      );
    }
    const out = allocate("packbits", Uint8Array, plan.encodedBytes);
    const bodyStart = plan.padding === "first_byte" ? 1 : 0;
    streamThroughHeap(this.#module, this.#encodeStream, bytes,
      out.subarray(bodyStart, bodyStart + plan.bodyBytes));
    if (plan.padding === "first_byte") out[0] = plan.paddingBits;
    if (plan.padding === "last_byte") out[out.length - 1] = plan.paddingBits;
    return out;
  }

  /**
   * Groups of 8 elements: whole bytes on both sides.
   * @returns {import("./heap.js").HeapStream}
   */
  #heapStream(direction) {
    const module = this.#module;
    const plan = this.#plan;
    const { containerBytes, componentCount } = plan.dataType;
    const elementBytes = containerBytes * componentCount;
    const packedPerUnit = plan.bitsPerElement; // bytes per 8 elements
    const packedOffset = (u) => Math.min(u * packedPerUnit, plan.bodyBytes);
    const decodedOffset = (u) => Math.min(u * 8, plan.elements) * elementBytes;
    const run = direction === "decode" ? module._zcw_packbits_decode : module._zcw_packbits_encode;
    const { firstBit, bits, elements } = plan;
    const signExtend = plan.signExtend ? 1 : 0;
    const isBool = plan.isBool ? 1 : 0;
    return {
      units: Math.ceil(elements / 8),
      unitsPerBlock: Math.floor(SCRATCH_BYTES / Math.max(packedPerUnit, 8 * elementBytes)),
      srcOffset: direction === "decode" ? packedOffset : decodedOffset,
      dstOffset: direction === "decode" ? decodedOffset : packedOffset,
      kernel: (srcPtr, dstPtr, start, count) =>
        run(firstBit, bits, containerBytes, signExtend, isBool, srcPtr, dstPtr,
          Math.min(count * 8, elements - start * 8) * componentCount),
    };
  }
}
