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
// takes the index and the inner chunks from those bytes (the shard kept
// with its index, so it is fetched once while it is kept), and refuses
// with the package's error, naming Range, where the bytes cannot be the
// shard (plain zarrita reads such answers as an index and gives wrong
// values).
//
// read uses it for every sharded array it decodes itself, so reads are the
// same with every zarrita (whose own readers differ: 0.5 and 0.6 pass no
// options to the store, so withDataTypes could not tell a read that fills
// missing inner chunks from one that must refuse them).
import { ZarrCodecError } from "../../errors.js";
import { crc32c } from "../../codecs/crc32c.js";
import { BoundedCache } from "./bounded-cache.js";
import { RangeCoalescer } from "./range-coalescer.js";
import { DEFAULT_FETCH } from "./fetch-options.js";
import { StoreCall } from "./store-requests.js";
import { isAbort } from "./transient-failures.js";
import { joinableSignal, untilAborted } from "./shared-signal.js";
import { suffixRefusal } from "./suffix-refusal.js";

const MISSING = 0xffffffffffffffffn;

/** zarrita's path of `key` under the array at `path` ("/" is the root). */
export function keyUnder(path, key) {
  const base = String(path ?? "/").replace(/\/+$/, "");
  return `${base}/${key}`;
}

function ignoredRange(key, asked, got) {
  return new ZarrCodecError(
    "LENGTH_MISMATCH",
    `read: shard ${key}: asked the store for ${asked}, got ${got} bytes that cannot be the shard. ` +
      "The server seems to ignore HTTP Range requests (answering 200 with other bytes than the range): " +
      "serve the store with a server that honours Range (npx http-server, nginx, Caddy, S3 or any object store)",
  );
}

// Inner chunk bytes `from`..`from + n` of an answer that is the whole
// object (a server that ignored Range), or the refusal where it is shorter;
// `call` (the request that brought it) counts them as used.
function sliceOfWhole(key, wanted, whole, from, n, call) {
  if (from + n > whole.byteLength) throw ignoredRange(key, wanted, whole.byteLength);
  call?.use(from, n);
  return whole.subarray(from, from + n);
}

/**
 * @param {{store: object, path: string}} arr
 * @param {import("../plan/zarrita-array.js").ZarritaArray} za
 * @param {import("../plan/codec-chain.js").Sharding} sharding
 */
