// What read needs of a zarrita Array, the same for zarrita 0.5, 0.6 and 0.7:
// its shape and chunk shape, its fill value, the container zarr.get fills
// (zarrita's TypedArray constructor for the data type), and the two ways
// to get a chunk: its bytes as stored (the array's own fetch, which already
// knows chunk keys, sharding and the store), or zarrita's whole decode.
//
// zarrita keeps these on a per-array context under a symbol it does not
// export ("zarrita.context"); its members are camelCase in 0.7 and
// snake_case in 0.5 and 0.6. Where it is not found (a future zarrita, or
// something that is not a zarrita Array), read still works through the
// public getChunk alone. The symbol is one per zarrita copy: read notes
// which copies its arrays come from (zarrita/copies.js).
import { describe, ZarrCodecError } from "../../errors.js";
import { noteZarritaArray } from "../../zarrita/copies.js";

const CONTEXT = "zarrita.context";

function contextSymbolOf(arr) {
  return Object.getOwnPropertySymbols(arr).find((symbol) => symbol.description === CONTEXT);
}

/**
 * @typedef {object} ZarritaArray
 * @property {number[]} shape
 * @property {number[]} chunkShape   the chunks getChunk returns (a
 *   sharded array's inner chunks)
 * @property {unknown} fillValue      as zarrita holds it
 * @property {Function} TypedArray    the container zarr.get fills
 * @property {boolean} sharded
 * @property {((coords: number[], options?: object) => Promise<Uint8Array | undefined>) | undefined} chunkBytes
 *   the chunk's bytes as stored, or undefined where zarrita's context is
 *   not there to be used
 * @property {(coords: number[], options?: object) => Promise<{data: any, shape: number[], stride: number[]}>} getChunk
 * @property {((bytes: Uint8Array) => Promise<{data: any, shape: number[], stride: number[]}>) | undefined} decode
 *   zarrita's own decode of a chunk's bytes (its codec pipeline)
 * @property {((coords: number[]) => string) | undefined} chunkKey  the
 *   chunk key zarrita would fetch (for messages)
 * @property {boolean} getChunkOverridden  an array extension replaced
 *   getChunk (then every chunk goes through it)
 */

/** @returns {ZarritaArray} */
export function zarritaArray(arr) {
  let symbol;
  let context;
  let shape;
  let chunks;
  try {
    symbol = contextSymbolOf(arr);
    context = symbol === undefined ? undefined : arr[symbol];
    shape = arr.shape;
    chunks = arr.chunks;
  } catch (cause) {
    throw notAnArray(arr, cause);
  }
  if (!Array.isArray(shape) || !Array.isArray(chunks) || typeof arr.getChunk !== "function") throw notAnArray(arr);
  if (context && typeof context === "object") noteZarritaArray(arr, symbol, context);
  const chunkBytes = context?.getChunkBytes ?? context?.get_chunk_bytes;
  const encodeKey = context?.encodeChunkKey ?? context?.encode_chunk_key;
  return {
    shape,
    chunkShape: chunks,
    fillValue: context && "fillValue" in context ? context.fillValue : context && "fill_value" in context ? context.fill_value : arr.fillValue,
    TypedArray: context?.TypedArray,
    sharded: context?.kind === "sharded",
    chunkBytes: typeof chunkBytes === "function" ? (coords, options) => chunkBytes.call(context, coords, options) : undefined,
    chunkKey: typeof encodeKey === "function" ? (coords) => encodeKey(coords) : undefined,
    getChunk: (coords, options) => arr.getChunk(coords, options),
    decode: typeof context?.codec?.decode === "function" ? (bytes) => context.codec.decode(bytes) : undefined,
    // zarrita 0.7's array extensions show their overrides as own
    // properties; withDataTypes' own (a fill for missing chunks) does not,
    // and read does what it does.
    getChunkOverridden: Object.getOwnPropertyDescriptor(arr, "getChunk") !== undefined,
  };
}

function notAnArray(arr, cause) {
  return new ZarrCodecError(
    "INVALID_INPUT",
    `read: expected a zarrita Array (from zarr.open(..., { kind: "array" })), got ${describe(arr)}`,
    cause ? { cause } : undefined,
  );
}
