// The `vlen-bytes` codec (zarr-extensions codecs/vlen-bytes; numcodecs'
// VLenBytes, which zarr-python 2 writes as a filter and zarr-python 3 as
// the array -> bytes codec of variable_length_bytes): a chunk of n elements
// is a u32 little-endian count n, then per element, in C order, a u32
// little-endian length and that many bytes.
//
// Decode parses and checks the layout in wasm (src/codecs/vlen_bytes.h),
// which hands back the items' bytes one after another in a fresh buffer,
// and their lengths; the chunk is then an Array of Uint8Array views into
// that buffer, one per element: what zarrita's "v2:object" arrays hold
// (its getCtr and indexing copy the items of a plain Array). Views, not one
// copy per item: a copy is an ArrayBuffer per item, as fast as a view for
// items of 16 bytes (V8 keeps small ones on its heap) but about 3x slower
// from 256 bytes (bench/run.mjs, vlen-bytes "plain"). The buffer holds the
// items alone, never the chunk's encoded bytes (which may be a store's
// own: a Map store hands out what it keeps), nor wasm memory. So one item
// kept keeps its chunk's items' bytes alive: item.slice() keeps only its
// own.
//
// Encode writes the layout in JS: each item would cross into wasm on its
// own, which costs more than writing it. Every element must be a
// Uint8Array; anything else is refused, naming the element.
import { ZarrCodecError, describe, tagOf } from "../errors.js";
import { isVariableLengthBytes } from "../types/variable-length-bytes.js";
import { callWithSlots } from "../wasm/io.js";
import { WasmInstance } from "../wasm/instance.js";
import { wasm } from "../wasm/load.js";
import { configurationOf, metaOf, shapeOf } from "./arguments.js";
import { allocate, bytesOf, cOrderStrides } from "./chunk.js";

const NAME = "vlen-bytes";
// A u32 holds each length and the count.
const MAX_U32 = 0xffffffff;

function checkDataType(m) {
  const spec = m.dataType !== undefined ? m.dataType : m.data_type;
  if (spec === "v2:object" || isVariableLengthBytes(spec)) return;
  throw new ZarrCodecError(
    "UNSUPPORTED_DATA_TYPE",
    `${NAME}: data type ${typeof spec === "string" ? JSON.stringify(spec.slice(0, 64)) : describe(spec)} is not variable-length bytes ` +
      `(expected "variable_length_bytes", its alias "bytes", or zarrita's "v2:object")`,
  );
}

// A Uint8Array of this realm or another (a worker's, a vm context's).
function isBytes(value) {
  if (value instanceof Uint8Array) return true;
  try {
    return tagOf(value) === "Uint8Array";
  } catch {
    return false; // a Proxy whose trap throws is no Uint8Array
  }
}

// chunk.data, read once: a getter or Proxy that throws is the package's error.
function itemsOf(chunk, n, shapeText) {
  let data;
  try {
    data = chunk !== null && typeof chunk === "object" ? chunk.data : undefined;
  } catch (cause) {
    throw new ZarrCodecError("INVALID_INPUT", `${NAME}: reading chunk.data failed (${describe(cause?.message ?? cause)})`, { cause });
  }
  if (!Array.isArray(data)) {
    throw new ZarrCodecError(
      "INVALID_INPUT",
      `${NAME}: encode needs chunk.data as an Array of Uint8Array (one per element), got ${describe(data)}`,
    );
  }
  if (data.length !== n) {
    throw new ZarrCodecError(
      "INVALID_INPUT",
      `${NAME}: chunk shape ${shapeText} needs ${n} items, got an Array of length ${data.length}`,
    );
  }
  return data;
}

// The items, each a Uint8Array that a u32 can measure, read once into an
// Array of our own (a Proxy could answer differently the second time).
function checkedItems(items) {
  const list = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    let item;
    try {
      item = items[i];
    } catch (cause) {
      throw new ZarrCodecError("INVALID_INPUT", `${NAME}: reading element ${i} failed (${describe(cause?.message ?? cause)})`, { cause });
    }
    if (!isBytes(item)) {
      throw new ZarrCodecError("INVALID_INPUT", `${NAME}: element ${i} must be a Uint8Array, got ${describe(item)}`);
    }
    if (item.length > MAX_U32) {
      throw new ZarrCodecError(
        "VALUE_OUT_OF_RANGE",
        `${NAME}: element ${i} holds ${item.length} bytes, more than the ${MAX_U32} its u32 length can say`,
      );
    }
    list[i] = item;
  }
  return list;
}

