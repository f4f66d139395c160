// The compressed-chunk fuzzer: random small stores whose chunks are
// compressed (Zarr v2, Zarr v3 with or without a crc32c after the
// compressor, v3 sharded with compressed inner chunks, index at the end or
// the start; N5), every codec with random parameters (zstd levels -3..19,
// with or without a content checksum; gzip and zlib levels 0..9; lz4
// accelerations; blosc with every cname, clevel 0..9, every shuffle and
// random block sizes), 1-d to 3-d, every integer and float width, little-
// and big-endian, partial edge chunks, missing chunks, compressible and
// random values. The chunks are compressed by the C libraries numcodecs
// uses, in a Python process (compressed-reference.py), then most runs
// damage one or a few of them: truncated, bytes or bits flipped, bytes
// inserted, deleted or replaced, a range duplicated, the frame twice,
// header fields set to extremes (blosc's sizes, flags and typesize, lz4's
// size header, zstd's frame header, content size and block headers,
// gzip's method, flags, CRC-32 and ISIZE, zlib's header and Adler-32),
// garbage appended, another chunk's frame in its place, nothing; with a
// crc32c after the compressor, the checksum recomputed or left stale.
// The same Python process decodes each damaged chunk to the chunk's size
// with the C libraries directly (the reference). The reader thread
// (compressed-worker.mjs) reads the whole array, the region of a damaged
// chunk, the region of an undamaged one and a random box, each with
// zarr.get and with read, through zarrita 0.7.5 (sometimes 0.6.2 or 0.5.4).
//
// Outcomes, counted by name (per selection and method):
//   - read as the reference: the values, from the values written and the
//     reference's decoding of each damaged chunk;
//   - refused, as the reference refuses: the package's error with a code
//     where a chunk of the box is one the reference refuses;
//   - refused, the reference decoded: the package's error for a damaged
//     chunk the reference decodes (the package is stricter: counted, with
//     the codec and the error's code);
//   - read the undamaged values, the reference refused: a damaged chunk
//     read as exactly the values it held before the damage, which the
//     reference refuses (libdeflate accepts some invalid DEFLATE codes
//     that zlib refuses; gzip's CRC-32 and zlib's Adler-32 then vouch for
//     the data): counted, with the codec;
//   - read as a wasm32 zstd reads it, the 64-bit reference otherwise: a
//     damaged zstd frame (alone or in blosc) with no checksum to tell,
//     which zstd decodes to other values in a 64-bit build than in a
//     32-bit one; held against numcodecs.js's zstd and blosc (wasm32, a
//     build of their own) instead (secondOpinion below);
//   - zarr.get: index at the start (zarrita reads shard indexes from the
//     end; not judged);
//   - the reference crashed (c-blosc on hostile data; not judged, but the
//     package must still answer with its error or values);
//   - failures, which stop the run with the seed, the run and the case: a
//     wrong value, a read of what the reference refuses, a refusal of a
//     box of undamaged chunks, an error that is not the package's (or
//     has no code), a TypeError or RangeError from the package's code, a
//     hang (10 s), wasm memory past 64 MiB, a polluted prototype.
//
//   node tests/fuzz/js/compressed.mjs <seconds> <seed> [--json] [--run N]
//   (--run N: only run N of the seed, printed; COMPRESSED_FUZZ_FULL=1 prints
//   every chunk's bytes whole; npm run fuzz runs it long)
import { fileURLToPath } from "node:url";
import BloscJs from "numcodecs/blosc";
import ZstdJs from "numcodecs/zstd";
import { Random } from "./random.mjs";
import { ReferenceProcess, Reader } from "./read-reference.mjs";
import { crc32c } from "../../js/support/reference.js";
import { shard } from "../../js/support/memory-store.js";
import { cat, put, u32le } from "./bytes.mjs";

const MAX_WASM_BYTES = 64 * 1024 * 1024;
const DEADLINE_MS = 10000;

export const COMPRESSED_OUTCOMES = [
  "read as the reference",
  "refused, as the reference refuses",
  "refused, the reference decoded",
  "read the undamaged values, the reference refused",
  "read as a wasm32 zstd reads it, the 64-bit reference otherwise",
  "zarr.get: index at the start (zarrita reads shard indexes from the end)",
  "the reference crashed",
  // failures
  "wrong value",
  "read, the reference refused",
  "refused undamaged chunks",
  "not the package's error",
  "package TypeError or RangeError",
  "hang",
  "wasm memory grew",
  "prototype polluted",
];
const FAILURES = new Set(COMPRESSED_OUTCOMES.slice(COMPRESSED_OUTCOMES.indexOf("wrong value")));

// ---- describing a store ------------------------------------------------------------------

