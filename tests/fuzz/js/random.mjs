// A seeded pseudo-random source (xorshift32) for the JS fuzzers, so a run
// reproduces from its seed.
export class Random {
  #x;
  constructor(seed) {
    this.#x = seed >>> 0 || 1;
  }
  /** 0 .. 2^32 - 1 */
  next() {
    let x = this.#x;
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#x = x >>> 0;
    return this.#x;
  }
  /** 0 .. n - 1 */
  int(n) {
    return n <= 0 ? 0 : this.next() % n;
  }
  pick(list) {
    return list[this.int(list.length)];
  }
  bytes(n) {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.next() & 0xff;
    return out;
  }
}
