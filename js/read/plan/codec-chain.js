// The codecs a chunk of an array goes through, as read decodes it, from
// the array's metadata as its store gives it (so withDataTypes' and
// withN5's presentations included): the axis order its bytes are stored in
// (a transpose), the array -> bytes codec, the bytes -> bytes codecs after
// it, the sharding layout where chunks are inner chunks of shards, and the
// fill as the metadata writes it (exactly: integers past 2^53 as BigInt).
// zarrita keeps its own copy of the metadata private; read asks zarrita's
// pipeline which codecs it was built from (zarrita/pipeline-probe.js), so
// that a plain store sees no request of read's for metadata. Only where
// that does not tell enough (a sharded array's layout, which zarrita's
// pipeline does not hold; a fill zarrita rounded; a first codec that is
// not the package's) is the one document zarrita opened read again, once
// per array (plan.js caches the plan).
//
// The document must be the one zarrita opened: a store may hold a zarr.json
// and a stale .zarray at one path (a v3 array with the "v2" chunk key
// encoding, say), and zarrita opens either, depending on what it opened
// before in that store. Where withDataTypes or withN5 read the metadata,
// they know which; otherwise both are read and the one that describes
// the array zarrita gives (its data type, shape and chunks) is taken, and
// where both do but decode differently, zarrita reads the array.
//
// Array -> array codecs read decodes itself (READ_ARRAY_TO_ARRAY: the
// elementwise ones anywhere, delta, which reads the chunk in its stored
// order, only after any transpose) are listed in `arrayToArray`, first
// first (decode/value-steps.js runs them). A chain read cannot decode
// itself (reshape, nested sharding, a variable-length type) is returned as
// { unsupported: why }: such arrays are read through zarrita's getChunk.
import { isPlainObject } from "../../errors.js";
import { hasUnsafeIntegers, parseLossless } from "../../json/lossless.js";
import { conversionOf, STORED_CODEC } from "../../data-types/stored-codec.js";
import { fortranOrder } from "../../data-types/fortran-chunks.js";
import { openedCodecs } from "../../zarrita/pipeline-probe.js";
import { innerChunksPerShard } from "./shard-shape.js";

const decoder = new TextDecoder();
const ARRAY_TO_BYTES = new Set(["bytes", "endian", "packbits", "n5_default", STORED_CODEC]);
// The array -> array codecs read decodes: value by value (so before or
// after a transpose alike) ...
const ELEMENTWISE = new Set(["scale_offset", "cast_value", "bitround", "numcodecs.bitround", "numcodecs.fixedscaleoffset", "numcodecs.quantize", "numcodecs.astype", "fixedscaleoffset", "quantize", "astype"]);
// ... and along the chunk's stored order (numcodecs' Delta differences
// consecutive elements of its input as it lies in memory).
const IN_STORED_ORDER = new Set(["numcodecs.delta", "delta", "numcodecs.shuffle"]);

/**
 * @typedef {object} Sharding
 * @property {number[]} shardShape  the outer chunks (the stored files)
 * @property {number[]} innerShape  the chunks inside them
 * @property {"start" | "end"} indexLocation
 * @property {boolean} littleIndex  the index's bytes codec endian
 * @property {boolean} checksum     a crc32c follows the index
 * @property {string | undefined} unsupported  index codecs read does not read
 * @property {boolean} [assumed]  the index layout taken as the default, not
 *   read from the document (verified as indexes are fetched)
 *
 * @typedef {object} Chain
 * @property {2 | 3} format
 * @property {number[] | null} order  stored axis j is logical axis order[j]
 *   (null: C order)
 * @property {{name: string, configuration: unknown}[]} arrayToArray  the
 *   array -> array codecs read decodes (transpose apart), first first
 * @property {unknown[] | undefined} listed  the codecs as listed (zarrita's,
 *   or the document's), which the array -> array codecs are made with
 * @property {{name: string, configuration: unknown}} arrayToBytes
 * @property {{names: string[], configuration: unknown}[]} bytesToBytes
 *   each codec's registry names, first first (a Zarr v2 compressor is
 *   `numcodecs.<id>` in zarrita 0.7's registry, `<id>` in 0.5's)
 * @property {unknown} dataType  the data type the metadata names (v2: its dtype)
 * @property {number[]} chunkShape the chunks the chain decodes (a sharded
 *   array's inner chunks)
 * @property {Sharding | undefined} sharding
 * @property {unknown} fillValue   the metadata's, exactly
 */

