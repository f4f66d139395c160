// The abort signal of a read, as read checks it and waits on it.
//
// zarr.get's `signal` (and `opts.signal`) may be an AbortSignal or any
// object with a boolean `aborted` (the AbortSignalLike of the types, whose
// `throwIfAborted` and `addEventListener` are optional): read's own checks
// go through one object that always has `throwIfAborted`, while stores get
// the signal they were given, as zarr.get gives it.
//
// Every wait of read's on a signal (a shared request, a cached chunk, the
// plan, a backoff, the scratch budget, a pool's decode) goes through
// watchAbort, which keeps ONE listener on a signal however many waits,
// chunks and reads share it: a read of 1,000 chunks with a signal, or 100
// reads given one signal, add one listener to it, never the eleven that
// make Node print MaxListenersExceededWarning.
import { describe, ZarrCodecError } from "../errors.js";

// A signal-like made of two (signal and opts.signal): watched through each.
const SOURCES = Symbol("zarr-codecs-wasm signal sources");

function checked(signal, name) {
  if (signal === undefined || signal === null) return undefined;
  if (typeof signal !== "object" || typeof signal.aborted !== "boolean") {
    throw new ZarrCodecError("INVALID_INPUT", `read: ${name} must be an AbortSignal (an object with a boolean aborted), got ${describe(signal)}`);
  }
  return signal;
}

/** What a read aborted with: its signal's reason, or an AbortError. */
export function abortReason(signal) {
  if (signal?.reason !== undefined) return signal.reason;
  return typeof DOMException === "function" ? new DOMException("This operation was aborted", "AbortError") : new Error("This operation was aborted");
}

/** Whether watchAbort can call back on `signal`'s abort (it sends events). */
export function canWatch(signal) {
  return Boolean(signal && typeof signal === "object" && (signal[SOURCES] || typeof signal.addEventListener === "function"));
}

// signal -> the callbacks waiting on it, behind the one listener.
const watched = new WeakMap();

/**
 * Calls `onAbort` once when `signal` aborts (at once, in a microtask, where
 * it already has); returns `stop`, which forgets it. A signal-like without
 * events is never called back: read sees its abort at its next check.
 * @param {unknown} signal
 * @param {() => void} onAbort
 * @returns {() => void} stop
 */
export function watchAbort(signal, onAbort) {
  if (!signal || typeof signal !== "object") return () => {};
  const sources = signal[SOURCES];
  if (sources) {
    let called = false;
    const once = () => {
      if (called) return;
      called = true;
      stops.forEach((stop) => stop());
      onAbort();
    };
    const stops = sources.map((s) => watchAbort(s, once));
    return () => stops.forEach((stop) => stop());
  }
  if (typeof signal.addEventListener !== "function") return () => {};
  if (signal.aborted) {
    let live = true;
    queueMicrotask(() => live && onAbort());
    return () => {
      live = false;
    };
  }
  let waiting = watched.get(signal);
  if (!waiting) {
    const callbacks = new Set();
    const dispatch = () => {
      watched.delete(signal);
      for (const f of [...callbacks]) f();
      callbacks.clear();
    };
    waiting = { callbacks, dispatch };
    watched.set(signal, waiting);
    signal.addEventListener("abort", dispatch, { once: true });
  }
  const entry = () => onAbort();
  waiting.callbacks.add(entry);
  const current = waiting;
  return () => {
    if (!current.callbacks.delete(entry) || current.callbacks.size > 0) return;
    if (watched.get(signal) === current) {
      watched.delete(signal);
      signal.removeEventListener?.("abort", current.dispatch);
    }
  };
}

/**
 * `promise`, or the signal's reason as soon as it aborts: a read that
 * aborts stops waiting on work others still share (a request, a cached
 * chunk, the plan), and no one else's abort ends its wait.
 * @template T
 * @param {Promise<T>} promise
 * @param {unknown} signal
 * @returns {Promise<T>}
 */
export function untilAborted(promise, signal) {
  if (!signal || typeof signal !== "object") return promise;
  if (signal.aborted) {
    // No one waits on `promise` here any more: its rejection is handled.
    promise.then(undefined, () => {});
    return Promise.reject(abortReason(signal));
  }
  if (!canWatch(signal)) return promise;
  return new Promise((resolve, reject) => {
    const stop = watchAbort(signal, () => reject(abortReason(signal)));
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error) => {
        stop();
        reject(error);
      },
    );
  });
}

/**
 * The signal read checks, and the one its store calls get: the caller's
 * (`signal`, `opts.signal`), and where it can be joined to them, `failed`,
 * which read aborts when it fails, so that the requests it alone waits on
 * stop with it.
 * @param {{signal?: unknown, opts?: {signal?: unknown}}} options read's options
 * @param {AbortSignal} [failed]
 * @returns {{signal: {aborted: boolean, reason: unknown, throwIfAborted(): void} | undefined, storeSignal: unknown}}
 */
export function readSignals(options, failed) {
  const given = [checked(options.signal, "signal"), checked(options.opts?.signal, "opts.signal")].filter(Boolean);
  const joinable = typeof AbortSignal === "function" && typeof AbortSignal.any === "function" && failed instanceof AbortSignal;
  if (given.length === 0) return { signal: undefined, storeSignal: joinable ? failed : undefined };
  const real = typeof AbortSignal === "function" && given.every((s) => s instanceof AbortSignal);
  if (real && (given.length === 1 || typeof AbortSignal.any === "function")) {
    const signal = given.length === 2 ? AbortSignal.any(given) : given[0];
    return { signal, storeSignal: joinable ? AbortSignal.any([signal, failed]) : signal };
  }
  // A signal-like (or two): read looks at each, and waits on those with
  // events through watchAbort; the others' aborts are seen at read's
  // next check.
  const firstAborted = () => given.find((s) => s.aborted);
  const signal = {
    get aborted() {
      return firstAborted() !== undefined;
    },
    get reason() {
      return firstAborted()?.reason;
    },
    throwIfAborted() {
      const aborted = firstAborted();
      if (aborted) throw abortReason(aborted);
    },
    [SOURCES]: given,
  };
  return { signal, storeSignal: given[0] };
}