export function shardReader(arr, za, sharding) {
  const store = arr.store;
  const perShard = sharding.shardShape.map((d, i) => d / sharding.innerShape[i]);
  const entries = perShard.reduce((a, b) => a * b, 1);
  const indexBytes = 16 * entries + (sharding.checksum ? 4 : 0);
  const atStart = sharding.indexLocation === "start";
  const cache = new BoundedCache(DEFAULT_FETCH.indexCacheBytes);
  const coalescer = new RangeCoalescer(store);

  // The index's bytes checked: a DataView of its 16-byte entries.
  function checkedIndex(key, bytes) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (sharding.checksum) {
      const stored = view.getUint32(16 * entries, true);
      const computed = crc32c(bytes.subarray(0, 16 * entries));
      if (stored !== computed) {
        throw new ZarrCodecError(
          "CHECKSUM_MISMATCH",
          `read: shard ${key}: its index's crc32c is 0x${stored.toString(16).padStart(8, "0")}, the index's bytes give 0x${computed.toString(16).padStart(8, "0")}`,
        );
      }
    }
    return view;
  }

  /** @returns {Promise<{view: DataView, whole: Uint8Array | undefined, call: StoreCall} | null>} */
  async function fetchIndex(key, options, call) {
    const range = atStart ? { offset: 0, length: indexBytes } : { suffixLength: indexBytes };
    let bytes;
    try {
      bytes = await call.run(() => store.getRange(key, range, options));
    } catch (error) {
      throw (!atStart && suffixRefusal(key, indexBytes, error)) || error;
    }
    if (bytes === undefined || bytes === null) return null;
    if (bytes instanceof Uint8Array && bytes.byteLength > indexBytes) {
      // The whole shard, where its index alone was asked for.
      const at = atStart ? 0 : bytes.byteLength - indexBytes;
      const index = bytes.subarray(at, at + indexBytes);
      let view;
      try {
        view = checkedIndex(key, index);
      } catch {
        throw ignoredRange(key, `the ${indexBytes} bytes of its index`, bytes.byteLength);
      }
      call.use(at, indexBytes);
      return { view, whole: bytes, call };
    }
    if (!(bytes instanceof Uint8Array) || bytes.byteLength !== indexBytes) {
      throw new ZarrCodecError(
        "LENGTH_MISMATCH",
        `read: shard ${key}: its index should be ${indexBytes} bytes at its ${sharding.indexLocation}, got ${bytes?.byteLength ?? 0}`,
      );
    }
    call.use(0, indexBytes);
    return { view: checkedIndex(key, bytes), whole: undefined, call };
  }

  // What a kept index holds: its bytes, and the whole shard where the
  // server sent it.
  const keptBytes = (v) => (v ? v.view.byteLength + (v.whole?.byteLength ?? 0) : 0);

  // Index fetches under way, each with the signal the reads waiting on it
  // share (aborted only once all of them have) and its store call (which
  // counts for each of them).
  /** @type {Map<string, {shared: ReturnType<typeof joinableSignal>, call: StoreCall}>} */
  const fetching = new Map();

  function startIndexFetch(key, options, settings, account) {
    const shared = joinableSignal();
    shared.join(options?.signal);
    const call = new StoreCall(key, settings.retry, shared.signal).join(account);
    const flight = { shared, call };
    fetching.set(key, flight);
    const promise = fetchIndex(key, { ...options, signal: shared.signal }, call);
    const done = () => {
      shared.release();
      if (fetching.get(key) === flight) fetching.delete(key);
    };
    promise.then(done, done);
    return cache.set(key, promise, keptBytes);
  }

  // The shard's index, kept: a read that finds its fetch under way joins
  // it (the fetch goes on while any read waiting on it has not aborted); a
  // fetch that was aborted before this read could join is asked again.
  async function indexOf(key, options, settings, account) {
    let index = cache.get(key);
    const flight = index && fetching.get(key);
    if (flight) {
      if (flight.shared.join(options?.signal)) flight.call.join(account);
      else index = undefined;
    }
    if (!index) index = startIndexFetch(key, options, settings, account);
    try {
      return await untilAborted(index, options?.signal);
    } catch (error) {
      // Kept as a guard: with joined signals a shared fetch aborts only
      // when this read has too.
      if (!isAbort(error) || options?.signal?.aborted) throw error;
      return startIndexFetch(key, options, settings, account);
    }
  }

  /**
   * One read's fetch of an inner chunk's bytes (undefined: missing).
   * @param {number[]} coords
   * @param {object} options  the read's store options (its signal)
   * @param {import("./fetch-options.js").FetchSettings} settings
   * @param {import("./request-accounts.js").ReadAccount} [account]  the read's figures
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
    const wanted = `inner chunk ${at} (${n} bytes at offset ${from})`;
    if (whole) return sliceOfWhole(key, `the ${indexBytes} bytes of its index`, whole, from, n, indexCall);
    let bytes;
    if (settings.coalesce) {
      const got = await coalescer.get({ key, offset: from, length: n, options, coalesce: settings.coalesce, retry: settings.retry, account });
      bytes = got.bytes;
      if (got.whole) return sliceOfWhole(key, wanted, bytes, from, n, got.call);
    } else {
      const call = new StoreCall(key, settings.retry, options?.signal).join(account);
      bytes = await call.run(() => store.getRange(key, { offset: from, length: n }, options));
      if (bytes instanceof Uint8Array && bytes.byteLength > n) return sliceOfWhole(key, wanted, bytes, from, n, call);
      if (bytes instanceof Uint8Array) call.use(0, bytes.byteLength);
    }
    if (!(bytes instanceof Uint8Array) || bytes.byteLength !== n) {
      throw new ZarrCodecError(
        "LENGTH_MISMATCH",
        `read: shard ${key}: inner chunk ${at} should be ${length} bytes at offset ${offset}, the store returned ${bytes?.byteLength ?? "none"}`,
      );
    }
    return bytes;
  }

  return { read, cache, sharding };
}