function metadataKey(path, file) {
  return path === "/" || path === "" ? `/${file}` : `${path.replace(/\/$/, "")}/${file}`;
}

async function document(store, key, signal, given) {
  const bytes = given ?? (await store.get(key, signal ? { signal } : undefined));
  if (!(bytes instanceof Uint8Array)) return undefined;
  try {
    const text = decoder.decode(bytes);
    const doc = JSON.parse(text);
    // numcodecs' FixedScaleOffset types its scale and offset by how
    // Python wrote them ("10.0" a float, "10" an int): the filters' text
    // tells, JSON.parse does not (array-to-array/fixed-scale-offset.js).
    if (Array.isArray(doc?.filters) && doc.filters.some((f) => f?.id === "fixedscaleoffset")) return parseLossless(text, { floats: true });
    // Fills past 2^53 exactly (JSON.parse rounds them).
    return hasUnsafeIntegers(doc?.fill_value) ? parseLossless(text) : doc;
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

// How a shard's index is stored: bytes (either endian), maybe crc32c.
function shardingOf(configuration, shardShape) {
  const codecs = Array.isArray(configuration.index_codecs) ? configuration.index_codecs : [{ name: "bytes", configuration: { endian: "little" } }];
  const [first, second, ...rest] = codecs;
  let unsupported;
  if (first?.name !== "bytes" || rest.length || (second !== undefined && second?.name !== "crc32c")) {
    unsupported = "shard index codecs other than bytes and crc32c";
  }
  return {
    shardShape,
    innerShape: configuration.chunk_shape,
    indexLocation: configuration.index_location === "start" ? "start" : "end",
    littleIndex: first?.configuration?.endian !== "big",
    checksum: second?.name === "crc32c",
    unsupported,
  };
}

// The shard layout of an array whose document read did not read: the
// index at the shard's end, little-endian, with a crc32c, as zarr-python,
// zarrs and TensorStore write it by default. `assumed`: the shard reader
// verifies it on each index, and read reads the document where it fails.
function assumedSharding(perShard, innerShape) {
  return {
    shardShape: perShard.map((n, i) => n * innerShape[i]),
    innerShape,
    indexLocation: "end",
    littleIndex: true,
    checksum: true,
    unsupported: undefined,
    assumed: true,
  };
}

function v3Chain(doc, rank) {
  let codecs = doc.codecs;
  let chunkShape = doc.chunk_grid?.configuration?.chunk_shape;
  let sharding;
  const sharded = Array.isArray(codecs) ? codecs.find((c) => c?.name === "sharding_indexed") : undefined;
  if (sharded) {
    // zarrita reads a sharded array's inner chunks with the sharding
    // codec's chain alone; other codecs beside it are left to zarrita.
    if (codecs.length !== 1) return { unsupported: "codecs beside sharding_indexed" };
    if (!isPlainObject(sharded.configuration)) return { unsupported: "a sharding_indexed codec without a configuration" };
    sharding = shardingOf(sharded.configuration, chunkShape);
    codecs = sharded.configuration.codecs;
    chunkShape = sharded.configuration.chunk_shape;
  }
  // What read cannot decode still tells how shards are laid out (read
  // fetches the inner chunks of arrays of JavaScript values too).
  const refused = (why) => ({ unsupported: why, sharding });
  if (!Array.isArray(codecs)) return refused("no codecs");
  let order = null;
  let transposed = false;
  const arrayToArray = [];
  let at = 0;
  for (; at < codecs.length; at++) {
    const name = codecs[at]?.name;
    if (ARRAY_TO_BYTES.has(name)) break;
    if (ELEMENTWISE.has(name) || (IN_STORED_ORDER.has(name) && (order === null || transposed))) {
      arrayToArray.push({ name, configuration: codecs[at].configuration });
      continue;
    }
    if (name !== "transpose" || transposed) return refused(`the codec ${JSON.stringify(String(name))} before the array -> bytes codec`);
    // A delta before the transpose differences the logical order.
    if (arrayToArray.some((c) => IN_STORED_ORDER.has(c.name))) return refused("delta before a transpose");
    transposed = true;
    order = permutation(codecs[at].configuration?.order, rank);
    if (order === undefined) return refused("a transpose order read does not know");
  }
  if (at === codecs.length) return refused("no array -> bytes codec read decodes");
  const arrayToBytes = { name: codecs[at].name, configuration: codecs[at].configuration };
  const bytesToBytes = codecs.slice(at + 1).map((c) => ({ names: [String(c?.name)], configuration: c?.configuration }));
  return { format: 3, order, arrayToArray, listed: codecs, arrayToBytes, bytesToBytes, dataType: doc.data_type, chunkShape, sharding, fillValue: doc.fill_value };
}

// The bytes codec of a Zarr v2 dtype: big-endian where it says so and has
// more than one byte.
function bytesOfV2(dtype) {
  const big = typeof dtype === "string" && dtype.startsWith(">") && !/^>([iub]1|[SV]\d+)$/.test(dtype);
  return { name: "bytes", configuration: { endian: big ? "big" : "little" } };
}

// The numpy dtype a v2 filter list's chunks are stored in: numcodecs'
// decode views the bytes as the outermost filter's encoded type (its
// astype, with its byte order, which need not be the array's), filters
// that keep their input's bytes (bitround, shuffle) seen through.
function storedDtypeOfFilters(filters, dtype) {
  for (let i = filters.length - 1; i >= 0; i--) {
    const f = filters[i];
    const stored = f.id === "astype" ? f.encode_dtype : f.id === "bitround" || f.id === "shuffle" ? undefined : f.astype ?? f.dtype;
    if (typeof stored === "string") return stored;
  }
  return dtype;
}

const describeId = (filter) => (isPlainObject(filter) && typeof filter.id === "string" ? JSON.stringify(filter.id) : "that names no id");

// Zarr v2: zarrita builds the chain from dtype, order, filters and
// compressor; read knows the ones it can decode itself.
function v2Chain(zarray, rank) {
  const order = zarray.order === "F" ? permutation("F", rank) : null;
  if (zarray.filters !== null && zarray.filters !== undefined && !Array.isArray(zarray.filters)) return { unsupported: "Zarr v2 filters that are no list" };
  const compressor = zarray.compressor ?? null;
  if (compressor !== null && !(isPlainObject(compressor) && typeof compressor.id === "string")) {
    return { unsupported: "a Zarr v2 compressor that is no codec" };
  }
  let filters = zarray.filters ?? [];
  let arrayToBytes;
  const arrayToArray = [];
  // numcodecs' Shuffle regroups bytes: a bytes -> bytes codec after the
  // array -> bytes one (withDataTypes' stored codec, or zarrita's bytes).
  const bytesToBytes = [];
  while (filters.length && filters.at(-1)?.id === "shuffle") {
    const { id, ...configuration } = filters.at(-1);
    bytesToBytes.unshift({ names: ["numcodecs.shuffle", "shuffle"], configuration });
    filters = filters.slice(0, -1);
  }
  let storageOrder = order;
  if (filters.length === 1 && filters[0]?.id === STORED_CODEC) {
    const { id, ...configuration } = filters[0];
    arrayToBytes = { name: STORED_CODEC, configuration };
    // Order "F" with a trailing dimension: presented as "C", stored with
    // the element axes reversed (data-types/fortran-chunks.js).
    if (conversionOf(configuration.ticket)?.fortran) storageOrder = fortranOrder(rank);
  } else if (filters.length > 0) {
    // numcodecs' filters, run on the chunk as it lies in memory (C or F
    // order alike), after the little-endian (or big-endian) bytes.
    for (const filter of filters) {
      // (A shuffle before another filter regroups that filter's output.)
      const name = `numcodecs.${filter?.id}`;
      if (!isPlainObject(filter) || !(ELEMENTWISE.has(name) || IN_STORED_ORDER.has(name))) return { unsupported: `the Zarr v2 filter ${describeId(filter)}` };
      const { id, ...configuration } = filter;
      arrayToArray.push({ name, configuration });
    }
    arrayToBytes = bytesOfV2(storedDtypeOfFilters(filters, zarray.dtype));
  } else {
    arrayToBytes = bytesOfV2(zarray.dtype);
  }
  if (compressor) {
    const { id, ...configuration } = compressor;
    bytesToBytes.push({ names: [`numcodecs.${id}`, id], configuration });
  }
  return { format: 2, order: storageOrder, arrayToArray, arrayToBytes, bytesToBytes, dataType: zarray.dtype, chunkShape: zarray.chunks, sharding: undefined, fillValue: zarray.fill_value };
}

// zarrita's data type name of a v2 dtype it reads ("<u2" -> "uint16"),
// for telling which document describes an array.
const V2_KINDS = { b: "bool", i: "int", u: "uint", f: "float" };
function zarritaNameOfV2(dtype) {
  const m = typeof dtype === "string" ? /^[<>|]([biuf])(\d+)$/.exec(dtype) : null;
  if (m) return m[1] === "b" ? "bool" : `${V2_KINDS[m[1]]}${8 * Number(m[2])}`;
  const text = typeof dtype === "string" ? /^[<>|]([SU])(\d+)$/.exec(dtype) : null;
  return text ? `v2:${text[1]}${text[2]}` : undefined;
}

const same = (a, b) => Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => v === b[i]);

// zarrita's fill value (as it parsed it) against a document's: the same
// number, string or parts.
function sameFill(held, written) {
  const norm = (v) => {
    if (typeof v === "bigint") return Number(v);
    if (v === "NaN" || v === "Infinity" || v === "-Infinity") return Number(v);
    return v;
  };
  const a = norm(held);
  const b = norm(written);
  if (Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b))) return true;
  if (typeof a === "number" && typeof b === "number") return a === b;
  try {
    return JSON.stringify(a, (_, v) => (typeof v === "bigint" ? Number(v) : v)) === JSON.stringify(b, (_, v) => (typeof v === "bigint" ? Number(v) : v));
  } catch {
    return false;
  }
}

