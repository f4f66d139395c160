// Hostile compressed chunks through the public API: zarr.get (zarrita 0.5,
// 0.6 and 0.7, the package registered) and read, in Zarr v2, Zarr v3 (plain,
// with a crc32c after the compressor, sharded) and N5 arrays. Each array
// has three chunks of 32 x 64 uint16 (4096 bytes): the first is damaged,
// the other two are good frames. For zstd, zstd with a content checksum,
// gzip, zlib, lz4 and blosc (every cname): the frame truncated at many
// lengths, garbage (plain, and behind a valid magic or header), bytes
// flipped, bombs (a tiny frame that yields or claims far more than the
// chunk: zstd RLE blocks, huge content sizes, blosc nbytes 2 GiB, an lz4
// size header of 2^31 - 1, 64 MiB of gzip/zlib zeros, gzip's ISIZE lying),
// valid frames of the wrong size both ways (half, one byte short or over,
// 64 times), lying headers (blosc cbytes larger and smaller than the
// frame, its blocksize and typesize, the memcpyed flag; lz4's size; zstd's
// content size), and checksums that disagree (zstd's, gzip's CRC-32 and
// ISIZE, zlib's Adler-32, a crc32c after the compressor). Each is the
// package's ZarrCodecError with a code (through zarr.get: the cause of
// zarrita's error), within a time limit, wasm memory stays within a bound,
// and the instance is intact: the good chunks, and the whole array where
// the damaged chunk is made good again, read right. A damaged frame may
// only read where no checksum covers what changed, and then only as
// exactly one chunk of values (a flipped literal byte in lz4 data); where
// a checksum covers it, it reads only as the original values.
//
// The good frames are numcodecs' (tests/fixtures/compressed/, Debian's
// numcodecs 0.11 and zstd CLI); the others are made here by independent
// encoders (node's zlib for gzip and zlib, numcodecs.js for zstd, lz4 and
// blosc) or by hand from the formats' specs (RFC 8878 for zstd's frame
// header and blocks, c-blosc's header layout, numcodecs' lz4 framing).
import { beforeAll, describe, expect, jest, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { deflateSync, gzipSync } from "node:zlib";
import BloscJs from "numcodecs/blosc";
import LZ4Js from "numcodecs/lz4";
import ZstdJs from "numcodecs/zstd";
import { diagnostics, read, ready, register, withN5, ZarrCodecError } from "../../../js/index.js";
import { cOrderBytes, packageErrorOf } from "../support/compressed-fixtures.js";
import { fixturePath } from "../support/fixtures.js";
import { memoryStore, shard } from "../support/memory-store.js";
import { crc32c, randomBytes, swapGroups } from "../support/reference.js";
import { ZARRITAS } from "../support/zarritas.js";

jest.setTimeout(300000);

const FIXTURES = fixturePath("compressed");
const fixture = (name) => new Uint8Array(readFileSync(`${FIXTURES}/${name}`));
const RAW = fixture("u16-32x64.raw"); // 4096 bytes: 32 x 64 uint16, little-endian
const CHUNK = RAW.length;
const RAW_BE = swapGroups(RAW, 2); // N5 blocks are big-endian
const ZARRITA7 = ZARRITAS.find(([v]) => v.startsWith("0.7"));
const OLDER = ZARRITAS.filter(([v]) => v === "0.5.4" || v === "0.6.2");
const TIME_LIMIT_MS = 5000;
// The bound wasm memory must stay within while every hostile chunk is read
// (past what the good reads grew it to): a few frames' worth, never a
// frame's claim (the bombs claim up to 2^40 bytes).
const MEMORY_SLACK = 8 * 1024 * 1024;
const CNAMES = ["blosclz", "lz4", "lz4hc", "zlib", "zstd"];

// ---- frames ---------------------------------------------------------------------------

const u32le = (v) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, v >>> 24];
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const setAt = (bytes, at, values) => {
  const out = bytes.slice();
  out.set(values, at < 0 ? bytes.length + at : at);
  return out;
};
const flip = (bytes, at, mask = 0xff) => {
  const out = bytes.slice();
  out[at] ^= mask;
  return out;
};
// zstd (RFC 8878): magic, frame header descriptor, [window], [dict id], [content size], blocks.
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const zstdBlock = (last, type, size, content) => {
  const h = last | (type << 1) | (size << 3);
  return [h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff, ...content];
};
/** Where a zstd frame's content size field is, and its width. */
function zstdContentSize(frame) {
  const fhd = frame[4];
  const single = (fhd >> 5) & 1;
  const at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][fhd & 3];
  const width = (fhd >> 6) === 0 ? single : [0, 2, 4, 8][fhd >> 6];
  return { at, width };
}
function withZstdContentSize(frame, value) {
  const { at, width } = zstdContentSize(frame);
  const v = width === 2 ? value - 256 : value;
  return setAt(frame, at, Array.from({ length: width }, (_, i) => Math.floor(v / 2 ** (8 * i)) & 0xff));
}

