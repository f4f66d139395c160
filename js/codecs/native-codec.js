// One embind codec instance (bindings/bindings.cpp) and its lifetime, as
// the three codec classes share it. Users never call .delete(): the
// instance is freed when the codec that owns it is collected (a
// FinalizationRegistry), or at once by dispose(). Calls go through one
// plain wasm export per direction; the streaming through the scratch
// blocks happens in C++, with the TypedArrays reached through
// Module.zcwIo (bindings/js_io.h).
import { ZarrCodecError } from "../errors.js";
import { allocate } from "./chunk.js";
import { containerFor } from "./containers.js";

// Frees an instance whose owner was collected without dispose().
const finalizer =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry((instance) => instance.delete())
    : undefined;

export class NativeCodec {
  /** The decoded container's TypedArray constructor. */
  ArrayType;
  /** Bytes of a decoded / encoded chunk. */
  decodedBytes;
  encodedBytes;
  /** Decoding (encoding) is a plain copy: the zero-copy paths apply. */
  decodeIsCopy;
  encodeIsCopy;
  #module;
  #instance;
  #handle;
  #singleBlock;
  #codec;

  /**
   * @param {object} owner the codec object whose collection frees the instance
   * @param {object} module the loaded wasm module
   * @param {object} instance a new embind codec instance; deleted here if
   *   its configuration was refused
   * @param {string} codec the codec's name, for messages
   */
  constructor(owner, module, instance, codec) {
    const status = instance.status();
    if (status.code !== "OK") {
      instance.delete();
      throw new ZarrCodecError(status.code, status.message);
    }
    this.#module = module;
    this.#instance = instance;
    this.#codec = codec;
    this.#handle = instance.handle();
    this.#singleBlock = instance.singleBlock();
    this.ArrayType = containerFor(instance.valueType());
    this.decodedBytes = instance.decodedBytes();
    this.encodedBytes = instance.encodedBytes();
    this.decodeIsCopy = instance.decodeIsCopy();
    this.encodeIsCopy = instance.encodeIsCopy();
    finalizer?.register(owner, instance, owner);
  }

  #live() {
    if (this.#instance === null) {
      throw new ZarrCodecError(
        "DISPOSED",
        `${this.#codec}: this codec was disposed; create a new one with fromConfig()`,
      );
    }
  }

  #fail() {
    const { code, message } = this.#instance.lastStatus();
    throw new ZarrCodecError(code, message);
  }

  /**
   * Decodes `input` into the Uint8Array `out` (over the caller's
   * container) and returns it.
   * @param {Uint8Array} input
   * @param {Uint8Array} out
   */
  decodeInto(input, out) {
    this.#live();
    return this.#decode(input, out);
  }

  /**
   * Decodes `input` into a fresh container.
   * @param {string} codec the codec's name, for an allocation failure
   * @param {Uint8Array} input
   */
  decodeArray(codec, input) {
    this.#live();
    const n = this.decodedBytes;
    // A frame of the wrong length is refused before anything is allocated
    // for the output (a hostile shape must not cost gigabytes first).
    if (input.length !== this.encodedBytes) this.#decode(input, new Uint8Array(0));
    if (this.#singleBlock && n > 0) {
      // A chunk that fits one block stays in wasm memory and is copied out
      // in one slice: that copy is the allocation a fresh array needs
      // anyway.
      const bytes = this.#decode(input, null);
      return this.ArrayType === Uint8Array ? bytes : new this.ArrayType(bytes.buffer);
    }
    const data = allocate(codec, this.ArrayType, n);
    this.#decode(input, new Uint8Array(data.buffer));
    return data;
  }

  #decode(input, out) {
    const m = this.#module;
    const io = m.zcwIo;
    const n = this.decodedBytes;
    io[0] = input;
    io[1] = out;
    const failed = m._zcw_decode(this.#handle, input.length, n);
    io[0] = io[1] = undefined;
    if (failed) this.#fail();
    return out ?? m.HEAPU8.slice(io[2], io[2] + n);
  }

  /**
   * Encodes the decoded bytes `input` into fresh bytes.
   * @param {Uint8Array} input
   * @returns {Uint8Array}
   */
  encode(input) {
    this.#live();
    const m = this.#module;
    const io = m.zcwIo;
    const out = new Uint8Array(this.encodedBytes);
    io[0] = input;
    io[1] = out;
    const failed = m._zcw_encode(this.#handle, input.length, out.length);
    io[0] = io[1] = undefined;
    if (failed) this.#fail();
    return out;
  }

  /** The encoded size of `decodedByteLength` decoded bytes. */
  encodedSizeFor(decodedByteLength) {
    this.#live();
    const size = this.#instance.encodedSizeFor(decodedByteLength);
    if (size < 0) this.#fail();
    return size;
  }

  /** Frees the instance now; later calls throw DISPOSED. */
  dispose(owner) {
    if (this.#instance === null) return;
    finalizer?.unregister(owner);
    this.#instance.delete();
    this.#instance = null;
  }

  /** The embind instance (the low-level API, and the benchmark's kernel timing). */
  get instance() {
    this.#live();
    return this.#instance;
  }
}
