// withDataTypes(store, { floats }): a store extension that makes zarrita
// open every fixed-size data type of the specs and the zarr-extensions
// registry, presenting each as a type zarrita knows (docs/data-types.md).
//
// It answers metadata keys with presented metadata (present-v3.js,
// present-v2.js; in consolidated documents too), maps chunk keys of arrays
// with a trailing dimension back to the stored ones (chunk-keys.js), and
// passes every other key through. On zarrita 0.7 its array extension reads
// missing chunks as the fill (array-extension.js); without one (0.5, 0.6)
// it refuses reads where zarrita would fill a missing chunk or inner chunk
// wrongly (shard-index.js). What it learns of
// an array lives in one ArrayCatalog (catalog.js); the conversions happen
// in the codecs (stored-codec.js), so it relies on register(zarr.registry).
// Shaped like zarrita 0.7's store extensions (a wrapper that overrides get,
// getRange and set and delegates the rest, carrying arrayExtensions), and
// built without zarrita so it works with 0.5 and 0.6 too.
import { arrayName, describe, hasOwn, isPlainObject, ZarrCodecError } from "../errors.js";
import { hasUnsafeIntegers, parseLossless } from "../json/lossless.js";
import { stringify } from "../json/stringify.js";
import { FILLS_MISSING, fillMissingChunks } from "./array-extension.js";
import { ArrayCatalog } from "./catalog.js";
import { storedChunkKey } from "./chunk-keys.js";
import { presentsV2, presentV2 } from "./present-v2.js";
import { presentV3 } from "./present-v3.js";
import { passesThrough } from "./presentation.js";
import { checkShardIndex, isIndexRequest, unfillable } from "./shard-index.js";
import { delegate } from "./delegate.js";
import { noteChunk } from "../codecs/chunk-origin.js";
import { isNodeFile, nodeMisses } from "./missing-node.js";
import { checksNativeFill, presentNative } from "./present-native.js";

// How storedDataType and structFields find a store's catalog, through any
// wrappers that delegate unknown properties (zarrita 0.7's extensions do).
export const CATALOG = Symbol.for("zarr-codecs-wasm.withDataTypes.catalog");

// The presenter of an array zarrita reads as it is: nothing to present
// (present() still checks its fill).
const readsItself = () => null;

const decoder = new TextDecoder();
const encoder = new TextEncoder();

// A range of a shard, as messages name an inner chunk by it.
function rangeText(range) {
  if (Number.isSafeInteger(range?.suffixLength)) return `(its last ${range.suffixLength} bytes)`;
  if (Number.isSafeInteger(range?.offset) && Number.isSafeInteger(range?.length)) return `(bytes ${range.offset}..${range.offset + range.length - 1})`;
  return "(a range of it)";
}

/** "/a/b/zarr.json" -> ["/a/b", "zarr.json"]; the root's path is "". */
function splitKey(key) {
  const at = key.lastIndexOf("/");
  return [key.slice(0, Math.max(at, 0)), key.slice(at + 1)];
}

function parse(bytes) {
  try {
    const text = decoder.decode(bytes);
    return { text, doc: JSON.parse(text) };
  } catch {
    return undefined; // not JSON: zarrita reports it
  }
}

// The exact fill of a document whose fill JSON.parse rounded (int64 counts
// past 2^53): read again without rounding. `pick` finds the array in the
// parsed document. Text that zarrita's consolidated layer re-serialized
// (`rounded`) was rounded before it came here: its numbers stay as they
// are, for the fill's checks to refuse.
function exactFill(text, doc, pick = (d) => d, rounded = false) {
  const array = pick(doc);
  if (rounded || !hasUnsafeIntegers(array?.fill_value)) return array;
  return { ...array, fill_value: pick(parseLossless(text)).fill_value };
}

/**
 * How a v3 array's shards hold their index (sharding_indexed: at the start
 * or the end, 16 bytes per inner chunk, 4 more for a crc32c), where its
 * index codecs are the usual bytes and crc32c; undefined otherwise.
 */
