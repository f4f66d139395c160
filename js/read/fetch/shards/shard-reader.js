// read's own reader of a sharded array's inner chunks, one per opened
// array (plan.js keeps it): the shard's index (at its end or at its start,
// as sharding_indexed's index_location says: zarrita 0.5 to 0.7.5 always
// read it from the end), its crc32c checked, kept across reads and shared
// by concurrent ones (bounded-cache.js); then each inner chunk by offset and
// length, the ranges of one shard that reads started in the same tick
// need fetched together (range-coalescer.js). Every range is checked
// against what the store returned. Every store call goes through the
// gateway (store-requests.js): retried where it failed for a reason that
// passes, and counted for each read that waits on it.
//
// A store whose server ignores Range (python3 -m http.server) answers a
// range with the whole object: read sees more bytes than it asked for,
// and takes the index and the inner chunks from those bytes (the shard
// kept with its index, so it is fetched once while it is kept) only where
// they verifiably are the whole shard: the index's bytes at their place in
// them (checked by its crc32c, or equal to the index read before) and
// every inner chunk the index places inside them. Any other answer longer
// than asked (a server that sends a..EOF for bytes=a-b) or shorter is the
// package's LENGTH_MISMATCH, naming the range asked and the bytes got:
// never another inner chunk's bytes (plain zarrita reads such answers as
// an index and gives wrong values).
//
// read uses it for every sharded array it decodes itself, so reads are the
// same with every zarrita (whose own readers differ: 0.5 and 0.6 pass no
// options to the store, so withDataTypes could not tell a read that fills
// missing inner chunks from one that must refuse them).
import { ZarrCodecError } from "../../../errors.js";
import { crc32c } from "../../../codecs/crc32c.js";
import { BoundedCache } from "../../bounded-cache.js";
import { RangeCoalescer } from "./range-coalescer.js";
import { DEFAULT_FETCH, requesterOf } from "../fetch-options.js";
import { StoreCall } from "../requests/store-requests.js";
import { isAbort, statusOf } from "../requests/transient-failures.js";
import { joinableSignal } from "../../shared-signal.js";
import { untilAborted } from "../../abort-signal.js";
import { suffixRefusal } from "./suffix-refusal.js";
import { linkOf } from "../scheduling/link-estimate.js";

const MISSING = 0xffffffffffffffffn;

/** zarrita's path of `key` under the array at `path` ("/" is the root). */
export function keyUnder(path, key) {
  const base = String(path ?? "/").replace(/\/+$/, "");
  return `${base}/${key}`;
}

// Inner chunk bytes `from`..`from + n` of an answer verified as the whole
// shard; `call` (the request that brought it) counts them as used.
function sliceOfWhole(whole, from, n, call) {
  call?.use(from, n);
  return whole.subarray(from, from + n);
}

/**
 * A range the server answered 416 (Range Not Satisfiable) for: it starts
 * past the shard's end, where the shard's index says an inner chunk is (a
 * shard cut short); the store's error kept as the cause. Undefined for
 * any other failure.
 */
function pastEnd(key, error, asked, what) {
  if (error instanceof ZarrCodecError || statusOf(error) !== 416) return undefined;
  return new ZarrCodecError(
    "LENGTH_MISMATCH",
    `read: shard ${key}: asked the store for ${showRange(asked)}, ${what}, and the server answered 416 (no such bytes): ` +
      `the shard ends before byte ${asked.offset}, where its index says it holds bytes up to ${asked.offset + asked.length} (a truncated shard)`,
    { cause: error },
  );
}

// "bytes 1000-1999 (1000 bytes)": a range as the request asked for it.
const showRange = ({ offset, length }) => `bytes ${offset}-${offset + length - 1} (${length} bytes)`;

/**
 * An answer longer than its request asked for that cannot be verified as
 * the whole shard: a server that ignores Range (answering 200 with other
 * bytes), or one that sends more than a range asks (`a..EOF` for
 * `bytes=a-b`). Taking it as the whole shard would cut another inner
 * chunk's bytes at the absolute offsets: never a value.
 */
