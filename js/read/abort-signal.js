// The abort signal of a read, as read checks it. zarr.get's `signal` (and
// `opts.signal`) may be an AbortSignal or any object with a boolean
// `aborted` (the AbortSignalLike of the types, whose `throwIfAborted` and
// `addEventListener` are optional): read's own checks go through one
// object that always has `throwIfAborted`, while stores get the signal
// they were given, as zarr.get gives it.
import { describe, ZarrCodecError } from "../errors.js";

function checked(signal, name) {
  if (signal === undefined || signal === null) return undefined;
  if (typeof signal !== "object" || typeof signal.aborted !== "boolean") {
    throw new ZarrCodecError("INVALID_INPUT", `read: ${name} must be an AbortSignal (an object with a boolean aborted), got ${describe(signal)}`);
  }
  return signal;
}

function abortError() {
  return typeof DOMException === "function" ? new DOMException("This operation was aborted", "AbortError") : new Error("This operation was aborted");
}

/**
 * @param {{signal?: unknown, opts?: {signal?: unknown}}} options read's options
 * @returns {{signal: {aborted: boolean, reason: unknown, throwIfAborted(): void, addEventListener?: Function, removeEventListener?: Function} | undefined, storeSignal: unknown}}
 */
export function readSignals(options) {
  const given = [checked(options.signal, "signal"), checked(options.opts?.signal, "opts.signal")].filter(Boolean);
  if (given.length === 0) return { signal: undefined, storeSignal: undefined };
  const real = typeof AbortSignal === "function" && given.every((s) => s instanceof AbortSignal);
  if (real) {
    const signal = given.length === 2 && typeof AbortSignal.any === "function" ? AbortSignal.any(given) : given[0];
    return { signal, storeSignal: signal };
  }
  // A signal-like (or two): read looks at each; events are forwarded where
  // the signal has them, else aborts are seen at read's next check.
  const firstAborted = () => given.find((s) => s.aborted);
  const listening = given.filter((s) => typeof s.addEventListener === "function");
  const signal = {
    get aborted() {
      return firstAborted() !== undefined;
    },
    get reason() {
      return firstAborted()?.reason;
    },
    throwIfAborted() {
      const aborted = firstAborted();
      if (aborted) throw aborted.reason ?? abortError();
    },
    addEventListener: (type, listener, opts) => listening.forEach((s) => s.addEventListener(type, listener, opts)),
    removeEventListener: (type, listener) => listening.forEach((s) => (typeof s.removeEventListener === "function" ? s.removeEventListener(type, listener) : undefined)),
  };
  return { signal, storeSignal: given[0] };
}
