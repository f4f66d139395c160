// The one way read asks a store for bytes: the shard indexes and inner
// chunks (shard-reader.js), the coalesced ranges (range-coalescer.js) and
// the chunks of unsharded arrays (read.js's chunkFetch) all go through
// StoreCall. It
//   - tries a call again where it failed for a reason that passes
//     (transient-failures.js: a network error, HTTP 429, 500, 502, 503,
//     504), at most `retries` times, after a backoff with full jitter
//     (backoff.js), never after an abort, and stops waiting at once when
//     the call's signal aborts;
//   - refuses, once the tries are spent (or with `retry: false` at the
//     first transient failure), with FETCH_FAILED naming the key, the
//     attempts and what each failed with, the last error as its cause
//     (other failures, a 403 say, are passed on as the store threw them);
//   - counts each attempt, the bytes returned and which of them were used,
//     for every read that waits on the call (request-accounts.js);
//   - with a read scheduler (scheduling/read-scheduler.js), sends each
//     attempt only when the scheduler grants it a slot, at the highest
//     priority of the reads still waiting on it (a call no read waits on
//     any more is dropped unsent), and frees the slot when it settles;
//   - tells the link estimate of the store's server how long each answer
//     took (scheduling/link-estimate.js: the gap and size of coalesced
//     ranges follow from it).
import { messageOf, ZarrCodecError } from "../../../errors.js";
import { backoffDelay, wait } from "./backoff.js";
import { classify } from "./transient-failures.js";
import { countCall, FetchedBytes } from "./request-accounts.js";
import { highestPriority } from "../scheduling/priority.js";
import { slotOf } from "../scheduling/read-scheduler.js";
import { now } from "../../clock.js";


/**
 * @typedef {{retries: number, baseDelayMs: number, maxDelayMs: number} | false} RetrySettings
 * @typedef {{signal?: unknown, priority?: import("../scheduling/priority.js").Priority}} Requester
 *   a read waiting on a call: its signal and its priority
 */

export class StoreCall {
  /** @type {Set<import("./request-accounts.js").ReadAccount>} */
  #accounts = new Set();
  /** @type {Requester[]} */
  #requesters = [];
  #settled = false;

  /**
   * @param {string} key           the store key (for messages)
   * @param {object} how
   * @param {RetrySettings} how.retry
   * @param {{aborted: boolean, reason?: unknown} | undefined} [how.signal]
   *   the signal the call runs with: a backoff ends when it aborts, and a
   *   scheduler drops the call unsent
   * @param {import("../scheduling/read-scheduler.js").RequestQueue} [how.scheduler]
   * @param {import("../scheduling/link-estimate.js").LinkEstimate} [how.link]
   * @param {number} [how.bytes]   what the answer will bring, where known
   * @param {boolean} [how.suffix]  it asks for an object's last bytes (the link estimate's round trip)
   * @param {boolean} [how.index]   it asks for a shard's index, whose reads then ask for their ranges (a scheduler holds lower requests back on its link meanwhile)
   */
  constructor(key, { retry, signal, scheduler, link, bytes = 0, suffix = false, index = false }) {
    this.key = key;
    this.suffix = suffix;
    this.index = index;
    this.retry = retry;
    this.signal = signal;
    this.scheduler = scheduler;
    this.link = link;
    this.bytes = bytes;
    /** @type {FetchedBytes | undefined} what the call returned, once it did */
    this.fetched = undefined;
  }

