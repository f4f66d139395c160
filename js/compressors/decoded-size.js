// The size a compressor's frame must decode to, known from the metadata
// zarrita hands a bytes -> bytes codec (`meta`: the chunk's data type and
// shape, as the array -> array codecs before it leave them, and the array's
// codec list): the array -> bytes codec's encoded size, plus what the
// size-keeping bytes -> bytes codecs before this one add (shuffle: nothing,
// crc32c: 4 bytes). Where it cannot be known (a second compressor before
// this one, a codec of unknown size, a variable-length type, a sharded
// array's shards), undefined: the frame is then decoded within a bound
// (compressor-codec.js).
import { coreOf } from "../codecs/wasm-codec.js";
import { BytesCodec } from "../codecs/bytes.js";
import { PackBitsCodec } from "../codecs/packbits.js";
import { isPlainObject } from "../errors.js";
import { STORED_CODEC, storedCodec } from "../data-types/stored-codec.js";
import { coreDataType } from "../zarrita/core-data-type.js";

const ARRAY_TO_BYTES = new Set(["bytes", "endian", "packbits", STORED_CODEC, `numcodecs.${STORED_CODEC}`]);
// Always array -> bytes, of no size known in advance.
const UNSIZED = new Set(["sharding_indexed", "n5_default", "vlen-bytes", "vlen-utf8", "numcodecs.vlen-bytes", "numcodecs.vlen-utf8", "json2", "numcodecs.json2"]);
const KEEPS_SIZE = new Set(["shuffle", "numcodecs.shuffle"]);
const ADDS = new Map([["crc32c", 4]]);
const V2_TEXT = /^v2:([SU])([1-9][0-9]*)$/;

function sameEntry(entry, names, configuration) {
  return isPlainObject(entry) && names.includes(entry.name) && JSON.stringify(entry.configuration ?? {}) === JSON.stringify(configuration ?? {});
}

// Bytes the array -> bytes codec `entry` encodes one chunk into.
function encodedBytes(entry, meta) {
  const dataType = meta.dataType ?? meta.data_type;
  const elements = Array.isArray(meta.shape) ? meta.shape.reduce((a, b) => a * b, 1) : undefined;
  if (!Number.isSafeInteger(elements)) return undefined;
  const text = typeof dataType === "string" ? V2_TEXT.exec(dataType) : null;
  if (text) return elements * Number(text[2]) * (text[1] === "U" ? 4 : 1);
  const name = entry?.name ?? "bytes";
  if (UNSIZED.has(name)) return undefined;
  let codec;
  try {
    if (name === STORED_CODEC || name === `numcodecs.${STORED_CODEC}`) codec = storedCodec({}).fromConfig(entry.configuration, meta);
    else {
      const type = coreDataType(dataType);
      if (type === undefined || typeof type !== "object") return undefined;
      const Codec = name === "packbits" ? PackBitsCodec : BytesCodec;
      // The size does not depend on the byte order.
      const configuration = name === "packbits" ? entry.configuration : { endian: "little" };
      codec = new Codec(configuration, { dataType: type, shape: meta.shape });
    }
    const core = codec[coreOf];
    return core ? core.encodedBytes : codec.decodedBytes;
  } catch {
    return undefined;
  } finally {
    codec?.dispose?.();
  }
}

/**
 * Bytes of one element of the chunk's data type (blosc shuffles by it where
 * its configuration names no typesize, as numcodecs does), or undefined.
 */
export function elementBytesOf(meta) {
  const dataType = meta?.dataType ?? meta?.data_type;
  const text = typeof dataType === "string" ? V2_TEXT.exec(dataType) : null;
  if (text) return Number(text[2]) * (text[1] === "U" ? 4 : 1);
  try {
    const type = coreDataType(dataType);
    return type && typeof type === "object" ? Math.max(1, type.bytes) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @param {string[]} names this codec's names in the registry ("zstd", "numcodecs.zstd")
 * @param {unknown} configuration its configuration, as zarrita passed it
 * @param {{dataType?: unknown, data_type?: unknown, shape?: number[], codecs?: object[]}} meta
 * @returns {number | undefined}
 */
export function decodedSizeOf(names, configuration, meta) {
  const codecs = Array.isArray(meta?.codecs) ? meta.codecs : undefined;
  if (!codecs) return undefined;
  const at = codecs.findIndex((c) => sameEntry(c, names, configuration));
  // Two entries this codec could be: which one zarrita is building is not said.
  if (at < 0 || codecs.findIndex((c, i) => i > at && sameEntry(c, names, configuration)) >= 0) return undefined;
  let a2b = -1;
  for (let i = 0; i < at; i++) {
    const name = codecs[i]?.name;
    if (ARRAY_TO_BYTES.has(name) || UNSIZED.has(name)) a2b = i;
  }
  let size = encodedBytes(a2b >= 0 ? codecs[a2b] : undefined, meta);
  if (size === undefined) return undefined;
  for (let i = a2b + 1; i < at; i++) {
    const name = codecs[i]?.name;
    if (KEEPS_SIZE.has(name)) continue;
    if (ADDS.has(name)) size += ADDS.get(name);
    // An array -> array codec of zarrita's v2 filters (delta, astype, ...)
    // is no bytes codec: it came before the array -> bytes one.
    else if (a2b < 0 && !isBytesToBytes(name)) continue;
    else return undefined;
  }
  return size;
}

// zarrita's v2 filters are named numcodecs.<id>: which of them work on bytes.
function isBytesToBytes(name) {
  return typeof name === "string" && /^(numcodecs\.)?(zstd|blosc|gzip|zlib|lz4|bz2|lzma|crc32c|shuffle)$/.test(name);
}