async function encoded(kind, raw) {
  switch (kind) {
    case "gzip":
      return new Uint8Array(gzipSync(raw, { level: 1 }));
    case "zlib":
      return new Uint8Array(deflateSync(raw, { level: 1 }));
    case "zstd":
    case "zstd_checksum":
      return new Uint8Array(await ZstdJs.fromConfig({ level: 3 }).encode(raw));
    case "lz4":
      return new Uint8Array(await LZ4Js.fromConfig({ acceleration: 1 }).encode(raw));
    default:
      return new Uint8Array(await BloscJs.fromConfig({ cname: kind.slice(6), clevel: 5, shuffle: 1 }).encode(raw));
  }
}

/** The good frame of each kind (numcodecs' fixtures), of RAW (or of RAW_BE for N5). */
async function goodFrame(kind, bigEndian) {
  if (bigEndian) return encoded(kind, RAW_BE);
  const name = {
    zstd: "zstd-l3.zst", zstd_checksum: "zstd-checksum.zst", gzip: "gzip-l1.gz", zlib: "zlib-l1.zz", lz4: "lz4-a1.lz4",
  }[kind] ?? `blosc-${kind.slice(6)}-shuffle-t2.blosc`;
  return fixture(name);
}

/**
 * The hostile versions of `good` (a frame of `kind` decoding to the
 * chunk): [label, bytes, expectation]. An expectation is a code, a list of
 * codes, "error" (any code), or "same" / "any": an error, or a read of the
 * original values ("same": a checksum covers the change) or of any values.
 */
