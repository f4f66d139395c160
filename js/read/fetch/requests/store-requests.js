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
//     for every read that waits on the call (request-accounts.js).
import { messageOf, ZarrCodecError } from "../../../errors.js";
import { backoffDelay, wait } from "./backoff.js";
import { classify } from "./transient-failures.js";
import { countCall, FetchedBytes } from "./request-accounts.js";

/**
 * @typedef {{retries: number, baseDelayMs: number, maxDelayMs: number} | false} RetrySettings
 */

export class StoreCall {
  /** @type {Set<import("./request-accounts.js").ReadAccount>} */
  #accounts = new Set();
  #settled = false;

  /**
   * @param {string} key           the store key (for messages)
   * @param {RetrySettings} retry
   * @param {{aborted: boolean, reason?: unknown, addEventListener?: Function} | undefined} signal
   *   the signal the call runs with: a backoff ends when it aborts
   */
  constructor(key, retry, signal) {
    this.key = key;
    this.retry = retry;
    this.signal = signal;
    /** @type {FetchedBytes | undefined} what the call returned, once it did */
    this.fetched = undefined;
  }

  /** One more read waits on the call (before it settles; after, it made no request for that read). */
  join(account) {
    if (account && !this.#settled) this.#accounts.add(account);
    return this;
  }

  /**
   * Runs `attempt` until it returns, or fails for good.
   * @param {() => Promise<unknown>} attempt  one store call
   * @returns {Promise<unknown>} what the store returned
   */
  async run(attempt) {
    const failures = [];
    let attempts = 0;
    let result;
    let failed = true;
    try {
      for (;;) {
        attempts += 1;
        try {
          result = await attempt();
          failed = false;
          return result;
        } catch (error) {
          const { transient, what } = classify(error);
          if (!transient || this.signal?.aborted) throw error;
          failures.push(what);
          const retries = this.retry === false ? 0 : this.retry.retries;
          if (attempts > retries) throw this.#gaveUp(error, failures);
          await wait(backoffDelay(attempts, this.retry), this.signal);
        }
      }
    } finally {
      this.#settle(attempts, failed ? undefined : result, failed);
    }
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
 * by zarrita's own code for the key), retried and counted for `account`;
 * all of them are the chunk's.
 */
export async function chunkCall(key, account, retry, signal, attempt) {
  const call = new StoreCall(key, retry, signal).join(account);
  const bytes = await call.run(attempt);
  if (bytes instanceof Uint8Array) call.use(0, bytes.byteLength);
  return bytes;
}
