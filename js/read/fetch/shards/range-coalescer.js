// Byte ranges of one store's objects (shards), fetched in as few range
// requests as a gap and a size allow: the ranges of one object sorted by
// offset, two merged where the bytes between them are at most
// `maxGapBytes` and the merged range at most `maxBytes`, each range then a
// view of its request's bytes. So the bytes read but not asked for stay
// below the gap between each two ranges. Both bounds follow the link the
// reads see (scheduling/link-estimate.js) unless a read sets them.
//
// Ranges are gathered until the current task ends (the reads' chunk
// fetches all start in the microtasks after their shard's index arrives).
// Then, without a scheduler, they are merged and fetched at once; with one
// (scheduling/read-scheduler.js), each waits for a slot, and when one is
// granted it takes along the ranges of its object that wait with it and
// would be sent next anyway: waiting is a chance to merge. Each request
// goes through the store-call gateway (requests/store-requests.js:
// retried, counted for every read it serves) with a signal that aborts
// once every read it serves has aborted; each read stops waiting at its
// own abort.
import { joinableSignal } from "../../shared-signal.js";
import { abortReason, untilAborted } from "../../abort-signal.js";
import { StoreCall } from "../requests/store-requests.js";
import { priorityNow } from "../scheduling/priority.js";
import { nextTask } from "../../clock.js";


/**
 * @typedef {object} Wanted
 * @property {string} key
 * @property {number} offset
 * @property {number} length
 * @property {object} options    the read's store options (its signal)
 * @property {{maxGapBytes: number | undefined, maxBytes: number | undefined}} coalesce
 *   undefined: as the link's figures say
 * @property {import("../requests/store-requests.js").RetrySettings} retry  (a request
 *   shared by reads retries as the first of them asks)
 * @property {import("../requests/request-accounts.js").ReadAccount} [account]  the read's figures
 * @property {import("../requests/store-requests.js").Requester} requester  the read's signal and priority
 * @property {import("../scheduling/read-scheduler.js").RequestQueue} [scheduler]
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

/**
 * The ranges of one object, merged: [{ offset, end, members }]. Each
 * range's bounds (`coalesce`) hold for every group it joins.
 * @param {{offset: number, length: number, coalesce: {maxGapBytes: number, maxBytes: number}}[]} wanted
 */
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

let coalescers = 0;

export class RangeCoalescer {
  /** @type {Wanted[]} */
  #pending = [];
  #id = coalescers++;

  /**
   * @param {{getRange: Function}} store
   * @param {import("../scheduling/link-estimate.js").LinkEstimate} link  the store's server's
   */
  constructor(store, link) {
    this.store = store;
    this.link = link;
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
    const figures = this.link.figures();
    const byObject = new Map();
    for (const w of pending) {
      // A read aborted before its turn costs no request.
      if (w.options?.signal?.aborted) {
        w.reject(abortReason(w.options.signal));
        continue;
      }
      // The bounds as the read set them, else as the link says now.
      w.coalesce = { maxGapBytes: w.coalesce.maxGapBytes ?? figures.gapBytes, maxBytes: w.coalesce.maxBytes ?? figures.answerBytes };
      const opts = optionsKey(w.options);
      const id = opts === undefined ? Symbol(w.key) : `${this.#id}\u0000${w.key}\u0000${opts}`;
      if (!byObject.has(id)) byObject.set(id, []);
      byObject.get(id).push(w);
    }
    for (const [id, wanted] of byObject) {
      const scheduled = wanted.filter((w) => w.scheduler);
      for (const group of mergeRanges(wanted.filter((w) => !w.scheduler))) this.#fetch(group);
      for (const w of scheduled) this.#enqueue(w, typeof id === "string" ? id : undefined);
    }
  }

  // A range waits for a slot of its read's scheduler, at its read's
  // priority; dropped unsent where the read aborts first.
  #enqueue(w, group) {
    const ticket = {
      wanted: w,
      group,
      bytes: w.length,
      link: this.link,
      signal: w.requester?.signal,
      priority: () => priorityNow(w.requester?.priority ?? 0),
      granted: (grant) => this.#granted(ticket, grant),
      dropped: (reason) => w.reject(reason),
    };
    w.ticket = ticket;
    w.scheduler.enqueue(ticket);
  }

  // A range's slot: the ranges of its object that wait with it and would
  // be sent next anyway (at least the priority of everything else that
  // waits) go along where the gap and the size allow, the size within
  // what the link's in-flight budget has left (`room`).
  #granted(ticket, { siblings, barrier, room }) {
    const head = ticket.wanted;
    const along = siblings.filter((s) => s.priority >= barrier && s.ticket.wanted.scheduler === head.scheduler).map((s) => s.ticket.wanted);
    const bounded = (w) => ({ ...w, coalesce: { ...w.coalesce, maxBytes: Math.min(w.coalesce.maxBytes, Math.max(room, head.length)) }, wanted: w });
    const group = mergeRanges([head, ...along].map(bounded)).find((g) => g.members.some((m) => m.wanted === head));
    const members = group.members.map((m) => m.wanted);
    for (const w of members) if (w !== head) head.scheduler.withdraw(w.ticket);
    ticket.bytes = group.end - group.offset;
    this.#fetch({ offset: group.offset, end: group.end, members }, ticket);
  }

  async #fetch({ offset, end, members }, granted) {
    const { key } = members[0];
    // Aborted once every read it serves has aborted; its watches on the
    // reads' signals dropped once it settles (a signal a viewer reuses for
    // many reads gathers none).
    const shared = joinableSignal();
    for (const m of members) shared.join(m.options?.signal);
    const options = { ...members[0].options, signal: shared.signal };
    if (shared.signal === undefined) delete options.signal;
    const call = new StoreCall(key, { retry: members[0].retry, signal: shared.signal, scheduler: members[0].scheduler, link: this.link, bytes: end - offset });
    for (const m of members) call.join(m.account, m.requester);
    let bytes;
    try {
      bytes = await call.run(() => this.store.getRange(key, { offset, length: end - offset }, options), granted);
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
