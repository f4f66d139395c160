// How read names a chunk in its errors ("read: chunk c/0/1 of array /a:
// ...", "read: inner chunk (0, 1) of shard c/0/0 of array /a: ..."), on
// the calling thread and in a pool's worker alike, so that a chunk's error
// reads the same wherever it was decoded.
import { arrayName, ZarrCodecError } from "../errors.js";

/**
 * "read: chunk <key> of array <path>" (errors.js arrayName); for a sharded
 * array whose shards read fetches itself (`plan.sharding`), its chunks are
 * inner chunks, named by their place in their shard and the shard's key:
 * "read: inner chunk (0, 1) of shard c/0/0 of array <path>".
 * @param {{path: string, store?: unknown}} arr
 * @param {{za: {chunkKey?: (coords: number[]) => string, sharded: boolean}, sharding?: {shardShape: number[], innerShape: number[]}}} plan
 * @param {number[]} coords
 */
export function chunkWhere(arr, plan, coords) {
  const { za, sharding } = plan;
  const array = arrayName(arr.path, arr.store);
  if (sharding && za.chunkKey) {
    const per = sharding.shardShape.map((d, i) => d / sharding.innerShape[i]);
    const shard = coords.map((c, i) => Math.floor(c / per[i]));
    const inner = coords.map((c, i) => c % per[i]);
    return `read: inner chunk (${inner.join(", ")}) of shard ${za.chunkKey(shard)} of array ${array}`;
  }
  // Shards zarrita reads: the inner chunk by its place in the array's grid of them.
  if (za.sharded) return `read: inner chunk (${coords.join(", ")}) of array ${array}`;
  const key = za.chunkKey ? za.chunkKey(coords) : `[${coords.join(", ")}]`;
  return `read: chunk ${key} of array ${array}`;
}

/** The package's `error` with `where` in front of its message (other errors as they are). */
export function withWhere(error, where) {
  if (!(error instanceof ZarrCodecError) || error.message.startsWith(where)) return error;
  return new ZarrCodecError(error.code, `${where}: ${error.message.replace(/^read: /, "")}`, { cause: error.cause ?? error });
}
