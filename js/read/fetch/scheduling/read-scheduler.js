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
//     ranges) along into its request, where each would be sent next anyway
//     and is of its own priority: at least that of every waiting ticket of
//     other groups, and of its own (`barrier`). Waiting is a chance to
//     merge, and merging never sends anything ahead of a request of higher
//     priority.
//   - One link (a store's server) is shared by every answer on it, so
//     slots alone would let a prefetch ring's answers slow the visible
//     tiles' on it. The bytes on their way on one link (of this
//     scheduler's: a page has one) are held within its window
//     (scheduling/link-estimate.js windowBytes: a few round trips' worth
//     of the link, which keeps it busy as requests end and others start),
//     counting what the link has likely not brought yet of each request
//     (stillToCome: answers sharing a link end together, so counting them
//     whole until they end would idle the link a round trip each time):
//     the best waiting request goes when its link has room for it (or
//     nothing in flight), and none of lower priority on that link goes
//     before it; requests to other links go on. So the link carries
//     requests in priority order, and what a late request of higher
//     priority waits behind is at most a window, a few round trips.
//   - A request of lower priority than requests on their way on its link
//     goes once what is left of theirs is half a round trip's worth (the
//     link's estimate, once its rate is known): its bytes start to flow
//     as theirs end, so a prefetch ring hardly shares the link with the
//     visible tiles.
//   - While a shard's index is on its way on a link, nothing of lower
//     priority than it goes on that link: its reads ask for their ranges
//     when it comes, and would find the window full of lower answers.
//   - Ranges that merge into a request are those of its priority: a range
//     of lower priority would delay the answer (decoded only once its last
//     byte is in) by its bytes.
import { describe, ZarrCodecError } from "../../../errors.js";
import { watchAbort, abortReason } from "../../abort-signal.js";
import { nextTask, now } from "../../clock.js";

// The priority of a request on its way, as rules about what may go beside
// it ask: -Infinity once every read waiting on it aborted (it is being
// aborted), or where asking throws (the reads it fails learn it from the
// request's own outcome).
function inFlightPriority(ticket) {
  if (ticket.signal?.aborted) return -Infinity;
  try {
    return ticket.priority();
  } catch {
    return -Infinity;
  }
}

/**
 * A request of lower priority goes once what is left of higher ones on its
 * link is this many round trips' worth: its bytes flow a round trip after
 * it is sent, and half a round trip's margin keeps them from sharing the
 * link with the higher ones' last bytes, where the link's rate is
 * estimated high (measured: the visible tiles with a prefetch ring
 * 1.16-1.17x their time alone at one round trip's worth, at 6.25 MB/s).
 */
const YIELD_TRIPS = 0.5;

// What a ticket's answer will bring: its size, or where unknown (a whole
// chunk's), the typical answer on its link.
const sizeOf = (ticket) => (ticket.bytes > 0 ? ticket.bytes : ticket.link?.typicalAnswerBytes ?? 0);


/** Where read finds a scheduler's queue (read(arr, sel, { scheduler })). */
export const SCHEDULER_QUEUE = Symbol("zarr-codecs-wasm read scheduler");

/**
 * In the store options of a read with a scheduler: that read's queue, whose
 * slot each of its store calls already holds. A store withScheduler wrapped
 * passes such calls on without taking a second slot, of its scheduler or
 * any other (two slots for one request would deadlock a full budget, or
 * two schedulers waiting on each other).
 */
export const SCHEDULED_BY = Symbol("zarr-codecs-wasm scheduled by");