const TYPES = { uint8: ["|u1", 1], int8: ["|i1", 1], int16: ["i2", 2], uint16: ["u2", 2], int32: ["i4", 4], uint32: ["u4", 4], float32: ["f4", 4], float64: ["f8", 8], int64: ["i8", 8], uint64: ["u8", 8] };
const N5_TYPES = ["uint8", "int8", "int16", "uint16", "int32", "uint32", "float32", "float64", "int64", "uint64"];
const CNAMES = ["blosclz", "lz4", "lz4hc", "zlib", "zstd"];
const SHUFFLE_NAMES = ["noshuffle", "shuffle", "bitshuffle"];
const product = (v) => v.reduce((a, b) => a * b, 1);

function compressorOf(r, format) {
  const kinds = format === "n5" ? ["gzip", "zlib", "zstd", "blosc", "blosc"] : ["zstd", "gzip", "zlib", "lz4", "blosc", "blosc"];
  const name = r.pick(kinds);
  switch (name) {
    case "zstd":
      return { name, level: Math.min(19, r.int(23) - 3), checksum: format.startsWith("v3") && r.int(2) === 0 };
    case "gzip":
    case "zlib":
      return { name, level: r.int(10) };
    case "lz4":
      return { name, acceleration: 1 + (r.int(3) === 0 ? r.int(64) : 0) };
    default:
      return {
        name, cname: r.pick(CNAMES), clevel: r.int(10), shuffle: r.int(3),
        blocksize: r.int(3) === 0 ? r.pick([16, 128, 256, 1000, 4096, 65536]) : 0,
      };
  }
}

/** A random store description. */
export function describeStore(r) {
  const format = r.pick(["v2", "v2", "v3", "v3", "v3 sharded", "n5"]);
  const type = format === "n5" ? r.pick(N5_TYPES) : r.pick(Object.keys(TYPES));
  const width = TYPES[type][1];
  const bigEndian = width > 1 && (format === "n5" || r.int(4) === 0);
  const rank = 1 + r.int(3);
  const maxElements = Math.floor((r.int(2) ? 2048 : 8192) / width);
  let chunk = Array.from({ length: rank }, () => 1 + r.int([0, 900, 48, 14][rank]));
  while (product(chunk) > maxElements) chunk = chunk.map((c) => Math.max(1, Math.floor(c / 2)));
  let per;
  if (format === "v3 sharded") per = Array.from({ length: rank }, () => 1 + r.int(rank === 1 ? 4 : 2));
  const outer = per ? chunk.map((c, i) => c * per[i]) : chunk;
  const shape = outer.map((c) => Math.max(1, c * (1 + r.int(2)) - r.int(c)));
  const compressor = compressorOf(r, format);
  const crc = format.startsWith("v3") && r.int(3) === 0;
  const zarrita = r.int(5) === 0 ? r.pick(["0.6.2", "0.5.4"]) : "0.7.5";
  return {
    format, type, bigEndian, shape, chunk, per, indexAt: per ? r.pick(["end", "end", "start"]) : undefined,
    chain: [compressor, ...(crc ? [{ name: "crc32c" }] : [])],
    values: r.pick(["smooth", "smooth", "runs", "random", "zeros"]),
    // zarrita 0.5 and 0.6 cannot fill a missing chunk of a 64-bit integer
    // type (a TypeError of theirs: "Cannot convert 0 to a BigInt").
    missing: r.int(3) === 0 && !(zarrita !== "0.7.5" && /int64/.test(type)) ? 0.2 : 0,
    zarrita,
  };
}

/** The array's values: little-endian bytes, C order. */
function valuesOf(spec, r) {
  const width = TYPES[spec.type][1];
  const n = product(spec.shape);
  const out = new Uint8Array(n * width);
  if (spec.values === "random") return r.bytes(out.length);
  if (spec.values === "zeros") return out;
  let run = 0;
  let v = 0;
  for (let i = 0; i < n; i++) {
    if (spec.values === "runs") {
      if (run-- <= 0) {
        run = r.int(40);
        v = r.next();
      }
    } else {
      v = (Math.round(600 + 400 * Math.sin(i / 7)) + (r.next() & 15)) & 0xfff;
    }
    for (let k = 0; k < width; k++) out[i * width + k] = k < 4 ? (v >>> (8 * k)) & 0xff : 0;
  }
  return out;
}

// ---- chunks --------------------------------------------------------------------------------

function* coordsOf(counts) {
  const index = new Array(counts.length).fill(0);
  if (counts.some((c) => c === 0)) return;
  while (true) {
    yield index.slice();
    let i = counts.length - 1;
    while (i >= 0 && ++index[i] === counts[i]) index[i--] = 0;
    if (i < 0) return;
  }
}

