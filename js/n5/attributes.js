// An N5 attributes.json as Zarr v3 metadata: an array where it has N5's
// array attributes, a group otherwise. The array has v2 chunk keys with
// "/", fill 0, and every N5 attribute as a Zarr attribute; its compression
// becomes the codec chain's compressor where Zarr has an equal codec, its
// members checked here, at open, as the compressor would check them at the
// first read.
//
// Axes: N5 lists the fastest-varying axis first. With axes "n5" the array
// keeps that order, as the n5_default codec's page shows it (its chain
// transposes each block); with axes "reversed" the shape, the chunk shape
// and the dimension names are reversed (numpy's order, zarr-python 2's
// N5Store's), and the chain has no transpose: a block's F order is then the
// chunk's C order (n5-default-codec.js).
import { describe, invalidMetadata, isPlainObject, prefix } from "../errors.js";
import { checkShape } from "../data-types/shapes.js";
import { requireRegistration } from "../zarrita/registration.js";

const DATA_TYPES = new Set(["uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64", "float32", "float64"]);
const BYTES = new Map([["8", 1], ["16", 2], ["32", 4], ["64", 8]]);
// N5BlockCodec::kMaxChunkBytes.
const MAX_CHUNK_BYTES = 512 * 1024 * 1024;
// n5-blosc's shuffle numbers, as the Zarr v3 blosc codec names them.
const BLOSC_SHUFFLE = ["noshuffle", "shuffle", "bitshuffle"];
// What numcodecs.js's Blosc accepts as cname (its COMPRESSORS; it refuses
// any other when the codec is made, which would be the first read).
const BLOSC_CNAMES = ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"];
// N5 compressions with no Zarr codec of the same format (lz4's N5 framing
// differs from numcodecs' LZ4: zarr-developers/numcodecs#175).
const NO_ZARR_CODEC = new Map([
  ["bzip2", "bzip2"],
  ["xz", "xz"],
  ["lz4", "lz4 (N5's lz4 framing differs from Zarr's lz4 codec)"],
  ["jpeg", "jpeg"],
]);

/** Whether attributes.json describes an array (else a group). */
export function isN5Array(attributes) {
  return isPlainObject(attributes) && "dimensions" in attributes && "dataType" in attributes;
}

/**
 * A member of an N5 compression object: its default where absent, else
 * checked by `ok` (refused for the array where it fails).
 */
function member(where, compression, name, fallback, ok, expected) {
  if (!(name in compression)) return fallback;
  const value = compression[name];
  if (!ok(value)) {
    throw invalidMetadata(where, `its ${compression.type} compression's ${name} must be ${expected}, got ${describe(value)}`);
  }
  return value;
}

const integerIn = (lo, hi) => (v) => Number.isInteger(v) && v >= lo && v <= hi;

/** The Zarr codec of an N5 compression, or undefined for raw. */
function compressorOf(where, compression, typesize) {
  if (!isPlainObject(compression) || typeof compression.type !== "string") {
    throw invalidMetadata(where, `compression must be an object with a type, got ${describe(compression)}`);
  }
  const { type } = compression;
  switch (type) {
    case "raw":
      return undefined;
    case "gzip": {
      // N5's default level is -1, zlib's default (6).
      const level = member(where, compression, "level", -1, integerIn(-1, 9), "an integer from -1 to 9");
      // N5's gzip with useZlib writes zlib streams (zarr-python 2 does for Zlib).
      const zlib = member(where, compression, "useZlib", false, (v) => typeof v === "boolean", "true or false");
      return { name: zlib ? "zlib" : "gzip", configuration: { level: level === -1 ? 6 : level } };
    }
    case "blosc": {
      const cname = member(where, compression, "cname", "lz4", (v) => BLOSC_CNAMES.includes(v), `one of ${BLOSC_CNAMES.join(", ")}`);
      const clevel = member(where, compression, "clevel", 5, integerIn(0, 9), "an integer from 0 to 9");
      const shuffle = member(where, compression, "shuffle", 1, integerIn(0, 2), "0 (none), 1 (byte) or 2 (bit)");
      const blocksize = member(where, compression, "blocksize", 0, integerIn(0, 2 ** 31 - 1), "a non-negative integer");
      return { name: "blosc", configuration: { cname, clevel, shuffle: BLOSC_SHUFFLE[shuffle], typesize, blocksize } };
    }
    case "zstd": {
      const level = member(where, compression, "level", 3, integerIn(-(2 ** 17), 22), "an integer from -131072 to 22");
      return { name: "zstd", configuration: { level, checksum: false } };
    }
    default: {
      const why = NO_ZARR_CODEC.get(type);
      throw invalidMetadata(
        where,
        why
          ? `its N5 compression ${why} has no Zarr codec that reads it (N5 compressions read here: raw, gzip, blosc, zstd)`
          : `its N5 compression ${JSON.stringify(prefix(type, 64))} is unknown (N5 compressions read here: raw, gzip, blosc, zstd)`,
      );
    }
  }
}

