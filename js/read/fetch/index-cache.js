// The shard indexes read keeps for one opened array, across its reads:
// one entry per shard, its promise shared by every read that needs that
// shard at once (so two concurrent reads fetch an index once), kept while
// the bytes of what is kept stay within a bound, least recently used
// dropped first. A fetch that fails is not kept: the next read asks again.

/** Bytes an entry counts for beside what it holds (a missing shard too). */
const ENTRY_BYTES = 64;

export class IndexCache {
  /** @type {Map<string, {promise: Promise<any>, bytes: number}>} */
  #entries = new Map();
  #bytes = 0;

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
   * Keeps `promise` for `key`; once it resolves, it counts `sizeOf(value)`
   * bytes, and older entries are dropped past the bound. A rejection drops it.
   * @template T
   * @param {string} key
   * @param {Promise<T>} promise
   * @param {(value: T) => number} sizeOf
   */
  set(key, promise, sizeOf) {
    const entry = { promise, bytes: 0 };
    this.#bytes -= this.#entries.get(key)?.bytes ?? 0;
    this.#entries.set(key, entry);
    promise.then(
      (value) => {
        if (this.#entries.get(key) !== entry) return;
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
      if (entry.bytes === 0) continue; // still on its way
      this.#entries.delete(key);
      this.#bytes -= entry.bytes;
    }
  }

  /** Entries kept, and their bytes (for tests and diagnostics). */
  get size() {
    return this.#entries.size;
  }

  get bytes() {
    return this.#bytes;
  }
}