function shardIndexLayout(doc) {
  const sharding = Array.isArray(doc.codecs) ? doc.codecs.find((c) => isPlainObject(c) && c.name === "sharding_indexed") : undefined;
  const c = sharding?.configuration;
  const outer = doc.chunk_grid?.configuration?.chunk_shape;
  if (!isPlainObject(c) || !Array.isArray(c.chunk_shape) || !Array.isArray(outer) || outer.length !== c.chunk_shape.length) return undefined;
  const entries = outer.reduce((n, d, i) => n * Math.ceil(d / c.chunk_shape[i]), 1);
  const codecs = Array.isArray(c.index_codecs) ? c.index_codecs : [{ name: "bytes" }];
  const names = codecs.map((x) => (isPlainObject(x) ? x.name : undefined));
  if (!Number.isSafeInteger(entries) || names[0] !== "bytes" || names.length > 2 || (names.length === 2 && names[1] !== "crc32c")) return undefined;
  return { atStart: c.index_location === "start", bytes: 16 * entries + (names.length === 2 ? 4 : 0) };
}

// What the catalog keeps of an array zarrita reads itself, where its fill
// is one zarrita cannot fill with (a NaN's payload): as a presented
// array's record, so that missing chunks are filled (array-extension.js)
// or refused (0.5, 0.6) as they are for presented types.
function nativeRecord(doc, { fill, dataType }) {
  if (fill.beyondZarrita === undefined) return { fillElement: fill.element };
  return {
    stored: doc.dtype ?? doc.data_type,
    dataType,
    native: true,
    presented: dataType.info.name,
    trailing: 0,
    fillElement: fill.element,
    fillBeyondZarrita: fill.beyondZarrita,
  };
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
  // from their own JSON round trip, which rounds numbers past 2^53.
  const rounded = typeof store.contents === "function";
  const wrapper = {};
  const catalog = new ArrayCatalog(wrapper);
  const presenting = { floats, rounded, ticket: (conversion, where) => catalog.ticket(conversion, where) };

  // One array's metadata: presented (recorded in the catalog), or where
  // zarrita reads the type as it is, its fill read all the same (the
  // metadata rewritten where zarrita would parse the fill into another
  // value: present-native.js); null where nothing changes.
  function present(path, doc, presenter) {
    const v2 = doc.dtype !== undefined || Array.isArray(doc.chunks);
    catalog.setFormat(path, v2 ? 2 : 3);
    catalog.setShardIndex(path, v2 ? undefined : shardIndexLayout(doc));
    try {
      // Messages name the array; the root by the store's URL or folder.
      const name = arrayName(path, store);
      const result = presenter(name, doc, presenting);
      if (result) {
        catalog.set(path, result.presented);
        return result.doc;
      }
      const native = presentNative(name, doc, presenting);
      catalog.setNative(path, doc.dtype ?? doc.data_type, native && nativeRecord(doc, native));
      return native && native.doc !== doc ? native.doc : null;
    } catch (error) {
      catalog.forget(path);
      throw error;
    }
  }

  // An array of a consolidated document: its refusal must not stop the
  // others from opening, so it is recorded and raised when the array is
  // opened (zarrita 0.7's array extension) or read; zarrita opens a
  // one-chunk stand-in.
  function presentAlone(path, doc, presenter, original) {
    try {
      return present(path, doc, presenter) ?? original;
    } catch (error) {
      if (!(error instanceof ZarrCodecError)) throw error;
      catalog.refuse(path, error);
      return original.dtype !== undefined
        ? { zarr_format: 2, dtype: "|u1", shape: [1], chunks: [1], order: "C", filters: null, compressor: null, fill_value: 0 }
        : {
            zarr_format: 3, node_type: "array", data_type: "uint8", shape: [1],
            chunk_grid: { name: "regular", configuration: { chunk_shape: [1] } },
            chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
            fill_value: 0, codecs: [{ name: "bytes" }],
            attributes: isPlainObject(original.attributes) ? original.attributes : {},
          };
    }
  }

  const bytesOf = (doc) => encoder.encode(stringify(doc));
  // A path with no node at all is the package's NOT_FOUND (missing-node.js).
  const nodes = nodeMisses(store);

  // ---- metadata -------------------------------------------------------------

  async function zarrJson(key, opts) {
    const bytes = await store.get(key, opts);
    const parsed = bytes && parse(bytes);
    if (!parsed) return bytes;
    const { text, doc } = parsed;
    const [path] = splitKey(key);
    if (doc?.node_type === "array") {
      const native = passesThrough(doc.data_type);
      // The core's type table checks fills, of native types too.
      if (!native || checksNativeFill(doc)) await ensureReady();
      const out = present(path, exactFill(text, doc, undefined, rounded), native ? readsItself : presentV3);
      return out ? bytesOf(out) : bytes;
    }
    const entries = doc?.node_type === "group" && doc.consolidated_metadata?.metadata;
    if (!isPlainObject(entries)) return bytes;
    // Consolidated metadata: every array in it, each on its own.
    let changed = false;
    const metadata = [];
    for (const [name, entry] of Object.entries(entries)) {
      if (entry?.node_type !== "array") {
        metadata.push([name, entry]);
        continue;
      }
      const native = passesThrough(entry.data_type);
      if (!native || checksNativeFill(entry)) await ensureReady();
      const entryPath = `${path}/${name.replace(/^\//, "")}`;
      const exact = exactFill(text, doc, (d) => d.consolidated_metadata.metadata[name], rounded);
      const out = presentAlone(entryPath, exact, native ? readsItself : presentV3, entry);
      metadata.push([name, out]);
      if (out !== entry) changed = true;
    }
    if (!changed) return bytes;
    // fromEntries keeps a member named "__proto__" a member.
    return bytesOf({ ...doc, consolidated_metadata: { ...doc.consolidated_metadata, metadata: Object.fromEntries(metadata) } });
  }

  async function zarray(key, opts) {
    const bytes = await store.get(key, opts);
    const parsed = bytes && parse(bytes);
    const [path] = splitKey(key);
    if (!parsed) return bytes; // no v2 array here (zarrita tries both versions)
    if (!isPlainObject(parsed.doc)) {
      catalog.forget(path);
      return bytes; // zarrita reports it
    }
    const presents = presentsV2(parsed.doc.dtype, parsed.doc.filters);
    if (presents || checksNativeFill(parsed.doc)) await ensureReady();
    const out = present(path, exactFill(parsed.text, parsed.doc, undefined, rounded), presents ? presentV2 : readsItself);
    return out ? bytesOf(out) : bytes;
  }

  const withNullDimension = (attrs) => ({ ...attrs, _ARRAY_DIMENSIONS: [...attrs._ARRAY_DIMENSIONS, null] });

  // _ARRAY_DIMENSIONS (zarrita 0.7's dimension names of v2 arrays) gains a
  // null for the trailing dimension. zarrita reads .zattrs before .zarray,
  // so the .zarray is read here too (and again by zarrita: nothing is kept
  // between requests).
  async function zattrs(key, opts) {
    const bytes = await store.get(key, opts);
    const parsed = bytes && parse(bytes);
    if (!parsed || !Array.isArray(parsed.doc?._ARRAY_DIMENSIONS)) return bytes;
    const arrayBytes = await store.get(key.replace(/\.zattrs$/, ".zarray"), opts);
    const array = arrayBytes && parse(arrayBytes);
    if (!array || !presentsV2(array.doc?.dtype, array.doc?.filters)) return bytes;
    await ensureReady();
    const [path] = splitKey(key);
    let result;
    try {
      result = presentV2(arrayName(path, store), exactFill(array.text, array.doc, undefined, rounded), presenting);
    } catch (error) {
      if (error instanceof ZarrCodecError) return bytes; // refused when the .zarray is read
      throw error;
    }
    return result?.presented.trailing ? bytesOf(withNullDimension(parsed.doc)) : bytes;
  }

  // Consolidated v2 metadata (.zmetadata): each array's .zarray and .zattrs.
  async function zmetadata(key, opts) {
    const bytes = await store.get(key, opts);
    const parsed = bytes && parse(bytes);
    const entries = parsed?.doc?.metadata;
    if (!isPlainObject(entries)) return bytes;
    const [root] = splitKey(key);
    const metadata = new Map(Object.entries(entries));
    let changed = false;
    for (const [name, entry] of Object.entries(entries)) {
      if (!name.endsWith(".zarray") || !isPlainObject(entry)) continue;
      const presents = presentsV2(entry.dtype, entry.filters);
      if (presents || checksNativeFill(entry)) await ensureReady();
      const path = `${root}/${name.slice(0, -".zarray".length).replace(/\/$/, "")}`.replace(/\/$/, "");
      const exact = exactFill(parsed.text, parsed.doc, (d) => d.metadata[name], rounded);
      const out = presentAlone(path, exact, presents ? presentV2 : readsItself, entry);
      if (out === entry) continue;
      metadata.set(name, out);
      const attrsName = name.replace(/\.zarray$/, ".zattrs");
      const attrs = hasOwn(entries, attrsName) ? entries[attrsName] : undefined;
      if (catalog.get(path)?.trailing && Array.isArray(attrs?._ARRAY_DIMENSIONS)) {
        metadata.set(attrsName, withNullDimension(attrs));
      }
      changed = true;
    }
    if (!changed) return bytes;
    return bytesOf({ ...parsed.doc, metadata: Object.fromEntries(metadata) });
  }

  // ---- chunks ---------------------------------------------------------------

  // The presented array `key` is a chunk of, and the key as stored.
  function locate(key) {
    const at = catalog.locate(key);
    if (!at) return undefined;
    if (at.p.refused) throw at.p.refused;
    const storedKey = at.p.trailing ? storedChunkKey(at.p, at.path, at.rest) ?? key : key;
    return { ...at, storedKey };
  }

  // Requests of the array extension carry FILLS_MISSING: it fills what is
  // missing, so nothing is refused; the mark goes no further.
  const filling = (opts) => opts !== null && typeof opts === "object" && hasOwn(opts, FILLS_MISSING);
  function unmarked(opts) {
    const { [FILLS_MISSING]: _, ...rest } = opts;
    return rest;
  }

  function missing(p, path, key) {
    if (p.objectFill) return unfillable(`chunk ${key}`, arrayName(path, store), "is missing", p.objectFill.shown, p.objectFill.why);
    return unfillable(
      `chunk ${key}`,
      arrayName(path, store),
      "is missing",
      p.fillBeyondZarrita,
      "this zarrita fills a missing chunk with one number, which would read a wrong value, so the read is refused " +
        "(zarrita >= 0.7 fills it, through withDataTypes' array extension)",
    );
  }

  async function get(key, opts) {
    const [, file] = splitKey(key);
    const bytes = await answer(key, file, opts);
    if (isNodeFile(file)) {
      if (bytes === undefined || bytes === null) await nodes.missing(key, opts);
      else nodes.found(key);
    } else {
      // A chunk: the codecs name it in their errors (zarr.get gives them its bytes alone).
      if (bytes instanceof Uint8Array) noteChunk(bytes, locate(key)?.storedKey ?? key, store);
    }
    return bytes;
  }

  // An array's document as zarrita gets it, kept for read (codec-chain.js).
  async function arrayDocument(key, file, opts) {
    const bytes = await (file === "zarr.json" ? zarrJson(key, opts) : zarray(key, opts));
    const [path] = splitKey(key);
    if (bytes instanceof Uint8Array && catalog.getFormat(path) === (file === "zarr.json" ? 3 : 2)) catalog.setDocument(path, file, bytes);
    return bytes;
  }

  async function answer(key, file, opts) {
    if (file === "zarr.json" || file === ".zarray") return arrayDocument(key, file, opts);
    if (file === ".zattrs") return zattrs(key, opts);
    if (file === ".zmetadata") return zmetadata(key, opts);
    const fills = filling(opts);
    const at = locate(key);
    if (!at) return store.get(key, fills ? unmarked(opts) : opts);
    const bytes = await store.get(at.storedKey, fills ? unmarked(opts) : opts);
    if (bytes === undefined && (at.p.fillBeyondZarrita !== undefined || at.p.objectFill) && !at.p.shardIndex && !fills) throw missing(at.p, at.path, at.storedKey);
    return bytes;
  }

  async function getRange(key, requested, opts) {
    const fills = filling(opts);
    const at = locate(key);
    // zarrita (0.5 to 0.7.5) reads a shard's index from its end, always,
    // and 0.5 and 0.6 take 4 bytes of crc32c more than an index without
    // one has: the index is read where, and as long as, the metadata says.
    const layout = requested?.suffixLength !== undefined ? catalog.shardIndexOf(key) : undefined;
    const range = !layout ? requested : layout.atStart ? { offset: 0, length: layout.bytes } : { suffixLength: layout.bytes };
    const index = fills ? undefined : at?.p.shardIndex;
    if (index?.refused) throw index.refused;
    const bytes = await store.getRange(at ? at.storedKey : key, range, fills ? unmarked(opts) : opts);
    if (index && isIndexRequest(index, range)) {
      checkShardIndex(index, bytes, at.storedKey, arrayName(at.path, store), at.p.objectFill?.shown ?? at.p.fillBeyondZarrita, Boolean(at.p.objectFill));
    }
    noteChunk(bytes, `${at ? at.storedKey : key} ${rangeText(range)}`, store);
    return bytes;
  }

  async function set(key, value) {
    const at = locate(key);
    return store.set(at ? at.storedKey : key, value);
  }

  const overrides = {
    get,
    [CATALOG]: catalog,
    arrayExtensions: [
      ...(Array.isArray(store.arrayExtensions) ? store.arrayExtensions : []),
      (array) => fillMissingChunks(array, catalog),
    ],
  };
  if (typeof store.getRange === "function") overrides.getRange = getRange;
  if (typeof store.set === "function") overrides.set = set;
  return delegate(store, Object.assign(wrapper, overrides));
}

