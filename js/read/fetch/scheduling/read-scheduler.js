// createReadScheduler({ maxRequests }): one budget of store requests in
// flight for every read that names it (any array, level or store), and the
// order the waiting ones are sent in. The bar is loaders.gl's
// RequestScheduler, which deck.gl's tile layers run on: a cap on requests
// in flight; each waiting request's priority asked again whenever a slot
// frees, so priorities follow the view without asking again; requests no
// one waits for any more dropped before they are sent. Like it, the queue
// does no I/O of its own: the fetch stage hands it tickets
// (store-requests.js, shards/range-coalescer.js) and sends each request
// when its ticket is granted.
//
//   - Waiting tickets are granted highest priority first, first asked
//     first among equals.
//   - A ticket whose signal aborts while it waits (every read waiting on
//     the request has aborted) is dropped: never sent.
//   - Granting is deferred to the end of the task in which tickets were
//     enqueued, so that requests asked together are ordered together.
//   - A granted ticket may take waiting tickets of its group (one shard's
//     ranges) along into its request, where each would be sent next anyway:
//     its priority is at least that of every waiting ticket of other groups
//     (`barrier`). Waiting is a chance to merge, and merging never sends
//     anything ahead of a request of higher priority.
//   - What a late high-priority request can wait behind is bounded by the
//     size of the requests in flight, which the fetch stage bounds by the
//     link (scheduling/link-estimate.js maxRequestBytes): with maxRequests
//     in flight, at most maxRequests such answers.
import { describe, ZarrCodecError } from "../../../errors.js";
import { watchAbort, abortReason } from "../../abort-signal.js";

const later = typeof globalThis.setImmediate === "function" ? (f) => globalThis.setImmediate(f) : (f) => setTimeout(f, 0);

/** Where read finds a scheduler's queue (read(arr, sel, { scheduler })). */
export const SCHEDULER_QUEUE = Symbol("zarr-codecs-wasm read scheduler");

/**
 * @typedef {object} Ticket  one store request waiting for a slot
 * @property {() => number} priority  asked each time a slot frees (may throw CALLBACK_FAILED: the ticket is dropped with it)
 * @property {unknown} signal   aborts once no read waits on the request (the ticket is dropped if it still waits)
 * @property {number} bytes     what the request will bring, where known (0 else)
 * @property {string} [group]   tickets of one group may merge (one object's ranges of one store)
 * @property {(grant: {siblings: {ticket: Ticket, priority: number}[], barrier: number}) => void} granted
 *   the request may be sent now; it may take `siblings` (waiting tickets of
 *   its group) along with withdraw(), those whose priority is >= barrier
 * @property {(reason: unknown) => void} dropped  never sent: `reason` says why
 */

let realmTotals = emptyTotals();
const live = new Set();

function emptyTotals() {
  return { sent: 0, droppedBeforeSending: 0, abortedInFlight: 0, bytes: 0 };
}

export class RequestQueue {
  /** @type {{ticket: Ticket, seq: number, stop: () => void}[]} */
  #waiting = [];
  /** @type {Map<Ticket, {bytes: number}>} */
  #inFlight = new Map();
  #seq = 0;
  #pending = false;
  stats = emptyTotals();

  /** @param {{maxRequests: number}} options */
  constructor({ maxRequests }) {
    this.maxRequests = maxRequests;
  }

  get waiting() {
    return this.#waiting.length;
  }

  get inFlight() {
    return this.#inFlight.size;
  }

  /** A request waits for a slot; granted later (never within this call). */
  enqueue(ticket) {
    const entry = { ticket, seq: this.#seq++, stop: () => {} };
    if (ticket.signal?.aborted) {
      this.#drop(entry, abortReason(ticket.signal));
      return;
    }
    this.#waiting.push(entry);
    entry.stop = watchAbort(ticket.signal, () => {
      if (this.#remove(ticket)) this.#drop(entry, abortReason(ticket.signal));
    });
    this.#schedule();
  }

  /** A waiting ticket leaves the queue unsent: it went along in a granted ticket's request. */
  withdraw(ticket) {
    const entry = this.#remove(ticket);
    if (!entry) return false;
    entry.stop();
    return true;
  }

  /**
   * A granted ticket's request settled: its slot is free.
   * @param {Ticket} ticket
   * @param {{bytes?: number, aborted?: boolean}} [outcome]
   */
  release(ticket, outcome = {}) {
    if (!this.#inFlight.delete(ticket)) return;
    this.#count("bytes", outcome.bytes ?? 0);
    if (outcome.aborted) this.#count("abortedInFlight", 1);
    this.#schedule();
  }

  #count(name, n) {
    this.stats[name] += n;
    realmTotals[name] += n;
  }

  #remove(ticket) {
    const i = this.#waiting.findIndex((e) => e.ticket === ticket);
    if (i < 0) return undefined;
    return this.#waiting.splice(i, 1)[0];
  }

  #drop(entry, reason) {
    entry.stop();
    this.#count("droppedBeforeSending", 1);
    entry.ticket.dropped(reason);
  }

