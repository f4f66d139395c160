// One read's way to its chunks through a chunk cache (chunk-cache.js):
// each chunk decoded whole, once, kept, and handed to read's placement as
// zarrita's getChunk hands a chunk ({ data, shape, stride }), or undefined
// where the store has none (read fills it).
//
// A miss is fetched with the read's own fetch (read's shard reader, or
// zarrita's chunk fetch), then decoded whole: by read's decoder in this
// thread (whole-chunk.js), by a pool's workers (`decodeMiss`), or by
// zarrita (its codecs, or its getChunk where read does not fetch the
// array's chunks). What zarrita returns is copied: its data may be a view
// of the store's bytes (a little-endian chunk, or one a caching store
// keeps and zarrita swaps in place: zarrita #431), and the cache keeps
// bytes no one else writes to.
//
// Reads that want a chunk while it is on its way wait for the same entry,
// which is fetched with a signal of its own (shared-signal.js): its
// request stops only once every read waiting on it has aborted, and each
// read stops waiting at its own abort, never at another's.
import { arrayName } from "../../errors.js";
import { withCodecContext } from "../../zarrita/unknown-codec.js";
import { chunkWhere, withWhere } from "../chunk-where.js";
import { countDecodedBy, countRead } from "../read-counts.js";
import { MISSING } from "./chunk-cache.js";
import { decodeWhole } from "./whole-chunk.js";
import { joinableSignal } from "../shared-signal.js";
import { untilAborted } from "../abort-signal.js";
import { highestPriority, priorityNow } from "../fetch/scheduling/priority.js";

// Each entry on its way: its shared signal and the reads waiting on it.
const fetching = new WeakMap();

// Bytes a value of an Array of JavaScript values holds, roughly: a string's
// UTF-16 code units, a view's bytes, and a slot each.
function valueBytes(v) {
  if (typeof v === "string") return 16 + 2 * v.length;
  if (ArrayBuffer.isView(v)) return 64 + v.byteLength;
  return 16;
}

/** Bytes an entry's value counts for. */
export function sizeOfChunk(value) {
  if (value === MISSING) return 0;
  const { data } = value;
  if (Array.isArray(data)) return data.reduce((n, v) => n + valueBytes(v), 0);
  return data.byteLength;
}

// A chunk zarrita decoded, with data of its own.
function owned(chunk) {
  const { data } = chunk;
  let copy;
  if (Array.isArray(data)) copy = data.map((v) => (ArrayBuffer.isView(v) ? v.slice() : v));
  // TypedArrays, and zarrita's own containers (BoolArray, ...), which show
  // their bytes the same way: read places their bytes.
  else if (data && typeof data.byteLength === "number" && data.buffer) copy = new Uint8Array(data.buffer, data.byteOffset ?? 0, data.byteLength).slice();
  else copy = data;
  return { data: copy, shape: chunk.shape.slice(), stride: chunk.stride.slice() };
}

/**
 * @param {object} r
 * @param {import("./chunk-cache.js").ChunkStore} r.store
 * @param {object} r.arr      the zarrita Array
 * @param {object} r.plan     read's plan of it (plan.js)
 * @param {((coords: number[], signal?: unknown, priority?: unknown) => Promise<Uint8Array | undefined>) | undefined} r.fetch
 *   read's fetch of a chunk's stored bytes; undefined: zarrita's getChunk
 * @param {AbortSignal | undefined} r.signal
 * @param {import("../fetch/scheduling/priority.js").Priority} [r.priority]  the read's
 * @param {((coords: number[], bytes: Uint8Array) => Promise<{data: Uint8Array, shape: number[], stride: number[]}>) | undefined} [r.decodeMiss]
 *   a pool's decode of a whole chunk (where read's decoder decodes it)
 * @returns {(coords: number[]) => Promise<{data: any, shape: number[], stride: number[]} | undefined>}
 */
export function cachedChunks({ store, arr, plan, fetch, signal, priority, decodeMiss }) {
  const { za } = plan;
  // read's dtype: chunks zarrita decodes, cast (plan/typed-plan.js).
  const convert = plan.convert ?? ((chunk) => chunk);
  const zarritaFailed = (error) => withCodecContext(error, "read", arrayName(arr.path, arr.store));

  async function load(coords, shared, sharedPriority) {
    if (!fetch) {
      countRead("viaZarrita");
      try {
        return owned(convert(await za.getChunk(coords, { signal: shared })));
      } catch (error) {
        throw zarritaFailed(error);
      }
    }
    const bytes = await fetch(coords, shared, sharedPriority);
    if (bytes === undefined || bytes === null) {
      countRead("filled");
      return MISSING;
    }
    if (plan.decoder) {
      countDecodedBy(plan.decoder.kind);
      if (plan.decoder.inWasm) countRead("decompressed");
      const where = () => chunkWhere(arr, plan, coords);
      try {
        if (!decodeMiss) return await decodeWhole(plan, bytes, where);
        try {
          return await decodeMiss(coords, bytes);
        } catch (error) {
          // A frame only the compressor register() replaced reads (snappy
          // inside blosc): workers have the package's codecs alone; this
          // thread's decoder hands it over (chunk-decoder.js).
          if (error?.code !== "UNSUPPORTED_CODEC" || !plan.decoder.reopen) throw error;
          return await decodeWhole(plan, bytes, where);
        }
      } catch (error) {
        throw withWhere(error, where());
      }
    }
    countRead("viaZarrita");
    try {
      return owned(convert(await za.decode(bytes)));
    } catch (error) {
      throw zarritaFailed(error);
    }
  }

  // A chunk not yet kept: fetched and decoded for every read that wants
  // it meanwhile, with a signal that aborts once all of them have, at the
  // highest priority of those still waiting.
  function start(key, coords) {
    const shared = joinableSignal();
    shared.join(signal);
    const readers = [{ signal, priority }];
    const entry = store.set(key, load(coords, shared.signal, () => highestPriority(readers)), sizeOfChunk);
    fetching.set(entry, { shared, readers });
    entry.then(
      () => shared.release(),
      () => shared.release(),
    );
    return entry;
  }

  return async function cachedChunk(coords) {
    // The read's priority, the entry's too where it is the highest: one
    // that throws fails this read (as its own requests would), not the
    // entry others wait on, which goes at theirs.
    priorityNow(priority ?? 0);
    const key = store.keyOf(arr, coords, plan.outputType);
    for (;;) {
      let entry = store.get(key);
      // One on its way that every read before this one left (aborted):
      // started again for this read.
      const flight = entry && fetching.get(entry);
      if (flight && !flight.shared.join(signal)) entry = undefined;
      else flight?.readers.push({ signal, priority });
      if (entry) {
        store.hits += 1;
        countRead("cached");
      } else {
        store.misses += 1;
        entry = start(key, coords);
      }
      try {
        const value = await untilAborted(entry, signal);
        return value === MISSING ? undefined : value;
      } catch (error) {
        // Aborted for the reads that left it as this read joined: this
        // read starts the chunk again.
        if (fetching.get(entry)?.shared.signal?.aborted && !signal?.aborted) continue;
        throw error;
      }
    }
  };
}
