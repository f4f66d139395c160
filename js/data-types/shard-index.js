// Shards of an array whose fill zarrita cannot express (a complex fill whose
// parts differ, record bytes that differ, a NaN's payload), read by a zarrita without array
// extensions (0.5, 0.6): it fills a missing inner chunk with one number,
// which would read a wrong value. withDataTypes reads each shard's index as
// zarrita fetches it and refuses a shard that misses an inner chunk
// (UNFILLABLE_CHUNK); every other shard reads. zarrita 0.7 reads such
// shards whole, through the array extension (array-extension.js).
import { describe, isPlainObject, ZarrCodecError } from "../errors.js";

const MISSING = 0xffffffffffffffffn;

/**
 * How a shard's index is laid out: [n x (offset, nbytes)] uint64 pairs,
 * little- or big-endian, maybe followed by a crc32c, at the shard's end
 * (or start). Index codecs beyond bytes and crc32c cannot be read here:
 * `refused` is then the error every read without the array extension
 * throws.
 * @param {string} where
 * @param {object} sharding the sharding_indexed configuration
 * @param {number[]} shardShape the outer chunk shape
 */
export function shardIndexOf(where, sharding, shardShape) {
  const inner = sharding.chunk_shape;
  const entries = shardShape.reduce((n, d, i) => n * Math.ceil(d / inner[i]), 1);
  const codecs = Array.isArray(sharding.index_codecs) ? sharding.index_codecs : [{ name: "bytes", configuration: { endian: "little" } }];
  let little = true;
  let checksum = 0;
  let refused;
  codecs.forEach((c, i) => {
    const name = isPlainObject(c) ? c.name : undefined;
    if (i === 0 && name === "bytes") little = c.configuration?.endian !== "big";
    else if (i === 1 && name === "crc32c") checksum = 4;
    else {
      refused ??= new ZarrCodecError(
        "UNFILLABLE_CHUNK",
        `${where}: its fill_value is none zarrita can fill with (parts that differ, or bytes), and its shard index codecs (${describe(name)}) are not bytes and crc32c, so ` +
          "missing inner chunks cannot be found before this zarrita fills them wrongly; " +
          "the read is refused (zarrita >= 0.7 reads it, through withDataTypes' array extension)",
      );
    }
  });
  return { entries, bytes: 16 * entries + checksum, little, atStart: sharding.index_location === "start", refused };
}

/**
 * Whether a getRange request of a shard is the index's: zarrita reads
 * inner chunks by offset and length, the index by suffix (at the end) or
 * from offset 0 (at the start).
 */
export function isIndexRequest(index, range) {
  if (index.atStart) return range?.offset === 0;
  return range?.suffixLength !== undefined;
}

/**
 * UNFILLABLE_CHUNK: `subject` ("chunk c/0", "shard c/0") of the array at
 * `path` `what` ("is missing"), so it reads as the fill `shown` (as the
 * metadata gives it, or byte values), which zarrita cannot fill with;
 * `why` ends the message.
 */
export function unfillable(subject, path, what, shown, why) {
  return new ZarrCodecError("UNFILLABLE_CHUNK", `withDataTypes: ${subject} of array ${path || "/"} ${what}, so it reads as the fill value ${shown}; ${why}`);
}

/**
 * Refuses a shard (`bytes` its index, undefined where the shard is
 * missing) that misses an inner chunk. `shown` is the fill; `bytesFill`:
 * it is byte values, which zarrita fills with as the metadata's text.
 */
export function checkShardIndex(index, bytes, key, path, shown, bytesFill) {
  const how = bytesFill ? "with the metadata's fill_value itself" : "with one number";
  const why = (what) =>
    unfillable(
      `shard ${key}`,
      path,
      what,
      shown,
      `this zarrita fills a missing inner chunk ${how}, which would read a wrong value, so the read is refused` +
        (bytesFill ? "" : " (zarrita >= 0.7 reads it, through withDataTypes' array extension)"),
    );
  if (bytes === undefined) throw why("is missing");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The pairs end where the checksum starts (a suffix read may hold more).
  const first = index.atStart ? 0 : bytes.byteLength - (index.bytes);
  for (let i = 0; i < index.entries && first >= 0 && first + 16 * i + 16 <= bytes.byteLength; i++) {
    const offset = view.getBigUint64(first + 16 * i, index.little);
    const length = view.getBigUint64(first + 16 * i + 8, index.little);
    if (offset === MISSING && length === MISSING) throw why(`misses inner chunk ${i}`);
  }
}
