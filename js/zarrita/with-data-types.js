// withDataTypes(store, { floats }): a store extension that makes zarrita
// open every fixed-size data type of the specs and the zarr-extensions
// registry, presenting each as a type zarrita knows (README, "Data
// types"). It rewrites array metadata on its way to zarrita
// (present-v3.js, present-v2.js, in consolidated metadata too) and maps
// chunk keys back where a trailing dimension was appended; the
// conversions themselves happen in the codecs (stored-type-codec.js), so
// it relies on register(zarr.registry). Shaped like zarrita 0.7's store
// extensions (a wrapper that overrides get and getRange and delegates the
// rest, carrying arrayExtensions), and built without zarrita so it works
// with 0.5 and 0.6 too.
import { describe, ZarrCodecError } from "../errors.js";
import { containerFor } from "../codecs/containers.js";
import { wasm } from "../wasm/load.js";
import { hasUnsafeIntegers, parseLossless } from "./lossless-json.js";
import { presentV2 } from "./present-v2.js";
import { presentV3 } from "./present-v3.js";
import { passesThrough } from "./presentation.js";

// How storedDataType finds a store's presented arrays, through any
// wrappers that delegate unknown properties (zarrita 0.7's extensions do).
const LOOKUP = Symbol.for("zarr-codecs-wasm.withDataTypes.lookup");
const V2_DTYPES = /^[<>|](c8|c16|f2|[Mm]8)/;
const METADATA_FILES = new Set(["zarr.json", ".zarray", ".zattrs", ".zgroup", ".zmetadata"]);

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const info = (name) => wasm().dataTypeInfo(name);

/** "/a/b/zarr.json" -> ["/a/b", "zarr.json"]; the root's path is "". */
function splitKey(key) {
  const at = key.lastIndexOf("/");
  return [key.slice(0, Math.max(at, 0)), key.slice(at + 1)];
}

const normalizePath = (path) => (path === "/" ? "" : path.replace(/\/$/, ""));

function parse(bytes) {
  try {
    const text = decoder.decode(bytes);
    return { text, doc: JSON.parse(text) };
  } catch {
    return undefined; // not JSON: zarrita reports it
  }
}

// The exact fill of a doc whose fill JSON.parse rounded (datetime64
// counts past 2^53): read again without rounding. `pick` finds the array
// in the parsed document. Where the text came through zarrita's
// consolidated metadata (`rounded`), zarrita has parsed and re-serialized
// it already, rounding such a number: it cannot be trusted, so the array
// is refused rather than filled with a wrong value.
function exactFill(text, doc, pick = (d) => d, rounded = false, path = "") {
  if (!hasUnsafeIntegers(pick(doc)?.fill_value)) return pick(doc);
  if (rounded) {
    throw new ZarrCodecError(
      "INVALID_METADATA",
      `withDataTypes: array ${path || "/"}: fill_value ${pick(doc).fill_value} lies beyond 2^53 and reached withDataTypes ` +
        "through zarrita's consolidated metadata, which rounds such numbers; compose " +
        "withConsolidatedMetadata(withDataTypes(store)) instead, so the metadata is read first by withDataTypes",
    );
  }
  return { ...pick(doc), fill_value: pick(parseLossless(text)).fill_value };
}

/** A chunk of `p`'s presented shape, each element the fill's parts. */
function filledChunk(p) {
  const size = p.chunkShape.reduce((a, b) => a * b, 1);
  const ArrayType = containerFor(p.presented);
  const data = new ArrayType(size);
  const parts = p.fillParts;
  for (let i = 0; i < size; i++) data[i] = parts[i % parts.length];
  const stride = p.chunkShape.map((_, i) => p.chunkShape.slice(i + 1).reduce((a, b) => a * b, 1));
  return { data, shape: p.chunkShape, stride };
}

/** A wrapper around `target` with `overrides`, delegating the rest with
 * `this` = target (zarrita's classes keep private fields). */
