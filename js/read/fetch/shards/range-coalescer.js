// Byte ranges of one store, asked for by reads started in the same tick,
// fetched in as few range requests as a gap and a size allow: the ranges
// of one object (a shard) sorted by offset, two merged where the bytes
// between them are at most `maxGapBytes` and the merged range at most
// `maxBytes`, each range then a view of its request's bytes. So the bytes
// read but not asked for stay below the gap between each two ranges.
//
// Ranges are gathered until the current task ends (the reads' chunk
// fetches all start in the microtasks after their shard's index arrives),
// then fetched at once, each request through the store-call gateway
// (store-requests.js: retried, and counted for every read it serves).
import { joinableSignal, untilAborted } from "../../shared-signal.js";
import { StoreCall } from "../requests/store-requests.js";

const nextTask = typeof globalThis.setImmediate === "function" ? (f) => globalThis.setImmediate(f) : (f) => setTimeout(f, 0);

/**
 * @typedef {object} Wanted
 * @property {string} key
 * @property {number} offset
 * @property {number} length
 * @property {object} options    the read's store options (its signal)
 * @property {{maxGapBytes: number, maxBytes: number}} coalesce
 * @property {import("../requests/store-requests.js").RetrySettings} retry  (a request
 *   shared by reads retries as the first of them asks)
 * @property {import("../requests/request-accounts.js").ReadAccount} [account]  the read's figures
 * @property {(got: Got) => void} resolve
 * @property {(error: unknown) => void} reject
 */

/**
 * What a range's request brought: `bytes`, the range's own (a view of the
 * request's answer; shorter than asked, or undefined, where the answer was
 * short or missing), or `longer`, an answer longer than the request asked
 * for (a server that ignored Range, or sent more than the range), which
 * the caller takes as the whole object only where it can verify it is
 * (shard-reader.js); `asked` the request's range and `got` its answer's
 * length, for messages; `call` counts which bytes were used.
 * @typedef {{bytes: Uint8Array | undefined, longer: Uint8Array | undefined, asked: {offset: number, length: number}, got: number | undefined, call: StoreCall}} Got
 */

// Options of reads that may share a request: the same store options apart
// from the signal (headers, say).
function optionsKey(options) {
  try {
    return JSON.stringify(options ?? {}, (k, v) => (k === "signal" ? undefined : v));
  } catch {
    return undefined;
  }
}

/** The ranges of one object, merged: [{ offset, end, members }]. */
export function mergeRanges(wanted) {
  const sorted = [...wanted].sort((a, b) => a.offset - b.offset);
  const groups = [];
  for (const w of sorted) {
    const last = groups.at(-1);
    const end = w.offset + w.length;
    if (last) {
      const gap = Math.min(last.maxGapBytes, w.coalesce.maxGapBytes);
      const max = Math.min(last.maxBytes, w.coalesce.maxBytes);
      if (w.offset - last.end <= gap && Math.max(last.end, end) - last.offset <= max) {
        last.end = Math.max(last.end, end);
        last.members.push(w);
        last.maxGapBytes = gap;
        last.maxBytes = max;
        continue;
      }
    }
    groups.push({ offset: w.offset, end, members: [w], maxGapBytes: w.coalesce.maxGapBytes, maxBytes: w.coalesce.maxBytes });
  }
  return groups;
}

export class RangeCoalescer {
  /** @type {Wanted[]} */
  #pending = [];

  /** @param {{getRange: Function}} store */
  constructor(store) {
    this.store = store;
  }

  /**
   * @param {Omit<Wanted, "resolve" | "reject">} range
   * @returns {Promise<Got>}
   */
  get(range) {
    const got = new Promise((resolve, reject) => {
      if (this.#pending.length === 0) nextTask(() => this.#flush());
      this.#pending.push({ ...range, resolve, reject });
    });
    // A read that aborts stops waiting on a request other reads still share.
    return untilAborted(got, range.options?.signal);
  }

  #flush() {
    const pending = this.#pending;
    this.#pending = [];
    const byObject = new Map();
    for (const w of pending) {
      // A read aborted before its turn costs no request.
      if (w.options?.signal?.aborted) {
        w.reject(w.options.signal.reason ?? new Error("This operation was aborted"));
        continue;
      }
      const opts = optionsKey(w.options);
      const id = opts === undefined ? Symbol(w.key) : `${w.key}\u0000${opts}`;
      if (!byObject.has(id)) byObject.set(id, []);
      byObject.get(id).push(w);
    }
    for (const wanted of byObject.values()) {
      for (const group of mergeRanges(wanted)) this.#fetch(group);
    }
  }

  async #fetch({ offset, end, members }) {
    const { key } = members[0];
    // Aborted once every read it serves has aborted; its listeners on the
    // reads' signals removed once it settles (a signal a viewer reuses for
    // many reads gathers none).
    const shared = joinableSignal();
    for (const m of members) shared.join(m.options?.signal);
    const options = { ...members[0].options, signal: shared.signal };
    if (shared.signal === undefined) delete options.signal;
    const call = new StoreCall(key, members[0].retry, shared.signal);
    for (const m of members) call.join(m.account);
    let bytes;
    try {
      bytes = await call.run(() => this.store.getRange(key, { offset, length: end - offset }, options));
    } catch (error) {
      for (const m of members) m.reject(error);
      return;
    } finally {
      shared.release();
    }
    const asked = { offset, length: end - offset };
    const got = bytes instanceof Uint8Array ? bytes.byteLength : undefined;
    if (got === undefined || got <= asked.length) {
      // As asked (or short, or missing: the caller says what it expected).
      for (const m of members) {
        const at = m.offset - offset;
        call.use(at, m.length);
        const own = got === undefined ? bytes : bytes.subarray(Math.min(at, got), Math.min(at + m.length, got));
        m.resolve({ bytes: own, longer: undefined, asked, got, call });
      }
      return;
    }
    // More than asked: the caller verifies it is the whole object, and
    // takes its ranges from it, or refuses it.
    for (const m of members) m.resolve({ bytes: undefined, longer: bytes, asked, got, call });
  }
}
