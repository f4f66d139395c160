// npm run demo: writes the sample store (a 12-bit camera image and a bool
// mask with packbits; int4 weights, float8_e4m3 activations, struct
// detections and fixed_length_utf32 labels, which zarrita cannot open by
// itself) with zarrita and the wasm codecs into a temporary folder, reads
// every array back with read() through withDataTypes (the detections split
// into fields by structFields), verifies every value against the
// generator's formulas, reports sizes, each read's time beside zarr.get's
// and decode speed against tuned JavaScript, and removes the folder again,
// also when something fails.
//
// Then compressed chunks: a larger image that zarrita alone writes with
// zstd (its own codec, numcodecs.js), read by zarrita alone, by zarr.get
// with the package registered and by read(), and by read() on this thread
// beside read pools of 1 and 2 workers (createReadPool: the chunks decoded
// by worker threads), with how long each keeps this thread busy.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { createReadPool, diagnostics, PackBitsCodec, read, register, storedDataType, structFields, widenToFloat32, withDataTypes } from "../js/index.js";
import { decodePeers, widenPeers } from "../bench/peers.mjs";
import { sideBySide, sideBySideAsync } from "../bench/timing.mjs";
import {
  ARRAYS, CHUNKS, DETECTION_FIELDS, LABELS, makeActivations, makeDetections, makeImage, makeMask, makeWeights, SHAPE, writeSampleStore,
} from "./sample-store.mjs";

function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(p);
    else if (entry.name !== "zarr.json") total += statSync(p).size;
  }
  return total;
}

// KiB where it is many, bytes where a KiB would round most of it away.
const size = (bytes) => (bytes >= 10240 ? `${(bytes / 1024).toFixed(0)} KiB` : `${bytes} B`).padStart(8);

// How the stored bytes compare with the values as presented.
function compared(stored, presented) {
  if (stored === presented) return "the same size";
  return stored < presented ? `${(presented / stored).toFixed(2)}x smaller` : `${(stored / presented).toFixed(2)}x larger`;
}

// A time against the one it is compared with: "2.3x faster", "1.4x slower".
const against = (base, time) => (time <= base ? `${(base / time).toFixed(1)}x faster` : `${(time / base).toFixed(1)}x slower`);

// Equal values, NaN included; -0 and 0 told apart.
const same = (a, b) => Object.is(a, b) || a === b && (a !== 0 || 1 / a === 1 / b);
const sameAll = (got, expected) => got.length === expected.length && expected.every((v, i) => same(got[i], v));

// What each array should read as, from the generator's formulas again (not
// from the values the writer was handed). Returns the values checked.
function verify(name, arr, result) {
  if (name === "detections") {
    // One column per field, each as withDataTypes presents its type.
    const fields = structFields(result, arr);
    const expected = makeDetections();
    const ok = DETECTION_FIELDS.every(({ name: field }) => {
      const { data, shape } = fields[field];
      const got = data;
      const want = expected.map((d) => (field === "label" ? d[field] : Math.fround(d[field])));
      return shape.length === 1 && shape[0] === expected.length && sameAll(got, want);
    });
    return { ok, count: `${expected.length} records (${DETECTION_FIELDS.map((f) => f.name).join(", ")})` };
  }
  if (name === "labels") {
    return { ok: sameAll(result.data, LABELS), count: LABELS.length };
  }
  const image = makeImage();
  const expected = { image, mask: makeMask(image), weights: makeWeights(), activations: makeActivations() }[name];
  const got = name === "mask" ? Uint8Array.from(result.data, Number) : result.data;
  return { ok: sameAll(got, expected), count: expected.length };
}

// Best of a few rounds of each read, alternating, in milliseconds.
async function readTimes(arr) {
  const best = { read: Infinity, get: Infinity };
  for (let round = 0; round < 7; round++) {
    for (const [name, run] of round % 2 ? [["get", () => zarr.get(arr)], ["read", () => read(arr)]] : [["read", () => read(arr)], ["get", () => zarr.get(arr)]]) {
      const t0 = performance.now();
      await run();
      best[name] = Math.min(best[name], performance.now() - t0);
    }
  }
  return best;
}

const ms = (v) => `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`;

// ---- compressed chunks -------------------------------------------------------