/** Whether a chain describes what zarrita shows of the array. */
function describes(chain, za, dtype) {
  const name = chain.format === 2 ? zarritaNameOfV2(chain.dataType) : chain.dataType;
  return name === dtype && same(chain.chunkShape, za.chunkShape) && Boolean(chain.sharding) === za.sharded && sameFill(za.fillValue, chain.fillValue);
}

/** Whether two chains decode the same bytes the same way. */
function sameDecoding(a, b) {
  const key = (c) => JSON.stringify([c.order, c.arrayToArray ?? [], c.arrayToBytes.name, c.arrayToBytes.configuration ?? null, c.bytesToBytes.map((x) => [x.names.at(-1), x.configuration ?? null]), c.sharding ?? null]);
  return key(a) === key(b);
}

// A document's chain; a chain read cannot decode still says what read
// fills missing chunks with (the data type and fill), which chunks the
// document describes, and how shards are laid out.
function chainOf(file, doc, rank) {
  if (!isPlainObject(doc)) return undefined;
  let chain;
  let facts;
  if (file === "zarr.json" && doc.node_type === "array") {
    chain = v3Chain(doc, rank);
    facts = { format: 3, dataType: doc.data_type, fillValue: doc.fill_value, chunkShape: doc.chunk_grid?.configuration?.chunk_shape };
  } else if (file === ".zarray" && Array.isArray(doc.shape)) {
    chain = v2Chain(doc, rank);
    facts = { format: 2, dataType: doc.dtype, fillValue: doc.fill_value, chunkShape: doc.chunks };
  } else return undefined;
  if (!chain.unsupported) return chain;
  if (chain.sharding) facts.chunkShape = chain.sharding.innerShape;
  return { ...facts, ...chain };
}

