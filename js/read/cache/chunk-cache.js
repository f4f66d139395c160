// createChunkCache({ maxBytes }): decoded chunks kept across reads, opt in
// per read (read(arr, selection, { cache })). One cache may serve several
// arrays: an entry's key is the opened array (a number given to it on its
// first use: the cache never holds the array itself, so an array that is
// dropped can be collected, its entries aging out like any other) and the
// chunk's coordinates. Entries are kept while their bytes stay within
// `maxBytes`, least recently used dropped first.
//
// An entry is a promise while its chunk is on its way, shared by every read
// that wants the chunk meanwhile (one fetch, one decode); a rejection is not
// kept. Settled, it holds the chunk decoded whole ({ data, shape, stride },
// bytes of its own: never a view of a read's output or of a store's buffer)
// or MISSING (the store has no such chunk: read fills it, and a later read
// makes no request to learn that again).
import { describe, ZarrCodecError } from "../../errors.js";
import { BoundedCache } from "../bounded-cache.js";

/** The default bound: 64 MiB, eight 1024 x 1024 tiles of uint16. */
export const DEFAULT_CHUNK_CACHE_BYTES = 64 << 20;


/** A chunk the store does not have. */
export const MISSING = Symbol("missing chunk");

// Where read finds a cache's side (js/read/cache/cached-chunk.js) without
// the cache showing it as API.
export const CACHE_STORE = Symbol("zarr-codecs-wasm chunk cache");

function maxBytesOf(options) {
  if (options === undefined) return DEFAULT_CHUNK_CACHE_BYTES;
  if (options === null || typeof options !== "object") {
    throw new ZarrCodecError("INVALID_INPUT", `createChunkCache: options must be an object, got ${describe(options)}`);
  }
  const { maxBytes } = options;
  if (maxBytes === undefined) return DEFAULT_CHUNK_CACHE_BYTES;
  if (typeof maxBytes === "number" && maxBytes >= 0 && (Number.isSafeInteger(maxBytes) || maxBytes === Infinity)) return maxBytes;
  throw new ZarrCodecError("INVALID_INPUT", `createChunkCache: maxBytes must be a number of bytes (an integer >= 0), got ${describe(maxBytes)}`);
}

/**
 * The entries of a chunk cache, and their order of use (read/bounded-cache.js),
 * keyed by the opened array and the chunk; its hits and misses counted by
 * the reads that use it (cached-chunk.js).
 */
export class ChunkStore extends BoundedCache {
  #ids = new WeakMap();
  #nextId = 1;
  hits = 0;
  misses = 0;

  /** The key of a chunk of `arr` (as `outputType`, read's dtype, where one is asked). */
  keyOf(arr, coords, outputType) {
    let id = this.#ids.get(arr);
    if (id === undefined) {
      id = this.#nextId++;
      this.#ids.set(arr, id);
    }
    return `${id}:${outputType ?? ""}:${coords.join(",")}`;
  }
}

/**
 * @typedef {object} ChunkCache
 * @property {number} maxBytes
 * @property {number} bytes    bytes its settled entries count now
 * @property {number} size     entries (chunks on their way included)
 * @property {() => {hits: number, misses: number, evictions: number, entries: number, bytes: number, maxBytes: number}} stats
 * @property {() => void} clear
 */

/**
 * @param {{maxBytes?: number}} [options]
 * @returns {ChunkCache}
 */
export function createChunkCache(options) {
  const store = new ChunkStore(maxBytesOf(options));
  return Object.freeze({
    get maxBytes() {
      return store.maxBytes;
    },
    get bytes() {
      return store.bytes;
    },
    get size() {
      return store.size;
    },
    stats: () => ({ hits: store.hits, misses: store.misses, evictions: store.evictions, entries: store.size, bytes: store.bytes, maxBytes: store.maxBytes }),
    clear: () => store.clear(),
    [CACHE_STORE]: store,
  });
}

/** read's `cache` option: the store behind a cache from createChunkCache, or throws. */
export function chunkStoreOf(cache) {
  const store = cache !== null && typeof cache === "object" ? cache[CACHE_STORE] : undefined;
  if (!(store instanceof ChunkStore)) {
    throw new ZarrCodecError("INVALID_INPUT", `read: cache must come from createChunkCache(), got ${describe(cache)}`);
  }
  return store;
}
