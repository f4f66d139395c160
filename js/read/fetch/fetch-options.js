// What read's options say about its requests, checked, with the defaults
// (docs/read.md, "Over a network"):
//   coalesce: { maxGapBytes, maxBytes } | false
//     the inner chunks of one shard that reads started in the same tick
//     need (or, with a scheduler, that wait together) are fetched in as few
//     range requests as the gap and the size allow. By default both follow
//     the link the reads see (scheduling/link-estimate.js): a gap is read
//     through where its bytes cost less than the round trip they save
//     (round trip x rate), and an answer holds at most what the link moves
//     in a quarter second (at least 256 KiB; with a scheduler, a third of
//     the link's window at most: link-estimate.js), so that decoding runs
//     beside the transfer;
//     zarr-python 3's datacenter values (1 MiB, 16 MiB) are the most
//     either becomes. A number given is used as it is. false: one request
//     per inner chunk.
//   scheduler, priority
//     a scheduler from createReadScheduler: the read's requests wait for
//     its slots, sent by priority (a number or a function, default 0:
//     scheduling/priority.js). Without one, requests are sent at once.
//   indexCacheBytes: number
//     the most bytes of shard indexes (with the whole shards a server
//     without Range sent) kept per opened array across its reads, least
//     recently used dropped first. Default 8 MiB: half a million inner
//     chunks' entries (16 bytes each). 0 keeps an index only while reads
//     that started together use it.
//   retry: { retries, baseDelayMs, maxDelayMs } | false
//     a store call that fails for a reason that passes (a network error,
//     HTTP 429, 500, 502, 503, 504: requests/transient-failures.js) is tried again
//     at most `retries` times, the n-th retry after a wait drawn from
//     [0, min(maxDelayMs, baseDelayMs * 2^(n-1))) (full jitter: requests/backoff.js).
//     Defaults: 3 retries (4 attempts), 100 ms, 20 s. The AWS SDKs' standard
//     mode makes 3 attempts with a 100 ms base and a 20 s cap (the cap and
//     the base are theirs); Rust's object_store makes up to 10 retries from
//     100 ms, capped at 15 s; gcsfs 6, waiting up to 32 s. A read is
//     usually someone waiting on a screen: one retry more than AWS (a 503
//     burst from S3 often outlasts two) but far fewer than object_store's
//     batch-minded 10, so a store that is down fails the read within about
//     a second (at most 100 + 200 + 400 ms of waits) instead of minutes.
//     false: no retry (a transient failure fails the read at once, still
//     as FETCH_FAILED).
import { describe, ZarrCodecError } from "../../errors.js";
import { checkPriority } from "./scheduling/priority.js";
import { queueOf } from "./scheduling/read-scheduler.js";

/**
 * @typedef {object} FetchSettings
 * @property {{maxGapBytes: number | undefined, maxBytes: number | undefined} | false} coalesce
 *   undefined: as the link's figures say
 * @property {number} indexCacheBytes
 * @property {{retries: number, baseDelayMs: number, maxDelayMs: number} | false} retry
 * @property {import("./scheduling/read-scheduler.js").RequestQueue | undefined} scheduler
 * @property {import("./scheduling/priority.js").Priority} priority
 */

/** @type {FetchSettings} */
export const DEFAULT_FETCH = Object.freeze({
  coalesce: Object.freeze({ maxGapBytes: undefined, maxBytes: undefined }),
  indexCacheBytes: 8 << 20,
  retry: Object.freeze({ retries: 3, baseDelayMs: 100, maxDelayMs: 20_000 }),
  scheduler: undefined,
  priority: 0,
});

function bytesCount(name, value) {
  if (typeof value === "number" && value >= 0 && (Number.isSafeInteger(value) || value === Infinity)) return value;
  throw new ZarrCodecError("INVALID_INPUT", `read: ${name} must be a number of bytes (an integer >= 0), got ${describe(value)}`);
}

function count(name, value) {
  if (Number.isSafeInteger(value) && value >= 0) return value;
  throw new ZarrCodecError("INVALID_INPUT", `read: ${name} must be an integer >= 0, got ${describe(value)}`);
}

function milliseconds(name, value) {
  if (typeof value === "number" && value >= 0 && (Number.isFinite(value) || value === Infinity)) return value;
  throw new ZarrCodecError("INVALID_INPUT", `read: ${name} must be a number of milliseconds >= 0, got ${describe(value)}`);
}

function retrySettings(retry) {
  if (retry === undefined || retry === true) return DEFAULT_FETCH.retry;
  if (retry === false) return false;
  if (retry === null || typeof retry !== "object") {
    throw new ZarrCodecError("INVALID_INPUT", `read: retry must be false or { retries, baseDelayMs, maxDelayMs }, got ${describe(retry)}`);
  }
  const { retries, baseDelayMs, maxDelayMs } = retry;
  const defaults = DEFAULT_FETCH.retry;
  return {
    retries: retries === undefined ? defaults.retries : count("retry.retries", retries),
    baseDelayMs: baseDelayMs === undefined ? defaults.baseDelayMs : milliseconds("retry.baseDelayMs", baseDelayMs),
    maxDelayMs: maxDelayMs === undefined ? defaults.maxDelayMs : milliseconds("retry.maxDelayMs", maxDelayMs),
  };
}

/**
 * @param {{coalesce?: unknown, indexCacheBytes?: unknown, retry?: unknown, scheduler?: unknown, priority?: unknown}} options read's options
 * @returns {FetchSettings}
 */
export function fetchSettings(options) {
  const { coalesce, indexCacheBytes, retry, scheduler, priority } = options;
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
    retry: retrySettings(retry),
    scheduler: scheduler === undefined ? undefined : queueOf(scheduler),
    priority: checkPriority(priority),
  };
}

/**
 * A read waiting on a store call, as the gateway knows it
 * (requests/store-requests.js Requester): the signal its store options
 * carry, and its priority.
 * @param {{signal?: unknown} | undefined} options  the read's store options
 * @param {FetchSettings} settings
 */
export function requesterOf(options, settings) {
  return { signal: options?.signal, priority: settings.priority };
}