function unverifiedAnswer(key, asked, got) {
  return new ZarrCodecError(
    "LENGTH_MISMATCH",
    `read: shard ${key}: asked the store for ${asked}, and got ${got} bytes: neither that range nor the whole shard ` +
      "(whose index would sit at its place in them, and hold every inner chunk). The server seems not to honour HTTP Range requests " +
      "(it ignored the range, or sent more than it asked for): serve the store with a server that honours Range " +
      "(npx http-server, nginx, Caddy, S3 or any object store)",
  );
}

/**
 * An answer shorter than its request asked for: the shard ends before
 * its index says (a truncated shard), or the server cut the answer short.
 */
function shortAnswer(key, asked, what, got) {
  const ends = got === undefined ? "" : `: the shard ends at byte ${asked.offset + got}, where its index says it holds bytes up to ${asked.offset + asked.length}`;
  return new ZarrCodecError(
    "LENGTH_MISMATCH",
    `read: shard ${key}: asked the store for ${showRange(asked)}, ${what}, and got ${got ?? "no"} bytes${ends} (a truncated shard, or a server that cut the answer short)`,
  );
}

/**
 * @param {{store: object, path: string}} arr
 * @param {import("../../plan/zarrita-array.js").ZarritaArray} za
 * @param {import("../../plan/codec-chain.js").Sharding} sharding
 */