async function hostileFrames(kind, good, raw) {
  const n = good.length;
  const cases = [];
  const add = (label, bytes, expect) => cases.push([label, bytes, expect]);
  const blosc = kind.startsWith("blosc");
  const checksummed = kind === "gzip" || kind === "zlib" || kind === "zstd_checksum";
  // Truncated at many lengths.
  const cuts = new Set([0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 12, 15, 16, 17, 20, 24, 32, Math.floor(n / 4), Math.floor(n / 2), n - 100, n - 17, n - 9, n - 8, n - 5, n - 4, n - 3, n - 2, n - 1]);
  for (const cut of [...cuts].filter((c) => c >= 0 && c < n).sort((a, b) => a - b)) add(`truncated to ${cut} bytes`, good.subarray(0, cut), "error");
  // Garbage, plain and behind the format's magic or header.
  for (const [len, seed] of [[1, 1], [7, 2], [64, 3], [n, 4], [3 * CHUNK, 5]]) add(`${len} bytes of garbage`, randomBytes(len, seed), "error");
  add("garbage after the first 16 bytes", concat(good.subarray(0, 16), randomBytes(n - 16, 6)), blosc || kind === "lz4" ? "any" : "error");
  add("the frame followed by garbage", concat(good, randomBytes(16, 7)), "error");
  add("the frame twice", concat(good, good), "error");
  // Bytes flipped (every 1/24th of the frame, whole bytes and single bits).
  for (let i = 0; i < 24; i++) {
    const at = Math.min(n - 1, Math.floor((i * n) / 24));
    add(`byte ${at} flipped`, flip(good, at), checksummed ? "same" : "any");
    add(`bit 0 of byte ${Math.min(n - 1, at + 1)} flipped`, flip(good, Math.min(n - 1, at + 1), 1), checksummed ? "same" : "any");
  }
  // Wrong sizes both ways: valid frames of other sizes (independent encoders).
  const other = (bytes) => encoded(kind, bytes);
  add("a valid frame of half the chunk", await other(raw.subarray(0, CHUNK / 2)), "LENGTH_MISMATCH");
  add("a valid frame one byte short", await other(raw.subarray(0, CHUNK - 1)), "LENGTH_MISMATCH");
  add("a valid frame one byte over", await other(concat(raw, [7])), "LENGTH_MISMATCH");
  add("a valid frame of 64 times the chunk", await other(new Uint8Array(64 * CHUNK).map((_, i) => raw[i % CHUNK])), "LENGTH_MISMATCH");
  add("a valid empty frame", await other(new Uint8Array(0)), "LENGTH_MISMATCH");
  // Kind by kind: bombs, lying headers, checksums.
  if (kind === "zstd" || kind === "zstd_checksum") {
    // 64 RLE blocks of 128 KiB: 8 MiB from 280 bytes, no content size.
    add("RLE blocks yielding 8 MiB", new Uint8Array([...ZSTD_MAGIC, 0x00, 0x38, ...Array.from({ length: 64 }, (_, i) => zstdBlock(i === 63 ? 1 : 0, 1, 131072, [9])).flat()]), "LENGTH_MISMATCH");
    add("content size 2^31 - 1", new Uint8Array([...ZSTD_MAGIC, 0xa0, ...u32le(0x7fffffff), ...zstdBlock(1, 0, 4, [1, 2, 3, 4])]), "LENGTH_MISMATCH");
    add("content size 2^40", new Uint8Array([...ZSTD_MAGIC, 0xe0, 0, 0, 0, 0, 0, 1, 0, 0, ...zstdBlock(1, 1, 131072, [5])]), "LENGTH_MISMATCH");
    if (zstdContentSize(good).width > 0) {
      add("content size one byte short", withZstdContentSize(good, CHUNK - 1), "LENGTH_MISMATCH");
      add("content size one byte over", withZstdContentSize(good, CHUNK + 1), "LENGTH_MISMATCH");
    }
    add("a second frame cut after its magic", concat(good, ZSTD_MAGIC), "error");
    add("a second frame cut after its descriptor", concat(good, [...ZSTD_MAGIC, 0x20]), "error");
    add("a skippable frame's size past the end", concat(good, [0x50, 0x2a, 0x4d, 0x18, ...u32le(0x7ffffff0)]), "error");
    add("a reserved block type", new Uint8Array([...ZSTD_MAGIC, 0x20, 16, ...zstdBlock(1, 3, 16, [])]), "error");
    add("a window larger than zstd allows", new Uint8Array([...ZSTD_MAGIC, 0x00, 0xff, ...zstdBlock(1, 1, 4096, [3])]), "error");
    if (kind === "zstd_checksum") {
      expect(good[4] & 0x04).toBe(4);
      add("its content checksum flipped", flip(good, n - 1), "CHECKSUM_MISMATCH");
      add("its content checksum zeroed", setAt(good, -4, [0, 0, 0, 0]), "CHECKSUM_MISMATCH");
    }
  }
  if (kind === "gzip") {
    add("64 MiB of zeros (a bomb)", new Uint8Array(gzipSync(new Uint8Array(64 << 20), { level: 9 })), "LENGTH_MISMATCH");
    add("64 members (64 times the chunk)", concat(...new Array(64).fill(good)), "LENGTH_MISMATCH");
    add("its CRC-32 flipped", flip(good, n - 6), "CHECKSUM_MISMATCH");
    add("its ISIZE at 2^31 (a lie)", setAt(good, -4, u32le(0x80000000)), "CHECKSUM_MISMATCH");
    add("its ISIZE one byte short", setAt(good, -4, u32le(CHUNK - 1)), "CHECKSUM_MISMATCH");
    add("compression method 7", setAt(good, 2, [7]), "error");
    add("reserved flag bits", setAt(good, 3, [0xe0]), "error");
    add("an FEXTRA length past the end", concat(setAt(good.subarray(0, 10), 3, [0x04]), [0xff, 0xff], good.subarray(10)), "error");
  }
  if (kind === "zlib") {
    add("64 MiB of zeros (a bomb)", new Uint8Array(deflateSync(new Uint8Array(64 << 20), { level: 9 })), "LENGTH_MISMATCH");
    add("its Adler-32 flipped", flip(good, n - 1), "CHECKSUM_MISMATCH");
    add("its Adler-32 zeroed", setAt(good, -4, [0, 0, 0, 0]), "CHECKSUM_MISMATCH");
    add("a header whose check bits fail", flip(good, 1, 1), "error");
    add("a preset dictionary", setAt(good, 0, [0x78, 0xbb]), "error");
    add("a window of 2^16 (CINFO 8)", setAt(good, 0, [0x88, 0x1b]), "error");
  }
  if (kind === "lz4") {
    add("size header 2^31 - 1", setAt(good, 0, u32le(0x7fffffff)), "LENGTH_MISMATCH");
    add("size header 2^32 - 1", setAt(good, 0, u32le(0xffffffff)), "LENGTH_MISMATCH");
    add("size header half", setAt(good, 0, u32le(CHUNK / 2)), "LENGTH_MISMATCH");
    add("size header double", setAt(good, 0, u32le(CHUNK * 2)), "LENGTH_MISMATCH");
    add("size header 0", setAt(good, 0, u32le(0)), "LENGTH_MISMATCH");
    // 1 MiB of zeros whose header claims the chunk: the block would overflow it.
    const bomb = await encoded("lz4", new Uint8Array(1 << 20));
    add("a 1 MiB block under a header that says the chunk", setAt(bomb, 0, u32le(CHUNK)), "CORRUPT_DATA");
  }
  if (blosc) {
    const header = (at, v) => setAt(good, at, u32le(v));
    add("nbytes 2 GiB - 1", header(4, 0x7fffffff), "LENGTH_MISMATCH");
    add("nbytes negative", header(4, 0x80000000), ["CORRUPT_DATA", "LENGTH_MISMATCH"]);
    add("nbytes half", header(4, CHUNK / 2), "LENGTH_MISMATCH");
    add("cbytes 1000 past the frame", header(12, n + 1000), "CORRUPT_DATA");
    add("cbytes one short of the frame", header(12, n - 1), "CORRUPT_DATA");
    add("cbytes 0", header(12, 0), "CORRUPT_DATA");
    add("cbytes and the frame one byte short", setAt(good.subarray(0, n - 1), 12, u32le(n - 1)), "CORRUPT_DATA");
    add("blocksize 0", header(8, 0), "CORRUPT_DATA");
    add("blocksize 2^30", header(8, 1 << 30), "CORRUPT_DATA");
    add("blocksize 1", header(8, 1), "CORRUPT_DATA");
    add("typesize 0", setAt(good, 3, [0]), ["CORRUPT_DATA", "any"]);
    add("typesize 255", setAt(good, 3, [255]), "any");
    add("the memcpyed flag on a compressed frame", setAt(good, 2, [good[2] | 0x02]), "CORRUPT_DATA");
    add("format version 3 (c-blosc2)", setAt(good, 0, [3]), "UNSUPPORTED_CODEC");
    add("format version 1", setAt(good, 0, [1]), "CORRUPT_DATA");
    // Not snappy data: refused before it goes to numcodecs.js, which would hand back garbage (js/compressors/handover.js).
    add("snappy inside", setAt(good, 2, [(good[2] & 0x1f) | (2 << 5)]), "CORRUPT_DATA");
    add("compressor code 7", setAt(good, 2, [(good[2] & 0x1f) | (7 << 5)]), "CORRUPT_DATA");
    add("the first block offset past the frame", setAt(good, 16, u32le(n + 5)), "CORRUPT_DATA");
    add("a memcpyed frame of 1 MiB claiming the chunk", concat(setAt(good.subarray(0, 16), 2, [good[2] | 0x02]), new Uint8Array(1 << 20)), "CORRUPT_DATA");
    // A frame of 1 MiB of zeros whose nbytes says the chunk.
    const bomb = await encoded(kind, new Uint8Array(1 << 20));
    add("a 1 MiB frame whose nbytes says the chunk", setAt(bomb, 4, u32le(CHUNK)), "CORRUPT_DATA");
  }
  return cases;
}

