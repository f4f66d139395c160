// The fetch stage of read: where a chunk's stored bytes come from. Read's
// own shard reader for sharded arrays (one per opened array, which keeps
// the indexes and coalesces ranges: shards/shard-reader.js), else zarrita's own
// fetch of the chunk's key; where read cannot fetch a chunk itself, zarrita's
// getChunk, which fetches and decodes it in one (the decode stage then has
// nothing left to do).
import { arrayName } from "../../errors.js";
import { withCodecContext } from "../../zarrita/unknown-codec.js";
import { keyUnder, shardReader } from "./shards/shard-reader.js";
import { chunkCall } from "./requests/store-requests.js";
import { linkOf } from "./scheduling/link-estimate.js";
import { requesterOf } from "./fetch-options.js";
import { untilAborted } from "../abort-signal.js";
import { chunkWhere } from "../chunk-where.js";

/**
 * @typedef {{missing: true} | {bytes: Uint8Array} | {chunk: {data: unknown, shape: number[], stride: number[]}}} Fetched
 *   a missing chunk (read fills it), its stored bytes, or a chunk zarrita
 *   fetched and decoded
 */

export const MISSING = Object.freeze({ missing: true });

// Inner chunks fetched together are views of one request's bytes;
// zarrita's codecs (vlen-utf8's, say) read a chunk's buffer from 0.
const ownBuffer = (bytes) => (bytes && (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) ? bytes.slice() : bytes);

// What an index read with a layout it does not have gives.
const LAYOUT_ERRORS = new Set(["CHECKSUM_MISMATCH", "LENGTH_MISMATCH", "INVALID_INPUT"]);

// An inner chunk's bytes through read's shard reader (one per opened
// array, kept in the plan's shardAccess, which the array's typed plans
// share). Where the index layout was assumed rather than read
// (plan/shard-shape.js) and an index does not verify, the layout is read
// from the document, the reader made again from it, and the chunk asked
// for again: an error then is the shard's. Index codecs read does not
// read leave the shards to zarrita's own getter.
async function shardBytes(arr, plan, coords, options, settings, account) {
  const access = plan.shardAccess;
  access.reader ??= shardReader(arr, plan.za, plan.sharding);
  const reader = access.reader;
  try {
    return await reader.read(coords, options, settings, account);
  } catch (error) {
    if (!reader.sharding?.assumed || !LAYOUT_ERRORS.has(error?.code)) throw error;
    const confirmed = await untilAborted(plan.confirmSharding(), options?.signal);
    if (access.reader === reader) {
      access.reader = confirmed.unsupported ? zarritaShards(arr, plan.za, confirmed) : shardReader(arr, plan.za, confirmed);
    }
    return access.reader.read(coords, options, settings, account);
  }
}

// zarrita's own reader of the array's shards, for index codecs read does
// not read (through the gateway: retried and counted as one call).
const zarritaShards = (arr, za, sharding) => ({
  sharding,
  read: (coords, options, settings, account) =>
    chunkCall(keyUnder(arr.path, za.chunkKey(coords)), account, callHow(arr, options, settings), requesterOf(options, settings), () => za.chunkBytes(coords, options)),
});

/**
 * How read gets a chunk's stored bytes, or undefined where read does not
 * fetch the array's chunks itself (no fill known to fill missing ones, or
 * zarrita's fetch not found). Every store call goes through the gateway
 * (requests/store-requests.js: retried, counted for the read's `account`). `signal`
 * and `priority` (a chunk cache's fetch for several reads:
 * cache/cached-chunk.js) stand for the read's own.
 * @returns {((coords: number[], signal?: unknown, priority?: import("./scheduling/priority.js").Priority) => Promise<Uint8Array | undefined | null>) | undefined}
 */
function storeFetch(arr, plan, storeOptions, settings, account) {
  const fills = plan.elementBytes === 0 ? plan.valuesFill !== undefined : plan.fill !== undefined;
  if (!plan.decoder && !(fills && plan.za.decode)) return undefined;
  const optionsWith = (signal) => (signal === undefined ? storeOptions : { ...storeOptions, signal });
  const settingsWith = (priority) => (priority === undefined ? settings : { ...settings, priority });
  if (plan.sharding) {
    if (plan.decoder) return (coords, signal, priority) => shardBytes(arr, plan, coords, optionsWith(signal), settingsWith(priority), account);
    return async (coords, signal, priority) => ownBuffer(await shardBytes(arr, plan, coords, optionsWith(signal), settingsWith(priority), account));
  }
  if (!plan.za.chunkBytes) return undefined;
  const keyOf = (coords) => (plan.za.chunkKey ? keyUnder(arr.path, plan.za.chunkKey(coords)) : `chunk [${coords.join(", ")}] of ${arr.path}`);
  return (coords, signal, priority) => {
    const options = optionsWith(signal);
    const how = settingsWith(priority);
    return chunkCall(keyOf(coords), account, callHow(arr, options, how), requesterOf(options, how), () => plan.za.chunkBytes(coords, options));
  };
}

// How a chunk's call is sent: retried as the read says, with its signal,
// through its scheduler, the answer's time told to the store's link. (A
// whole chunk's size is unknown until it comes.)
function callHow(arr, options, settings) {
  return { retry: settings.retry, signal: options.signal, scheduler: settings.scheduler, link: linkOf(arr.store) };
}

// Where the fill has no value of the read's dtype (plan/typed-plan.js), a
// missing chunk is refused here, before any path (this thread, a pool's
// workers, a chunk cache) could fill it.
function refusingMissing(arr, plan, fetch) {
  if (!plan.fillRefusal) return fetch;
  return async (coords, signal, priority) => {
    const bytes = await fetch(coords, signal, priority);
    if (bytes === undefined || bytes === null) throw plan.fillRefusal(chunkWhere(arr, plan, coords));
    return bytes;
  };
}

/**
 * @param {object} arr the zarrita Array
 * @param {import("../plan/plan.js").Plan} plan
 * @param {object} storeOptions what the store gets with each call (the read's signal)
 * @param {import("./fetch-options.js").FetchSettings} settings
 * @param {{throwIfAborted(): void} | undefined} signal
 * @param {import("./requests/request-accounts.js").ReadAccount} [account]  the read's figures
 */
export function chunkSource(arr, plan, storeOptions, settings, signal, account) {
  const stored = storeFetch(arr, plan, storeOptions, settings, account);
  if (stored) {
    const fetch = refusingMissing(arr, plan, stored);
    return {
      /** The chunk's bytes as the store has them (undefined: missing). */
      fetchBytes: fetch,
      /** @returns {Promise<Fetched>} */
      async get(c) {
        const bytes = await fetch(c.coords);
        return bytes === undefined || bytes === null ? MISSING : { bytes };
      },
    };
  }
  return {
    fetchBytes: undefined,
    async get(c) {
      try {
        return { chunk: await plan.za.getChunk(c.coords, { signal }) };
      } catch (error) {
        throw withCodecContext(error, "read", arrayName(arr.path, arr.store));
      }
    },
  };
}
