// A Zarr v3 array's metadata as withDataTypes presents it to zarrita: the
// presented data type, the trailing dimension appended everywhere zarrita
// reads a shape (shape, chunk shape, sharding's inner chunks, transpose
// orders, dimension_names), the fill value converted, the default chunk
// key encoding spelt out, and the array -> bytes codec replaced by the
// stored codec (with a ticket) where the stored bytes need converting.
// Refusals are the package's errors, for this array alone.
import { describe, hasOwn, invalidMetadata, isPlainObject, prefix, ZarrCodecError } from "../errors.js";
import { parseDataType } from "../types/data-type.js";
import { presentFill } from "./fill-value.js";
import { presentationOf } from "./presentation.js";
import { checkShape, withTrailing } from "./shapes.js";
import { shardIndexOf } from "./shard-index.js";
import { codecFor, isStoredCodecName, STORED_CODEC } from "./stored-codec.js";

function transposeOrder(where, order, rank, trailing) {
  const ok =
    Array.isArray(order) &&
    order.length === rank &&
    order.every((v) => Number.isInteger(v)) &&
    [...order].sort((a, b) => a - b).every((v, i) => v === i);
  if (!ok) throw invalidMetadata(where, `transpose order must be a permutation of 0..${rank - 1}, got ${describe(order)}`);
  return trailing ? [...order, rank] : order;
}

/**
 * The conversion the stored codec runs for `entry` (an array -> bytes
 * codec of the metadata), or undefined where the entry stays (zarrita's
 * codec, or ours registered for the presented type, reads the bytes).
 * Checked now by building the codec once: a configuration the stored type
 * cannot take (packbits on raw bytes, a missing endian) is refused at open.
 * @param {import("./presentation.js").Presentation} p
 */
function conversionFor(where, entry, p, chunkShape) {
  if (!p.codec) return undefined;
  const complex = p.trailing === 2 && p.kind !== "record" && p.kind !== "raw";
  const conversion = {
    codec: { name: entry.name, configuration: legacyEndian(where, entry, p.dataType) },
    dataType: complex ? parseDataType(where, p.component) : p.dataType,
    adapter: { floats: p.widen ? "float32" : "bits" },
    dropTrailing: p.kind === "record" || p.kind === "raw",
    strings: p.kind === "string",
  };
  let codec;
  try {
    codec = codecFor(conversion, chunkShape);
  } catch (error) {
    if (!(error instanceof ZarrCodecError)) throw error;
    throw new ZarrCodecError(error.code, `${where}: ${error.message}`, { cause: error });
  }
  codec.dispose();
  return conversion;
}

// Arrays written before the struct type was registered ("structured") may
// have a bytes codec with no endian: their page says to read them as
// little-endian (and to warn, once).
const warned = new Set();
function legacyEndian(where, entry, dataType) {
  const configuration = entry.configuration;
  const endian = isPlainObject(configuration) ? configuration.endian : undefined;
  if (!dataType.legacy || (entry.name !== "bytes" && entry.name !== "endian") || endian !== undefined) return configuration;
  if (dataType.info.typeClass === "record" && !warned.has(where)) {
    warned.add(where);
    console.warn(`${where}: its structured data type's bytes codec has no endian; read as little-endian, as the structured page says`);
  }
  return { ...(isPlainObject(configuration) ? configuration : {}), endian: "little" };
}

/**
 * The codec chain with the stored codec in place of the array -> bytes
 * codec (where the presentation needs it) and shapes extended.
 * `ticket(conversion)` records a conversion and names it.
 */
