// The budget of wasm memory the calling thread's reads hold at once for
// their bands (bands.js: the output's rows decoded in wasm, then copied
// out). Wasm memory grows to the most ever held at once and never
// shrinks, so without a bound ten concurrent whole-image reads grew it by
// ten times a read's bands. A read takes each band's bytes before it
// allocates the band and gives them back when the band is freed:
// - a band that fits is taken at once, unless reads wait before it: they
//   are served first come, first served (FIFO), so a large band is never
//   starved by a stream of small ones;
// - a band larger than the whole budget waits until nothing is held, then
//   is taken alone;
// - a request given an AbortSignal leaves the queue when it aborts, with
//   the signal's reason, having taken nothing.
// Bands in wasm are all a read allocates that grows with concurrency: the
// frame buffers (compressors/wasm-decompress.js, the core's chain buffer)
// are one per instance, as large as the largest chunk.
import { canWatch, watchAbort } from "../abort-signal.js";

/** The default budget: 64 MiB of bands at once (docs/read.md). */
export const DEFAULT_READ_BUDGET = 64 << 20;

let budget = DEFAULT_READ_BUDGET;
let held = 0;
let peak = 0;
const queue = []; // requests waiting, first come first

/** The budget in bytes (Infinity: none). */
export function readBudget() {
  return budget;
}

export function setReadBudget(bytes) {
  budget = bytes;
  admit();
}

/** Bytes held now, the most held at once since the last call with reset, and requests waiting. */
export function scratchState(reset = false) {
  const state = { heldBytes: held, peakBytes: peak, waiting: queue.length, budgetBytes: budget };
  if (reset) peak = held;
  return state;
}

const fits = (bytes) => held === 0 || held + bytes <= budget;

function take(bytes) {
  held += bytes;
  if (held > peak) peak = held;
}

/** Takes `bytes` now where that is fair (nothing waits) and they fit; whether it did. */
export function tryTake(bytes) {
  if (queue.length > 0 || !fits(bytes)) return false;
  take(bytes);
  return true;
}

/** Gives back bytes taken (by tryTake or a granted request). */
export function give(bytes) {
  held -= bytes;
  admit();
}

// Grants the requests at the head of the queue that fit now. Each is told
// in a microtask: the bytes are its from now, and a request cancelled
// before it is told gives them back itself.
function admit() {
  while (queue.length > 0 && fits(queue[0].bytes)) {
    const request = queue.shift();
    take(request.bytes);
    request.state = "granted";
    request.stopListening();
    queueMicrotask(() => {
      if (request.cancelled) give(request.bytes);
      else {
        request.state = "told";
        request.granted();
      }
    });
  }
}

/**
 * Waits for `bytes`: `granted()` is called once they are taken (then the
 * caller gives them back); `aborted(reason)` if `signal` aborts first
 * (nothing taken). Returns cancel(): leaves the queue, or gives back what
 * was granted and not yet told.
 * @param {number} bytes
 * @param {{signal?: AbortSignal, granted: () => void, aborted: (reason: unknown) => void}} handlers
 * @returns {() => void}
 */
export function request(bytes, { signal, granted, aborted }) {
  const entry = { bytes, state: "waiting", cancelled: false, granted, stopListening: () => {} };
  const leave = () => {
    const i = queue.indexOf(entry);
    if (i >= 0) queue.splice(i, 1);
    entry.stopListening();
    // The head may have been what the others waited behind.
    admit();
  };
  // A signal-like without events is seen at the read's next check.
  if (canWatch(signal)) {
    if (signal.aborted) {
      queueMicrotask(() => aborted(signal.reason));
      return () => {};
    }
    entry.stopListening = watchAbort(signal, () => {
      if (entry.state !== "waiting") return;
      entry.state = "aborted";
      leave();
      aborted(signal.reason);
    });
  }
  queue.push(entry);
  admit();
  return () => {
    if (entry.state === "waiting") {
      entry.state = "cancelled";
      leave();
    } else if (entry.state === "granted") {
      entry.cancelled = true;
    }
  };
}
