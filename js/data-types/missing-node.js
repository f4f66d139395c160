// A path where the store has no node at all: no zarr.json, .zarray or
// .zgroup (nor an N5 attributes.json, which withN5 reads). zarrita says
// "Not found: v3 array or group" (naming no URL, and "v3" for a v2 store);
// withDataTypes says which path and URL it asked for, and that the path or
// URL is what to check (a typo, a store's root one folder off).
//
// A miss alone says nothing: zarrita asks for a v3 array's .zarray (and a
// v2 array's zarr.json) on its way to the document that is there. So the
// misses zarrita meets are noted per path, and only when a second kind of
// document is missing too are the kinds zarrita has not asked for yet
// looked up (one request, on the path that fails anyway); where none is
// there, the error is the package's. A hit forgets the path's misses.
import { ZarrCodecError } from "../errors.js";

const NODE_FILES = ["zarr.json", ".zarray", ".zgroup"];
// What else makes a node, for a store that other extensions read (withN5).
const OTHER_NODE_FILES = ["attributes.json"];
// Paths whose misses are kept, at most (a bound against a store probed at
// many paths).
const MAX_PATHS = 1024;

/** Whether `file` is one of the documents that make a node. */
export function isNodeFile(file) {
  return NODE_FILES.includes(file);
}

/** Where `key` is, as the store would fetch it: its URL where the store has one. */
function placeOf(store, key) {
  let base;
  try {
    base = store.url ?? store.root;
  } catch {
    base = undefined;
  }
  if (base instanceof URL || (typeof base === "string" && /^[a-z][a-z0-9+.-]*:/i.test(base))) {
    try {
      const root = String(base).endsWith("/") ? String(base) : `${base}/`;
      return new URL(key.replace(/^\//, ""), root).href;
    } catch {
      // shown as the key alone
    }
  }
  return typeof base === "string" && base ? `${base.replace(/\/$/, "")}${key.startsWith("/") ? "" : "/"}${key}` : undefined;
}

function split(key) {
  const at = key.lastIndexOf("/");
  return [key.slice(0, at + 1), key.slice(at + 1)];
}

/**
 * The misses of one store's node documents. `found(key)` after a node
 * document was there; `missing(key, opts)` after it was not: throws
 * NOT_FOUND where the path has no node at all.
 * @param {{get: Function}} store the store withDataTypes wraps
 */
export function nodeMisses(store) {
  const misses = new Map(); // folder -> Set of files zarrita asked for in vain

  return {
    found(key) {
      misses.delete(split(key)[0]);
    },

    async missing(key, opts) {
      const [folder, file] = split(key);
      let seen = misses.get(folder);
      if (!seen) {
        if (misses.size >= MAX_PATHS) misses.clear();
        seen = new Set();
        misses.set(folder, seen);
      }
      seen.add(file);
      if (seen.size < 2) return;
      // A store may answer at once (a Map) or fail (the network): a lookup
      // that fails says nothing, and the miss stays zarrita's to report.
      const others = [...NODE_FILES.filter((f) => !seen.has(f)), ...OTHER_NODE_FILES];
      const found = await Promise.all(
        others.map((f) => Promise.resolve().then(() => store.get(`${folder}${f}`, opts)).then((bytes) => bytes, () => "unknown")),
      );
      if (found.some((bytes) => bytes !== undefined && bytes !== null)) return;
      misses.delete(folder);
      const path = folder.replace(/\/$/, "") || "/";
      const place = placeOf(store, folder || "/");
      throw new ZarrCodecError(
        "NOT_FOUND",
        `withDataTypes: no Zarr array or group at ${path}${place ? ` (${place})` : ""}: the store has no ${NODE_FILES.join(", ")} there; ` +
          "check the store's URL or folder and the path (the path is relative to the store's root, the folder that holds the root's zarr.json or .zgroup)",
      );
    },
  };
}
