// What read's options say about its requests, checked, with the defaults
// (docs/read.md, "Over a network"):
//   coalesce: { maxGapBytes, maxBytes } | false
//     the inner chunks of one shard that reads started in the same tick
//     need are fetched in as few range requests as the gap and the size
//     allow. Defaults: zarr-python 3's (1 MiB gap, 16 MiB per request):
//     over a network a request's round trip (tens of ms) costs more than
//     reading a gap of 1 MiB, and a shard is read in one request where it
//     fits 16 MiB. false: one request per inner chunk.
//   indexCacheBytes: number
//     the most bytes of shard indexes (with the whole shards a server
//     without Range sent) kept per opened array across its reads, least
//     recently used dropped first. Default 8 MiB: half a million inner
//     chunks' entries (16 bytes each). 0 keeps an index only while reads
//     that started together use it.
import { describe, ZarrCodecError } from "../../errors.js";

/**
 * @typedef {object} FetchSettings
 * @property {{maxGapBytes: number, maxBytes: number} | false} coalesce
 * @property {number} indexCacheBytes
 */

/** @type {FetchSettings} */
export const DEFAULT_FETCH = Object.freeze({
  coalesce: Object.freeze({ maxGapBytes: 1 << 20, maxBytes: 16 << 20 }),
  indexCacheBytes: 8 << 20,
});

function bytesCount(name, value) {
  if (typeof value === "number" && value >= 0 && (Number.isSafeInteger(value) || value === Infinity)) return value;
  throw new ZarrCodecError("INVALID_INPUT", `read: ${name} must be a number of bytes (an integer >= 0), got ${describe(value)}`);
}

/**
 * @param {{coalesce?: unknown, indexCacheBytes?: unknown}} options read's options
 * @returns {FetchSettings}
 */
export function fetchSettings(options) {
  const { coalesce, indexCacheBytes } = options;
  let ranges = DEFAULT_FETCH.coalesce;
  if (coalesce === false) ranges = false;
  else if (coalesce !== undefined && coalesce !== true) {
    if (coalesce === null || typeof coalesce !== "object") {
      throw new ZarrCodecError("INVALID_INPUT", `read: coalesce must be false or { maxGapBytes, maxBytes }, got ${describe(coalesce)}`);
    }
    ranges = {
      maxGapBytes: coalesce.maxGapBytes === undefined ? ranges.maxGapBytes : bytesCount("coalesce.maxGapBytes", coalesce.maxGapBytes),
      maxBytes: coalesce.maxBytes === undefined ? ranges.maxBytes : bytesCount("coalesce.maxBytes", coalesce.maxBytes),
    };
  }
  return {
    coalesce: ranges,
    indexCacheBytes: indexCacheBytes === undefined ? DEFAULT_FETCH.indexCacheBytes : bytesCount("indexCacheBytes", indexCacheBytes),
  };
}