function presentChain(where, chain, p, rank, chunkShape, ticket, out = { codecs: [], sharding: undefined }) {
  if (!Array.isArray(chain)) throw invalidMetadata(where, `codecs must be an array, got ${describe(chain)}`);
  let arrayToBytes = false;
  for (const entry of chain) {
    const name = isPlainObject(entry) ? entry.name : undefined;
    if (typeof name !== "string") throw invalidMetadata(where, `a codec must be an object with a name, got ${describe(entry)}`);
    // Types whose array -> bytes codec zarrita runs say what it becomes.
    const own = arrayToBytes ? undefined : p.arrayToBytes?.(where, entry, ticket);
    if (arrayToBytes) {
      out.codecs.push(entry);
    } else if (own) {
      arrayToBytes = true;
      out.codecs.push(own);
    } else if (name === "transpose") {
      const order = transposeOrder(where, isPlainObject(entry.configuration) ? entry.configuration.order : undefined, rank, p.trailing);
      out.codecs.push({ ...entry, configuration: { ...entry.configuration, order } });
    } else if (isStoredCodecName(name)) {
      arrayToBytes = true;
      const conversion = conversionFor(where, entry, p, chunkShape);
      out.codecs.push(conversion ? { name: STORED_CODEC, configuration: { ticket: ticket(conversion, where) } } : entry);
    } else if (name === "sharding_indexed") {
      arrayToBytes = true;
      const c = isPlainObject(entry.configuration) ? entry.configuration : {};
      checkShape(where, "sharding chunk_shape", c.chunk_shape, { positive: true, rank });
      const presentedInner = withTrailing(where, "sharding chunk_shape", c.chunk_shape, p.trailing);
      const inner = presentChain(where, c.codecs, p, rank, presentedInner, ticket);
      out.sharding = { configuration: c, innerChunkShape: c.chunk_shape };
      out.codecs.push({ ...entry, configuration: { ...c, chunk_shape: presentedInner, codecs: inner.codecs } });
    } else {
      throw invalidMetadata(
        where,
        `codec ${describe(name)} comes before the array -> bytes codec, so it would run on the presented ${p.presented} values rather than the stored ones; withDataTypes cannot present this array`,
      );
    }
  }
  if (!arrayToBytes) {
    throw invalidMetadata(where, "its codecs have no array -> bytes codec (bytes, packbits or sharding_indexed)");
  }
  return out;
}

// The chain's bytes codec endian, for fills given as stored bytes (legacy
// structured): the first array -> bytes codec's, inside sharding too.
function storedEndianOf(chain) {
  for (const entry of Array.isArray(chain) ? chain : []) {
    if (!isPlainObject(entry)) continue;
    if (entry.name === "sharding_indexed") return storedEndianOf(entry.configuration?.codecs);
    if (entry.name === "bytes" || entry.name === "endian") {
      const endian = isPlainObject(entry.configuration) ? entry.configuration.endian : undefined;
      return typeof endian === "string" ? endian : undefined;
    }
  }
  return undefined;
}

/**
 * What the store wrapper knows of a presented array.
 * @typedef {object} Presented
 * @property {unknown} stored          the data type as the metadata names it
 * @property {import("../types/data-type.js").DataType} dataType  the stored type, parsed
 * @property {string} floats           the store's `floats` option
 * @property {number} trailing         the appended dimension, or 0
 * @property {{name: string, separator: string}} encoding  chunk keys
 * @property {number} rank             the presented rank
 * @property {string} presented        the presented data type
 * @property {string | undefined} fillBeyondZarrita  the fill as messages
 *   show it, where zarrita's own fill would read another value (parts
 *   that differ, a NaN's payload): withDataTypes fills such chunks itself
 * @property {Uint8Array | unknown[] | undefined} fillElement  the fill: one
 *   presented element's bytes, or for containers of JavaScript values an
 *   Array of the one value (missing-chunk.js)
 * @property {Uint8Array | undefined} fillByteString  a byte string's fill
 *   element as zarrita's ByteStringArray holds it (read fills with it)
 * @property {{shown: string, why: string, chunk?: (p: Presented) => object} | undefined} objectFill
 *   where zarrita cannot fill with the fill at all (byte values): how
 *   messages show it, why zarrita cannot, and where the array extension
 *   can, a missing chunk
 * @property {number[]} chunkShape     the presented chunk shape
 * @property {object | undefined} shardIndex  how to read a shard's index
 *   (shard-index.js), where missing inner chunks must be refused
 */

