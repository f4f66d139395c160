// A streaming codec of the core (bytes, packbits, numcodecs.packbits) as
// the three codec classes use it: sizes, the decoded container, and whole
// chunks through one plain wasm export per direction (js/wasm/io.js).
import { callWithIo, keptBytes } from "../wasm/io.js";
import { WasmInstance } from "../wasm/instance.js";
import { allocate } from "./chunk.js";
import { containerFor } from "./containers.js";

export class CoreCodec extends WasmInstance {
  /** The decoded container's element type (containers.js). */
  valueType;
  /** Values per element in the decoded container. */
  valuesPerElement;
  /** Bytes of a decoded / encoded chunk. */
  decodedBytes;
  encodedBytes;
  /** Decoding (encoding) is a plain copy: the zero-copy paths apply. */
  decodeIsCopy;
  encodeIsCopy;
  /** The TypedArray constructor of the decoded values. */
  ArrayType;
  #singleBlock;

  constructor(owner, module, make, name) {
    super(owner, module, make, name);
    const instance = this.live;
    this.valueType = instance.valueType();
    this.ArrayType = containerFor(this.valueType);
    this.valuesPerElement = instance.valuesPerElement();
    this.decodedBytes = instance.decodedBytes();
    this.encodedBytes = instance.encodedBytes();
    this.decodeIsCopy = instance.decodeIsCopy();
    this.encodeIsCopy = instance.encodeIsCopy();
    this.#singleBlock = instance.singleBlock();
  }


  /**
   * Decodes `input` into the Uint8Array `out` (over the caller's
   * container) and returns it.
   */
  decodeInto(input, out) {
    void this.live;
    return this.#decode(input, out);
  }

  /** Decodes `input` into a fresh container. */
  decodeArray(codec, input) {
    void this.live;
    const n = this.decodedBytes;
    // A frame of the wrong length is refused before anything is allocated
    // for the output (a hostile shape must not cost gigabytes first).
    if (input.length !== this.encodedBytes) this.#decode(input, new Uint8Array(0));
    const ArrayType = this.ArrayType;
    if (this.#singleBlock && n > 0) {
      // A chunk that fits one block stays in wasm memory and is copied out
      // in one slice: that copy is the allocation a fresh array needs
      // anyway.
      const bytes = this.#decode(input, null);
      return ArrayType === Uint8Array ? bytes : new ArrayType(bytes.buffer);
    }
    const data = allocate(codec, ArrayType, n);
    this.#decode(input, new Uint8Array(data.buffer));
    return data;
  }

  #decode(input, out) {
    const failed = callWithIo(this.module, "_zcw_decode", input, out, this.handle, input.length, this.decodedBytes);
    if (failed) this.fail();
    return out ?? keptBytes(this.module, this.decodedBytes);
  }

  /** Encodes the decoded bytes `input` into fresh bytes. */
  encode(codec, input) {
    void this.live;
    // Lengths first: a chunk of the wrong size is refused before the
    // output is allocated.
    if (input.length !== this.decodedBytes) {
      callWithIo(this.module, "_zcw_encode", input, new Uint8Array(0), this.handle, input.length, 0);
      this.fail();
    }
    const out = allocate(codec, Uint8Array, this.encodedBytes);
    const failed = callWithIo(this.module, "_zcw_encode", input, out, this.handle, input.length, out.length);
    if (failed) this.fail();
    return out;
  }

  /** The encoded size of `decodedByteLength` decoded bytes (a checked integer). */
  encodedSizeFor(decodedByteLength) {
    const size = this.live.encodedSizeFor(decodedByteLength);
    if (size < 0) this.fail();
    return size;
  }
}
