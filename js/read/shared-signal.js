// One piece of work done for several reads (a coalesced range, a shard
// index they share, a chunk a cache fetches once, a read's plan) runs
// with a signal of its own: it aborts once every read waiting on the work
// has aborted (a read without a signal keeps it alive), and never because
// one of them did. Each read stops waiting at its own abort
// (abort-signal.js untilAborted), and at no other read's.
import { abortReason, canWatch, watchAbort } from "./abort-signal.js";

/**
 * The signal of work that reads share, and may join while it runs:
 * `signal` aborts once every read that joined has aborted. A read without
 * a signal (or with one that sends no events) keeps it alive for good.
 * `join` returns false where the work was already aborted: that read must
 * start it again rather than wait on it. `release` (the work settled)
 * stops watching, so a signal a caller reuses for many reads gathers
 * nothing.
 * @returns {{signal: AbortSignal | undefined, join: (signal: unknown) => boolean, release: () => void, readonly waiting: number}}
 */
export function joinableSignal() {
  if (typeof AbortController !== "function") return { signal: undefined, join: () => true, release() {}, waiting: 0 };
  const controller = new AbortController();
  // The members' signals, each with the stop of its watch.
  const members = new Map();
  let unbounded = false;
  let released = false;
  const check = () => {
    if (unbounded || released || controller.signal.aborted || members.size === 0) return;
    let last;
    for (const s of members.keys()) {
      if (!s.aborted) return;
      last = s;
    }
    controller.abort(abortReason(last));
  };
  return {
    signal: controller.signal,
    join(signal) {
      if (controller.signal.aborted) return false;
      if (released) return true;
      if (!canWatch(signal)) {
        unbounded = true;
        return true;
      }
      if (!members.has(signal)) members.set(signal, watchAbort(signal, check));
      return true;
    },
    release() {
      released = true;
      for (const stop of members.values()) stop();
      members.clear();
    },
    /** Members not yet aborted (a read without a signal counts as one for good). */
    get waiting() {
      if (unbounded) return Infinity;
      let n = 0;
      for (const s of members.keys()) if (!s.aborted) n += 1;
      return n;
    },
  };
}