/** A chunk's stored bytes before compression: C order, padded with 0, in the stored byte order. */
function chunkRaw(spec, values, coords) {
  const width = TYPES[spec.type][1];
  const stride = spec.shape.map((_, i) => product(spec.shape.slice(i + 1)));
  const n = product(spec.chunk);
  const out = new Uint8Array(n * width);
  const local = new Array(spec.chunk.length).fill(0);
  for (let e = 0; e < n; e++) {
    let at = 0;
    let inside = true;
    for (let i = 0; i < local.length; i++) {
      const g = coords[i] * spec.chunk[i] + local[i];
      if (g >= spec.shape[i]) inside = false;
      at += g * stride[i];
    }
    if (inside) {
      for (let k = 0; k < width; k++) out[e * width + k] = values[at * width + (spec.bigEndian ? width - 1 - k : k)];
    }
    for (let i = local.length - 1; i >= 0 && ++local[i] === spec.chunk[i]; i--) local[i] = 0;
  }
  return out;
}

// ---- damage --------------------------------------------------------------------------------

const u32be = (v) => u32le(v).reverse();
function extreme(r, size, length) {
  return r.pick([0, 1, 2, 15, 16, 17, size - 1, size, size + 1, 2 * size, 64 * size, length - 1, length, length + 1, 0x7fffffff, 0x80000000, 0xffffffff, r.next()]) >>> 0;
}

/** A header field of `name`'s frame `b` set to an extreme: [bytes, what]. */
function header(name, b, size, r) {
  const n = b.length;
  switch (name) {
    case "blosc": {
      const field = r.pick(["nbytes", "blocksize", "cbytes", "cbytes", "version", "compversion", "flags", "typesize", "offset"]);
      if (field === "nbytes") return [put(b, 4, u32le(extreme(r, size, n))), field];
      if (field === "blocksize") return [put(b, 8, u32le(extreme(r, size, n))), field];
      if (field === "cbytes") return [put(b, 12, u32le(extreme(r, size, n))), field];
      if (field === "version") return [put(b, 0, [r.pick([0, 1, 3, 4, 255])]), field];
      if (field === "compversion") return [put(b, 1, [r.pick([0, 2, 3, 255])]), field];
      if (field === "flags") return [put(b, 2, [r.int(2) ? r.next() & 0xff : b[2] ^ (1 << r.int(8))]), field];
      if (field === "typesize") return [put(b, 3, [r.pick([0, 1, 2, 3, 4, 8, 16, 17, 255])]), field];
      return [put(b, 16 + 4 * r.int(4), u32le(extreme(r, size, n))), field];
    }
    case "lz4":
      return [put(b, 0, u32le(extreme(r, size, n))), "size header"];
    case "zstd": {
      if (n < 6) return [b, "none"];
      const fhd = b[4];
      const single = (fhd >> 5) & 1;
      const fcsAt = 5 + (single ? 0 : 1) + [0, 1, 2, 4][fhd & 3];
      const fcsWidth = fhd >> 6 === 0 ? single : [0, 2, 4, 8][fhd >> 6];
      const field = r.pick(["descriptor", "window", "content size", "block header", "block header", "checksum"]);
      if (field === "descriptor") return [put(b, 4, [r.int(2) ? r.next() & 0xff : fhd ^ (1 << r.int(8))]), field];
      if (field === "window") return [single ? b : put(b, 5, [r.pick([0, 0xff, 0x38, 0xf8, r.next() & 0xff])]), field];
      if (field === "content size") {
        const v = extreme(r, size, n);
        const bytes = fcsWidth === 8 ? [...u32le(v), ...u32le(r.int(2) ? 0 : r.next())] : fcsWidth === 4 ? u32le(v) : fcsWidth === 2 ? [(v - 256) & 0xff, ((v - 256) >>> 8) & 0xff] : fcsWidth === 1 ? [v & 0xff] : [];
        return [put(b, fcsAt, bytes), field];
      }
      if (field === "block header") {
        const at = fcsAt + fcsWidth;
        const h = (r.int(2) ? 1 : 0) | (r.int(4) << 1) | ((extreme(r, size, n) & 0x1fffff) << 3);
        return [put(b, at, [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff]), field];
      }
      return [fhd & 4 ? put(b, n - 4, u32le(r.next())) : b, field];
    }
    case "gzip": {
      const field = r.pick(["method", "flags", "mtime", "crc", "isize", "isize"]);
      if (field === "method") return [put(b, 2, [r.pick([0, 7, 9, 255])]), field];
      if (field === "flags") return [put(b, 3, [r.pick([1, 2, 4, 8, 16, 0x20, 0xe0, 0xff, r.next() & 0xff])]), field];
      if (field === "mtime") return [put(b, 4, u32le(r.next())), field];
      if (field === "crc") return [put(b, n - 8, u32le(r.next())), field];
      return [put(b, n - 4, u32le(extreme(r, size, n))), field];
    }
    case "zlib": {
      const field = r.pick(["cmf", "flg", "adler"]);
      if (field === "cmf") return [put(b, 0, [r.pick([0x08, 0x18, 0x78, 0x7f, 0x88, 0xf8, r.next() & 0xff])]), field];
      if (field === "flg") return [put(b, 1, [r.pick([0x01, 0x20, 0x9c, 0xda, 0xbb, r.next() & 0xff])]), field];
      return [put(b, n - 4, u32be(r.int(2) ? 0 : r.next())), field];
    }
    default:
      return [b, "none"];
  }
}