function delegate(target, overrides) {
  return new Proxy(target, {
    get(t, prop) {
      if (Object.prototype.hasOwnProperty.call(overrides, prop)) return overrides[prop];
      const value = Reflect.get(t, prop, t);
      return typeof value === "function" ? value.bind(t) : value;
    },
    has(t, prop) {
      return Object.prototype.hasOwnProperty.call(overrides, prop) || Reflect.has(t, prop);
    },
  });
}

/**
 * @param {{get: Function}} store
 * @param {{floats?: "float32" | "bits"}} [options]
 * @param {() => Promise<void>} ensureReady the entry's ready()
 */
export function withDataTypesUsing(store, options, ensureReady) {
  if (typeof store?.get !== "function") {
    throw new ZarrCodecError(
      "INVALID_INPUT",
      `withDataTypes: expected a store (an object with get(key)), got ${describe(store)}`,
    );
  }
  const floats = options?.floats ?? "float32";
  if (floats !== "float32" && floats !== "bits") {
    throw new ZarrCodecError(
      "INVALID_CONFIGURATION",
      `withDataTypes: floats must be "float32" or "bits", got ${describe(floats)}`,
    );
  }
  // zarrita's consolidated-metadata wrappers (0.5 to 0.7) answer metadata
  // from their own JSON round trip.
  const rounded = typeof store.contents === "function";
  // path -> Presented, or { refused } for an array of a consolidated
  // document whose metadata was refused.
  const arrays = new Map();
  // Bytes already fetched, for the request that comes next: a .zarray read
  // early for its .zattrs, a chunk the 0.7 array extension looked at.
  const fetched = new Map();

  async function inner(key, opts) {
    if (fetched.has(key)) {
      const bytes = fetched.get(key);
      fetched.delete(key);
      return bytes;
    }
    return store.get(key, opts);
  }

  // ---- metadata -------------------------------------------------------------

  async function presentArray(path, doc, present) {
    try {
      const result = present(path, doc, floats, info);
      if (result) arrays.set(path, result.presented);
      else arrays.delete(path);
      return result?.doc;
    } catch (error) {
      arrays.delete(path);
      throw error;
    }
  }

  async function zarrJson(key, opts) {
    const bytes = await inner(key, opts);
    const parsed = bytes && parse(bytes);
    if (!parsed) return bytes;
    const { text, doc } = parsed;
    const [path] = splitKey(key);
    if (doc?.node_type === "array") {
      if (passesThrough(doc.data_type)) {
        arrays.delete(path);
        return bytes;
      }
      await ensureReady();
      const out = await presentArray(path, exactFill(text, doc, undefined, rounded, path), presentV3);
      return out ? encoder.encode(JSON.stringify(out)) : bytes;
    }
    const entries = doc?.node_type === "group" && doc.consolidated_metadata?.metadata;
    if (!entries || typeof entries !== "object") return bytes;
    // Consolidated metadata: every array in it, each on its own.
    let changed = false;
    const metadata = {};
    for (const [name, entry] of Object.entries(entries)) {
      metadata[name] = entry;
      if (entry?.node_type !== "array" || passesThrough(entry.data_type)) continue;
      await ensureReady();
      const entryPath = `${path}/${name.replace(/^\//, "")}`;
      const exact = exactFill(text, doc, (d) => d.consolidated_metadata.metadata[name]);
      metadata[name] = await refusedAlone(entryPath, () => presentArray(entryPath, exact, presentV3), entry);
      changed = true;
    }
    if (!changed) return bytes;
    return encoder.encode(JSON.stringify({ ...doc, consolidated_metadata: { ...doc.consolidated_metadata, metadata } }));
  }

  // An array of a consolidated document: its refusal must not stop the
  // others from opening, so it is recorded and raised when the array is
  // opened (zarrita 0.7's array extension) or read.
  async function refusedAlone(path, present, original) {
    try {
      return (await present()) ?? original;
    } catch (error) {
      if (!(error instanceof ZarrCodecError)) throw error;
      arrays.set(path, { refused: error });
      // A stand-in zarrita opens; reading its one chunk raises the error.
      return original.dtype !== undefined
        ? { zarr_format: 2, dtype: "|u1", shape: [1], chunks: [1], order: "C", filters: null, compressor: null, fill_value: 0 }
        : {
            zarr_format: 3, node_type: "array", data_type: "uint8", shape: [1],
            chunk_grid: { name: "regular", configuration: { chunk_shape: [1] } },
            chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
            fill_value: 0, codecs: [{ name: "bytes" }], attributes: original.attributes ?? {},
          };
    }
  }

  async function zarray(key, opts) {
    const bytes = await inner(key, opts);
    const parsed = bytes && parse(bytes);
    const [path] = splitKey(key);
    if (!parsed) return bytes; // no v2 array here (zarrita tries both versions)
    if (!V2_DTYPES.test(parsed.doc?.dtype)) {
      arrays.delete(path);
      return bytes;
    }
    await ensureReady();
    const out = await presentArray(path, exactFill(parsed.text, parsed.doc, undefined, rounded, path), presentV2);
    return out ? encoder.encode(JSON.stringify(out)) : bytes;
  }

  // _ARRAY_DIMENSIONS (zarrita 0.7's dimension names of v2 arrays) gains a
  // null for the trailing dimension. zarrita reads .zattrs before .zarray,
  // so the .zarray is read here first, and kept for its own request.
  async function zattrs(key, opts) {
    const bytes = await inner(key, opts);
    const parsed = bytes && parse(bytes);
    if (!parsed || !Array.isArray(parsed.doc?._ARRAY_DIMENSIONS)) return bytes;
    const zarrayKey = key.replace(/\.zattrs$/, ".zarray");
    const arrayBytes = await inner(zarrayKey, opts);
    if (arrayBytes) fetched.set(zarrayKey, arrayBytes);
    const array = arrayBytes && parse(arrayBytes);
    if (!array || !V2_DTYPES.test(array.doc?.dtype)) return bytes;
    await ensureReady();
    const [path] = splitKey(key);
    const result = presentV2(path, exactFill(array.text, array.doc), floats);
    if (!result?.presented.trailing) return bytes;
    return encoder.encode(JSON.stringify(withNullDimension(parsed.doc)));
  }

  const withNullDimension = (attrs) => ({ ...attrs, _ARRAY_DIMENSIONS: [...attrs._ARRAY_DIMENSIONS, null] });

  // Consolidated v2 metadata (.zmetadata): each array's .zarray and .zattrs.
  async function zmetadata(key, opts) {
    const bytes = await inner(key, opts);
    const parsed = bytes && parse(bytes);
    const entries = parsed?.doc?.metadata;
    if (!entries || typeof entries !== "object") return bytes;
    const [root] = splitKey(key);
    const metadata = { ...entries };
    let changed = false;
    for (const [name, entry] of Object.entries(entries)) {
      if (!name.endsWith(".zarray") || !V2_DTYPES.test(entry?.dtype)) continue;
      await ensureReady();
      const path = `${root}/${name.slice(0, -".zarray".length).replace(/\/$/, "")}`.replace(/\/$/, "");
      const exact = exactFill(parsed.text, parsed.doc, (d) => d.metadata[name]);
      metadata[name] = await refusedAlone(path, () => presentArray(path, exact, presentV2), entry);
      const attrsName = name.replace(/\.zarray$/, ".zattrs");
      const attrs = entries[attrsName];
      if (arrays.get(path)?.trailing && Array.isArray(attrs?._ARRAY_DIMENSIONS)) {
        metadata[attrsName] = withNullDimension(attrs);
      }
      changed = true;
    }
    if (!changed) return bytes;
    return encoder.encode(JSON.stringify({ ...parsed.doc, metadata }));
  }

  // ---- chunks ---------------------------------------------------------------

  // The array a chunk key belongs to, and the key as stored: the trailing
  // dimension's coordinate (always 0) dropped.
  function locate(key) {
    if (arrays.size === 0) return undefined;
    // Every "/" from the right: "/a/b/c/0" tries "/a/b/c", "/a/b", "/a", ""
    // (the root), then stops.
    for (let end = key.lastIndexOf("/"); end >= 0; end = end > 0 ? key.lastIndexOf("/", end - 1) : -1) {
      const path = key.slice(0, end);
      const p = arrays.get(path);
      if (!p) continue;
      const rest = key.slice(end + 1);
      if (METADATA_FILES.has(rest)) return undefined;
      return { p, path, storedKey: p.trailing ? storedChunkKey(p, path, rest) ?? key : key };
    }
    return undefined;
  }

  function storedChunkKey(p, path, rest) {
    const { name, separator } = p.encoding;
    let coords;
    if (name === "default") {
      if (rest !== "c" && !rest.startsWith(`c${separator}`)) return undefined;
      coords = rest === "c" ? [] : rest.slice(2).split(separator);
    } else {
      coords = rest.split(separator);
    }
    if (coords.length !== p.rank || coords[coords.length - 1] !== "0") return undefined;
    coords.pop();
    const stored = name === "default" ? ["c", ...coords].join(separator) : coords.join(separator) || "0";
    return `${path}/${stored}`;
  }

  function presentedChunkKey(p, path, coords) {
    const { name, separator } = p.encoding;
    const rest = name === "default" ? ["c", ...coords].join(separator) : coords.join(separator) || "0";
    return `${path}/${rest}`;
  }

  function missing(p, path, key) {
    return new ZarrCodecError(
      "UNFILLABLE_CHUNK",
      `withDataTypes: chunk ${key} of array ${path || "/"} is missing, so it reads as the fill value ` +
        `${JSON.stringify(p.fillParts.map((v) => (Number.isNaN(v) ? "NaN" : v)))} (one element along the trailing dimension); ` +
        "this zarrita fills a missing chunk with one number, which would read a wrong value, so the read is refused " +
        "(zarrita >= 0.7 fills it, through withDataTypes' array extension)",
    );
  }

  async function get(key, opts) {
    const [, file] = splitKey(key);
    if (file === "zarr.json") return zarrJson(key, opts);
    if (file === ".zarray") return zarray(key, opts);
    if (file === ".zattrs") return zattrs(key, opts);
    if (file === ".zmetadata") return zmetadata(key, opts);
    const at = locate(key);
    if (!at) return inner(key, opts);
    if (at.p.refused) throw at.p.refused;
    if (fetched.has(key)) return inner(key, opts);
    const bytes = await store.get(at.storedKey, opts);
    if (bytes === undefined && at.p.fillParts) throw missing(at.p, at.path, at.storedKey);
    return bytes;
  }

  async function getRange(key, range, opts) {
    const at = locate(key);
    if (at?.p.refused) throw at.p.refused;
    return store.getRange(at ? at.storedKey : key, range, opts);
  }

  async function set(key, value) {
    const at = locate(key);
    if (at?.p.refused) throw at.p.refused;
    return store.set(at ? at.storedKey : key, value);
  }

  // ---- zarrita 0.7: an array extension, applied by zarr.open ------------------

  function lookup(path) {
    return arrays.get(normalizePath(String(path ?? "")));
  }

  function arrayExtension(array) {
    const path = normalizePath(array.path);
    const p = arrays.get(path);
    if (p?.refused) throw p.refused;
    if (!p?.fillParts) return array;
    // The fill zarrita cannot express: a missing chunk is filled here.
    return delegate(array, {
      async getChunk(coords, options, opts) {
        const key = presentedChunkKey(p, path, coords);
        const at = locate(key);
        const bytes = await store.get(at.storedKey, options);
        if (bytes === undefined) return filledChunk(p);
        fetched.set(key, bytes);
        return array.getChunk(coords, options, opts);
      },
    });
  }

  const overrides = {
    get,
    [LOOKUP]: lookup,
    arrayExtensions: [...(Array.isArray(store.arrayExtensions) ? store.arrayExtensions : []), arrayExtension],
  };
  if (typeof store.getRange === "function") overrides.getRange = getRange;
  if (typeof store.set === "function") overrides.set = set;
  return delegate(store, overrides);
}

/**
 * The data type an array opened through withDataTypes has in its metadata
 * (a v3 name or object form; for v2 the dtype string, e.g. "<c8"), or
 * undefined where nothing was presented.
 * @param {{store?: object, path?: string}} array
 */
export function storedDataType(array) {
  const lookup = array?.store?.[LOOKUP];
  return typeof lookup === "function" ? lookup(array.path)?.stored : undefined;
}
