// configureMemory({ readBudget, recycleIdleMs }): how much wasm memory the
// calling thread's reads hold at once (read/place/scratch-budget.js), and how
// long an idle, grown instance waits before it is replaced by a fresh one
// (wasm/recycle.js). Settings of the realm (page, worker, Node process),
// as the budget is shared by every read in it; docs/read.md, "Memory".
import { describe, ZarrCodecError } from "./errors.js";
import { readBudget, setReadBudget } from "./read/place/scratch-budget.js";
import { recycleIdleMs, setRecycleIdleMs } from "./wasm/recycle.js";

function checked(name, value, least) {
  if (value === undefined) return undefined;
  if (value === Infinity || (typeof value === "number" && Number.isSafeInteger(value) && value >= least)) return value;
  throw new ZarrCodecError("INVALID_INPUT", `configureMemory: ${name} must be an integer >= ${least} or Infinity, got ${describe(value)}`);
}

/**
 * Changes the settings given, and returns those in force.
 * @param {{readBudget?: number, recycleIdleMs?: number}} [options]
 * @returns {{readBudget: number, recycleIdleMs: number}}
 */
export function configureMemory(options) {
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw new ZarrCodecError("INVALID_INPUT", `configureMemory: options must be an object, got ${describe(options)}`);
  }
  const budget = checked("readBudget", options?.readBudget, 1);
  const idle = checked("recycleIdleMs", options?.recycleIdleMs, 0);
  if (budget !== undefined) setReadBudget(budget);
  if (idle !== undefined) setRecycleIdleMs(idle);
  return { readBudget: readBudget(), recycleIdleMs: recycleIdleMs() };
}