/**
 * The axis names, N5 order: the "axes" attribute (Neuroglancer, TensorStore
 * and the N5 viewers name the dimensions so, in the order of
 * "dimensions") where it is a string per dimension; undefined otherwise.
 */
function axisNames(attributes, rank) {
  const names = attributes.axes;
  return Array.isArray(names) && names.length === rank && names.every((n) => typeof n === "string") ? names : undefined;
}

/**
 * zarr.json for an N5 array's attributes.json.
 * @param {string} path the array's path, for messages
 * @param {object} attributes
 * @param {"reversed" | "n5"} axes
 */
export function n5ArrayMetadata(path, attributes, axes) {
  const where = `withN5: array ${prefix(path, 256) || "/"}`;
  const { dimensions, blockSize, dataType } = attributes;
  checkShape(where, "dimensions", dimensions);
  checkShape(where, "blockSize", blockSize, { positive: true, rank: dimensions.length });
  if (typeof dataType !== "string" || !DATA_TYPES.has(dataType)) {
    throw invalidMetadata(where, `dataType must be one of N5's (${[...DATA_TYPES].join(", ")}), got ${describe(dataType)}`);
  }
  // N5 before 1.0 named only a type: "compressionType": "gzip".
  const compression =
    attributes.compression ?? (typeof attributes.compressionType === "string" ? { type: attributes.compressionType } : undefined);
  const typesize = BYTES.get(dataType.replace(/^\D+/, ""));
  // The n5_default codec refuses a chunk past 512 MiB for every block it
  // reads, and a missing block is filled by zarrita, which would allocate
  // the whole chunk first: refused here, at open.
  const chunkBytes = blockSize.reduce((a, b) => a * b, typesize);
  if (chunkBytes > MAX_CHUNK_BYTES) {
    throw invalidMetadata(where, `blockSize [${blockSize.slice(0, 8).join(", ")}${blockSize.length > 8 ? ", ..." : ""}] of ${dataType} holds ${chunkBytes} bytes; n5_default reads blocks of at most ${MAX_CHUNK_BYTES} (512 MiB)`);
  }
  const compressor = compressorOf(where, compression, typesize);
  requireRegistration(where, "its blocks are read through the codec n5_default");
  const rank = dimensions.length;
  const inOrder = (list) => (axes === "reversed" ? [...list].reverse() : list);
  const names = axisNames(attributes, rank);
  const bytes = typesize === 1 ? { name: "bytes" } : { name: "bytes", configuration: { endian: "big" } };
  const transpose = { name: "transpose", configuration: { order: Array.from({ length: rank }, (_, i) => rank - 1 - i) } };
  return {
    zarr_format: 3,
    node_type: "array",
    shape: inOrder(dimensions),
    data_type: dataType,
    chunk_grid: { name: "regular", configuration: { chunk_shape: inOrder(blockSize) } },
    chunk_key_encoding: { name: "v2", configuration: { separator: "/" } },
    fill_value: 0,
    codecs: [
      {
        name: "n5_default",
        configuration: {
          codecs: [...(axes === "reversed" ? [] : [transpose]), bytes, ...(compressor ? [compressor] : [])],
        },
      },
    ],
    ...(names ? { dimension_names: inOrder(names) } : {}),
    attributes,
  };
}

/** zarr.json for an N5 group (attributes.json without array attributes, or none). */
export function n5GroupMetadata(attributes) {
  return { zarr_format: 3, node_type: "group", attributes: isPlainObject(attributes) ? attributes : {} };
}
