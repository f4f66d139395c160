// `numcodecs.packbits`: numcodecs' PackBits filter, an array -> array codec
// from a bool chunk to a 1-d uint8 chunk (a padding-count byte, then the
// bits most significant first, as numpy.packbits writes them). zarrita names
// Zarr v2 filters `numcodecs.<id>`; zarr-python 3 writes it in v3 metadata,
// followed by `bytes`.
import {
  allocate,
  bytesOf,
  checkConfiguration,
  checkMeta,
  chunkBytes,
  cOrderStrides,
  outputBytes,
} from "./chunk.js";
import { throwIfFailed } from "./errors.js";
import { SCRATCH_BYTES, streamThroughHeap } from "./heap.js";
import { wasm } from "./module.js";

export class NumcodecsPackBitsCodec {
  kind = "array_to_array";
  #module;
  #meta;
  #plan;
  #stride;
  #adapter;
  #unpackStream;
  #packStream;

  /**
   * @param {{} | undefined} configuration PackBits has no parameters
   * @param {{dataType: string, shape: number[]}} meta
   * @param {{wrapBool?: (bytes: Uint8Array) => unknown, module?: object}} [adapter]
   *   internal: zarrita's bool container (register), another module
   *   instance (the benchmark's build without SIMD)
   */
  constructor(configuration, meta, adapter = {}) {
    // Zarr v2 metadata may carry numcodecs' own "id".
    checkConfiguration("numcodecs.packbits", configuration, ["id"], "(PackBits has none)");
    checkMeta("numcodecs.packbits", meta);
    this.#module = adapter.module ?? wasm();
    this.#meta = { dataType: meta.dataType, shape: meta.shape.slice() };
    this.#plan = throwIfFailed(
      this.#module.planNumcodecsPackBits(meta.dataType, meta.shape),
    );
    this.#stride = cOrderStrides(this.#meta.shape);
    this.#adapter = adapter;
    this.#unpackStream = this.#heapStream(true);
    this.#packStream = this.#heapStream(false);
  }

  static fromConfig(configuration, meta) {
    return new NumcodecsPackBitsCodec(configuration, meta);
  }

  /** What the next codec sees: a 1-d uint8 chunk of 1 + ceil(n / 8). */
  getEncodedMeta(meta) {
    return {
      ...meta,
      dataType: "uint8",
      shape: [this.#plan.encodedBytes],
      fillValue: 0,
    };
  }

  /**
   * @param {{data: ArrayBufferView}} chunk the uint8 chunk
   * @returns {{data: ArrayLike<unknown>, shape: number[], stride: number[]}}
   */
  decode(chunk) {
    const body = this.#body(chunk);
    const data = allocate("numcodecs.packbits", Uint8Array, this.#plan.elements);
    streamThroughHeap(this.#module, this.#unpackStream, body, data);
    return {
      data: this.#adapter.wrapBool ? this.#adapter.wrapBool(data) : data,
      shape: this.#meta.shape,
      stride: this.#stride,
    };
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
    const body = this.#body(chunk);
    const dst = outputBytes("numcodecs.packbits", Uint8Array, this.#plan.elements, out, body);
    streamThroughHeap(this.#module, this.#unpackStream, body, dst);
    return out;
  }

  /** The packed bits of a checked chunk. */
  #body(chunk) {
    const bytes = bytesOf("numcodecs.packbits", "chunk.data", chunk?.data);
    const plan = this.#plan;
    if (bytes.byteLength !== plan.encodedBytes || bytes[0] !== plan.paddingBits) {
      throwIfFailed(
        this.#module.numcodecsFrameError(
          this.#meta.dataType, this.#meta.shape, bytes.byteLength, bytes[0] ?? 0),
      );
    }
    return bytes.subarray(1);
  }

  /**
   * @param {{data: ArrayBufferView}} chunk the bool chunk
   * @returns {{data: Uint8Array, shape: number[], stride: number[]}}
   */
  encode(chunk) {
    const bytes = chunkBytes("numcodecs.packbits", chunk, Uint8Array);
    const plan = this.#plan;
    if (bytes.byteLength !== plan.elements) {
      throwIfFailed(
        this.#module.numcodecsInputError(this.#meta.dataType, this.#meta.shape, bytes.byteLength),
      );
    }
    const out = allocate("numcodecs.packbits", Uint8Array, plan.encodedBytes);
    out[0] = plan.paddingBits;
    streamThroughHeap(this.#module, this.#packStream, bytes, out.subarray(1));
    return { data: out, shape: [out.length], stride: [1] };
  }

  /**
   * Groups of 8 bools are one packed byte.
   * @returns {import("./heap.js").HeapStream}
   */
  #heapStream(unpack) {
    const module = this.#module;
    const n = this.#plan.elements;
    const bodyBytes = this.#plan.bodyBytes;
    const packedOffset = (u) => Math.min(u, bodyBytes);
    const boolOffset = (u) => Math.min(u * 8, n);
    const run = unpack ? module._zcw_numcodecs_unpack : module._zcw_numcodecs_pack;
    return {
      units: Math.ceil(n / 8),
      unitsPerBlock: Math.floor(SCRATCH_BYTES / 8),
      srcOffset: unpack ? packedOffset : boolOffset,
      dstOffset: unpack ? boolOffset : packedOffset,
      kernel: (srcPtr, dstPtr, start, count) =>
        run(srcPtr, dstPtr, Math.min(count * 8, n - start * 8)),
    };
  }
}
