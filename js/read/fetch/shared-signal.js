// One request made for several reads (a coalesced range, a shard index
// they share) is aborted only once every read waiting on it has aborted:
// the signal that says so, or undefined where a read has no signal (then
// nothing aborts the request).

/**
 * @param {(AbortSignal | undefined)[]} signals
 * @returns {AbortSignal | undefined}
 */
export function sharedSignal(signals) {
  if (signals.length === 0 || signals.some((s) => s === undefined || s === null)) return undefined;
  if (signals.length === 1 || signals.every((s) => s === signals[0])) return signals[0];
  if (typeof AbortController !== "function" || signals.some((s) => typeof s.addEventListener !== "function")) return undefined;
  const controller = new AbortController();
  const check = () => {
    if (signals.every((s) => s.aborted)) controller.abort(signals.at(-1).reason);
  };
  for (const s of signals) s.addEventListener("abort", check, { once: true });
  check();
  return controller.signal;
}
