// The N5 fuzzer: small N5 arrays (1 to 3 dimensions, every N5 data type,
// raw, gzip, zlib, blosc and zstd blocks, boundary blocks padded or
// truncated), made valid and then damaged at random (seeded): compressed
// bytes flipped, cut or extended, zstd frames followed by the start of
// another, blosc headers with hostile sizes, block headers larger or
// smaller than the chunk (with the payload to match, or not), other modes
// and ranks, missing blocks, and random attributes.json members. Each is
// read through withN5 with zarrita (0.7 or 0.5, either axis order) in a
// worker thread with a deadline, and the outcome is judged against an
// independent reference (n5-reference.mjs: the N5 spec and the n5_default
// page written out, with Python's numcodecs for the compressors).
//
// Outcomes: the reference's values, read (or a refusal where the reference
// refuses too); where the compressors differ, listed by compressor and
// reason: the package's error where the reference's compressor decodes a
// block (Python's blosc reads a cbytes past the data's end; the platform's
// gzip refuses trailing zeros; the package's own decoders refuse bytes
// after a zlib stream, which Python's zlib ignores), values where it refuses one (Python's
// numcodecs 0.11 refuses an empty blosc buffer and zstd frames without a
// content size, and trailing bytes after gzip data; numcodecs.js's blosc
// would hand back unwritten output for damaged compressed data); and,
// never: a wrong value, a refusal by the N5 layer of what the reference
// reads (or the reverse), a TypeError or RangeError from the package's
// code, a polluted prototype. A read that does not end within the deadline
// is stopped and counted ("hang"), never waited on. The reference can
// crash too (numcodecs 0.11's Blosc segfaults on a cbytes past the data's
// end, which the package refuses): such a case is counted, not judged.
//
//   node tests/fuzz/js/n5.mjs [seconds] [seed] [--json]   (npm run fuzz runs it long)
//   N5_FUZZ_SAMPLES=1: a few messages of each outcome; N5_FUZZ_DUMP=<prefix>
//   (and N5_FUZZ_DUMP_MATCH=<regexp>): the cases that hang (or match), saved.
import { writeFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import { deflateSync, gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import Blosc from "numcodecs/blosc";
import Zstd from "numcodecs/zstd";
import { Random } from "./random.mjs";
import { Decompressors, parseBlock, referenceMetadata, referenceRead, reverseAxes } from "./n5-reference.mjs";

const TYPES = ["uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64", "float32", "float64"];
const WIDTH = { uint8: 1, int8: 1, uint16: 2, int16: 2, uint32: 4, int32: 4, uint64: 8, int64: 8, float32: 4, float64: 8 };
const COMPRESSIONS = ["raw", "gzip", "zlib", "blosc", "zstd"];
const DEADLINE_MS = 10000;
const PATH = "/a";
const json = (o) => new TextEncoder().encode(JSON.stringify(o));

export const N5_OUTCOMES = [
  "read as the reference",
  "refused, as the reference",
  "refused at open, as the reference",
  "refused by the compressor's framing or the compressor, the reference's decoded",
  "read, the reference's compressor refused",
  "a group, as the reference",
  "zarrita error",
  "the reference crashed",
  "hang",
  // failures
  "wrong value",
  "refused, the reference read",
  "read, the reference refused",
  "opened, the reference refuses at open",
  "refused at open, the reference opens",
  "package TypeError or RangeError",
  "prototype polluted",
];
const FAILURES = N5_OUTCOMES.slice(N5_OUTCOMES.indexOf("wrong value"));

// ---- making arrays --------------------------------------------------------------

async function compress(kind, payload, r) {
  switch (kind) {
    case "gzip":
      return new Uint8Array(gzipSync(payload, { level: r.int(10) }));
    case "zlib":
      return new Uint8Array(deflateSync(payload, { level: r.int(10) }));
    case "zstd":
      return new Uint8Array(await new Zstd(1 + r.int(5)).encode(payload));
    case "blosc":
      return new Uint8Array(await new Blosc(r.int(10), r.pick(["lz4", "zstd", "blosclz", "zlib"]), r.int(3), 0).encode(payload));
    default:
      return payload;
  }
}

function compressionObject(kind, r) {
  switch (kind) {
    case "gzip":
      return { type: "gzip", level: r.int(11) - 1 };
    case "zlib":
      return { type: "gzip", level: r.int(10), useZlib: true };
    case "blosc":
      return { type: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0, nthreads: 1 };
    case "zstd":
      return { type: "zstd", level: 3 };
    default:
      return { type: "raw" };
  }
}

function withBlockHeader(header, payload) {
  const out = new Uint8Array(4 + 4 * header.length + payload.length);
  const view = new DataView(out.buffer);
  view.setUint16(2, header.length);
  header.forEach((d, k) => view.setUint32(4 + 4 * k, d));
  out.set(payload, 4 + 4 * header.length);
  return out;
}

/** A valid N5 array: attributes and every block (N5 key -> bytes). */
async function makeArray(r) {
  const rank = 1 + r.int(3);
  const dims = Array.from({ length: rank }, () => (r.int(40) === 0 ? 0 : 1 + r.int(8)));
  const blockSize = Array.from({ length: rank }, () => 1 + r.int(5));
  const dataType = r.pick(TYPES);
  const kind = r.pick(COMPRESSIONS);
  const attributes = { dimensions: dims, blockSize, dataType, compression: compressionObject(kind, r), n5: "2.0.0" };
  const grid = dims.map((d, k) => Math.ceil(d / blockSize[k]));
  const blocks = new Map();
  const total = grid.reduce((a, b) => a * b, 1);
  for (let i = 0; i < total; i++) {
    let rem = i;
    const position = new Array(rank);
    for (let k = rank - 1; k >= 0; k--) {
      position[k] = rem % grid[k];
      rem = Math.floor(rem / grid[k]);
    }
    // Boundary blocks: truncated (Java N5) or padded (zarr-python 2), at random.
    const truncated = r.int(2) === 0;
    const header = position.map((p, k) => (truncated ? Math.min(blockSize[k], dims[k] - p * blockSize[k]) : blockSize[k]));
    const payload = r.bytes(header.reduce((a, b) => a * b, 1) * WIDTH[dataType]);
    blocks.set(position.join("/"), withBlockHeader(header, await compress(kind, payload, r)));
  }
  // What the blocks were made for, kept apart from the attributes (which may be damaged).
  return { attributes, blocks, kind, made: { rank, blockSize: [...blockSize], width: WIDTH[dataType] } };
}

// ---- damaging them ---------------------------------------------------------------

const HOSTILE = [-1, 0, 1.5, "3", null, true, [], {}, 2 ** 31, 2 ** 53, 1e300, "LZ4", "lz4", "__proto__", NaN];

async function damageBlock(r, array) {
  const keys = [...array.blocks.keys()];
  if (keys.length === 0) return "no block";
  const key = r.pick(keys);
  let bytes = array.blocks.get(key);
  const { rank, blockSize, width: w } = array.made;
  const headerBytes = 4 + 4 * rank;
  const kind = r.int(12);
  if (kind === 0) {
    for (let i = 1 + r.int(3); i > 0; i--) bytes[r.int(bytes.length)] ^= 1 << r.int(8);
  } else if (kind === 1) {
    bytes = bytes.slice(0, r.int(bytes.length + 1));
  } else if (kind === 2) {
    bytes = new Uint8Array([...bytes, ...r.bytes(1 + r.int(16))]);
  } else if (kind === 3) {
    // The start of a zstd frame after the block's own.
    bytes = new Uint8Array([...bytes, 0x28, 0xb5, 0x2f, 0xfd, ...r.bytes(r.int(3))]);
  } else if (kind === 4 || kind === 5) {
    // Another header shape, with a payload to match (a block larger or
    // smaller than the chunk), or without (kind 5).
    const header = Array.from({ length: rank }, (_, k) => r.pick([0, 1, 2, 3, 5, 7, 9, blockSize[k], blockSize[k] + 1]));
    const payload = kind === 4 ? await compress(array.kind, r.bytes(header.reduce((a, b) => a * b, 1) * w), r) : bytes.subarray(headerBytes);
    bytes = withBlockHeader(header, payload);
  } else if (kind === 6) {
    if (bytes.length >= headerBytes) new DataView(bytes.buffer, bytes.byteOffset).setUint32(4 + 4 * r.int(rank), r.pick([0xffffffff, 65536, 1 << 20, 0]));
  } else if (kind === 7) {
    if (bytes.length >= 4) new DataView(bytes.buffer, bytes.byteOffset).setUint16(r.int(2) * 2, r.pick([1, 2, 3, rank + 1, 0xffff]));
  } else if (kind === 8) {
    array.blocks.delete(key);
    return "a missing block";
  } else if (kind === 9) {
    // blosc's header sizes (nbytes, blocksize, cbytes), or any payload's first bytes.
    const at = headerBytes + r.pick([4, 8, 12, 2, 0]);
    if (bytes.length >= at + 4) new DataView(bytes.buffer, bytes.byteOffset).setUint32(at, r.pick([0, 16, 0x7fffffff, 0xffffffff, r.next()]), true);
  } else if (kind === 10) {
    // A hand-made zstd frame: raw and RLE blocks of random sizes, with or
    // without a content size.
    const frame = [0x28, 0xb5, 0x2f, 0xfd];
    const contentSize = r.int(2) === 0;
    frame.push(contentSize ? 0xa0 : 0x00);
    if (contentSize) frame.push(...[r.next() & 0xff, r.int(4), 0, 0]);
    else frame.push(0x38);
    const n = 1 + r.int(4);
    for (let i = 0; i < n; i++) {
      const type = r.int(2);
      const size = r.int(64);
      const h = (i === n - 1 ? 1 : 0) | (type << 1) | (size << 3);
      frame.push(h & 0xff, (h >> 8) & 0xff, h >> 16, ...(type === 0 ? r.bytes(size) : [r.int(256)]));
    }
    bytes = withBlockHeader(parseBlock(bytes, rank).header ?? blockSize, Uint8Array.from(frame));
  } else {
    bytes = bytes.slice(0, headerBytes + r.int(Math.max(1, bytes.length - headerBytes)));
    bytes = new Uint8Array([...bytes, ...r.bytes(r.int(8))]);
  }
  array.blocks.set(key, bytes);
  return `block ${key}: damage ${kind}`;
}

function damageAttributes(r, array) {
  const a = array.attributes;
  const { rank, blockSize } = array.made;
  const kind = r.int(8);
  if (kind === 0) {
    a.dimensions = Array.from({ length: rank }, (_, k) => {
      const d = Array.isArray(a.dimensions) && Number.isInteger(a.dimensions[k]) ? a.dimensions[k] : 1;
      return r.int(3) === 0 ? r.pick([...HOSTILE, d + 1, Math.max(0, d - 1)]) : d;
    });
  } else if (kind === 1) {
    // Another block size: the stored blocks are then larger or smaller than the chunk.
    a.blockSize = blockSize.map((d) => (r.int(2) === 0 ? r.pick([1, 2, d + 1, d + 2, Math.max(1, d - 1), ...HOSTILE]) : d));
  } else if (kind === 2) {
    a.dataType = r.pick([...TYPES, "float16", "int4", 7, null]);
  } else if (kind === 3) {
    a.compression = { ...a.compression, [r.pick(["level", "useZlib", "cname", "clevel", "shuffle", "blocksize", "type"])]: r.pick([...HOSTILE, "gzip", "raw", "bzip2", "blosc", "zstd", 9, 10]) };
  } else if (kind === 4) {
    a.axes = r.pick([["x", "y", "z"].slice(0, rank), ["x"], [1, 2, 3], "xyz", null]);
  } else if (kind === 5) {
    delete a[r.pick(["compression", "blockSize", "dimensions", "dataType"])];
  } else if (kind === 6) {
    a.dimensions = [...(Array.isArray(a.dimensions) ? a.dimensions : []), 1 + r.int(3)];
  } else {
    array.attributesText = r.pick(["[]", "null", "3", "{", '{"dimensions": [2], "dataType": "uint8"}', "{\"__proto__\": {\"x\": 1}, \"dimensions\": [1], \"blockSize\": [1], \"dataType\": \"uint8\", \"compression\": {\"type\": \"raw\"}}"]);
  }
  return `attributes: damage ${kind}`;
}

// ---- judging ----------------------------------------------------------------------

/** The box of the array a case reads (N5 order): all of a small array, a corner of a large one. */
function extentOf(meta) {
  const elements = meta.dims.reduce((a, b) => a * b, 1);
  const chunks = meta.dims.reduce((a, d, k) => a * Math.ceil(d / meta.blockSize[k]), 1);
  return elements <= 4096 && chunks <= 512 ? meta.dims : meta.dims.map((d) => Math.min(d, 2));
}

function hexOf(bytes) {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** Our outcome against the reference's. */
function judge(ours, reference) {
  if (ours.polluted) return "prototype polluted";
  if (ours.outcome === "package TypeError or RangeError") return ours.outcome;
  if (reference.group && !ours.polluted && ours.outcome !== "package error") return "a group, as the reference";
  if (ours.outcome === "zarrita error") return "zarrita error";
  const refused = ours.outcome === "package error";
  if (reference.group) return refused ? "refused, the reference read" : "read as the reference";
  if (reference.refused) {
    if (!refused) return "opened, the reference refuses at open";
    return ours.phase === "open" && ours.code === "INVALID_METADATA" ? "refused at open, as the reference" : "opened, the reference refuses at open";
  }
  if (refused && ours.phase === "open") return "refused at open, the reference opens";
  if (reference.error) {
    if (refused) return "refused, as the reference";
    return reference.compressor ? "read, the reference's compressor refused" : "read, the reference refused";
  }
  if (refused) {
    // The compressor's side: numcodecs.js's failure (CODEC_FAILED), the
    // framing checks before it, or the package's own decoders (which
    // refuse, for instance, bytes after a zlib stream that Python's zlib
    // ignores).
    const compressorSide = ours.code === "CODEC_FAILED" || /: its (zstd|blosc) (data|header)/.test(ours.message ?? "") ||
      /^n5_default: block [^:]*: (zstd|gzip|zlib|blosc): /.test(ours.message ?? "");
    return compressorSide ? "refused by the compressor's framing or the compressor, the reference's decoded" : "refused, the reference read";
  }
  return hexOf(ours.values) === reference.hex ? "read as the reference" : "wrong value";
}

// ---- the run ----------------------------------------------------------------------

class Reader {
  #worker;
  #resolve;

  async start() {
    this.#worker = new Worker(new URL("./n5-worker.mjs", import.meta.url));
    this.#worker.on("error", (error) => this.#resolve?.({ outcome: "package TypeError or RangeError", message: String(error) }));
    await new Promise((resolve) => {
      this.#worker.once("message", resolve);
    });
    this.#worker.on("message", (m) => this.#resolve?.(m));
  }

  /** Our outcome, or { hang: true } after the deadline (the worker is replaced). */
  async read(job) {
    let timer;
    const result = await new Promise((resolve) => {
      this.#resolve = resolve;
      timer = setTimeout(() => resolve({ hang: true }), DEADLINE_MS);
      this.#worker.postMessage(job);
    });
    clearTimeout(timer);
    this.#resolve = undefined;
    if (result.hang) {
      await this.#worker.terminate();
      await this.start();
    }
    return result;
  }

  stop() {
    return this.#worker.terminate();
  }
}

export async function fuzzN5({ seconds = 10, seed = 1, log = () => {} } = {}) {
  const r = new Random(seed);
  const python = new Decompressors();
  const reader = new Reader();
  await reader.start();
  const counts = Object.fromEntries(N5_OUTCOMES.map((o) => [o, 0]));
  const details = {};
  const samples = {};
  const hangs = [];
  let wasmMemoryBytes = 0;
  let zarritaUnhandled = 0;
  const end = Date.now() + seconds * 1000;
  let runs = 0;
  try {
    while (Date.now() < end) {
      const array = await makeArray(r);
      const damage = [];
      for (let i = r.int(4); i > 0; i--) damage.push(r.int(4) === 0 ? damageAttributes(r, array) : await damageBlock(r, array));
      const axes = r.pick(["reversed", "n5"]);
      const zarrita = r.int(2);
      const files = [[`${PATH}/attributes.json`, array.attributesText ? new TextEncoder().encode(array.attributesText) : json(array.attributes)]];
      for (const [key, bytes] of array.blocks) files.push([`${PATH}/${key}`, bytes]);
      // The reference.
      let meta;
      try {
        meta = referenceMetadata(array.attributesText ? JSON.parse(array.attributesText) : JSON.parse(JSON.stringify(array.attributes)));
      } catch {
        meta = { refused: "not JSON" };
      }
      let reference = meta;
      let extent = [];
      if (!meta.refused && !meta.group) {
        extent = extentOf(meta);
        const compressed = [];
        if (meta.compressor !== "raw") {
          for (const [key, bytes] of array.blocks) {
            const parsed = parseBlock(bytes, meta.dims.length);
            if (!parsed.error) compressed.push([key, parsed.payload]);
          }
        }
        const answers = await python.decompress(compressed.map(([, payload]) => [meta.compressor, payload]));
        if (answers.some((a) => a.crashed)) {
          // The reference has no answer for this case: counted, not judged.
          counts["the reference crashed"]++;
          if (process.env.N5_FUZZ_DUMP) writeFileSync(`${process.env.N5_FUZZ_DUMP}-crash-${runs}.json`, JSON.stringify({ files: files.map(([k, v]) => [k, Buffer.from(v).toString("base64")]) }));
          runs++;
          continue;
        }
        const decompressed = new Map(compressed.map(([key], i) => [key, answers[i]]));
        reference = referenceRead(meta, extent, array.blocks, decompressed);
        if (reference.values) {
          reference.hex = hexOf(axes === "reversed" ? reverseAxes(reference.values, extent, meta.width) : reference.values);
        }
      }
      const ours = await reader.read({ files, path: PATH, axes, zarrita, extent: meta.refused || meta.group ? [] : extent });
      let outcome;
      if (ours.hang) {
        outcome = "hang";
        hangs.push({ run: runs, damage, compressor: array.kind });
      } else {
        outcome = judge(ours, reference);
        wasmMemoryBytes = Math.max(wasmMemoryBytes, ours.wasmMemoryBytes);
        zarritaUnhandled = Math.max(zarritaUnhandled, ours.unhandled);
      }
      counts[outcome]++;
      // N5_FUZZ_DUMP=<prefix>: hangs, and the outcomes N5_FUZZ_DUMP_MATCH
      // (a regular expression) matches, saved as <prefix>-<run>.json.
      const dumpMatch = process.env.N5_FUZZ_DUMP_MATCH;
      if (process.env.N5_FUZZ_DUMP && (outcome === "hang" || (dumpMatch && new RegExp(dumpMatch).test(`${outcome} ${reference.error ?? ""}`)))) {
        const dump = { outcome, reference: reference.error, axes, zarrita, extent, files: files.map(([k, v]) => [k, Buffer.from(v).toString("base64")]) };
        writeFileSync(`${process.env.N5_FUZZ_DUMP}-${runs}.json`, JSON.stringify(dump));
      }
      // A few messages of each kind of outcome, to see what they are.
      if (ours.message !== undefined || outcome.includes("reference's")) {
        const label = `${outcome}${ours.code ? ` ${ours.code}` : ""}`;
        samples[label] ??= [];
        if (samples[label].length < 3) samples[label].push(`${meta.compressor ?? ""} ${damage.join("; ")}: ${ours.message ?? ""} | ${reference.error ?? ""}`.slice(0, 300));
      }
      if (outcome === "zarrita error") {
        const label = `zarrita error: ${String(ours.message).replace(/\d+/g, "N").slice(0, 90)}`;
        details[label] = (details[label] ?? 0) + 1;
      }
      if (outcome.includes("compressor")) {
        const why = outcome.startsWith("read") ? String(reference.error).replace(/^\w+: /, "") : ours.message.replace(/^n5_default: block \S+: /, "").replace(/\d+/g, "N");
        const label = `${outcome}: ${meta.compressor}: ${why.slice(0, 90)}`;
        details[label] = (details[label] ?? 0) + 1;
      }
      runs++;
      if (FAILURES.includes(outcome)) {
        throw new Error(
          `N5 fuzzer: ${outcome} at run ${runs} (seed ${seed}; node tests/fuzz/js/n5.mjs SECONDS ${seed} replays it)\n` +
            `damage: ${damage.join("; ")}; axes ${axes}; zarrita ${zarrita ? "0.5" : "0.7"}; attributes ${array.attributesText ?? JSON.stringify(array.attributes)}\n` +
            `ours: ${JSON.stringify({ ...ours, values: ours.values && hexOf(ours.values) })}\nreference: ${JSON.stringify({ ...reference, values: undefined })}`,
        );
      }
      if (runs % 200 === 0) log(`${runs} runs`);
    }
  } finally {
    await reader.stop();
    python.close();
  }
  return { runs, counts, details, samples, hangs, wasmMemoryBytes, zarritaUnhandled };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [seconds = "60", seed = String(Date.now() % 100000), format] = process.argv.slice(2);
  const asJson = format === "--json";
  const result = await fuzzN5({ seconds: Number(seconds), seed: Number(seed), log: asJson ? () => {} : (m) => process.stderr.write(`\r${m}`) });
  if (asJson) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`\nN5 fuzzer: ${result.runs} runs in ${seconds} s (seed ${seed}); wasm memory at most ${result.wasmMemoryBytes} bytes`);
    for (const [outcome, n] of Object.entries(result.counts)) console.log(`  ${outcome}: ${n}`);
    for (const [label, n] of Object.entries(result.details)) console.log(`    ${label}: ${n}`);
    if (result.hangs.length) console.log(`  hangs: ${JSON.stringify(result.hangs)}`);
    if (process.env.N5_FUZZ_SAMPLES) console.log(JSON.stringify(result.samples, null, 1));
  }
}