/** `frame` damaged by 1 to 3 operations: { bytes, ops }. */
function damage(frame, name, size, r, others) {
  let b = frame;
  const ops = [];
  const count = r.int(4) === 0 ? 2 + r.int(2) : 1;
  for (let k = 0; k < count; k++) {
    const op = r.pick(["truncate", "truncate", "flip", "flip", "bit", "insert", "delete", "replace", "duplicate", "twice", "header", "header", "header", "header", "append", "other frame", "empty", "garbage"]);
    const n = b.length;
    const at = r.int(Math.max(1, n));
    switch (op) {
      case "truncate":
        b = b.subarray(0, r.int(4) === 0 ? n - 1 - r.int(Math.min(8, Math.max(1, n))) : r.int(Math.max(1, n)));
        if (b.length < 0) b = new Uint8Array(0);
        break;
      case "flip": {
        const times = 1 + r.int(4);
        b = b.slice();
        for (let i = 0; i < times && b.length; i++) b[r.int(b.length)] ^= 1 + r.int(255);
        break;
      }
      case "bit":
        if (n) b = put(b, at, [b[at] ^ (1 << r.int(8))]);
        break;
      case "insert":
        b = cat(b.subarray(0, at), r.bytes(1 + r.int(16)), b.subarray(at));
        break;
      case "delete":
        b = cat(b.subarray(0, at), b.subarray(Math.min(n, at + 1 + r.int(16))));
        break;
      case "replace": {
        const len = 1 + r.int(16);
        b = cat(b.subarray(0, at), r.bytes(Math.min(len, n - at)), b.subarray(Math.min(n, at + len)));
        break;
      }
      case "duplicate": {
        const len = 1 + r.int(64);
        b = cat(b.subarray(0, at + Math.min(len, n - at)), b.subarray(at, Math.min(n, at + len)), b.subarray(Math.min(n, at + len)));
        break;
      }
      case "twice":
        b = cat(b, b);
        break;
      case "header": {
        const [bytes, what] = header(name, b, size, r);
        b = bytes;
        ops.push(`${name} ${what}`);
        continue;
      }
      case "append":
        b = cat(b, r.int(2) ? new Uint8Array(1 + r.int(32)) : r.bytes(1 + r.int(32)));
        break;
      case "other frame":
        if (others.length) b = r.pick(others);
        break;
      case "empty":
        b = new Uint8Array(0);
        break;
      default:
        b = r.bytes(r.pick([1, 4, 16, 64, n, 2 * n]));
    }
    ops.push(op);
  }
  return { bytes: b, ops };
}

// ---- metadata and files ----------------------------------------------------------------------

const json = (o) => new TextEncoder().encode(JSON.stringify(o));

function v2Compressor(c) {
  const { name, ...rest } = c;
  return { id: name, ...rest };
}
function v3Codec(c, width) {
  if (c.name === "crc32c") return { name: "crc32c" };
  if (c.name === "zstd") return { name: "zstd", configuration: { level: c.level, checksum: c.checksum } };
  if (c.name === "gzip") return { name: "gzip", configuration: { level: c.level } };
  if (c.name === "zlib") return { name: "numcodecs.zlib", configuration: { level: c.level } };
  if (c.name === "lz4") return { name: "numcodecs.lz4", configuration: { acceleration: c.acceleration } };
  return { name: "blosc", configuration: { typesize: width, cname: c.cname, clevel: c.clevel, shuffle: SHUFFLE_NAMES[c.shuffle], blocksize: c.blocksize } };
}
function n5Compression(c) {
  if (c.name === "gzip") return { type: "gzip", level: c.level };
  if (c.name === "zlib") return { type: "gzip", level: c.level, useZlib: true };
  if (c.name === "zstd") return { type: "zstd", level: c.level };
  return { type: "blosc", cname: c.cname, clevel: c.clevel, shuffle: c.shuffle, blocksize: c.blocksize };
}