// A 12-bit image as the sample's, 16 times as large, in 64 chunks of zstd
// level 3: enough chunks, each costing a decode, for a pool to matter.
const COMPRESSED = {
  name: "compressed",
  shape: [2048, 2048],
  chunks: [256, 256],
  codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "zstd", configuration: { level: 3, checksum: false } }],
};

/**
 * Writes the compressed image with zarrita alone (call before register()).
 * Returns the array zarrita wrote it through, which keeps zarrita's own
 * zstd for its reads too: zarrita loads an array's codecs once, on first use.
 */
async function writeCompressedImage(store) {
  const { name, shape, chunks, codecs } = COMPRESSED;
  const arr = await zarr.create(zarr.root(store).resolve(name), { shape, chunkShape: chunks, dtype: "uint16", codecs, fillValue: 0 });
  await zarr.set(arr, null, { data: makeImage(shape), shape, stride: [shape[1], 1] });
  return arr;
}

// The longest this thread went without running a 1 ms timer during `run`.
async function longestPause(run) {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    await run();
  } finally {
    clearInterval(timer);
  }
  return Math.max(longest, performance.now() - last);
}

const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];

/**
 * The compressed image read by zarrita alone (`plain`), by zarr.get with
 * the package registered and by read(), then by read() on this thread and
 * through read pools of 1 and 2 workers. Returns whether every read gave
 * the generator's values.
 */
async function compressedReads(dir, plain) {
  const { name, shape, chunks } = COMPRESSED;
  const arr = await zarr.open.v3(zarr.root(new FileSystemStore(dir)).resolve(name), { kind: "array" });
  const expected = makeImage(shape);
  const stored = bytesUnder(join(dir, name));
  const count = (shape[0] / chunks[0]) * (shape[1] / chunks[1]);
  // The default pool only tells its size: its workers start with a first read.
  const pools = { 1: createReadPool({ workers: 1 }), 2: createReadPool({ workers: 2 }), default: createReadPool() };
  try {
    const reads = {
      zarrita: () => zarr.get(plain),
      get: () => zarr.get(arr),
      read: () => read(arr),
      pool1: () => read(arr, null, { pool: pools[1] }),
      pool2: () => read(arr, null, { pool: pools[2] }),
    };
    let ok = true;
    for (const run of Object.values(reads)) ok &&= sameAll((await run()).data, expected);
    // The chunks read() decompressed in wasm, its chain run there.
    const before = diagnostics().reads().decompressed;
    await reads.read();
    const inWasm = diagnostics().reads().decompressed - before;
    const best = await sideBySideAsync(reads, 5);
    const pauses = {};
    for (const key of ["read", "pool2"]) {
      const each = [];
      for (let i = 0; i < 3; i++) each.push(await longestPause(reads[key]));
      pauses[key] = median(each);
    }
    console.log(`compressed: a ${shape.join("x")} uint16 image in ${chunks.join("x")} chunks (${count}), zstd level 3, written by zarrita alone: ` +
      `${(stored / 2 ** 20).toFixed(1)} MiB stored vs ${(expected.byteLength / 2 ** 20).toFixed(1)} MiB (${compared(stored, expected.byteLength)}), ` +
      `values verified by each read below: ${ok ? `all ${expected.length}` : "MISMATCH"}`);
    console.log(`  zarrita alone (its own zstd, numcodecs.js) ${ms(best.zarrita)}; registered: zarr.get ${ms(best.get)} (${against(best.zarrita, best.get)}), ` +
      `read ${ms(best.read)} (${against(best.zarrita, best.read)}; its ${inWasm} chunks decompressed in wasm)`);
    console.log(`  read on this thread ${ms(best.read)}; through a read pool of 1 worker ${ms(best.pool1)} (${against(best.read, best.pool1)}), ` +
      `of 2 workers ${ms(best.pool2)} (${against(best.read, best.pool2)}); ` +
      `this thread's longest pause during a read: ${ms(pauses.read)} on it, ${ms(pauses.pool2)} with 2 workers`);
    console.log("  a pool pays where a read has many chunks that each cost a decode (zstd, gzip), and it keeps this thread free;");
    console.log(`  createReadPool() starts the cores less one (${pools.default.workers} here): on 2 cores that is one worker, ` +
      "which decodes no faster than this thread and adds a copy each way");
    return ok;
  } finally {
    await Promise.all(Object.values(pools).map((pool) => pool.close()));
  }
}

