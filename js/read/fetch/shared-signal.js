// One request made for several reads (a coalesced range, a shard index
// they share) is aborted only once every read waiting on it has aborted
// (a read without a signal keeps it alive), and a read that aborts stops
// waiting on it at once.

/** What a read aborted with: its signal's reason, or an AbortError. */
export function abortReason(signal) {
  if (signal?.reason !== undefined) return signal.reason;
  return typeof DOMException === "function" ? new DOMException("This operation was aborted", "AbortError") : new Error("This operation was aborted");
}

/**
 * The signal of a request that reads share, and may join while it runs
 * (a shard index fetched for one read that others then wait on too, a
 * coalesced range): `signal`
 * aborts once every read that joined has aborted. A read without a signal
 * (or with one that sends no events) keeps it alive for good. `join`
 * returns false where the request was already aborted: that read must ask
 * again rather than wait on it. `release` (the request settled) stops
 * listening, so a signal a caller reuses for many reads gathers no
 * listeners.
 * @returns {{signal: AbortSignal | undefined, join: (signal: unknown) => boolean, release: () => void}}
 */
export function joinableSignal() {
  if (typeof AbortController !== "function") return { signal: undefined, join: () => true, release() {} };
  const controller = new AbortController();
  const members = [];
  let unbounded = false;
  const check = () => {
    if (!unbounded && !controller.signal.aborted && members.length > 0 && members.every((s) => s.aborted)) {
      controller.abort(abortReason(members.at(-1)));
    }
  };
  return {
    signal: controller.signal,
    join(signal) {
      if (controller.signal.aborted) return false;
      if (signal === undefined || signal === null || typeof signal.addEventListener !== "function") {
        unbounded = true;
        return true;
      }
      members.push(signal);
      signal.addEventListener("abort", check, { once: true });
      check();
      return true;
    },
    release() {
      for (const s of members) s.removeEventListener?.("abort", check);
      members.length = 0;
      unbounded = true; // nothing aborts a settled request
    },
  };
}

/**
 * `promise`, or the signal's reason as soon as it aborts: a read that
 * aborts stops waiting on a request others still share.
 * @template T
 * @param {Promise<T>} promise
 * @param {{aborted: boolean, reason?: unknown, addEventListener?: Function, removeEventListener?: Function} | undefined} signal
 * @returns {Promise<T>}
 */
export function untilAborted(promise, signal) {
  if (!signal || typeof signal.addEventListener !== "function") return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener?.("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener?.("abort", onAbort);
        reject(error);
      },
    );
  });
}