/**
 * @typedef {object} Ticket  one store request waiting for a slot
 * @property {() => number} priority  asked each time a slot frees (may throw CALLBACK_FAILED: the ticket is dropped with it)
 * @property {unknown} signal   aborts once no read waits on the request (the ticket is dropped if it still waits)
 * @property {number} bytes     what the request will bring, where known (0 else)
 * @property {string} [group]   tickets of one group may merge (one object's ranges of one store)
 * @property {import("./link-estimate.js").LinkEstimate} [link]  the link its answer comes over
 * @property {boolean} [index]  it brings a shard's index: its reads then ask for their ranges, at its priority
 * @property {(grant: {siblings: {ticket: Ticket, priority: number}[], barrier: number, room: number}) => void} granted
 *   the request may be sent now; it may take `siblings` (waiting tickets of
 *   its group) along with withdraw(), those whose priority is >= barrier,
 *   growing to at most `room` bytes (what its link's window lets it ask
 *   for now; set ticket.bytes to what it asks for)
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
  /**
   * Requests sent and not settled, with their link and when they were
   * sent. Each scheduler keeps its own window on a link (another's
   * requests there are its own to bound: a release wakes only the
   * scheduler it frees room in).
   * @type {Map<Ticket, {bytes: number, link: object | undefined, sentMs: number}>}
   */
  #inFlight = new Map();
  #seq = 0;
  #pending = false;
  /** A wake-up for when a full link's window will have room (its answers drain without any request settling). */
  #wake = undefined;
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
    const flight = this.#inFlight.get(ticket);
    if (!flight) return;
    this.#inFlight.delete(ticket);
    this.#count("bytes", outcome.bytes ?? 0);
    if (outcome.aborted) this.#count("abortedInFlight", 1);
    // A shard's index: its reads ask for their ranges in the task after
    // it comes (the coalescer's), so the queue orders what waits a task
    // later, with them among it.
    if (ticket.index) nextTask(() => this.#schedule());
    else this.#schedule();
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
    if (this.#waiting.length === 0) this.#stopWaking();
    this.#count("droppedBeforeSending", 1);
    entry.ticket.dropped(reason);
  }

  #schedule() {
    if (this.#pending) return;
    this.#pending = true;
    nextTask(() => {
      this.#pending = false;
      this.#dispatch();
    });
  }

  /**
   * This scheduler's requests on `link`, as they bear on a waiting one of
   * `priority`: how many there are; the bytes the link has likely not
   * brought yet (link-estimate.js stillToCome), of all of them and of
   * those sent up to the last one of higher priority (aborted ones aside);
   * and whether a shard's index of higher priority is among them (its
   * reads will ask for ranges of that priority a round trip from now, and
   * requests of lower priority sent meanwhile would hold the link's
   * window when they do: a prefetch ring's ranges of the shard whose index
   * came first, ahead of the visible tiles of the shards whose indexes are
   * still coming).
   */
  #onLink(link, f, nowMs, priority) {
    const flights = [];
    let lastHigher = -Infinity;
    let indexAbove = false;
    for (const [ticket, flight] of this.#inFlight) {
      if (flight.link !== link) continue;
      flights.push(flight);
      if (inFlightPriority(ticket) <= priority) continue;
      lastHigher = Math.max(lastHigher, flight.sentMs);
      if (ticket.index) indexAbove = true;
    }
    // What is left of the higher ones: the link brings answers as they
    // came (stillToCome's model), so the last higher answer ends once all
    // sent before it have, lower ones too.
    const ahead = flights.filter((flight) => flight.sentMs <= lastHigher);
    return { bytes: link.stillToCome(flights, nowMs, f), higher: link.stillToCome(ahead, nowMs, f), requests: flights.length, indexAbove };
  }

  /** Dispatches again in `ms` (the soonest a full window has room), unless a release does first. */
  #wakeIn(ms) {
    this.#stopWaking();
    this.#wake = setTimeout(() => {
      this.#wake = undefined;
      this.#schedule();
    }, Math.max(1, Math.ceil(ms)));
    // It keeps nothing alive: the requests on their way do, while they are.
    this.#wake.unref?.();
  }

  #stopWaking() {
    if (this.#wake === undefined) return;
    clearTimeout(this.#wake);
    this.#wake = undefined;
  }

  #dispatch() {
    this.#stopWaking();
    const figures = new Map();
    const figuresOf = (link) => {
      if (!figures.has(link)) figures.set(link, link.figures());
      return figures.get(link);
    };
    const nowMs = now();
    let soonest = Infinity;
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
      ranked.sort((a, b) => b.priority - a.priority || a.entry.seq - b.entry.seq);
      // The best ticket whose link has room in its window (link-estimate.js):
      // one alone on its link always goes; a link without room holds back
      // its lower tickets too, so nothing of lower priority goes before it.
      const full = new Set();
      let best;
      let room = Infinity;
      for (const r of ranked) {
        const { link } = r.entry.ticket;
        if (!link) {
          best = r;
          break;
        }
        if (full.has(link)) continue;
        const f = figuresOf(link);
        const onLink = this.#onLink(link, f, nowMs, r.priority);
        if (onLink.indexAbove) {
          // The index's release calls again.
          full.add(link);
          continue;
        }
        const bytes = sizeOf(r.entry.ticket);
        const left = f.windowBytes - onLink.bytes;
        // A lower request goes once what is left of the higher ones is
        // half a round trip's worth of the link (YIELD_TRIPS): its bytes
        // start to flow as theirs end. Only on a link whose rate is known
        // (before, its answers are counted whole until they end: the lower
        // request would wait for the link to run dry).
        const yieldFor = f.learnt ? onLink.higher - YIELD_TRIPS * f.rttMs * f.bytesPerMs : -Infinity;
        if (onLink.requests === 0 || (bytes <= left && yieldFor <= 0)) {
          best = r;
          // Merged within a third of the window, so that requests end and
          // start within it (and within what it has left now).
          room = Math.max(bytes, Math.min(f.answerBytes, f.windowBytes / 3, left));
          break;
        }
        full.add(link);
        // Its answers drain at the link's rate: room for this one by then
        // (where draining can make it: a request larger than the window
        // goes only once nothing is on its way, at a release).
        if (f.learnt && bytes <= f.windowBytes && onLink.bytes > 0) soonest = Math.min(soonest, Math.max(bytes - left, yieldFor) / f.bytesPerMs);
      }
      if (!best) {
        // No link has room: a release calls again, or the wake-up once
        // the answers on the way have drained enough.
        if (soonest < Infinity) this.#wakeIn(soonest);
        return;
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
      this.#count("sent", 1);
      ticket.granted({ siblings, barrier: Math.max(barrier, best.priority), room });
      const bytes = sizeOf(ticket);
      const link = ticket.link;
      this.#inFlight.set(ticket, { bytes, link, sentMs: nowMs });
    }
  }
}

/**
 * A slot of `queue` for one request: resolves with the granted ticket
 * (release it with queue.release(ticket, outcome) once the request
 * settles), or rejects with the reason it was dropped unsent (`signal`
 * aborted, or `priority` threw).
 * @param {RequestQueue} queue
 * @param {{priority: () => number, signal?: unknown, bytes?: number, link?: import("./link-estimate.js").LinkEstimate, index?: boolean}} request
 * @returns {Promise<Ticket>}
 */
export function slotOf(queue, { priority, signal, bytes = 0, link, index = false }) {
  return new Promise((resolve, reject) => {
    const ticket = { priority, signal, bytes, link, index, granted: () => resolve(ticket), dropped: reject };
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
