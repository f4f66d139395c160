// How read names a chunk in its errors ("read: chunk c/0/1 of array /a:
// ..."), on the calling thread and in a pool's worker alike, so that a
// chunk's error reads the same wherever it was decoded.
import { arrayName, ZarrCodecError } from "../errors.js";

/** "read: chunk <key> of array <path>" (errors.js arrayName). */
export function chunkWhere(arr, za, coords) {
  const key = za.chunkKey ? za.chunkKey(coords) : `[${coords.join(", ")}]`;
  return `read: chunk ${key} of array ${arrayName(arr.path, arr.store)}`;
}

/** The package's `error` with `where` in front of its message (other errors as they are). */
export function withWhere(error, where) {
  if (!(error instanceof ZarrCodecError) || error.message.startsWith(where)) return error;
  return new ZarrCodecError(error.code, `${where}: ${error.message.replace(/^read: /, "")}`, { cause: error.cause ?? error });
}