const dir = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-demo-"));
try {
  const store = new FileSystemStore(dir);
  // zarrita alone first: the compressed image, with zarrita's own zstd.
  const plainCompressed = await writeCompressedImage(store);
  register(zarr.registry);
  const written = await writeSampleStore(store);
  // Through withDataTypes zarrita opens every type; the types it reads
  // itself (uint16, bool) pass through untouched.
  const typed = withDataTypes(store);

  console.log(`zarr-codecs-wasm demo (Node ${process.version})`);
  console.log(`wrote the sample store (Zarr v3, ${Object.keys(ARRAYS).length} arrays, the ${SHAPE.join("x")} ones in ${CHUNKS.join("x")} chunks) ` +
    "to a temporary folder, removed when the demo ends");

  let allVerified = true;
  for (const name of Object.keys(ARRAYS)) {
    const arr = await zarr.open.v3(zarr.root(typed).resolve(name), { kind: "array" });
    // read(): zarr.get's result, each chunk decoded straight into its place.
    const result = await read(arr);
    const { ok, count } = verify(name, arr, result);
    const times = await readTimes(arr);
    allVerified &&= ok;
    const stored = storedDataType(arr) ?? arr.dtype;
    const storedName = typeof stored === "string" ? stored : stored.name; // struct, fixed_length_utf32: object form
    const type = storedName === arr.dtype ? arr.dtype : `${storedName} -> ${arr.dtype}`;
    const packed = bytesUnder(join(dir, name));
    // BoolArray: one byte per value; strings (an Array): two bytes per UTF-16 unit.
    const presented = Array.isArray(result.data)
      ? result.data.reduce((n, s) => n + 2 * s.length, 0)
      : result.data.byteLength ?? result.data.length;
    const codec = ARRAYS[name].codecs[0];
    console.log(`  ${name.padEnd(11)} ${type.padEnd(29)} ${`${codec.name} ${JSON.stringify(codec.configuration)}`.padEnd(25)} ` +
      `${size(packed)} stored vs ${size(presented)} as ${arr.dtype} (${compared(packed, presented)}), ` +
      `values verified: ${ok ? `all ${count}` : "MISMATCH"}; read ${ms(times.read)} (zarr.get ${ms(times.get)})`);
  }

  allVerified &&= await compressedReads(dir, plainCompressed);

  // Decode speed on one chunk of each kind, against tuned JavaScript (lookup
  // tables and 32-bit words: the benchmark's peers, checked there).
  const pixels = CHUNKS[0] * CHUNKS[1];
  const image12 = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: CHUNKS });
  const imageChunk = image12.encode({ data: written.image.slice(0, pixels) });
  const maskCodec = PackBitsCodec.fromConfig({}, { dataType: "bool", shape: CHUNKS });
  const maskChunk = maskCodec.encode({ data: written.mask.slice(0, pixels) });
  const activationChunk = new Uint8Array(await store.get("/activations/c/0/0"));
  for (const [label, wasmDecode, jsDecode, bytes] of [
    ["12-bit image chunk", () => image12.decode(imageChunk), () => decodePeers.tuned["uint16 12-bit"](imageChunk, pixels), pixels * 2],
    ["bool mask chunk", () => maskCodec.decode(maskChunk), () => decodePeers.tuned.bool(maskChunk, pixels), pixels],
    ["float8_e4m3 chunk to float32", () => widenToFloat32("float8_e4m3", activationChunk), () => widenPeers["float8_e4m3 (bytes)"].tuned(activationChunk), pixels * 4],
  ]) {
    const { wasm, js } = sideBySide({ wasm: wasmDecode, js: jsDecode });
    console.log(`  decode a ${CHUNKS.join("x")} ${label}: wasm ${(wasm / 1000).toFixed(1)} us (${(bytes / wasm).toFixed(2)} GB/s), ` +
      `tuned JS ${(js / 1000).toFixed(1)} us: ${(js / wasm).toFixed(1)}x`);
  }
  console.log("  (reads: best of 7 alternating rounds, compressed best of 5, from the folder; pauses: median of 3 reads; decodes: best of 15 interleaved rounds; " +
    "`npm run bench` measures every case and size)");
  console.log("viewer: `npm run viewer` serves examples/viewer/ and prints its URL (any array of the store, e.g. ?array=weights or ?array=detections)");
  if (!allVerified) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
