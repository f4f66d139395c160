// read(arr, selection, { chunkErrors: "fill" }): a chunk whose fetch or
// decode fails is filled with the fill value, and reported in the result's
// `failedChunks` ({ chunk, error } each), instead of failing the read. A
// viewer keeps its viewport when one tile is bad. What is not a chunk's
// failure still rejects: an abort, an onProgress that throws, an `into`
// detached, a store that cannot be read at all (the plan).
import { describe, ZarrCodecError } from "../errors.js";

const MODES = new Set(["reject", "fill"]);

/**
 * @typedef {object} FailedChunks
 * @property {(c: {coords: number[]}, error: unknown) => boolean} absorb
 *   true: the chunk is filled and its failure recorded
 * @property {{chunk: number[], error: unknown}[]} list
 * @property {boolean} fillRefused  the read has no fill to fill with (its
 *   dtype cannot hold the array's fill: plan/typed-plan.js): every
 *   failure rejects the read
 */

/**
 * @param {unknown} mode read's chunkErrors option
 * @param {{aborted: boolean} | undefined} signal the read's signal
 * @returns {FailedChunks | undefined}
 */
export function failedChunks(mode, signal) {
  if (mode === undefined || mode === "reject") return undefined;
  if (!MODES.has(mode)) {
    throw new ZarrCodecError("INVALID_INPUT", `read: chunkErrors must be "reject" or "fill", got ${describe(mode)}`);
  }
  const list = [];
  const recorded = new Set();
  return {
    list,
    fillRefused: false,
    absorb(c, error) {
      if (this.fillRefused) return false;
      if (signal?.aborted || error?.name === "AbortError" || error?.name === "TimeoutError") return false;
      if (error?.code === "CALLBACK_FAILED") return false;
      if (!recorded.has(c)) {
        recorded.add(c);
        list.push({ chunk: c.coords.slice(), error });
      }
      return true;
    },
  };
}