function metadataOf(spec) {
  const [code, width] = TYPES[spec.type];
  if (spec.format === "v2") {
    const dtype = width === 1 ? code : `${spec.bigEndian ? ">" : "<"}${code}`;
    return ["/a/.zarray", json({ zarr_format: 2, shape: spec.shape, chunks: spec.chunk, dtype, compressor: v2Compressor(spec.chain[0]), fill_value: 0, order: "C", filters: null })];
  }
  if (spec.format === "n5") {
    return ["/a/attributes.json", json({ dimensions: [...spec.shape].reverse(), blockSize: [...spec.chunk].reverse(), dataType: spec.type, compression: n5Compression(spec.chain[0]) })];
  }
  const bytes = width === 1 ? { name: "bytes" } : { name: "bytes", configuration: { endian: spec.bigEndian ? "big" : "little" } };
  const chain = [bytes, ...spec.chain.map((c) => v3Codec(c, width))];
  const outer = spec.per ? spec.chunk.map((c, i) => c * spec.per[i]) : spec.chunk;
  const codecs = spec.per
    ? [{ name: "sharding_indexed", configuration: { chunk_shape: spec.chunk, codecs: chain, index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }], index_location: spec.indexAt } }]
    : chain;
  return ["/a/zarr.json", json({
    zarr_format: 3, node_type: "array", shape: spec.shape, data_type: spec.type,
    chunk_grid: { name: "regular", configuration: { chunk_shape: outer } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } }, fill_value: 0, codecs, attributes: {},
  })];
}

function n5Header(chunk) {
  const dims = [...chunk].reverse();
  const out = new Uint8Array(4 + 4 * dims.length);
  const view = new DataView(out.buffer);
  view.setUint16(2, dims.length);
  dims.forEach((d, k) => view.setUint32(4 + 4 * k, d));
  return out;
}

/** The store's files from each chunk's stored bytes (key "i,j,k" of the chunk grid; undefined: missing). */
function filesOf(spec, stored) {
  const files = new Map([metadataOf(spec)]);
  const grid = spec.shape.map((s, i) => Math.ceil(s / spec.chunk[i]));
  if (spec.per) {
    const shards = spec.shape.map((s, i) => Math.ceil(s / (spec.chunk[i] * spec.per[i])));
    for (const sc of coordsOf(shards)) {
      const inner = [];
      for (const local of coordsOf(spec.per)) {
        const coords = sc.map((s, i) => s * spec.per[i] + local[i]);
        inner.push(coords.every((c, i) => c < grid[i]) ? stored.get(coords.join(",")) ?? null : null);
      }
      if (inner.some((c) => c)) files.set(`/a/c/${sc.join("/")}`, shard(inner, { indexAt: spec.indexAt }));
    }
    return files;
  }
  for (const coords of coordsOf(grid)) {
    const bytes = stored.get(coords.join(","));
    if (!bytes) continue;
    if (spec.format === "v2") files.set(`/a/${coords.join(".")}`, bytes);
    else if (spec.format === "n5") files.set(`/a/${[...coords].reverse().join("/")}`, cat(n5Header(spec.chunk), bytes));
    else files.set(`/a/c/${coords.join("/")}`, bytes);
  }
  return files;
}

// ---- the reference's values --------------------------------------------------------------------

/** What a box (per axis [start, stop)) holds: { bytes } (little-endian, C order), or { refused } / { crashed }. */
function expectedBox(spec, box, decoded) {
  const width = TYPES[spec.type][1];
  const axes = box ?? spec.shape.map((s) => [0, s]);
  const counts = axes.map(([a, b]) => b - a);
  const out = new Uint8Array(product(counts) * width);
  const touched = new Set();
  let e = 0;
  for (const index of coordsOf(counts)) {
    const g = index.map((v, i) => axes[i][0] + v);
    const coords = g.map((v, i) => Math.floor(v / spec.chunk[i]));
    const key = coords.join(",");
    touched.add(key);
    const d = decoded.get(key);
    if (d?.refused || d?.crashed) {
      e++;
      continue;
    }
    if (d?.bytes) {
      const local = g.map((v, i) => v % spec.chunk[i]);
      const at = local.reduce((s, v, i) => s * spec.chunk[i] + v, 0);
      for (let k = 0; k < width; k++) out[e * width + k] = d.bytes[at * width + (spec.bigEndian ? width - 1 - k : k)];
    }
    e++;
  }
  const states = [...touched].map((k) => decoded.get(k));
  return {
    bytes: out,
    shape: counts,
    refused: states.some((d) => d?.refused),
    crashed: states.some((d) => d?.crashed),
    damaged: states.some((d) => d?.damaged),
    chunks: [...touched],
  };
}

// ---- one run ---------------------------------------------------------------------------------

const b64 = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
const fromB64 = (s) => new Uint8Array(Buffer.from(s, "base64"));
const sameBytes = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
const PACKAGE_ERROR = "package error";

