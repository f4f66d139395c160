// The hostile-claims fuzzer: compressed chunks whose frames claim decoded
// sizes, in every container where no decoded size comes from the metadata,
// so that the compressor decodes within a limit (1 GiB, or an N5 block
// header's size) rather than to a size:
//   - Zarr v2 object arrays: vlen-utf8 or vlen-bytes after zstd, gzip, zlib,
//     lz4 or blosc (every cname);
//   - Zarr v3 variable_length_bytes (vlen-bytes, through withDataTypes) and
//     string (vlen-utf8) arrays, the same compressors after them;
//   - N5 blocks in varlength mode (a header that carries a number of
//     elements, which the package refuses whatever it says) and in default
//     mode with a header shape larger than the chunk (up to 512 MiB).
// The chunks start as real frames (numcodecs.js's zstd, lz4 and blosc,
// node's gzip and zlib) of random strings, bytes or values; most runs then
// make chunk 0 hostile: its claim (blosc's nbytes, lz4's size header,
// zstd's content size, gzip's ISIZE) set to an extreme, to just past or at
// its codec's bound, or to the truth plus or minus one; blosc's flags
// (memcpyed, another inner codec), blocksize and block offsets changed; or
// a frame made by hand: blosc of up to 32 KiB (lz4 or blosclz inside; up to
// 4 KiB of zlib, 512 bytes of zstd) claiming up to 2^32 - 1 bytes, its
// offsets random, shared or outside the frame; zstd RLE blocks with or
// without a content size. Chunk 1 stays good. The reader thread
// (claims-worker.mjs) reads each chunk with zarr.get and with read.
//
// Each read must grow wasm memory (the reader thread's instance, the one
// that decoded) by at most
//     4 x ratio x (the chunk's compressed bytes) + 16 MiB,
// where ratio is the most one compressed byte of the frame's codec decodes
// to (src/compress/decoded_bound.h: lz4 and blosclz 255, DEFLATE 1032,
// zstd 32768; blosc its inner codec's as its flags say, memcpyed 1): the
// claim's allocation, blosc's scratch (two blocks), the decoded bytes copied
// once more, and the slack of wasm memory's growth steps. A claim never
// allocates past what its bytes could decode to, so a 32 KiB blosc-lz4
// frame claiming 1 GiB may grow memory by 48 MiB at most, not 1 GiB.
//
// Outcomes, counted by name:
//   - read as written: an untouched chunk (a control run), its values;
//   - the good chunk read: chunk 1, its values;
//   - refused with the package's error: a hostile chunk (the code counted);
//   - read a hostile chunk: its frame still decodes (a claim changed back
//     to a size the data makes, a hand-made frame that happens to be valid);
//   - zarrita error: zarrita's own, on bytes a hostile frame decoded to;
//   - failures, which stop the run with the seed and the case: a wrong
//     value or a refusal of an untouched or good chunk, an error that is
//     neither the package's nor zarrita's, a TypeError or RangeError from
//     the package's code, a hang (10 s), wasm memory past the bound, a
//     polluted prototype.
//
//   node tests/fuzz/js/claims.mjs <seconds> <seed> [--json] [--run N]
//   (npm run fuzz runs it long)
import { deflateSync, gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import BloscJs from "numcodecs/blosc";
import LZ4Js from "numcodecs/lz4";
import ZstdJs from "numcodecs/zstd";
import { Random } from "./random.mjs";
import { Reader } from "./read-reference.mjs";

const DEADLINE_MS = 10000;
const MiB = 1024 * 1024;
const SLACK = 16 * MiB;
const RATIO = { lz4: 255, blosclz: 255, deflate: 1032, zstd: 32768, memcpy: 1 };

export const CLAIMS_OUTCOMES = [
  "read as written",
  "the good chunk read",
  "refused with the package's error",
  "read a hostile chunk",
  "zarrita error",
  // failures
  "wrong value",
  "refused an untouched chunk",
  "not the package's error",
  "package TypeError or RangeError",
  "hang",
  "wasm memory past the bound",
  "prototype polluted",
];
const FAILURES = new Set(CLAIMS_OUTCOMES.slice(CLAIMS_OUTCOMES.indexOf("wrong value")));

const CONTAINERS = ["v2 vlen-utf8", "v2 vlen-bytes", "v3 variable_length_bytes", "v3 string", "n5 varlength", "n5 header past the chunk"];
const CODECS = ["zstd", "gzip", "zlib", "lz4", "blosc", "blosc"];
const N5_CODECS = ["zstd", "gzip", "zlib", "blosc"];
const CNAMES = ["blosclz", "lz4", "lz4hc", "zlib", "zstd"];

// ---- bytes ------------------------------------------------------------------------------

const u32le = (v) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];
const le32 = (b, at) => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
const put = (b, at, bytes) => {
  const out = b.slice();
  if (at >= 0 && at + bytes.length <= b.length) out.set(bytes, at);
  return out;
};
const cat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");

