// read's driver: each chunk goes through the stages once, in order,
//   fetch (fetch/chunk-source.js) -> decode (decode/decode-stage.js)
//   -> place (a placer of place/),
// with as many chunks on their way at once as the queue lets through (all
// of them by default, as zarr.get; or the caller's createQueue). The first
// failure ends the read at once (as zarr.get's Promise.all does): chunks
// still on their way find it set and stop; under chunkErrors: "fill" a
// chunk's own failure is filled instead (failed-chunks.js).
import { FILL } from "./decode/decode-stage.js";

/**
 * The read's first failure, shared by the driver and a placer's own
 * asynchronous work.
 * @typedef {object} Ending
 * @property {{error: unknown} | undefined} failed
 * @property {(error: unknown) => void} fail  the first call wins
 * @property {Promise<never>} failure  rejects with it
 */

/** @returns {Ending} */
export function firstFailure() {
  let reject;
  const failure = new Promise((_, r) => {
    reject = r;
  });
  failure.catch(() => {});
  const state = {
    failed: undefined,
    failure,
    fail(error) {
      if (state.failed) return;
      state.failed = { error };
      reject(error);
    },
  };
  return state;
}

export function allQueue() {
  const promises = [];
  return { add: (fn) => promises.push(fn()), onIdle: () => Promise.all(promises) };
}

/**
 * @param {object} r
 * @param {import("./selection/chunks.js").ChunkTask[]} r.chunks
 * @param {{add: Function, onIdle: Function} | undefined} r.queue
 * @param {{throwIfAborted(): void} | undefined} r.signal
 * @param {{get(c: object): Promise<object>}} r.source  the fetch stage
 * @param {(c: object, fetched: object) => Promise<object>} r.decode  the decode stage
 * @param {import("./place/placer.js").Placer} r.placer  the place stage
 * @param {import("./failed-chunks.js").FailedChunks | undefined} r.failures
 * @param {Ending} r.ending
 */
export async function runChunks({ chunks, queue, signal, source, decode, placer, failures, ending }) {
  const stopped = () => ending.failed !== undefined;
  try {
    placer.begin?.();
    for (const c of chunks) {
      queue.add(async () => {
        try {
          if (stopped()) return;
          signal?.throwIfAborted();
          let decoded;
          try {
            const fetched = await source.get(c);
            if (stopped()) return;
            signal?.throwIfAborted();
            decoded = await decode(c, fetched);
          } catch (error) {
            if (!failures?.absorb(c, error)) throw error;
            decoded = FILL;
          }
          if (stopped()) return;
          signal?.throwIfAborted();
          placer.deliver(c, decoded);
        } catch (error) {
          ending.fail(error);
        }
      });
    }
    await Promise.race([queue.onIdle(), ending.failure]);
    if (ending.failed) throw ending.failed.error;
    await placer.settle?.(ending.failure);
    if (ending.failed) throw ending.failed.error;
    signal?.throwIfAborted();
  } catch (error) {
    ending.fail(error);
    throw ending.failed.error;
  } finally {
    placer.end?.();
  }
}