async function runCase(n, seed, python, reader) {
  const r = runRandom(seed, n);
  const spec = describeStore(r);
  const values = valuesOf(spec, r);
  const width = TYPES[spec.type][1];
  const chunkBytes = product(spec.chunk) * width;
  const grid = spec.shape.map((s, i) => Math.ceil(s / spec.chunk[i]));
  const all = [...coordsOf(grid)];
  const present = all.filter(() => !(spec.missing && r.int(1000) < spec.missing * 1000));
  const raws = present.map((c) => chunkRaw(spec, values, c));
  const encoded = await python.request({ op: "encode", items: raws.map((raw) => ({ chain: spec.chain, raw: b64(raw), typesize: width })) });
  if (encoded.crashed) return { spec, outcomes: [{ outcome: "the reference crashed", detail: "encode" }] };
  const stored = new Map();
  const decoded = new Map();
  present.forEach((c, i) => {
    stored.set(c.join(","), fromB64(encoded.stored[i]));
    decoded.set(c.join(","), { bytes: raws[i] });
  });
  // Damage: most runs one chunk, some several, some none.
  const crc = spec.chain.at(-1).name === "crc32c";
  const damaged = [];
  const howMany = r.int(6) === 0 ? 0 : r.int(5) === 0 ? 2 + r.int(2) : 1;
  const frames = [...stored.values()].map((s) => (crc ? s.subarray(0, s.length - 4) : s));
  for (let k = 0; k < Math.min(howMany, present.length); k++) {
    const key = r.pick(present).join(",");
    if (damaged.some((d) => d.key === key)) continue;
    const whole = stored.get(key);
    const frame = crc ? whole.subarray(0, whole.length - 4) : whole;
    const { bytes, ops } = damage(frame, spec.chain[0].name, chunkBytes, r, frames);
    let out = bytes;
    if (crc) {
      const stale = r.int(3) === 0;
      out = cat(bytes, stale ? whole.subarray(whole.length - 4) : u32le(crc32c(bytes)));
      if (stale) ops.push("crc32c left stale");
    }
    stored.set(key, out);
    damaged.push({ key, ops });
  }
  if (damaged.length) {
    const answer = await python.request({ op: "decode", items: damaged.map(({ key }) => ({ chain: spec.chain, stored: b64(stored.get(key)), size: chunkBytes })) });
    damaged.forEach(({ key }, i) => {
      const res = answer.crashed ? { crashed: true } : answer.results[i];
      decoded.set(key, res.crashed ? { crashed: true, damaged: true } : res.ok !== undefined ? { bytes: fromB64(res.ok), damaged: true } : { refused: res.error, damaged: true });
    });
  }
  // Selections: the whole array, a damaged chunk's box, an undamaged one's, a random box.
  const boxOf = (key) => key.split(",").map((c, i) => [Number(c) * spec.chunk[i], Math.min(spec.shape[i], (Number(c) + 1) * spec.chunk[i])]);
  const selections = [null];
  if (damaged.length) selections.push(boxOf(r.pick(damaged).key));
  const clean = present.map((c) => c.join(",")).filter((k) => !damaged.some((d) => d.key === k));
  if (clean.length) selections.push(boxOf(r.pick(clean)));
  selections.push(spec.shape.map((s) => {
    const a = r.int(s);
    return [a, a + 1 + r.int(s - a)];
  }));
  const files = filesOf(spec, stored);
  const result = await reader.run({ files: [...files], path: "a", format: spec.format === "n5" ? "n5" : spec.format === "v2" ? "v2" : "v3", zarrita: spec.zarrita, selections });
  const original = new Map(present.map((c, i) => [c.join(","), { bytes: raws[i] }]));
  const outcomes = judgeRun(spec, selections, result, decoded, original);
  await secondOpinion(spec, selections, result, outcomes, decoded, stored, damaged, crc, chunkBytes);
  return { spec, damaged, selections, result, outcomes, files, decoded };
}

/**
 * zstd has no way to tell some damaged frames from sound ones without its
 * checksum, and then the bytes it makes of them depend on the word size of
 * the build: a 64-bit build (Debian's libzstd, the reference) and a wasm32
 * build of the same zstd 1.5.4 (the package's, numcodecs.js's, or zstd's
 * own sources built with emcc and no options) make different values of
 * the same damaged frame, each exactly the chunk's size. Where the package
 * read such a chunk (zstd, or blosc with zstd inside) other than the
 * reference did, numcodecs.js (zstd and c-blosc in wasm32, its own build)
 * decodes the damaged frames; the same values there are that outcome, not
 * a wrong value.
 */