function vlen(parts) {
  const out = new Uint8Array(4 + parts.reduce((n, p) => n + 4 + p.length, 0));
  const view = new DataView(out.buffer);
  view.setUint32(0, parts.length, true);
  let at = 4;
  for (const p of parts) {
    view.setUint32(at, p.length, true);
    out.set(p, at + 4);
    at += 4 + p.length;
  }
  return out;
}

/** Random items of a container: strings, byte strings or uint8 values; with their vlen (or raw) bytes and the values as the reader serializes them. */
function itemsOf(r, container, count) {
  if (container.startsWith("n5")) {
    const values = r.int(2) ? new Uint8Array(count) : r.bytes(count);
    return { raw: values, want: [`n:${hex(values)}`] };
  }
  if (container.endsWith("vlen-utf8") || container.endsWith("string")) {
    const alphabet = ["a", "b", "z", "é", "ü", "ï", "中", "😀", " ", "0"];
    const strings = Array.from({ length: count }, () => Array.from({ length: r.int(r.int(4) === 0 ? 400 : 12) }, () => r.pick(alphabet)).join(""));
    return { raw: vlen(strings.map((s) => new TextEncoder().encode(s))), want: strings.map((s) => `s:${s}`) };
  }
  const blobs = Array.from({ length: count }, () => (r.int(3) === 0 ? new Uint8Array(r.int(2000)) : r.bytes(r.int(r.int(4) === 0 ? 600 : 16))));
  return { raw: vlen(blobs), want: blobs.map((b) => `b:${hex(b)}`) };
}

// ---- compressors ------------------------------------------------------------------------

function compressorOf(r, name) {
  switch (name) {
    case "zstd": return { name, level: 1 + r.int(9) };
    case "gzip":
    case "zlib": return { name, level: 1 + r.int(9) };
    case "lz4": return { name, acceleration: 1 };
    default: return { name, cname: r.pick(CNAMES), clevel: 1 + r.int(9), shuffle: r.int(3), blocksize: r.pick([0, 0, 256, 4096]) };
  }
}

async function compress(c, bytes) {
  switch (c.name) {
    case "zstd": return new Uint8Array(await ZstdJs.fromConfig({ level: c.level }).encode(bytes));
    case "gzip": return new Uint8Array(gzipSync(bytes, { level: c.level }));
    case "zlib": return new Uint8Array(deflateSync(bytes, { level: c.level }));
    case "lz4": return new Uint8Array(await LZ4Js.fromConfig({ acceleration: 1 }).encode(bytes));
    default: return new Uint8Array(await BloscJs.fromConfig({ cname: c.cname, clevel: c.clevel, shuffle: c.shuffle, blocksize: c.blocksize }).encode(bytes));
  }
}

/** The most one compressed byte of `frame` (of codec `name`) decodes to, as its own header says for blosc. */
function ratioOf(name, frame) {
  if (name === "gzip" || name === "zlib") return RATIO.deflate;
  if (name === "zstd") return RATIO.zstd;
  if (name === "lz4") return RATIO.lz4;
  if (frame.length < 16) return 1;
  if (frame[2] & 0x02) return RATIO.memcpy;
  return [RATIO.blosclz, RATIO.lz4, RATIO.zstd, RATIO.deflate, RATIO.zstd][frame[2] >> 5] ?? RATIO.zstd;
}

// ---- claims -----------------------------------------------------------------------------

function claim(r, truth, bound) {
  return r.pick([0, 1, truth - 1, truth + 1, 2 * truth, bound, bound + 1, 2 ** 29, 2 ** 30, 2 ** 31 - 1, 2 ** 32 - 1, r.next()]) >>> 0;
}