export class VlenBytesCodec {
  kind = "array_to_bytes";
  #core;
  #items;
  #shape;
  #shapeText;
  #stride;
  // Each decode's item lengths, written by wasm (reused: read at once).
  #lengths;
  #lengthBytes;

  /**
   * @param {Record<string, never> | undefined} configuration none
   * @param {{dataType?: unknown, data_type?: unknown, shape: number[]}} meta
   * @param {{module?: object}} [adapter] internal (the benchmark's build without SIMD)
   */
  constructor(configuration, meta, adapter = {}) {
    configurationOf(NAME, configuration, [], "(vlen-bytes takes no configuration)");
    const m = metaOf(NAME, meta);
    const shape = shapeOf(NAME, m.shape);
    checkDataType(m);
    const module = adapter.module ?? wasm();
    this.#core = new WasmInstance(this, module, (into) => new into.VlenBytesCodec(shape.text), NAME);
    this.#items = this.#core.live.items();
    this.#shape = shape.dims;
    this.#shapeText = `[${shape.dims.join(", ")}]`;
    this.#stride = cOrderStrides(shape.dims);
    this.#lengths = new Uint32Array(this.#items);
    this.#lengthBytes = new Uint8Array(this.#lengths.buffer);
  }

  /**
   * @param {Record<string, never> | undefined} configuration
   * @param {{dataType?: unknown, data_type?: unknown, shape: number[]}} meta
   */
  static fromConfig(configuration, meta) {
    return new VlenBytesCodec(configuration, meta);
  }

  /**
   * @param {Uint8Array} input
   * @returns {{data: Uint8Array[], shape: number[], stride: number[]}}
   */
  decode(input) {
    const bytes = bytesOf(NAME, "decode input", input);
    const core = this.#core;
    void core.live;
    const n = this.#items;
    // The layout's item bytes (negative for a chunk too short: wasm says
    // why, before anything is allocated).
    const itemBytes = bytes.byteLength - 4 - 4 * n;
    const data = itemBytes > 0 ? allocate(NAME, Uint8Array, itemBytes) : new Uint8Array(0);
    const failed = callWithSlots(core.module, "_zcw_vlen_bytes_decode", [bytes], [data, this.#lengthBytes], [
      core.handle,
      bytes.byteLength,
      Math.max(itemBytes, 0),
    ]);
    if (failed) core.fail();
    const lengths = this.#lengths;
    const buffer = data.buffer;
    const items = new Array(n);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const length = lengths[i];
      items[i] = new Uint8Array(buffer, at, length);
      at += length;
    }
    return { data: items, shape: this.#shape, stride: this.#stride };
  }

  /**
   * @param {{data: Uint8Array[], shape?: number[], stride?: number[]}} chunk
   *   one Uint8Array per element, in C order
   * @returns {Uint8Array} fresh bytes; the items are never changed
   */
  encode(chunk) {
    void this.#core.live;
    const n = this.#items;
    const list = checkedItems(itemsOf(chunk, n, this.#shapeText));
    let total = 4 + 4 * n;
    for (let i = 0; i < n; i++) total += list[i].length;
    const out = allocate(NAME, Uint8Array, total);
    const view = new DataView(out.buffer);
    view.setUint32(0, n, true);
    let at = 4;
    for (let i = 0; i < n; i++) {
      const item = list[i];
      view.setUint32(at, item.length, true);
      out.set(item, at + 4);
      at += 4 + item.length;
    }
    return out;
  }

  /** Frees the wasm side now (it is freed when collected otherwise). */
  dispose() {
    this.#core.dispose();
  }
}
if (typeof Symbol.dispose === "symbol") VlenBytesCodec.prototype[Symbol.dispose] = VlenBytesCodec.prototype.dispose;