async function secondOpinion(spec, selections, result, outcomes, decoded, stored, damaged, crc, chunkBytes) {
  const c = spec.chain[0];
  if (!outcomes.some((o) => o.outcome === "wrong value") || !(c.name === "zstd" || (c.name === "blosc" && c.cname === "zstd"))) return;
  const Codec = c.name === "zstd" ? ZstdJs : BloscJs;
  const wasm32 = new Map(decoded);
  for (const { key } of damaged) {
    const whole = stored.get(key);
    const frame = crc ? whole.subarray(0, whole.length - 4) : whole;
    try {
      const out = new Uint8Array(await Codec.fromConfig({}).decode(frame));
      if (out.length === chunkBytes) wasm32.set(key, { bytes: out, damaged: true });
    } catch {
      // numcodecs.js refuses it: no second opinion
    }
  }
  for (const o of outcomes) {
    if (o.outcome !== "wrong value") continue;
    const want = expectedBox(spec, selections[o.index], wasm32);
    const got = result.results[o.index][o.how];
    if (!want.refused && !want.crashed && JSON.stringify(got.shape) === JSON.stringify(want.shape) && sameBytes(got.bytes, want.bytes)) {
      o.outcome = "read as a wasm32 zstd reads it, the 64-bit reference otherwise";
      o.detail = c.name;
    }
  }
}

function judgeRun(spec, selections, result, decoded, original) {
  const out = [];
  if (result.hang) return [{ outcome: "hang", detail: `selection ${result.selection}` }];
  if (result.polluted) out.push({ outcome: "prototype polluted" });
  if ((result.wasmMemoryBytes ?? 0) > MAX_WASM_BYTES) out.push({ outcome: "wasm memory grew", detail: `${result.wasmMemoryBytes} bytes` });
  if (result.crashed) return [...out, { outcome: result.crashed.error === "package TypeError or RangeError" ? result.crashed.error : "not the package's error", detail: `the reader: ${result.crashed.message}\n${result.crashed.stack}` }];
  if (result.open) return [...out, { outcome: "not the package's error", detail: `at open: ${result.open.message}` }];
  selections.forEach((box, i) => {
    const want = expectedBox(spec, box, decoded);
    const undamaged = expectedBox(spec, box, original);
    for (const how of ["get", "read"]) {
      const got = result.results[i][how];
      const o = judgeOne(spec, how, got, want, undamaged);
      out.push({ ...o, how, index: i });
    }
  });
  return out;
}

function judgeOne(spec, how, got, want, undamaged) {
  const codec = spec.chain[0].name;
  if (got.error) {
    if (got.error === "package TypeError or RangeError") return { outcome: got.error, detail: `${got.message}\n${got.stack}` };
    if (got.error === "hang") return { outcome: "hang" };
    if (got.error !== PACKAGE_ERROR || !got.code) return { outcome: "not the package's error", detail: `${got.name}: ${got.message}\n${got.stack}` };
    if (how === "get" && spec.indexAt === "start") return { outcome: "zarr.get: index at the start (zarrita reads shard indexes from the end)" };
    if (want.crashed) return { outcome: "the reference crashed" };
    if (want.refused) return { outcome: "refused, as the reference refuses", detail: `${codec} ${got.code}` };
    if (!want.damaged) return { outcome: "refused undamaged chunks", detail: `${got.code}: ${got.message}` };
    return { outcome: "refused, the reference decoded", detail: `${codec} ${got.code}: ${got.message.replace(/\/a\/[0-9./c]+/g, "<chunk>").replace(/\d+/g, "N").slice(0, 160)}` };
  }
  if (how === "get" && spec.indexAt === "start") return { outcome: "zarr.get: index at the start (zarrita reads shard indexes from the end)", detail: "read" };
  if (want.crashed) return { outcome: "the reference crashed", detail: "read" };
  if (want.refused) {
    if (JSON.stringify(got.shape) === JSON.stringify(undamaged.shape) && sameBytes(got.bytes, undamaged.bytes)) return { outcome: "read the undamaged values, the reference refused", detail: codec };
    return { outcome: "read, the reference refused", detail: codec };
  }
  if (JSON.stringify(got.shape) !== JSON.stringify(want.shape) || !sameBytes(got.bytes, want.bytes)) return { outcome: "wrong value", detail: `shape ${JSON.stringify(got.shape)} (expected ${JSON.stringify(want.shape)})` };
  return { outcome: "read as the reference" };
}

// COMPRESSED_FUZZ_FULL=1: chunks printed whole.
const hexOf = (b, max = process.env.COMPRESSED_FUZZ_FULL ? Infinity : 96) => Buffer.from(b.subarray(0, max)).toString("hex") + (b.length > max ? `... (${b.length} bytes)` : "");

