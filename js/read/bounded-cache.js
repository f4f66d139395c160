// Promises kept by key within a bound of bytes, least recently used
// dropped first: read's shard indexes (one cache per opened array,
// shard-reader.js) and a chunk cache's decoded chunks (cache/chunk-cache.js).
// An entry is its promise while it is on its way, shared by every read
// that wants it meanwhile (so two concurrent reads fetch it once), and is
// never dropped then; settled, it counts the bytes its value holds. A
// rejection is not kept: the next read asks again.

/** Bytes an entry counts for beside what it holds (a missing shard or chunk: all it costs). */
export const ENTRY_BYTES = 64;

export class BoundedCache {
  /** @type {Map<string, {promise: Promise<any>, bytes: number, settled: boolean}>} */
  #entries = new Map();
  #bytes = 0;
  /** Settled entries dropped to keep the bound. */
  evictions = 0;

  /** @param {number} maxBytes the most bytes kept (0: none past the reads using them) */
  constructor(maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** The promise kept for `key`, now the most recently used, or undefined. */
  get(key) {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.promise;
  }

  /**
   * Keeps `promise` for `key`; once it resolves it counts `sizeOf(value)`
   * bytes (and ENTRY_BYTES), and the least recently used entries are
   * dropped past the bound; an entry past the bound alone is dropped by
   * itself, the others kept. A rejection drops it.
   * @template T
   * @param {string} key
   * @param {Promise<T>} promise
   * @param {(value: T) => number} sizeOf
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
        if (entry.bytes > this.maxBytes) {
          // Past the bound alone: not kept (the reads that wanted it have
          // it), and nothing else dropped for it.
          this.#entries.delete(key);
          this.evictions += 1;
          return;
        }
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

  /** Drops every entry (those on their way still reach the reads waiting for them). */
  clear() {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** Entries kept (those on their way included). */
  get size() {
    return this.#entries.size;
  }

  /** Bytes the settled entries count. */
  get bytes() {
    return this.#bytes;
  }

  /** The kept keys, least recently used first. */
  keys() {
    return [...this.#entries.keys()];
  }
}