/**
 * @param {{store: {get: Function}, path: string, dtype: string}} arr
 * @param {{shape: number[], chunkShape: number[]}} za
 * @param {{format?: 2 | 3, v3Keys: boolean, opened?: {file: string, bytes: Uint8Array}, fromDocument?: boolean}} hints
 *   `format`: the one withDataTypes or withN5 knows zarrita opened;
 *   `v3Keys`: the array's chunk keys are v3's default ("c/..."), which no
 *   v2 array has; `opened`: the document withDataTypes gave zarrita
 *   `fromDocument`: the document read, whatever zarrita's pipeline tells
 * @returns {Promise<Chain | {unsupported: string}>}
 */
export async function codecChain(arr, za, hints, signal) {
  const store = arr.store;
  if (typeof store?.get !== "function") return { unsupported: "a store without get" };
  const path = String(arr.path ?? "/");
  const rank = za.shape.length;
  // A plain store: the chain zarrita built, where it tells all read needs;
  // for a sharded array, with the shard shape its chunk getter shows and
  // the index as it is stored by default, verified as it is fetched
  // (shard-shape.js).
  if (hints.format === undefined && !hints.fromDocument && za.decode) {
    const opened = await chainZarritaBuilt(arr, za, rank);
    if (opened && !za.sharded) return opened;
    const perShard = opened ? innerChunksPerShard(arr, za) : undefined;
    if (perShard) return { ...opened, sharding: assumedSharding(perShard, za.chunkShape) };
  }
  // Sharding is Zarr v3's alone.
  const files = hints.format === 3 || hints.v3Keys || za.sharded ? ["zarr.json"] : hints.format === 2 ? [".zarray"] : [".zarray", "zarr.json"];
  // The document withDataTypes gave zarrita: no request.
  const given = (file) => (hints.opened?.file === file ? hints.opened.bytes : undefined);
  const docs = await Promise.all(files.map((file) => document(store, metadataKey(path, file), signal, given(file))));
  const chains = files.map((file, i) => chainOf(file, docs[i], rank)).filter((c) => c !== undefined);
  if (chains.length === 0) return { unsupported: "no array metadata found again" };
  if (chains.length === 1) return chains[0];
  const [v2, v3] = chains;
  // zarrita reads what read cannot tell apart, or does not decode itself.
  if (v2.unsupported) return v2;
  if (v3.unsupported) return v3;
  const fits = chains.filter((c) => describes(c, za, arr.dtype));
  if (fits.length === 1) return fits[0];
  if (sameDecoding(v2, v3)) return v3;
  return { unsupported: "a zarr.json and a .zarray describe this array with different codecs, and read cannot tell which one zarrita opened" };
}

