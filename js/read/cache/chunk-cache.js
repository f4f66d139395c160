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

/** The default bound: 64 MiB, eight 1024 x 1024 tiles of uint16. */
export const DEFAULT_CHUNK_CACHE_BYTES = 64 << 20;

/** What an entry counts for beside its data (its key, its promise; a missing chunk's whole cost). */
export const ENTRY_BYTES = 64;

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
 * The entries of a chunk cache, and their order of use.
 */
export class ChunkStore {
  /** @type {Map<string, {promise: Promise<unknown>, bytes: number, settled: boolean}>} */
  #entries = new Map();
  #bytes = 0;
  #ids = new WeakMap();
  #nextId = 1;
  hits = 0;
  misses = 0;
  evictions = 0;

  constructor(maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** The key of a chunk of `arr`. */
  keyOf(arr, coords) {
    let id = this.#ids.get(arr);
    if (id === undefined) {
      id = this.#nextId++;
      this.#ids.set(arr, id);
    }
    return `${id}:${coords.join(",")}`;
  }

  /** The entry's promise, now the most recently used, or undefined. */
  get(key) {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.promise;
  }

  /**
   * Keeps `promise` for `key`: once it resolves it counts `sizeOf(value)`
   * bytes (and ENTRY_BYTES), and the least recently used entries are
   * dropped past the bound (this one too, where it alone is past it: the
   * reads that wanted it have it). A rejection drops it.
   */
  set(key, promise, sizeOf) {
    const old = this.#entries.get(key);
    if (old) this.#bytes -= old.bytes;
    const entry = { promise, bytes: 0, settled: false };
    this.#entries.set(key, entry);
    promise.then(
      (value) => {
        if (this.#entries.get(key) !== entry) return;
        entry.settled = true;
        entry.bytes = ENTRY_BYTES + sizeOf(value);
        this.#bytes += entry.bytes;
        this.trim();
      },
      () => {
        if (this.#entries.get(key) === entry) this.#entries.delete(key);
      },
    );
    return promise;
  }

  /** Drops least recently used settled entries until the bound holds. */
  trim() {
    for (const [key, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) return;
      if (!entry.settled) continue; // still on its way: reads wait for it
      this.#entries.delete(key);
      this.#bytes -= entry.bytes;
      this.evictions += 1;
    }
  }

  /** Drops every entry (chunks on their way still reach the reads waiting for them). */
  clear() {
    this.#entries.clear();
    this.#bytes = 0;
  }

  get size() {
    return this.#entries.size;
  }

  get bytes() {
    return this.#bytes;
  }

  /** The kept keys, least recently used first (for tests). */
  keys() {
    return [...this.#entries.keys()];
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
