// The codecs a chunk of an array goes through, as read decodes it, from
// the array's metadata as its store gives it (so withDataTypes' and
// withN5's presentations included): the axis order its bytes are stored in
// (a transpose), the array -> bytes codec, and the bytes -> bytes codecs
// after it. zarrita keeps its own copy of the metadata private, so read
// asks the store again, once per array (read.js caches the plan).
//
// A chain read cannot decode itself (an array -> array codec other than
// transpose, nested sharding, a variable-length type) is returned as
// { unsupported: why }: such arrays are read through zarrita's getChunk.
import { isPlainObject } from "../errors.js";
import { STORED_CODEC } from "../data-types/stored-codec.js";

const decoder = new TextDecoder();
const ARRAY_TO_BYTES = new Set(["bytes", "endian", "packbits", "n5_default", STORED_CODEC]);

/**
 * @typedef {object} Chain
 * @property {number[] | null} order  stored axis j is logical axis order[j]
 *   (null: C order)
 * @property {{name: string, configuration: unknown}} arrayToBytes
 * @property {{names: string[], configuration: unknown}[]} bytesToBytes
 *   each codec's registry names, first first (a Zarr v2 compressor is
 *   `numcodecs.<id>` in zarrita 0.7's registry, `<id>` in 0.5's)
 * @property {string} dataType  the data type the metadata names
 * @property {number[]} chunkShape the chunks the chain decodes (a sharded
 *   array's inner chunks)
 * @property {unknown} fillValue   the metadata's
 */

function metadataKey(path, file) {
  return path === "/" || path === "" ? `/${file}` : `${path.replace(/\/$/, "")}/${file}`;
}

async function document(store, key, signal) {
  const bytes = await store.get(key, signal ? { signal } : undefined);
  if (!(bytes instanceof Uint8Array)) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
}

function permutation(order, rank) {
  if (order === "C") return null;
  if (order === "F") return Array.from({ length: rank }, (_, i) => rank - 1 - i);
  const ok =
    Array.isArray(order) &&
    order.length === rank &&
    order.every((v) => Number.isInteger(v) && v >= 0 && v < rank) &&
    new Set(order).size === rank;
  if (!ok) return undefined;
  return order.every((v, i) => v === i) ? null : order;
}

function v3Chain(doc, rank) {
  let codecs = doc.codecs;
  let chunkShape = doc.chunk_grid?.configuration?.chunk_shape;
  const sharding = Array.isArray(codecs) ? codecs.find((c) => c?.name === "sharding_indexed") : undefined;
  if (sharding) {
    // zarrita reads a sharded array's inner chunks with the sharding
    // codec's chain alone; other codecs beside it are left to zarrita.
    if (codecs.length !== 1) return { unsupported: "codecs beside sharding_indexed" };
    codecs = sharding.configuration?.codecs;
    chunkShape = sharding.configuration?.chunk_shape;
  }
  if (!Array.isArray(codecs)) return { unsupported: "no codecs" };
  let order = null;
  let at = 0;
  for (; at < codecs.length; at++) {
    const name = codecs[at]?.name;
    if (ARRAY_TO_BYTES.has(name)) break;
    if (name !== "transpose" || order !== null) return { unsupported: `the codec ${JSON.stringify(String(name))} before the array -> bytes codec` };
    order = permutation(codecs[at].configuration?.order, rank);
    if (order === undefined) return { unsupported: "a transpose order read does not know" };
  }
  if (at === codecs.length) return { unsupported: "no array -> bytes codec read decodes" };
  const arrayToBytes = { name: codecs[at].name, configuration: codecs[at].configuration };
  const bytesToBytes = codecs.slice(at + 1).map((c) => ({ names: [String(c?.name)], configuration: c?.configuration }));
  return { order, arrayToBytes, bytesToBytes, dataType: doc.data_type, chunkShape, fillValue: doc.fill_value };
}

// Zarr v2: zarrita builds the chain from dtype, order, filters and
// compressor; read knows the ones it can decode itself.
function v2Chain(zarray, rank) {
  const order = zarray.order === "F" ? permutation("F", rank) : null;
  if (zarray.filters !== null && zarray.filters !== undefined && !Array.isArray(zarray.filters)) return { unsupported: "Zarr v2 filters that are no list" };
  const compressor = zarray.compressor ?? null;
  if (compressor !== null && !(isPlainObject(compressor) && typeof compressor.id === "string")) {
    return { unsupported: "a Zarr v2 compressor that is no codec" };
  }
  const filters = zarray.filters ?? [];
  let arrayToBytes;
  if (filters.length === 1 && filters[0]?.id === STORED_CODEC) {
    const { id, ...configuration } = filters[0];
    arrayToBytes = { name: STORED_CODEC, configuration };
  } else if (filters.length > 0) {
    return { unsupported: "Zarr v2 filters" };
  } else if (typeof zarray.dtype === "string" && zarray.dtype.startsWith(">") && !/^>([iub]1|[SV]\d+)$/.test(zarray.dtype)) {
    arrayToBytes = { name: "bytes", configuration: { endian: "big" } };
  } else {
    arrayToBytes = { name: "bytes", configuration: { endian: "little" } };
  }
  const bytesToBytes = [];
  if (compressor) {
    const { id, ...configuration } = compressor;
    bytesToBytes.push({ names: [`numcodecs.${id}`, id], configuration });
  }
  return { order, arrayToBytes, bytesToBytes, dataType: zarray.dtype, chunkShape: zarray.chunks, fillValue: zarray.fill_value, v2: true };
}

/**
 * @param {{store: {get: Function}, path: string}} arr
 * @param {number} rank
 * @param {boolean} v2First  try .zarray before zarr.json (the array's
 *   chunk keys have no "c" prefix)
 * @returns {Promise<Chain | {unsupported: string}>}
 */
export async function codecChain(arr, rank, v2First, signal) {
  const store = arr.store;
  if (typeof store?.get !== "function") return { unsupported: "a store without get" };
  const path = String(arr.path ?? "/");
  const tries = v2First ? [".zarray", "zarr.json"] : ["zarr.json", ".zarray"];
  for (const file of tries) {
    const doc = await document(store, metadataKey(path, file), signal);
    if (!isPlainObject(doc)) continue;
    if (file === "zarr.json" && doc.node_type === "array") return v3Chain(doc, rank);
    if (file === ".zarray" && Array.isArray(doc.shape)) return v2Chain(doc, rank);
  }
  return { unsupported: "no array metadata found again" };
}