/** A blosc frame made by hand: { frame, what }. */
function handMadeBlosc(r) {
  const inner = r.pick([0, 1, 1, 3, 4, "memcpyed"]);
  const memcpyed = inner === "memcpyed";
  const most = memcpyed || inner === 0 || inner === 1 ? 32768 : inner === 3 ? 4096 : 512;
  const cbytes = 16 + r.int(most - 16);
  const ratio = memcpyed ? 1 : [RATIO.blosclz, RATIO.lz4, 0, RATIO.deflate, RATIO.zstd][inner];
  const nbytes = claim(r, cbytes - 16, ratio * (cbytes - 16));
  const typesize = r.pick([1, 1, 2, 4, 8, 16, 255]);
  const flags = (memcpyed ? 0x02 : (inner << 5)) | r.pick([0, 0x01, 0x04, 0x10, 0x11]);
  const blocksize = r.pick([nbytes, 1 << 16, 1 << 20, 1 + r.int(1 << 20), 715827542, 715827543]) >>> 0;
  const frame = cat(new Uint8Array([2, 1, flags, typesize, ...u32le(nbytes), ...u32le(blocksize), ...u32le(cbytes)]), r.bytes(cbytes - 16));
  // Offsets: random (as made), all to one stream, into the header, or past the end.
  const layout = r.pick(["random", "one stream", "header", "past the end"]);
  const nblocks = blocksize ? Math.min(Math.ceil(nbytes / blocksize), Math.floor((cbytes - 16) / 4)) : 0;
  const first = 16 + 4 * nblocks;
  for (let j = 0; j < nblocks && layout !== "random"; j++) {
    const at = layout === "one stream" ? first : layout === "header" ? r.int(16) : cbytes + r.int(64);
    frame.set(u32le(at), 16 + 4 * j);
  }
  if (layout === "one stream" && first + 4 <= cbytes) frame.set(u32le(r.int(cbytes - first - 3)), first);
  return { frame, what: `hand-made blosc (${memcpyed ? "memcpyed" : ["blosclz", "lz4", "", "zlib", "zstd"][inner]}, ${cbytes} bytes, nbytes ${nbytes}, blocksize ${blocksize}, offsets ${layout})` };
}

/** zstd RLE blocks made by hand (RFC 8878), with a content size claim or none. */
function handMadeZstd(r) {
  const blocks = 1 + r.int(100);
  const size = 1 + r.int(131072);
  const withSize = r.int(2) === 0;
  const content = claim(r, blocks * size, RATIO.zstd * (6 + 8 + 4 * blocks));
  const header = withSize ? [0x28, 0xb5, 0x2f, 0xfd, 0xc0, ...u32le(content), 0, 0, 0, 0] : [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38];
  const body = [];
  for (let k = 0; k < blocks; k++) {
    const h = (k === blocks - 1 ? 1 : 0) | (1 << 1) | (size << 3);
    body.push(h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff, r.next() & 0xff);
  }
  return { frame: new Uint8Array([...header, ...body]), what: `hand-made zstd (${blocks} RLE blocks of ${size}${withSize ? `, content size ${content}` : ", no content size"})` };
}

/** `frame` (codec `c`, decoding to `truth` bytes) with a hostile claim: { frame, what }. */
function hostile(r, c, frame, truth) {
  if (c.name === "blosc" && r.int(3) === 0) return handMadeBlosc(r);
  if (c.name === "zstd" && r.int(3) === 0) return handMadeZstd(r);
  const bound = ratioOf(c.name, frame) * frame.length;
  switch (c.name) {
    case "blosc": {
      const field = r.pick(["nbytes", "nbytes", "nbytes", "memcpyed", "inner", "blocksize", "offsets"]);
      let b = frame;
      if (field === "memcpyed") b = put(b, 2, [b[2] ^ 0x02]);
      if (field === "inner") b = put(b, 2, [(b[2] & 0x1f) | (r.pick([0, 1, 3, 4]) << 5)]);
      if (field === "blocksize") b = put(b, 8, u32le(claim(r, le32(frame, 8), bound)));
      if (field === "offsets") b = put(b, 16, u32le(r.pick([0, 15, frame.length, frame.length + 100, r.next()]) >>> 0));
      const nbytes = claim(r, truth, ratioOf("blosc", b) * (frame.length - 16));
      b = put(b, 4, u32le(nbytes));
      return { frame: b, what: `blosc ${field}, nbytes ${nbytes}` };
    }
    case "lz4": {
      const v = claim(r, truth, RATIO.lz4 * (frame.length - 4));
      return { frame: put(frame, 0, u32le(v)), what: `lz4 size header ${v}` };
    }
    case "zstd": {
      // numcodecs.js writes the content size; its field's place and width from the descriptor.
      const fhd = frame[4];
      const single = (fhd >> 5) & 1;
      const at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][fhd & 3];
      const width = fhd >> 6 === 0 ? single : [0, 2, 4, 8][fhd >> 6];
      const v = claim(r, truth, bound);
      const bytes = width === 8 ? [...u32le(v), 0, 0, 0, 0] : width === 4 ? u32le(v) : width === 2 ? [(v - 256) & 0xff, ((v - 256) >>> 8) & 0xff] : width === 1 ? [v & 0xff] : [];
      return { frame: put(frame, at, bytes), what: `zstd content size ${v} (${width} bytes)` };
    }
    case "gzip": {
      const v = claim(r, truth, bound);
      return { frame: put(frame, frame.length - 4, u32le(v)), what: `gzip ISIZE ${v}` };
    }
    default: {
      // zlib claims nothing: a stored block whose LEN says 65535, the data cut short.
      const stored = new Uint8Array([0x78, 0x01, 0x01, 0xff, 0xff, 0x00, 0x00, ...frame.subarray(2, 2 + r.int(64))]);
      return { frame: r.int(2) ? stored : frame.subarray(0, 2 + r.int(frame.length - 2)), what: "zlib stored block or cut" };
    }
  }
}