// ---- arrays ---------------------------------------------------------------------------

const SHAPE = [96, 64];
const CHUNKS = [32, 64];
const V2_COMPRESSORS = {
  zstd: { id: "zstd", level: 3 }, zstd_checksum: { id: "zstd", level: 3 }, gzip: { id: "gzip", level: 1 }, zlib: { id: "zlib", level: 1 },
  lz4: { id: "lz4", acceleration: 1 },
};
const v3Compressor = (kind) =>
  kind.startsWith("zstd") ? { name: "zstd", configuration: { level: 3, checksum: kind === "zstd_checksum" } }
    : kind === "gzip" ? { name: "gzip", configuration: { level: 1 } }
      : kind === "zlib" ? { name: "numcodecs.zlib", configuration: { level: 1 } }
        : kind === "lz4" ? { name: "numcodecs.lz4", configuration: { acceleration: 1 } }
          : { name: "blosc", configuration: { typesize: 2, cname: kind.slice(6), clevel: 5, shuffle: "shuffle", blocksize: 0 } };
const n5Compression = (kind) =>
  kind.startsWith("zstd") ? { type: "zstd", level: 3 } : kind === "gzip" ? { type: "gzip", level: 1 } : kind === "zlib" ? { type: "gzip", level: 1, useZlib: true }
    : { type: "blosc", cname: kind.slice(6), clevel: 5, shuffle: 1, blocksize: 0 };