  #schedule() {
    if (this.#pending) return;
    this.#pending = true;
    later(() => {
      this.#pending = false;
      this.#dispatch();
    });
  }

  #dispatch() {
    while (this.#inFlight.size < this.maxRequests && this.#waiting.length > 0) {
      // Every waiting ticket's priority, asked now.
      const ranked = [];
      for (const entry of [...this.#waiting]) {
        let priority;
        try {
          priority = entry.ticket.priority();
        } catch (error) {
          this.#remove(entry.ticket);
          this.#drop(entry, error);
          continue;
        }
        ranked.push({ entry, priority });
      }
      if (ranked.length === 0) return;
      let best = ranked[0];
      for (const r of ranked) {
        if (r.priority > best.priority || (r.priority === best.priority && r.entry.seq < best.entry.seq)) best = r;
      }
      const { ticket } = best.entry;
      this.#remove(ticket);
      best.entry.stop();
      const group = ticket.group;
      const siblings = [];
      let barrier = -Infinity;
      for (const r of ranked) {
        if (r === best) continue;
        if (group !== undefined && r.entry.ticket.group === group) siblings.push({ ticket: r.entry.ticket, priority: r.priority });
        else if (r.priority > barrier) barrier = r.priority;
      }
      this.#inFlight.set(ticket, { bytes: ticket.bytes });
      this.#count("sent", 1);
      ticket.granted({ siblings, barrier });
    }
  }
}

/**
 * A slot of `queue` for one request: resolves with the granted ticket
 * (release it with queue.release(ticket, outcome) once the request
 * settles), or rejects with the reason it was dropped unsent (`signal`
 * aborted, or `priority` threw).
 * @param {RequestQueue} queue
 * @param {{priority: () => number, signal?: unknown, bytes?: number}} request
 * @returns {Promise<Ticket>}
 */
export function slotOf(queue, { priority, signal, bytes = 0 }) {
  return new Promise((resolve, reject) => {
    const ticket = { priority, signal, bytes, granted: () => resolve(ticket), dropped: reject };
    queue.enqueue(ticket);
  });
}

function maxRequestsOf(options) {
  if (options === undefined) return 6;
  if (options === null || typeof options !== "object") {
    throw new ZarrCodecError("INVALID_INPUT", `createReadScheduler: options must be an object ({ maxRequests }), got ${describe(options)}`);
  }
  const { maxRequests } = options;
  if (maxRequests === undefined) return 6;
  if (Number.isSafeInteger(maxRequests) && maxRequests >= 1) return maxRequests;
  throw new ZarrCodecError("INVALID_INPUT", `createReadScheduler: maxRequests must be an integer >= 1, got ${describe(maxRequests)}`);
}

/**
 * @typedef {object} ReadScheduler
 * @property {number} maxRequests
 * @property {() => {waiting: number, inFlight: number, sent: number, droppedBeforeSending: number, abortedInFlight: number, bytes: number, maxRequests: number}} stats
 */

/**
 * @param {{maxRequests?: number}} [options]  requests in flight at once
 *   (default 6: a browser's connections per host over HTTP/1.1)
 * @returns {ReadScheduler}
 */
export function createReadScheduler(options) {
  const queue = new RequestQueue({ maxRequests: maxRequestsOf(options) });
  live.add(new WeakRef(queue));
  return Object.freeze({
    get maxRequests() {
      return queue.maxRequests;
    },
    stats: () => ({ waiting: queue.waiting, inFlight: queue.inFlight, ...queue.stats, maxRequests: queue.maxRequests }),
    [SCHEDULER_QUEUE]: queue,
  });
}

/** read's `scheduler` option: the queue behind a scheduler from createReadScheduler, or throws. */
export function queueOf(scheduler, where = "read") {
  const queue = scheduler !== null && typeof scheduler === "object" ? scheduler[SCHEDULER_QUEUE] : undefined;
  if (!(queue instanceof RequestQueue)) {
    throw new ZarrCodecError("INVALID_INPUT", `${where}: scheduler must come from createReadScheduler(), got ${describe(scheduler)}`);
  }
  return queue;
}

/**
 * The realm's schedulers, for diagnostics().requests(): what all of them
 * sent, dropped and brought since the last reset, and what waits and is
 * in flight now.
 */
export function schedulerState(reset = false) {
  let waiting = 0;
  let inFlight = 0;
  for (const ref of live) {
    const queue = ref.deref();
    if (!queue) {
      live.delete(ref);
      continue;
    }
    waiting += queue.waiting;
    inFlight += queue.inFlight;
  }
  const state = { waiting, inFlight, ...realmTotals };
  if (reset) realmTotals = emptyTotals();
  return state;
}