  /**
   * One more read waits on the call (before it settles; after, it made no
   * request for that read): its figures, and its signal and priority.
   * @param {import("./request-accounts.js").ReadAccount} [account]
   * @param {Requester} [requester]
   */
  join(account, requester) {
    if (this.#settled) return this;
    if (account) this.#accounts.add(account);
    if (requester) this.#requesters.push(requester);
    return this;
  }

  /** The highest priority of the reads still waiting on the call (scheduling/priority.js). */
  priority() {
    return highestPriority(this.#requesters);
  }

  /**
   * Runs `attempt` until it returns, or fails for good; each attempt, with
   * a scheduler, once a slot is granted (`granted`: the first attempt's
   * ticket, granted already: shards/range-coalescer.js).
   * @param {() => Promise<unknown>} attempt  one store call
   * @param {object} [granted]
   * @returns {Promise<unknown>} what the store returned
   */
  async run(attempt, granted) {
    const failures = [];
    let attempts = 0;
    let result;
    let failed = true;
    try {
      for (;;) {
        // Dropped unsent (every read waiting aborted, or a priority that
        // threw): no attempt made.
        const ticket = attempts === 0 && granted ? granted : await this.#slot();
        attempts += 1;
        const started = now();
        let bytes = 0;
        try {
          result = await attempt();
          bytes = result instanceof Uint8Array ? result.byteLength : 0;
          failed = false;
          this.link?.observe(started, now(), bytes, this.suffix);
          return result;
        } catch (error) {
          const { transient, what } = classify(error);
          if (!transient || this.signal?.aborted) throw error;
          failures.push(what);
          const retries = this.retry === false ? 0 : this.retry.retries;
          if (attempts > retries) throw this.#gaveUp(error, failures);
          this.#release(ticket, 0);
          await wait(backoffDelay(attempts, this.retry), this.signal);
        } finally {
          this.#release(ticket, bytes);
        }
      }
    } finally {
      this.#settle(attempts, failed ? undefined : result, failed);
    }
  }

  // A slot of the scheduler for one attempt (none needed without one).
  #slot() {
    if (!this.scheduler) return undefined;
    return slotOf(this.scheduler, { priority: () => this.priority(), signal: this.signal, bytes: this.bytes, link: this.link, index: this.index });
  }

  #release(ticket, bytes) {
    if (!ticket || ticket.released) return;
    ticket.released = true;
    this.scheduler?.release(ticket, { bytes, aborted: Boolean(this.signal?.aborted) });
  }

  #gaveUp(error, failures) {
    const last = failures.at(-1);
    const tries = failures.length === 1 ? "once" : `${failures.length} times`;
    const how = failures.length === 1 ? `with ${last}` : `(${failures.join(", ")})`;
    const advice = this.retry === false ? " (retry: false)" : failures.length === 1 ? " (retry.retries: 0)" : "";
    return new ZarrCodecError("FETCH_FAILED", `read: fetching ${this.key} from the store failed ${tries} ${how}${advice}: ${messageOf(error)}`, { cause: error });
  }

  #settle(attempts, result, failed) {
    const byteLength = result instanceof Uint8Array ? result.byteLength : 0;
    countCall(attempts, byteLength, failed);
    const fetched = result instanceof Uint8Array ? new FetchedBytes(byteLength) : undefined;
    this.fetched = fetched;
    const shared = this.#accounts.size > 1;
    for (const account of this.#accounts) account.settled(attempts, fetched, shared);
    // A call kept with a shard's index outlives its reads: it holds none.
    this.#settled = true;
    this.#accounts.clear();
    // A call whose reads all finished before it settled: what it returned
    // was used by none of them (once its callers have said what they used).
    if (fetched) queueMicrotask(() => fetched.settleOverRead());
  }

  /** Bytes `from`..`from + n` of what the call returned were used. */
  use(from, n) {
    this.fetched?.use(from, n);
  }
}

/**
 * A chunk's bytes through `attempt` (an unsharded array's chunk, fetched
 * by zarrita's own code for the key), retried and counted for `account`,
 * sent as `how` says (its retry, signal, scheduler and link) for the read
 * `requester`; all of them are the chunk's.
 */
export async function chunkCall(key, account, how, requester, attempt) {
  const call = new StoreCall(key, how).join(account, requester);
  const bytes = await call.run(attempt);
  if (bytes instanceof Uint8Array) call.use(0, bytes.byteLength);
  return bytes;
}