const BYTES_LE = { name: "bytes", configuration: { endian: "little" } };
const v3Doc = (codecs, chunkShape = CHUNKS) => ({
  zarr_format: 3, node_type: "array", shape: SHAPE, data_type: "uint16",
  chunk_grid: { name: "regular", configuration: { chunk_shape: chunkShape } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } }, fill_value: 0, codecs, attributes: {},
});
const withCrc = (frame) => concat(frame, u32le(crc32c(frame)));
const n5Block = (frame) => concat([0, 0, 0, 2, 0, 0, 0, 64, 0, 0, 0, 32], frame);

/**
 * One array of `format` whose first chunk `setFirst(bytes)` replaces:
 * { store, path, setFirst, expected (the good values, C order) }.
 */
function arrayOf(format, kind, good) {
  const files = [];
  let keys;
  let wrap = (bytes) => bytes;
  let write;
  if (format === "v2") {
    files.push(["/a/.zarray", { zarr_format: 2, shape: SHAPE, chunks: CHUNKS, dtype: "<u2", compressor: V2_COMPRESSORS[kind] ?? { id: "blosc", cname: kind.slice(6), clevel: 5, shuffle: 1, blocksize: 0 }, fill_value: 0, order: "C", filters: null }]);
    keys = ["/a/0.0", "/a/1.0", "/a/2.0"];
  } else if (format === "v3" || format === "v3+crc32c") {
    const crc = format === "v3+crc32c";
    files.push(["/a/zarr.json", v3Doc([BYTES_LE, v3Compressor(kind), ...(crc ? [{ name: "crc32c" }] : [])])]);
    keys = ["/a/c/0/0", "/a/c/1/0", "/a/c/2/0"];
    if (crc) wrap = withCrc;
  } else if (format === "v3 sharded") {
    const index = [BYTES_LE, { name: "crc32c" }];
    files.push(["/a/zarr.json", v3Doc([{ name: "sharding_indexed", configuration: { chunk_shape: CHUNKS, codecs: [BYTES_LE, v3Compressor(kind)], index_codecs: index, index_location: "end" } }], SHAPE)]);
    keys = ["/a/c/0/0"];
    write = (store, first) => store.files.set("/a/c/0/0", shard([first, good, good]));
  } else {
    files.push(["/a/attributes.json", { dimensions: [...SHAPE].reverse(), blockSize: [...CHUNKS].reverse(), dataType: "uint16", compression: n5Compression(kind) }]);
    keys = ["/a/0/0", "/a/0/1", "/a/0/2"];
    wrap = n5Block;
  }
  const base = memoryStore(files);
  write ??= (store, first) => keys.forEach((k, i) => store.files.set(k, wrap(i === 0 ? first : good)));
  write(base, good);
  const store = format === "n5" ? withN5(base) : base;
  const expected = new Uint8Array(3 * CHUNK);
  for (let i = 0; i < 3; i++) expected.set(RAW, i * CHUNK);
  return { store, format, setFirst: (bytes) => write(base, bytes), expected };
}

// The zarrita module (and its version) each array was opened with.
const opened = new WeakMap();
const zarrita = (arr) => opened.get(arr).zarr;
const versionOf = (arr) => opened.get(arr).version;