export function shardReader(arr, za, sharding) {
  const store = arr.store;
  const perShard = sharding.shardShape.map((d, i) => d / sharding.innerShape[i]);
  const entries = perShard.reduce((a, b) => a * b, 1);
  const indexBytes = 16 * entries + (sharding.checksum ? 4 : 0);
  const atStart = sharding.indexLocation === "start";
  const cache = new BoundedCache(DEFAULT_FETCH.indexCacheBytes);
  const link = linkOf(store);
  const coalescer = new RangeCoalescer(store, link);

  // The index's bytes checked (its crc32c, where it has one): a DataView of
  // its 16-byte entries, and where its inner chunks end.
  function checkedIndex(key, bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (sharding.checksum) {
      const stored = view.getUint32(16 * entries, true);
      const computed = crc32c(bytes.subarray(0, 16 * entries));
      if (stored !== computed) {
        throw new ZarrCodecError(
          "CHECKSUM_MISMATCH",
          `read: shard ${key}: its index's crc32c is 0x${stored.toString(16).padStart(8, "0")}, the index's bytes give 0x${computed.toString(16).padStart(8, "0")} ` +
            `(the shard's ${sharding.indexLocation === "start" ? "first" : "last"} ${indexBytes} bytes are not an intact index: a damaged index, or a shard cut short)`,
        );
      }
    }
    return { view, bytes, dataEnd: dataEndOf(view) };
  }

  // The byte after the last inner chunk the index places (0 where it
  // places none): a whole shard holds at least that many bytes of data.
  function dataEndOf(view) {
    let end = 0n;
    for (let i = 0; i < entries; i++) {
      const offset = view.getBigUint64(16 * i, sharding.littleIndex);
      const length = view.getBigUint64(16 * i + 8, sharding.littleIndex);
      if (offset === MISSING && length === MISSING) continue;
      if (offset + length > end) end = offset + length;
    }
    return end > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(end);
  }

  // Whether `answer` verifiably is the whole shard of `index`: its index
  // bytes at their place in it (its end or its start), and every inner
  // chunk the index places inside it. An answer that starts elsewhere (a
  // server that sends a..EOF for bytes=a-b) holds the index at its end too,
  // and passes where the shard has unused space of at least a before its
  // index (the spec allows it): such an answer is taken as the whole shard
  // only after a request for the whole object (wholeShard below).
  function holdsShard(index, answer) {
    const n = answer.byteLength;
    if (n < indexBytes) return false;
    const at = atStart ? 0 : n - indexBytes;
    const bytes = answer.subarray(at, at + indexBytes);
    for (let i = 0; i < indexBytes; i++) if (bytes[i] !== index.bytes[i]) return false;
    return index.dataEnd <= (atStart ? n : n - indexBytes);
  }

  /** @returns {Promise<{view: DataView, bytes: Uint8Array, dataEnd: number, whole: Uint8Array | undefined, call: StoreCall} | null>} */
  async function fetchIndex(key, options, call) {
    const range = atStart ? { offset: 0, length: indexBytes } : { suffixLength: indexBytes };
    let bytes;
    try {
      bytes = await call.run(() => store.getRange(key, range, options));
    } catch (error) {
      throw (!atStart && suffixRefusal(key, indexBytes, error)) || error;
    }
    if (bytes === undefined || bytes === null) return null;
    const what = `the ${indexBytes} bytes of its index at its ${sharding.indexLocation}`;
    if (bytes instanceof Uint8Array && bytes.byteLength > indexBytes) {
      // More than the index: the whole shard, where the index at its place
      // in it verifies and holds every inner chunk within it.
      const at = atStart ? 0 : bytes.byteLength - indexBytes;
      let index;
      try {
        index = checkedIndex(key, bytes.subarray(at, at + indexBytes));
      } catch {
        index = undefined;
      }
      if (!index || !holdsShard(index, bytes)) throw unverifiedAnswer(key, what, bytes.byteLength);
      call.use(at, indexBytes);
      return { ...index, whole: bytes, call };
    }
    if (!(bytes instanceof Uint8Array) || bytes.byteLength !== indexBytes) {
      throw new ZarrCodecError(
        "LENGTH_MISMATCH",
        `read: shard ${key}: asked the store for ${what}, and got ${bytes?.byteLength ?? "no"} bytes (a shard shorter than its index, or a server that cut the answer short)`,
      );
    }
    call.use(0, indexBytes);
    return { ...checkedIndex(key, bytes), whole: undefined, call };
  }

  // What a kept index holds: its bytes, and the whole shard where the
  // server sent it.
  const keptBytes = (v) => (v ? v.view.byteLength + (v.whole?.byteLength ?? 0) : 0);

  // A fetch that reads share, per shard key in `flights`: run with a
  // signal the waiting reads share (aborted only once all of them have)
  // and one store call that counts for each of them. joinShared: the
  // flight under way that this read now waits on too, or undefined where
  // there is none or it was aborted before the read could join (it must
  // be asked again). startShared: a new flight, `run(storeOptions, call)`.
  function joinShared(flights, key, options, settings, account) {
    const flight = flights.get(key);
    if (!flight || !flight.shared.join(options?.signal)) return undefined;
    flight.call.join(account, requesterOf(options, settings));
    return flight;
  }

  function startShared(flights, key, options, settings, account, how, run) {
    const shared = joinableSignal();
    shared.join(options?.signal);
    const call = new StoreCall(key, { retry: settings.retry, signal: shared.signal, scheduler: settings.scheduler, link, ...how }).join(account, requesterOf(options, settings));
    const flight = { shared, call, promise: run({ ...options, signal: shared.signal }, call) };
    flights.set(key, flight);
    const done = () => {
      shared.release();
      if (flights.get(key) === flight) flights.delete(key);
    };
    flight.promise.then(done, done);
    return flight;
  }

  // Whole shards on their way, asked for where an answer to a range that
  // does not start at 0 came longer than asked: by its bytes alone it may
  // be the whole shard (a server that ignores Range) or the range's start
  // to the shard's end (one that honours only the start, a..EOF), which
  // differ where the shard has unused space. A request without Range is
  // answered with the whole object by either: verified, it is kept with
  // the index (later reads of the shard ask for nothing), and the chunks
  // are cut from it. One per shard, for every read that meets the case.
  const wholes = new Map();

  function wholeShard(key, index, options, settings, account) {
    const flight =
      joinShared(wholes, key, options, settings, account) ??
      startShared(wholes, key, options, settings, account, {}, async (storeOptions, call) => {
        const bytes = await call.run(() => store.get(key, storeOptions));
        if (!(bytes instanceof Uint8Array) || !holdsShard(index, bytes)) throw unverifiedAnswer(key, "the whole shard (no range), after an answer longer than its range", bytes?.byteLength ?? "no");
        const kept = { ...index, whole: bytes, call };
        cache.set(key, Promise.resolve(kept), keptBytes);
        return kept;
      });
    return untilAborted(flight.promise, options?.signal);
  }

  // Index fetches under way (sent at the highest priority of the reads
  // waiting on them).
  const fetching = new Map();

  function startIndexFetch(key, options, settings, account) {
    const how = { bytes: indexBytes, suffix: !atStart, index: true };
    const flight = startShared(fetching, key, options, settings, account, how, (storeOptions, call) => fetchIndex(key, storeOptions, call));
    return cache.set(key, flight.promise, keptBytes);
  }

  // The shard's index, kept: a read that finds its fetch under way joins
  // it (the fetch goes on while any read waiting on it has not aborted); a
  // fetch that was aborted before this read could join is asked again.
  async function indexOf(key, options, settings, account) {
    let index = cache.get(key);
    if (index && fetching.has(key) && !joinShared(fetching, key, options, settings, account)) index = undefined;
    if (!index) index = startIndexFetch(key, options, settings, account);
    try {
      return await untilAborted(index, options?.signal);
    } catch (error) {
      // Kept as a guard: with joined signals a shared fetch aborts only
      // when this read has too.
      if (!isAbort(error) || options?.signal?.aborted) throw error;
      return await untilAborted(startIndexFetch(key, options, settings, account), options?.signal);
    }
  }

  /**
   * One read's fetch of an inner chunk's bytes (undefined: missing).
   * @param {number[]} coords
   * @param {object} options  the read's store options (its signal)
   * @param {import("../fetch-options.js").FetchSettings} settings
   * @param {import("../requests/request-accounts.js").ReadAccount} [account]  the read's figures
   * @returns {Promise<Uint8Array | undefined>}
   */
  async function read(coords, options, settings, account) {
    if (cache.maxBytes !== settings.indexCacheBytes) {
      cache.maxBytes = settings.indexCacheBytes;
      cache.trim();
    }
    const shard = coords.map((c, i) => Math.floor(c / perShard[i]));
    const key = keyUnder(arr.path, za.chunkKey(shard));
    const index = await indexOf(key, options, settings, account);
    if (index === null) return undefined;
    const { view, whole, call: indexCall } = index;
    let at = 0;
    for (let i = 0; i < coords.length; i++) at = at * perShard[i] + (coords[i] % perShard[i]);
    const offset = view.getBigUint64(16 * at, sharding.littleIndex);
    const length = view.getBigUint64(16 * at + 8, sharding.littleIndex);
    if (offset === MISSING && length === MISSING) return undefined;
    if (offset > BigInt(Number.MAX_SAFE_INTEGER) || length > BigInt(2 ** 31)) {
      throw new ZarrCodecError("INVALID_INPUT", `read: shard ${key}: inner chunk ${at} has offset ${offset} and length ${length}, beyond what can be read`);
    }
    const from = Number(offset);
    const n = Number(length);
    const asked = { offset: from, length: n };
    const what = `inner chunk ${at}`;
    if (whole) return sliceOfWhole(whole, from, n, indexCall);
    let got;
    try {
      if (settings.coalesce) {
        got = await coalescer.get({ key, offset: from, length: n, options, coalesce: settings.coalesce, retry: settings.retry, account, requester: requesterOf(options, settings), scheduler: settings.scheduler });
      } else {
        const call = new StoreCall(key, { retry: settings.retry, signal: options?.signal, scheduler: settings.scheduler, link, bytes: n }).join(account, requesterOf(options, settings));
        const bytes = await call.run(() => store.getRange(key, asked, options));
        const length = bytes instanceof Uint8Array ? bytes.byteLength : undefined;
        if (length !== undefined && length <= n) call.use(0, length);
        got = { bytes: length > n ? undefined : bytes, longer: length > n ? bytes : undefined, asked, got: length, call };
      }
    } catch (error) {
      throw pastEnd(key, error, asked, what) ?? error;
    }
    const among = got.asked.length > n ? `${what} among others` : what;
    if (got.longer) {
      // More than the request asked for: never the shard unless it
      // verifiably holds it; from a range at 0 it is the whole shard, from
      // one further in only the whole object asked for without Range says.
      if (!holdsShard(index, got.longer)) throw unverifiedAnswer(key, `${showRange(got.asked)} (${among})`, got.got);
      if (got.asked.offset === 0) return sliceOfWhole(got.longer, from, n, got.call);
      const kept = await wholeShard(key, index, options, settings, account);
      return sliceOfWhole(kept.whole, from, n, kept.call);
    }
    if (!(got.bytes instanceof Uint8Array) || got.bytes.byteLength !== n) throw shortAnswer(key, got.asked, among, got.got);
    return got.bytes;
  }

  return { read, cache, sharding };
}