// ---- stores -----------------------------------------------------------------------------

const json = (o) => new TextEncoder().encode(JSON.stringify(o));

function v2Compressor(c) {
  switch (c.name) {
    case "blosc": return { id: "blosc", cname: c.cname, clevel: c.clevel, shuffle: c.shuffle, blocksize: c.blocksize };
    case "lz4": return { id: "lz4", acceleration: 1 };
    default: return { id: c.name, level: c.level };
  }
}

function v3Compressor(c) {
  switch (c.name) {
    case "blosc": return { name: "blosc", configuration: { cname: c.cname, clevel: c.clevel, shuffle: ["noshuffle", "shuffle", "bitshuffle"][c.shuffle], typesize: 1, blocksize: c.blocksize } };
    case "lz4": return { name: "numcodecs.lz4", configuration: { acceleration: 1 } };
    case "zlib": return { name: "numcodecs.zlib", configuration: { level: c.level } };
    case "zstd": return { name: "zstd", configuration: { level: c.level, checksum: false } };
    default: return { name: "gzip", configuration: { level: c.level } };
  }
}

function n5Compression(c) {
  switch (c.name) {
    case "blosc": return { type: "blosc", cname: c.cname, clevel: c.clevel, shuffle: c.shuffle, blocksize: c.blocksize, nthreads: 1 };
    case "zlib": return { type: "gzip", level: c.level, useZlib: true };
    default: return { type: c.name, level: c.level };
  }
}

function n5Block(mode, shape, payload, elements) {
  const head = new Uint8Array(4 + 4 * shape.length + (mode === 1 ? 4 : 0));
  const view = new DataView(head.buffer);
  view.setUint16(0, mode);
  view.setUint16(2, shape.length);
  shape.forEach((d, k) => view.setUint32(4 + 4 * k, d));
  if (mode === 1) view.setUint32(4 + 4 * shape.length, elements);
  return cat(head, payload);
}

/** The store's files for chunks [frame0, frame1] of `count` items each. */
function filesOf(container, c, count, frames) {
  const files = new Map();
  switch (container) {
    case "v2 vlen-utf8":
    case "v2 vlen-bytes":
      files.set("/a/.zarray", json({ zarr_format: 2, shape: [2 * count], chunks: [count], dtype: "|O", fill_value: 0, order: "C", compressor: v2Compressor(c), filters: [{ id: container.slice(3) }] }));
      files.set("/a/0", frames[0]);
      files.set("/a/1", frames[1]);
      break;
    case "v3 variable_length_bytes":
    case "v3 string":
      files.set("/a/zarr.json", json({
        zarr_format: 3, node_type: "array", shape: [2 * count], data_type: container.slice(3), fill_value: "",
        chunk_grid: { name: "regular", configuration: { chunk_shape: [count] } },
        chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
        codecs: [{ name: container.endsWith("string") ? "vlen-utf8" : "vlen-bytes" }, v3Compressor(c)], attributes: {},
      }));
      files.set("/a/c/0", frames[0]);
      files.set("/a/c/1", frames[1]);
      break;
    default:
      files.set("/a/attributes.json", json({ dimensions: [2 * count], blockSize: [count], dataType: "uint8", compression: n5Compression(c), n5: "2.0.0" }));
      files.set("/a/0", frames[0]);
      files.set("/a/1", frames[1]);
  }
  return files;
}

