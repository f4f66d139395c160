// read's own reader of a sharded array's inner chunks: the shard's index
// (at its end or at its start, as sharding_indexed's index_location says:
// zarrita 0.5 to 0.7.5 always read it from the end), its crc32c checked,
// then each inner chunk by offset and length. One index request per
// shard per read, every range checked against what the store returned.
// read uses it for every sharded array it decodes itself, so reads are the
// same with every zarrita (whose own readers differ: 0.5 and 0.6 pass no
// options to the store, so withDataTypes could not tell a read that fills
// missing inner chunks from one that must refuse them).
import { ZarrCodecError } from "../errors.js";
import { crc32c } from "../codecs/crc32c.js";

const MISSING = 0xffffffffffffffffn;

/** zarrita's path of `key` under the array at `path` ("/" is the root). */
export function keyUnder(path, key) {
  const base = String(path ?? "/").replace(/\/+$/, "");
  return `${base}/${key}`;
}

/**
 * @param {{store: object, path: string}} arr
 * @param {import("./zarrita-array.js").ZarritaArray} za
 * @param {import("./codec-chain.js").Sharding} sharding
 * @returns {(coords: number[], options?: object) => Promise<Uint8Array | undefined>}
 *   one read's fetch of an inner chunk's bytes (undefined: missing)
 */
export function shardReader(arr, za, sharding) {
  const store = arr.store;
  const perShard = sharding.shardShape.map((d, i) => d / sharding.innerShape[i]);
  const entries = perShard.reduce((a, b) => a * b, 1);
  const indexBytes = 16 * entries + (sharding.checksum ? 4 : 0);
  const indexes = new Map();

  async function indexOf(key, options) {
    const range = sharding.indexLocation === "start" ? { offset: 0, length: indexBytes } : { suffixLength: indexBytes };
    const bytes = await store.getRange(key, range, options);
    if (bytes === undefined || bytes === null) return null;
    if (!(bytes instanceof Uint8Array) || bytes.byteLength !== indexBytes) {
      throw new ZarrCodecError(
        "LENGTH_MISMATCH",
        `read: shard ${key}: its index should be ${indexBytes} bytes at its ${sharding.indexLocation}, got ${bytes?.byteLength ?? 0}`,
      );
    }
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

  return async (coords, options) => {
    const shard = coords.map((c, i) => Math.floor(c / perShard[i]));
    const key = keyUnder(arr.path, za.chunkKey(shard));
    let index = indexes.get(key);
    if (!index) {
      index = indexOf(key, options);
      indexes.set(key, index);
    }
    const view = await index;
    if (view === null) return undefined;
    let at = 0;
    for (let i = 0; i < coords.length; i++) at = at * perShard[i] + (coords[i] % perShard[i]);
    const offset = view.getBigUint64(16 * at, sharding.littleIndex);
    const length = view.getBigUint64(16 * at + 8, sharding.littleIndex);
    if (offset === MISSING && length === MISSING) return undefined;
    if (offset > BigInt(Number.MAX_SAFE_INTEGER) || length > BigInt(2 ** 31)) {
      throw new ZarrCodecError("INVALID_INPUT", `read: shard ${key}: inner chunk ${at} has offset ${offset} and length ${length}, beyond what can be read`);
    }
    const bytes = await store.getRange(key, { offset: Number(offset), length: Number(length) }, options);
    if (!(bytes instanceof Uint8Array) || bytes.byteLength !== Number(length)) {
      throw new ZarrCodecError(
        "LENGTH_MISMATCH",
        `read: shard ${key}: inner chunk ${at} should be ${length} bytes at offset ${offset}, the store returned ${bytes?.byteLength ?? "none"}`,
      );
    }
    return bytes;
  };
}
