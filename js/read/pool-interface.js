// How read hands its chunks to a pool without knowing pools: a read pool
// (js/pool/) puts its side under POOLED_READS, and read calls only what is
// described here. So read sits below pool/ and never imports from it.
import { describe, ZarrCodecError } from "../errors.js";

export const POOLED_READS = Symbol("zarr-codecs-wasm pooled reads");

/**
 * @typedef {object} PooledReads
 * @property {() => void} checkOpen  throws WORKER_FAILED once the pool is closed
 * @property {number} inThreadChunks  reads of at most this many chunks stay
 *   on the calling thread
 * @property {() => void} countInThread  counts a read the pool left to the
 *   calling thread
 * @property {(plan: object, dataType: unknown) => Promise<object | undefined>} chainOf
 *   what the workers decode of the plan's chain (undefined: the calling
 *   thread decodes it)
 * @property {(job: object) => Promise<void>} place  one read's chunks
 *   fetched here, decoded by the workers and placed
 * @property {(job: {arr: object, plan: object, described: object, priority?: number | (() => number)}) => Promise<{decode: (coords: number[], bytes: Uint8Array) => Promise<{data: Uint8Array, shape: number[], stride: number[]}>, end: () => void}>} wholeChunks
 *   for a read with a chunk cache: the workers decode chunks whole (C
 *   order), each handed back as bytes of its own; `end` once the read
 *   settles (chunks still being decoded finish, for the cache)
 */

/**
 * The pool's side of a read, or throws: `pool` must come from
 * createReadPool, and be open (a closed pool refuses every read, the small
 * ones it would leave to the calling thread too).
 * @returns {PooledReads}
 */
export function pooledReadsOf(pool) {
  const reads = pool !== null && typeof pool === "object" ? pool[POOLED_READS] : undefined;
  if (!reads) {
    throw new ZarrCodecError("INVALID_INPUT", `read: pool must come from createReadPool(), got ${describe(pool)}`);
  }
  reads.checkOpen();
  return reads;
}