// ---- one run ----------------------------------------------------------------------------

/** The random source of run `n` of `seed`: each run reproduces on its own. */
export function runRandom(seed, n) {
  let x = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(n + 1, 0x27d4eb2f)) >>> 0;
  x ^= x >>> 15;
  return new Random(x || 1);
}

async function runCase(n, seed, reader) {
  const r = runRandom(seed, n);
  const container = r.pick(CONTAINERS);
  const n5 = container.startsWith("n5");
  const c = compressorOf(r, r.pick(n5 ? N5_CODECS : CODECS));
  const count = 1 + r.int(n5 ? 4000 : 40);
  const items = [itemsOf(r, container, count), itemsOf(r, container, count)];
  const frames = [await compress(c, items[0].raw), await compress(c, items[1].raw)];
  const control = r.int(6) === 0;
  let what = "untouched";
  let chunk0 = frames[0];
  if (!control) ({ frame: chunk0, what } = hostile(r, c, frames[0], items[0].raw.length));
  // The bound on each read's growth of wasm memory, from the hostile frame's bytes.
  const bound = 4 * ratioOf(c.name, chunk0) * chunk0.length + SLACK;
  let stored = [chunk0, frames[1]];
  if (n5) {
    const good = n5Block(0, [count], frames[1]);
    if (container === "n5 varlength") {
      const elements = r.pick([0, count, 2 ** 31 - 1, 2 ** 32 - 1, r.next() >>> 0]);
      stored = [n5Block(1, [count], chunk0, elements), good];
      what = `varlength, ${elements} elements; ${what}`;
    } else {
      // A header shape past the chunk, up to 512 MiB (the most a block may say).
      const shape = control ? count : r.pick([count + 1, 2 * count, 2 ** 20, 2 ** 29, 2 ** 29 + 1, 2 ** 32 - 1]);
      stored = [n5Block(0, [shape], chunk0), good];
      what = `header [${shape}]; ${what}`;
    }
  }
  const files = filesOf(container, c, count, stored);
  const zarrita = container === "v3 variable_length_bytes" || r.int(4) ? "0.7.5" : "0.6.2";
  const result = await reader.run({
    files: [...files], path: "a", format: n5 ? "n5" : container.slice(0, 2), dataTypes: container === "v3 variable_length_bytes", zarrita,
    selections: [[0, count], [count, 2 * count]],
  });
  // An N5 block whose header says another shape than the chunk is read
  // cropped or padded; a control run's block 0 is untouched.
  const want = [items[0].want, items[1].want];
  const outcomes = judge(result, { control: control && container !== "n5 varlength", want, bound });
  const grew = Math.max(0, ...(result.results ?? []).flatMap((byHow) => [byHow.get.grew, byHow.read.grew]));
  return { container, codec: c.name + (c.cname ? `/${c.cname}` : ""), what, zarrita, outcomes, files, bound, grew };
}

function judge(result, { control, want, bound }) {
  if (result.hang) return [{ outcome: "hang", detail: `selection ${result.selection}` }];
  const out = [];
  if (result.polluted) out.push({ outcome: "prototype polluted" });
  if (result.crashed) return [...out, { outcome: result.crashed.error === "package TypeError or RangeError" ? result.crashed.error : "not the package's error", detail: `the reader: ${result.crashed.message}\n${result.crashed.stack}` }];
  if (result.open) return [...out, { outcome: "not the package's error", detail: `at open: ${result.open.message}` }];
  result.results.forEach((byHow, chunk) => {
    for (const how of ["get", "read"]) {
      const got = byHow[how];
      if (got.grew > bound) out.push({ outcome: "wasm memory past the bound", how, chunk, detail: `${got.grew} bytes, the bound ${bound}` });
      out.push({ ...judgeOne(got, chunk === 1 || control, want[chunk], chunk), how, chunk });
    }
  });
  return out;
}