async function open([version, zarr], a) {
  const location = zarr.root(a.store).resolve("a");
  const arr = await (a.format === "v2" ? zarr.open.v2(location, { kind: "array" }) : zarr.open(location, { kind: "array" }));
  opened.set(arr, { zarr, version });
  return arr;
}

/** { values } (C-order bytes) or { error }, within the time limit. */
async function outcome(promise) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${TIME_LIMIT_MS} ms`)), TIME_LIMIT_MS);
  });
  try {
    const result = await Promise.race([promise, limit]);
    return { values: cOrderBytes(result) };
  } catch (error) {
    return { error };
  } finally {
    clearTimeout(timer);
  }
}

const sameBytes = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/** What is wrong with `got` for a case expecting `expectation` ("" if nothing). */
function judge(got, expectation, want) {
  if (got.error) {
    const error = packageErrorOf(got.error);
    if (!(error instanceof ZarrCodecError)) return `not the package's error: ${got.error?.name}: ${got.error?.message}`;
    if (typeof error.code !== "string" || error.code.length === 0) return "an error without a code";
    const codes = [expectation].flat();
    if (codes.includes("error") || codes.includes("same") || codes.includes("any") || codes.includes(error.code)) return "";
    return `code ${error.code} (${error.message}), expected ${codes.join(" or ")}`;
  }
  const codes = [expectation].flat();
  if (codes.includes("any")) return got.values.length === want.length ? "" : `read ${got.values.length} bytes, expected ${want.length}`;
  if (codes.includes("same")) return sameBytes(got.values, want) ? "" : "read other values where a checksum covers the change";
  return `read (${got.values.length} bytes), expected ${codes.join(" or ")}`;
}

const KINDS = ["zstd", "zstd_checksum", "gzip", "zlib", "lz4", ...CNAMES.map((c) => `blosc_${c}`)];
const FORMATS_OF = (kind) => ["v2", "v3", "v3+crc32c", "v3 sharded", ...(kind === "lz4" || kind === "zstd_checksum" ? [] : ["n5"])];

let memoryAfterGoodReads;
beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

describe.each(KINDS)("%s", (kind) => {
  test.each(FORMATS_OF(kind))("%s: each hostile first chunk is the package's error (or, where allowed, a chunk of values); the rest reads right", async (format) => {
    const n5 = format === "n5";
    const good = await goodFrame(kind, n5);
    const raw = n5 ? RAW_BE : RAW;
    const a = arrayOf(format, kind, good);
    const want = n5 ? new Uint8Array(3 * CHUNK).map((_, i) => RAW[i % CHUNK]) : a.expected;
    const arrays = await Promise.all([ZARRITA7, ...OLDER].map((z) => open(z, a)));
    // The good array, whole, through each.
    for (const arr of arrays) {
      expect(sameBytes((await outcome(read(arr))).values ?? [], want)).toBe(true);
      expect(sameBytes((await outcome(zarrita(arr).get(arr))).values ?? [], want)).toBe(true);
    }
    memoryAfterGoodReads = Math.max(memoryAfterGoodReads ?? 0, diagnostics().wasmMemoryBytes());
    const problems = [];
    const cases = await hostileFrames(kind, good, raw);
    for (const [i, [label, bytes, expectation]] of cases.entries()) {
      a.setFirst(bytes);
      // zarrita keeps a shard's index once read: a shard rewritten under
      // it is opened again.
      if (format === "v3 sharded") arrays.splice(0, arrays.length, ...(await Promise.all([ZARRITA7, ...OLDER].map((z) => open(z, a)))));
      // zarrita 0.7 for every case; 0.5 and 0.6 for every 4th, and for each
      // case that names its code.
      const using = typeof expectation === "string" && /^[A-Z_]+$/.test(expectation) || i % 4 === 0 ? arrays : arrays.slice(0, 1);
      for (const arr of using) {
        const z = zarrita(arr);
        const first = [z.slice(0, 32), null];
        const wantFirst = want.subarray(0, CHUNK);
        for (const [how, got] of [["zarr.get", await outcome(z.get(arr, first))], ["read", await outcome(read(arr, first))]]) {
          const wrong = judge(got, expectation, wantFirst);
          if (wrong) problems.push(`${format} ${kind} ${label}, ${how} (zarrita ${versionOf(arr)}): ${wrong}`);
        }
        // The siblings, whatever the first chunk did.
        const rest = [z.slice(32, 96), null];
        for (const [how, got] of [["zarr.get", await outcome(z.get(arr, rest))], ["read", await outcome(read(arr, rest))]]) {
          if (!got.values || !sameBytes(got.values, want.subarray(CHUNK))) problems.push(`${format} ${kind} ${label}: the good chunks after it, ${how}: ${got.error?.message ?? "other values"}`);
        }
      }
    }
    // Whole again: the instance is intact.
    a.setFirst(good);
    if (format === "v3 sharded") arrays.splice(0, arrays.length, ...(await Promise.all([ZARRITA7, ...OLDER].map((z) => open(z, a)))));
    for (const arr of arrays) {
      expect(sameBytes((await outcome(read(arr))).values ?? [], want)).toBe(true);
      expect(sameBytes((await outcome(zarrita(arr).get(arr))).values ?? [], want)).toBe(true);
    }
    expect(problems).toEqual([]);
    expect(diagnostics().wasmMemoryBytes()).toBeLessThanOrEqual(memoryAfterGoodReads + MEMORY_SLACK);
  });
});