// zarrita's fill as the metadata would write it, or undefined where
// zarrita's parse may have lost what the document said (an integer past
// 2^53, rounded, as a BigInt or a number; a NaN, whose payload it drops):
// then read reads the document for it.
function writtenFill(value) {
  // 2^53 itself may be 2^53 + 1 rounded: safe integers only.
  if (typeof value === "bigint") return value >= -(2n ** 53n - 1n) && value <= 2n ** 53n - 1n ? Number(value) : undefined;
  if (typeof value === "number") {
    // zarrita 0.5 and 0.6 hold an int64 fill as a number, rounded past 2^53.
    if (Number.isNaN(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) return undefined;
    return Number.isFinite(value) ? value : String(value);
  }
  return value === null || typeof value === "boolean" ? value : undefined;
}

// The chain of an unsharded array from the codecs zarrita built its
// pipeline from (as a v3 document would list them: zarrita turns a v2
// array's dtype, order and compressor into the same codecs).
async function chainZarritaBuilt(arr, za, rank) {
  const fill = writtenFill(za.fillValue);
  if (fill === undefined && za.fillValue !== undefined) return undefined;
  let opened;
  try {
    opened = await openedCodecs(za.decode);
  } catch {
    return undefined;
  }
  if (!opened || !same(opened.shape, za.chunkShape) || opened.dataType !== arr.dtype) return undefined;
  // Where no array -> bytes codec is listed (zarrita's v2 arrays of
  // little-endian types), zarrita decodes with little-endian bytes.
  let codecs = opened.codecs;
  // A Zarr v2 array's filters as zarrita 0.7 lists them (no array -> bytes
  // codec for a little-endian array; a big-endian one gets the array's
  // byte order): numcodecs stores the outermost filter's astype, byte
  // order included, which zarrita's list does not say, and zarrita's
  // conversion of a fixedscaleoffset beside other filters loses its
  // astype. read reads the .zarray's filters instead (once per array).
  const filtered = codecs.some((c) => ELEMENTWISE.has(c?.name) || IN_STORED_ORDER.has(c?.name));
  if (filtered && !codecs.some((c) => ARRAY_TO_BYTES.has(c?.name) && c.configuration?.endian !== "big")) return undefined;
  if (!codecs.some((c) => ARRAY_TO_BYTES.has(c?.name))) {
    // After the array -> array codecs (zarrita 0.7 lists a v2 array's
    // filters as numcodecs.<id> before its compressor); shuffles after the
    // last of them are bytes -> bytes codecs, as numcodecs runs them.
    const lastFilter = codecs.findLastIndex((c) => ELEMENTWISE.has(c?.name) || (IN_STORED_ORDER.has(c?.name) && c?.name !== "numcodecs.shuffle"));
    const at = lastFilter >= 0 ? lastFilter + 1 : codecs.findIndex((c) => c?.name !== "transpose");
    const bytes = { name: "bytes", configuration: { endian: "little" } };
    codecs = at === -1 ? [...codecs, bytes] : [...codecs.slice(0, at), bytes, ...codecs.slice(at)];
  }
  const chain = v3Chain({ codecs, chunk_grid: { configuration: { chunk_shape: za.chunkShape } }, data_type: arr.dtype, fill_value: fill ?? null }, rank);
  // The codecs as zarrita listed them: what register()'s codecs were told
  // (zarrita/v2-fixed-scale-offset.js tells zarrita 0.7's conversion of a
  // v2 filter by them).
  return chain.unsupported ? undefined : { ...chain, listed: opened.codecs };
}
