// What a pooled read and a pool's whole-chunk decodes (pooled-read.js,
// pooled-whole-chunks.js) share in talking to the workers: the id an
// array's chain has in every pool, and a worker's error made an error again.
import { ZarrCodecError } from "../errors.js";

const chainIds = new WeakMap(); // plan -> id, the same in every pool
let nextChain = 1;

/** The id of the array's chain (its plan's), given on first use. */
export function chainIdOf(plan) {
  let id = chainIds.get(plan);
  if (id === undefined) {
    id = nextChain++;
    chainIds.set(plan, id);
  }
  return id;
}

/** A worker's plain error (worker-side.js's plainError) as an error again. */
export function rebuiltError(plain) {
  const cause = plain.cause ? Object.assign(new Error(plain.cause.message), { name: plain.cause.name }) : undefined;
  const options = cause ? { cause } : undefined;
  if (plain.code) return new ZarrCodecError(plain.code, plain.message, options);
  const Type = { TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError }[plain.name] ?? Error;
  return new Type(plain.message, options);
}
