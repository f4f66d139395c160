// What read's store calls cost: per read (requests, bytes fetched, bytes
// fetched but used by no read, retries, chunks) and in the realm since the
// last reset, with the last reads' own figures, for diagnostics().requests()
// and a viewer's request panel. Every store call read makes goes through
// store-requests.js, which reports here; nothing here makes a request.
//
// A store call several reads wait on (a coalesced range, a shard index
// they share) counts once in the totals and once in each read that waited
// on it (and in its sharedRequests), so the figures of reads that ran
// together may add up to more than the totals. Over-read bytes are those of
// a call that no read had used when the last read waiting on it finished:
// the gaps coalescing merged over, and the parts of a whole object a
// server sent for a range (it ignores Range) that no read took.

import { now } from "../../clock.js";

/** How many reads' own figures are kept (the most recent first out). */
export const RECENT_READS = 32;

function emptyTotals() {
  return { reads: 0, failedReads: 0, requests: 0, retries: 0, failedRequests: 0, bytes: 0, overReadBytes: 0 };
}

let totals = emptyTotals();
/** @type {object[]} */
let recent = [];

/**
 * The bytes one store call returned, and which of them reads used
 * (offsets into those bytes). Its over-read is settled once no read
 * waiting on it is left.
 */
export class FetchedBytes {
  #used = [];
  #holders = 0;
  #counted = false;

  /** @param {number} byteLength */
  constructor(byteLength) {
    this.byteLength = byteLength;
  }

  /** Bytes `from`..`from + n` were a chunk's or an index's. */
  use(from, n) {
    // Once its over-read is counted, later uses (of a whole shard kept
    // with its index, read again and again) change nothing: not kept.
    if (n > 0 && !this.#counted) this.#used.push([from, from + n]);
  }

  /** Bytes no read used (so far). */
  overRead() {
    const spans = this.#used.sort((a, b) => a[0] - b[0]);
    let covered = 0;
    let end = 0;
    for (const [a, b] of spans) {
      const from = Math.max(a, end, 0);
      const to = Math.min(b, this.byteLength);
      if (to > from) covered += to - from;
      end = Math.max(end, Math.min(b, this.byteLength));
    }
    return this.byteLength - covered;
  }

  hold() {
    this.#holders += 1;
  }

  /** One read waiting on it finished: the last one settles its over-read in the totals. */
  release() {
    if (--this.#holders === 0) this.settleOverRead();
  }

  /** Its over-read counted in the totals, once, when no read holds it. */
  settleOverRead() {
    if (this.#holders > 0 || this.#counted) return;
    this.#counted = true;
    totals.overReadBytes += this.overRead();
  }
}

/** One store call settled: the realm's totals (each call once). */
export function countCall(attempts, byteLength, failed) {
  totals.requests += attempts;
  totals.retries += Math.max(0, attempts - 1);
  totals.bytes += byteLength;
  if (failed) totals.failedRequests += 1;
}


/** One read's figures, as the store calls it waited on settle. */
export class ReadAccount {
  requests = 0;
  sharedRequests = 0;
  retries = 0;
  bytes = 0;
  chunks = 0;
  finished = false;
  /** @type {Set<FetchedBytes>} */
  #fetched = new Set();

  /** @param {string} path the array's path (for the summary) */
  constructor(path) {
    this.path = path;
    this.started = now();
  }

  /**
   * A store call this read waited on settled after `attempts` attempts,
   * with `fetched` (undefined: it failed or found nothing).
   */
  settled(attempts, fetched, shared) {
    if (this.finished) return;
    this.requests += attempts;
    this.retries += Math.max(0, attempts - 1);
    if (shared) this.sharedRequests += 1;
    if (fetched) {
      this.bytes += fetched.byteLength;
      if (!this.#fetched.has(fetched)) {
        this.#fetched.add(fetched);
        fetched.hold();
      }
    }
  }

  /**
   * The read is over: its figures, kept among the recent reads and added
   * to the totals.
   * @param {unknown} [error] what it failed with
   */
  finish(error) {
    if (this.finished) return this.summary;
    let overReadBytes = 0;
    for (const fetched of this.#fetched) overReadBytes += fetched.overRead();
    this.finished = true;
    for (const fetched of this.#fetched) fetched.release();
    this.#fetched.clear();
    const failed = error !== undefined;
    this.summary = Object.freeze({
      path: this.path,
      requests: this.requests,
      sharedRequests: this.sharedRequests,
      retries: this.retries,
      bytes: this.bytes,
      overReadBytes,
      chunks: this.chunks,
      ms: now() - this.started,
      failed,
      ...(failed ? { error: typeof error?.code === "string" ? error.code : error?.name ?? "error" } : {}),
    });
    totals.reads += 1;
    if (failed) totals.failedReads += 1;
    recent.push(this.summary);
    if (recent.length > RECENT_READS) recent.shift();
    return this.summary;
  }
}

/**
 * The realm's figures: totals since the last reset, and the last reads'
 * own, oldest first. `reset` starts both afresh after they are taken.
 */
export function requestState(reset = false) {
  const state = { totals: { ...totals }, recent: recent.slice() };
  if (reset) {
    totals = emptyTotals();
    recent = [];
  }
  return state;
}
