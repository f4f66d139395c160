// The store the viewer reads: zarrita's FetchStore at the URL, each key
// fetched once (so that the per-chunk times are decoding alone), an N5
// container read as Zarr v3 through withN5, and withDataTypes over either,
// so that zarrita opens every data type. The page and the worker both open
// stores here.
import * as zarr from "zarrita";
import { withDataTypes, withN5 } from "zarr-codecs-wasm";

function cached(store) {
  const bytes = new Map();
  const once = (key, fetch) => {
    if (!bytes.has(key)) bytes.set(key, fetch());
    return bytes.get(key);
  };
  return {
    get: (key, options) => once(key, () => store.get(key, options)),
    // Sharded arrays read their parts by range.
    getRange: (key, range, options) => once(`${key} ${JSON.stringify(range)}`, () => store.getRange(key, range, options)),
  };
}

const decoder = new TextDecoder();
const json = (bytes) => JSON.parse(decoder.decode(bytes));

/**
 * Whether the store at `storeUrl` is an N5 container. A URL ending in .n5
 * (N5's naming convention) is one where its root has attributes.json,
 * without asking for a zarr.json first; any other is one where its root
 * has attributes.json and no zarr.json. Each key asked for and missing is
 * a 404 in the browser's console, so the common case asks for none.
 */
async function isN5(raw, storeUrl) {
  const hasAttributes = async () => (await raw.get("/attributes.json")) !== undefined;
  if (/\.n5\/?$/i.test(new URL(storeUrl).pathname) && (await hasAttributes())) return true;
  return (await raw.get("/zarr.json")) === undefined && (await hasAttributes());
}

/**
 * @param {string} storeUrl
 * @param {"auto" | "zarr" | "n5"} format auto: N5 where the root has
 *   attributes.json and no zarr.json (isN5)
 * @returns {Promise<{format: "zarr" | "n5", store: object, typed: object}>}
 *   store: the raw keys (N5's own under withN5's), typed: for zarrita
 */
export async function openStore(storeUrl, format = "auto") {
  const raw = cached(new zarr.FetchStore(storeUrl));
  const n5 = format === "n5" || (format === "auto" && (await isN5(raw, storeUrl)));
  return n5 ? { format: "n5", raw, typed: withDataTypes(withN5(raw)) } : { format: "zarr", raw, typed: withDataTypes(raw) };
}

/**
 * The array's metadata as stored: { version, doc } with doc a Zarr v3
 * zarr.json (for N5, the one withN5 makes of attributes.json, whose N5
 * attributes it keeps) or a v2 .zarray. `path` is "" or "/a/b".
 */
export async function storedMetadata({ format, raw }, path) {
  if (format === "n5") {
    const bytes = await raw.get(`${path}/attributes.json`);
    const attributes = bytes && json(bytes);
    if (!attributes?.dimensions || !attributes?.dataType) {
      throw new Error(`no N5 array at ${path || "/"} (${bytes ? "its attributes.json names no dimensions and dataType" : "no attributes.json"})`);
    }
    return { version: 3, doc: json(await withN5(raw).get(`${path}/zarr.json`)) };
  }
  const v3 = await raw.get(`${path}/zarr.json`);
  if (v3) return { version: 3, doc: json(v3) };
  const v2 = await raw.get(`${path}/.zarray`);
  if (v2) return { version: 2, doc: json(v2) };
  throw new Error(`no array at ${path || "/"} (neither zarr.json nor .zarray)`);
}