/**
 * @param {string} path the array's path ("/a/b"), for messages
 * @param {object} doc the array's zarr.json
 * @param {{floats: "float32" | "bits", rounded: boolean,
 *   ticket: (conversion: object) => string}} options
 * @returns {{doc: object, presented: Presented} | null} null: zarrita reads
 *   it as it is
 */
export function presentV3(path, doc, { floats, rounded, ticket }) {
  const where = `withDataTypes: array ${prefix(path, 256) || "/"}`;
  const p = presentationOf(where, doc.data_type, floats);
  if (!p) return null;
  checkShape(where, "shape", doc.shape);
  const rank = doc.shape.length;
  if (!isPlainObject(doc.chunk_grid) || doc.chunk_grid.name !== "regular") {
    throw invalidMetadata(where, `chunk_grid must be "regular" (the grid zarrita reads), got ${describe(doc.chunk_grid?.name ?? doc.chunk_grid)}`);
  }
  const chunkShape = isPlainObject(doc.chunk_grid.configuration) ? doc.chunk_grid.configuration.chunk_shape : undefined;
  checkShape(where, "chunk_shape", chunkShape, { positive: true, rank });
  // Absent, the spec's default; zarrita needs it written out.
  const keys = doc.chunk_key_encoding ?? { name: "default" };
  if (!isPlainObject(keys)) throw invalidMetadata(where, `chunk_key_encoding must be an object, got ${describe(keys)}`);
  const encodingName = keys.name;
  if (encodingName !== "default" && encodingName !== "v2") {
    throw invalidMetadata(where, `chunk_key_encoding must be "default" or "v2", got ${describe(encodingName)}`);
  }
  const keyConfiguration = isPlainObject(keys.configuration) ? keys.configuration : {};
  const separator = hasOwn(keyConfiguration, "separator") ? keyConfiguration.separator : encodingName === "v2" ? "." : "/";
  if (separator !== "/" && separator !== ".") {
    throw invalidMetadata(where, `the chunk key separator must be "/" or ".", got ${describe(separator)}`);
  }
  const shape = withTrailing(where, "shape", doc.shape, p.trailing);
  const presentedChunks = withTrailing(where, "chunk_shape", chunkShape, p.trailing);
  const fill = presentFill(where, p, doc.fill_value, { rounded, storedEndian: storedEndianOf(doc.codecs) });
  const chain = presentChain(where, doc.codecs, p, rank, presentedChunks, ticket);
  let shardIndex;
  if ((fill.beyondZarrita !== undefined || fill.objectFill) && chain.sharding) {
    // zarrita fills a shard's missing inner chunks with one value: without
    // the array extension (0.5, 0.6) such a shard is refused when read
    // (shard-index.js), the others read.
    shardIndex = shardIndexOf(where, chain.sharding.configuration, chunkShape);
  }
  const presentedDoc = {
    ...doc,
    data_type: p.presented,
    shape,
    chunk_grid: { ...doc.chunk_grid, configuration: { ...doc.chunk_grid.configuration, chunk_shape: presentedChunks } },
    chunk_key_encoding: { name: encodingName, configuration: { ...keyConfiguration, separator } },
    fill_value: fill.value,
    codecs: chain.codecs,
  };
  if (p.trailing && Array.isArray(doc.dimension_names)) {
    presentedDoc.dimension_names = [...doc.dimension_names, null];
  }
  return {
    doc: presentedDoc,
    presented: {
      stored: doc.data_type,
      dataType: p.dataType,
      floats,
      trailing: p.trailing,
      encoding: { name: encodingName, separator },
      rank: rank + (p.trailing ? 1 : 0),
      presented: p.presented,
      fillBeyondZarrita: fill.beyondZarrita,
      fillElement: fill.element,
      fillByteString: fill.byteString,
      objectFill: fill.objectFill,
      chunkShape: presentedChunks,
      shardIndex,
    },
  };
}
