// How long a read waits before it tries a failed store call again:
// exponential backoff with full jitter, as the AWS SDKs compute it
// ("Exponential Backoff And Jitter", AWS Architecture Blog; the SDK for
// JavaScript v3's defaultDelayDecider): the n-th retry waits a time drawn
// uniformly from [0, min(maxDelayMs, baseDelayMs * 2^(n-1))). Full jitter
// spreads the retries of many clients that failed together (a viewer's
// reads after one 503 storm) instead of sending them back in one burst.
//
// The wait ends at once when the read's signal aborts: an abort is never
// held up by a backoff.
import { abortReason, watchAbort } from "../../abort-signal.js";

/**
 * @param {number} retry        1 for the first retry
 * @param {{baseDelayMs: number, maxDelayMs: number}} settings
 * @param {() => number} [random] in [0, 1)
 */
export function backoffDelay(retry, { baseDelayMs, maxDelayMs }, random = Math.random) {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}


/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as it
 * aborts (a signal-like without events is looked at when the wait ends).
 * @param {number} ms
 * @param {{aborted: boolean, reason?: unknown} | undefined} signal
 */
export function wait(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const stop = watchAbort(signal, () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    });
    // setTimeout fires at once past 2^31 - 1 ms: a wait that long is
    // capped there (24.8 days) rather than skipped.
    const timer = setTimeout(() => {
      stop();
      if (signal?.aborted) reject(abortReason(signal));
      else resolve(undefined);
    }, Math.min(ms, 2 ** 31 - 1));
  });
}