/**
 * The data type an array opened through withDataTypes has in its metadata
 * (a v3 name or object form; for v2 the dtype string, e.g. "<c8"), whether
 * it was presented or zarrita reads it as it is; undefined for an array
 * whose metadata withDataTypes did not read.
 * @param {{store?: object, path?: string}} array
 */
export function storedDataType(array) {
  return presentedOf(array)?.stored ?? catalogOf(array)?.getNative(array.path);
}

/**
 * Whether withDataTypes presented the array to zarrita as another type
 * (int4 as int8, a struct as bytes, ...): its values are then the presented
 * type's, converted by the package's codecs.
 * @param {{store?: object, path?: string}} array
 */
export function isPresented(array) {
  const p = presentedOf(array);
  // A native type in object form ({ "name": "int16" }) is only renamed.
  return p !== undefined && p.presented !== p.dataType.name;
}

function catalogOf(array) {
  const catalog = array?.store?.[CATALOG];
  return catalog instanceof ArrayCatalog ? catalog : undefined;
}

/**
 * The fill withDataTypes read for an array zarrita reads itself
 * (`{ fillElement }`: its element's bytes), where it read the metadata.
 */
export function nativeFillOf(array) {
  return catalogOf(array)?.getNativeFill(array.path);
}

/**
 * The Zarr format (2 or 3) of the metadata withDataTypes last read for an
 * array (the document zarrita opened), or undefined.
 */
export function formatOf(array) {
  return catalogOf(array)?.getFormat(array.path);
}

/**
 * The array document withDataTypes last gave zarrita for an array
 * (`{ file, bytes }`: "zarr.json" or ".zarray"), or undefined.
 */
export function openedDocumentOf(array) {
  return catalogOf(array)?.getDocument(array.path);
}

/** What withDataTypes recorded of an array it presented, or undefined. */
export function presentedOf(array) {
  const p = catalogOf(array)?.get(array.path);
  return p && !p.refused ? p : undefined;
}
