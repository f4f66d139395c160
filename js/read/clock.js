// The two clocks of read's stages: the time of an event, and the turn after
// the current task, when what reads asked together in this task is handled
// together (a shard's ranges coalesced, a scheduler's waiting requests
// ordered).

/** Milliseconds on the page's (or process's) monotonic clock. */
export function now() {
  return typeof performance === "object" && typeof performance.now === "function" ? performance.now() : Date.now();
}

/** Runs `f` after the current task (and the microtasks it queued). */
export const nextTask = typeof globalThis.setImmediate === "function" ? (f) => globalThis.setImmediate(f) : (f) => setTimeout(f, 0);
