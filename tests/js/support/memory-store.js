// An in-memory store with getRange (sharding needs it), metadata written
// as JSON, and shards laid out by hand from the sharding_indexed spec: the
// inner chunks' bytes, then the index of (offset, nbytes) uint64 pairs,
// little-endian, 2^64 - 1 twice for a missing inner chunk, then its
// crc32c (tests/js/support/reference.js).
import { crc32c } from "./reference.js";

const encoder = new TextEncoder();

/** A Map store that zarrita can read, shard ranges included. */
export function memoryStore(entries = []) {
  const files = new Map(entries.map(([k, v]) => [k, typeof v === "object" && !ArrayBuffer.isView(v) ? encoder.encode(JSON.stringify(v)) : v]));
  return {
    files,
    async get(key) {
      return files.get(key);
    },
    async getRange(key, range) {
      const bytes = files.get(key);
      if (!bytes) return undefined;
      if (range.suffixLength !== undefined) return bytes.subarray(bytes.length - range.suffixLength);
      return bytes.subarray(range.offset, range.offset + range.length);
    },
    async set(key, value) {
      files.set(key, value);
    },
  };
}

/**
 * A shard of `chunks` (Uint8Arrays, or null where an inner chunk is
 * missing), its index with a crc32c at the end, or with
 * `{ indexAt: "start" }` before the chunks (whose offsets then count it).
 */
export function shard(chunks, { indexAt = "end" } = {}) {
  const body = [];
  const index = new DataView(new ArrayBuffer(16 * chunks.length));
  const indexBytes = 16 * chunks.length + 4;
  let at = indexAt === "start" ? indexBytes : 0;
  chunks.forEach((c, i) => {
    const [offset, length] = c ? [BigInt(at), BigInt(c.length)] : [2n ** 64n - 1n, 2n ** 64n - 1n];
    index.setBigUint64(16 * i, offset, true);
    index.setBigUint64(16 * i + 8, length, true);
    if (c) {
      body.push(c);
      at += c.length;
    }
  });
  const idx = new Uint8Array(index.buffer);
  const crc = new Uint8Array(4);
  new DataView(crc.buffer).setUint32(0, crc32c(idx), true);
  const parts = indexAt === "start" ? [idx, crc, ...body] : [...body, idx, crc];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let w = 0;
  for (const part of parts) {
    out.set(part, w);
    w += part.length;
  }
  return out;
}

/** The metadata of a v3 array (default chunk keys, "/"). */
export function v3Array(over) {
  return {
    zarr_format: 3, node_type: "array", shape: [4], data_type: "uint8",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0, codecs: [{ name: "bytes", configuration: { endian: "little" } }], attributes: {}, ...over,
  };
}

/** The package's error a promise rejects with, unwrapped from zarrita's pipeline errors. */
export async function rejectionOf(promise) {
  try {
    await promise;
  } catch (e) {
    let error = e;
    while (error && error.name !== "ZarrCodecError" && error.cause) error = error.cause;
    return error;
  }
  throw new Error("expected a rejection");
}