function judgeOne(got, untouched, want, chunk) {
  if (got.error) {
    if (got.error === "package TypeError or RangeError" || got.error === "hang") return { outcome: got.error, detail: `${got.message}\n${got.stack}` };
    if (untouched) return { outcome: "refused an untouched chunk", detail: `${got.code ?? got.name}: ${got.message}` };
    if (got.error === "package error" && got.code) return { outcome: "refused with the package's error", detail: got.code };
    if (got.error === "zarrita error") return { outcome: "zarrita error", detail: `${got.name}: ${got.message}`.slice(0, 160) };
    return { outcome: "not the package's error", detail: `${got.name}: ${got.message}\n${got.stack}` };
  }
  if (!untouched) return { outcome: "read a hostile chunk" };
  if (JSON.stringify(got.values) !== JSON.stringify(want)) return { outcome: "wrong value", detail: `${JSON.stringify(got.values).slice(0, 200)} (expected ${JSON.stringify(want).slice(0, 200)})` };
  return { outcome: chunk === 1 ? "the good chunk read" : "read as written" };
}

function reproText(n, seed, run, failing) {
  const lines = [`run ${n} of seed ${seed}: ${run.container}, ${run.codec}, zarrita ${run.zarrita}: ${run.what}`];
  for (const [key, bytes] of run.files) {
    lines.push(`  ${key}: ${/json|zarray/.test(key) ? new TextDecoder().decode(bytes) : `${hex(bytes.subarray(0, 64))}${bytes.length > 64 ? `... (${bytes.length} bytes)` : ""}`}`);
  }
  if (failing) lines.push(`chunk ${failing.chunk} through ${failing.how === "get" ? "zarr.get" : "read"}: ${failing.outcome}${failing.detail ? `\n  ${failing.detail}` : ""}`);
  return lines.join("\n");
}

export async function fuzzClaims({ seconds = 60, seed = 1, only, log = () => {} } = {}) {
  const reader = new Reader(DEADLINE_MS, "./claims-worker.mjs");
  await reader.start();
  const counts = Object.fromEntries(CLAIMS_OUTCOMES.map((o) => [o, 0]));
  const byContainer = {};
  const codes = {};
  let runs = 0;
  let largestGrowth = 0;
  let failure;
  const end = Date.now() + seconds * 1000;
  try {
    for (let n = only ?? 0; only !== undefined ? n === only : Date.now() < end; n++) {
      const run = await runCase(n, seed, reader);
      runs++;
      largestGrowth = Math.max(largestGrowth, run.grew);
      if (only !== undefined) log(`${reproText(n, seed, run)}\n${run.outcomes.map((o) => `  chunk ${o.chunk} ${o.how}: ${o.outcome}${o.detail ? ` (${o.detail})` : ""}`).join("\n")}\n`);
      for (const o of run.outcomes) {
        counts[o.outcome] = (counts[o.outcome] ?? 0) + 1;
        byContainer[run.container] ??= {};
        byContainer[run.container][o.outcome] = (byContainer[run.container][o.outcome] ?? 0) + 1;
        if (o.outcome === "refused with the package's error") codes[o.detail] = (codes[o.detail] ?? 0) + 1;
      }
      const bad = run.outcomes.find((o) => FAILURES.has(o.outcome));
      if (bad) {
        failure = `claims fuzzer: ${bad.outcome} at run ${n} (seed ${seed}; node tests/fuzz/js/claims.mjs 0 ${seed} --run ${n} replays it)\n${reproText(n, seed, run, bad)}`;
        break;
      }
      if (runs % 100 === 0) log(`\r${runs} runs`);
    }
  } finally {
    await reader.stop();
  }
  return { runs, counts, byContainer, codes, largestGrowth, failure };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const runAt = args.indexOf("--run");
  const positional = args.filter((a, i) => !a.startsWith("--") && !(runAt >= 0 && i === runAt + 1));
  const [seconds = "60", seed = String(Date.now() % 100000)] = positional;
  const json = args.includes("--json");
  const only = runAt >= 0 ? Number(args[runAt + 1]) : undefined;
  const result = await fuzzClaims({ seconds: Number(seconds), seed: Number(seed), only, log: json ? () => {} : (m) => process.stderr.write(m) });
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`\nclaims fuzzer: ${result.runs} runs in ${seconds} s (seed ${seed}); the largest growth of wasm memory by one read ${result.largestGrowth} bytes`);
    for (const [outcome, count] of Object.entries(result.counts)) console.log(`  ${outcome}: ${count}`);
    console.log(`  codes: ${JSON.stringify(result.codes)}`);
    for (const [container, c] of Object.entries(result.byContainer)) console.log(`  ${container}: ${JSON.stringify(c)}`);
  }
  if (result.failure) {
    console.error(`\n${result.failure}`);
    process.exitCode = 1;
  }
}
