// A path where the store has no node at all: no zarr.json, .zarray or
// .zgroup. zarrita says "Not found: v3 array or group" (naming no URL, and
// "v3" for a v2 store); withDataTypes says which path and URL it asked
// for, and that the path or URL is what to check (a typo, a store's root
// one folder off). It answers so only when every kind of metadata is
// missing there: a v2 array's zarr.json is missing too, and zarrita asks
// for it on its way to the .zarray, so a miss alone says nothing.
import { ZarrCodecError } from "../errors.js";

const NODE_FILES = ["zarr.json", ".zarray", ".zgroup"];

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

/**
 * Throws NOT_FOUND where the node `key` (".../zarr.json", ".zarray" or
 * ".zgroup", which the store just answered with nothing) has none of the
 * other documents either.
 */
export async function refuseMissingNode(store, key, opts) {
  const at = key.lastIndexOf("/");
  const folder = key.slice(0, at + 1);
  const file = key.slice(at + 1);
  const others = NODE_FILES.filter((f) => f !== file);
  // A store may answer at once (a Map) or fail (the network): a probe
  // that fails says nothing, and the miss stays zarrita's to report.
  const probes = others.map((f) => Promise.resolve().then(() => store.get(`${folder}${f}`, opts)).then((bytes) => bytes, () => "unknown"));
  const found = await Promise.all(probes);
  if (found.some((bytes) => bytes !== undefined && bytes !== null)) return;
  const path = folder.replace(/\/$/, "") || "/";
  const place = placeOf(store, folder || "/");
  throw new ZarrCodecError(
    "NOT_FOUND",
    `withDataTypes: no Zarr array or group at ${path}${place ? ` (${place})` : ""}: the store has no ${NODE_FILES.join(", ")} there; ` +
      "check the store's URL or folder and the path (the path is relative to the store's root, the folder that holds the root's zarr.json or .zgroup)",
  );
}