function reproText(n, seed, run, failing) {
  const lines = [`run ${n} of seed ${seed}: ${JSON.stringify(run.spec)}`];
  for (const [key, bytes] of run.files ?? []) {
    if (/(zarr\.json|\.zarray|attributes\.json)$/.test(key)) lines.push(`  ${key}: ${new TextDecoder().decode(bytes)}`);
    else lines.push(`  ${key}: ${hexOf(bytes)}`);
  }
  for (const d of run.damaged ?? []) {
    const ref = run.decoded.get(d.key);
    lines.push(`  damaged chunk ${d.key}: ${d.ops.join(", ")}; reference: ${ref.refused ? `refused (${ref.refused})` : ref.crashed ? "crashed" : "decoded"}`);
  }
  if (failing) {
    lines.push(`selection ${JSON.stringify(run.selections?.[failing.index] ?? null)} through ${failing.how === "get" ? "zarr.get" : "read"} (zarrita ${run.spec.zarrita}): ${failing.outcome}`);
    if (failing.detail) lines.push(`  ${failing.detail}`);
  }
  return lines.join("\n");
}

/** The random source of run `n` of `seed`: each run reproduces on its own. */
export function runRandom(seed, n) {
  let x = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(n + 1, 0x85ebca6b)) >>> 0;
  x ^= x >>> 16;
  return new Random(x || 1);
}

export async function fuzzCompressed({ seconds = 60, seed = 1, only, log = () => {} } = {}) {
  const python = new ReferenceProcess(30000, "compressed-reference.py");
  const reader = new Reader(DEADLINE_MS, "./compressed-worker.mjs");
  await reader.start();
  const counts = Object.fromEntries(COMPRESSED_OUTCOMES.map((o) => [o, 0]));
  const details = {};
  const samples = {};
  const byCodec = {};
  let runs = 0;
  let damagedChunks = 0;
  let wasmMemoryBytes = 0;
  let failure;
  const end = Date.now() + seconds * 1000;
  try {
    for (let n = only ?? 0; only !== undefined ? n === only : Date.now() < end; n++) {
      const run = await runCase(n, seed, python, reader);
      runs++;
      damagedChunks += run.damaged?.length ?? 0;
      wasmMemoryBytes = Math.max(wasmMemoryBytes, run.result?.wasmMemoryBytes ?? 0);
      if (only !== undefined) log(`${reproText(n, seed, run)}\n${run.outcomes.map((o) => `  ${o.how ?? ""} ${o.index ?? ""}: ${o.outcome}${o.detail ? ` (${o.detail})` : ""}`).join("\n")}\n`);
      const codec = run.spec.chain[0].name + (run.spec.chain[0].cname ? `/${run.spec.chain[0].cname}` : "");
      for (const o of run.outcomes) {
        counts[o.outcome] = (counts[o.outcome] ?? 0) + 1;
        byCodec[codec] ??= {};
        byCodec[codec][o.outcome] = (byCodec[codec][o.outcome] ?? 0) + 1;
        if (o.outcome === "refused, the reference decoded" || o.outcome.startsWith("read the undamaged") || o.outcome.startsWith("read as a wasm32")) {
          const label = `${o.outcome}: ${o.detail}`;
          details[label] = (details[label] ?? 0) + 1;
          samples[label] ??= n;
        }
      }
      const bad = run.outcomes.find((o) => FAILURES.has(o.outcome));
      if (bad) {
        failure = `compressed fuzzer: ${bad.outcome} at run ${n} (seed ${seed}; node tests/fuzz/js/compressed.mjs 0 ${seed} --run ${n} replays it)\n${reproText(n, seed, run, bad)}`;
        break;
      }
      if (runs % 100 === 0) log(`\r${runs} runs`);
    }
  } finally {
    await reader.stop();
    python.close();
  }
  return { runs, damagedChunks, counts, details, samples, byCodec, wasmMemoryBytes, referenceCrashes: python.crashes, failure };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const valueOf = (name) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const positional = args.filter((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1] === "--run"));
  const [seconds = "60", seed = String(Date.now() % 100000)] = positional;
  const json = args.includes("--json");
  const only = valueOf("--run") === undefined ? undefined : Number(valueOf("--run"));
  const result = await fuzzCompressed({ seconds: Number(seconds), seed: Number(seed), only, log: json ? () => {} : (m) => process.stderr.write(m) });
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`\ncompressed fuzzer: ${result.runs} runs in ${seconds} s (seed ${seed}), ${result.damagedChunks} damaged chunks; wasm memory at most ${result.wasmMemoryBytes} bytes; reference crashes ${result.referenceCrashes}`);
    for (const [outcome, n] of Object.entries(result.counts)) console.log(`  ${outcome}: ${n}`);
    for (const [label, n] of Object.entries(result.details).sort((a, b) => b[1] - a[1])) console.log(`    ${n} ${label} (first: run ${result.samples[label]})`);
  }
  if (result.failure) {
    console.error(`\n${result.failure}`);
    process.exitCode = 1;
  }
}