// Where the metadata cannot give a chunk's size (variable-length strings),
// the decode is bounded by a limit (1 GiB), and a frame's own claim is
// taken only as far as its bytes could decode to (a zstd block of at least
// 4 bytes yields at most 128 KiB): a 17-byte frame claiming 1 GiB is
// refused before anything is allocated, not a 1 GiB wasm memory that never
// shrinks.
describe("a chunk of unknown size whose frame claims more than its bytes can hold", () => {
  // RFC 8878 by hand: magic, descriptor (single segment, 8-byte content
  // size), the content size 2^30, one last RLE block of 128 KiB.
  const CLAIM = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0xe0, 0, 0, 0, 0x40, 0, 0, 0, 0, ...u32le(1 | (1 << 1) | (131072 << 3)).slice(0, 3), 7]);
  const vlenUtf8 = (items) => {
    const parts = items.map((t) => new TextEncoder().encode(t));
    const out = new Uint8Array(4 + parts.reduce((n, p) => n + 4 + p.length, 0));
    const view = new DataView(out.buffer);
    view.setUint32(0, items.length, true);
    let at = 4;
    for (const p of parts) {
      view.setUint32(at, p.length, true);
      out.set(p, at + 4);
      at += 4 + p.length;
    }
    return out;
  };

  // (zarrita 0.5 has no "string" data type.)
  test.each(ZARRITAS.filter(([v]) => v === "0.6.2" || v.startsWith("0.7")))("zarrita %s: CORRUPT_DATA, wasm memory does not grow, the next chunk reads", async (_v, z) => {
    expect(CLAIM.length).toBe(17);
    const good = new Uint8Array(await ZstdJs.fromConfig({ level: 1 }).encode(vlenUtf8(["ab", "ünï"])));
    const store = memoryStore([
      ["/s/zarr.json", {
        zarr_format: 3, node_type: "array", shape: [4], data_type: "string", fill_value: "",
        chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
        chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
        codecs: [{ name: "vlen-utf8" }, { name: "zstd", configuration: { level: 1, checksum: false } }], attributes: {},
      }],
      ["/s/c/0", CLAIM],
      ["/s/c/1", good],
    ]);
    const arr = await z.open(z.root(store).resolve("s"), { kind: "array" });
    const before = diagnostics().wasmMemoryBytes();
    for (const attempt of [() => z.get(arr, [z.slice(0, 2)]), () => read(arr, [z.slice(0, 2)])]) {
      const error = packageErrorOf(await attempt().then(() => undefined, (e) => e));
      expect(error).toBeInstanceOf(ZarrCodecError);
      expect([error.code, error.message]).toEqual(["CORRUPT_DATA", "zstd: the frame says it decodes to 1073741824 bytes, more than its 17 bytes can hold (at most 32768 per byte: 557056)"]);
    }
    expect(diagnostics().wasmMemoryBytes()).toBeLessThanOrEqual(before + MEMORY_SLACK);
    expect(Array.from((await z.get(arr, [z.slice(2, 4)])).data)).toEqual(["ab", "ünï"]);
  });
});
