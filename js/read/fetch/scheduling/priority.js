// read's `priority` option: a number, or a function that returns one,
// asked again each time a slot of the read's scheduler frees (a viewer
// whose centre moves reorders what waits without asking again). Higher is
// sooner; the default is 0.
import { describe, messageOf, ZarrCodecError } from "../../../errors.js";

/** @typedef {number | (() => number)} Priority */

/**
 * read's `priority` option, checked (a number or a function; NaN is no
 * priority).
 * @param {unknown} priority
 * @param {string} [where]
 * @returns {Priority}
 */
export function checkPriority(priority, where = "read") {
  if (priority === undefined) return 0;
  if (typeof priority === "function") return priority;
  if (typeof priority === "number" && !Number.isNaN(priority)) return priority;
  throw new ZarrCodecError("INVALID_INPUT", `${where}: priority must be a number or a function that returns one, got ${describe(priority)}`);
}

/**
 * The value of a priority now. A function that throws, or returns what is
 * not a number, fails the requests that asked with it (CALLBACK_FAILED);
 * the scheduler's other requests go on.
 * @param {Priority} priority
 * @param {string} [where]
 * @returns {number}
 */
export function priorityNow(priority, where = "read") {
  if (typeof priority === "number") return priority;
  let value;
  try {
    value = priority();
  } catch (cause) {
    throw new ZarrCodecError("CALLBACK_FAILED", `${where}: priority threw: ${messageOf(cause)}`, { cause });
  }
  if (typeof value !== "number" || Number.isNaN(value)) {
    throw new ZarrCodecError("CALLBACK_FAILED", `${where}: priority must return a number, returned ${describe(value)}`);
  }
  return value;
}

/**
 * The highest priority now of the reads waiting on shared work (a store
 * call, a chunk a cache fetches once), those whose signal aborted left
 * out (0 where none is left). A read whose priority function throws is
 * passed over (its own requests fail it); only where every read's threw
 * does this throw, the first one's error.
 * @param {{signal?: {aborted?: boolean}, priority?: Priority}[]} readers
 * @returns {number}
 */
export function highestPriority(readers) {
  let best;
  let failure;
  for (const r of readers) {
    if (r.signal?.aborted) continue;
    let p;
    try {
      p = priorityNow(r.priority ?? 0);
    } catch (error) {
      failure ??= error;
      continue;
    }
    if (best === undefined || p > best) best = p;
  }
  if (best === undefined && failure) throw failure;
  return best ?? 0;
}
