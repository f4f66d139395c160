// Which stored chunk a codec's input is, where a store said so. zarrita
// hands a codec the chunk's bytes alone (zarr.get: store.get(key), then
// codec.decode(bytes)), so a codec's error cannot name the chunk by
// itself. The package's store wrappers (withDataTypes, withN5) note the
// key of each chunk they return; the compressors name it in their errors.
// Noted in a WeakMap, by the bytes' identity: the store's bytes are not
// touched, and a note goes with them. One array of bytes a store returned
// under two keys names neither. A chunk is named by its key and where the
// store is ("/a/c/0/1 of https://example.com/data.zarr/").
import { storePlace } from "../errors.js";

const keys = new WeakMap(); // Uint8Array -> key, or AMBIGUOUS
const AMBIGUOUS = Symbol("returned under several keys");

/** Notes that `bytes` (what `store` returned) is the chunk at `key`. */
export function noteChunk(bytes, key, store) {
  if (!(bytes instanceof Uint8Array) || typeof key !== "string") return;
  const place = storePlace(store);
  const name = place === undefined ? key : `${key} of ${place}`;
  const had = keys.get(bytes);
  keys.set(bytes, had === undefined || had === name ? name : AMBIGUOUS);
}

/** The name of the chunk `bytes` is, where a store wrapper noted one. */
export function chunkKeyOf(bytes) {
  const key = bytes !== null && typeof bytes === "object" ? keys.get(bytes) : undefined;
  return typeof key === "string" ? key : undefined;
}
