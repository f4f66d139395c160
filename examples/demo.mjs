// npm run demo: writes the sample store (a 12-bit camera image and a bool
// mask with packbits; int4 weights, float8_e4m3 activations, struct
// detections and fixed_length_utf32 labels, which zarrita cannot open by
// itself) with zarrita and the wasm codecs into a temporary folder, reads
// every array back with read() through withDataTypes (the detections split
// into fields by structFields), verifies every value against the
// generator's formulas, reports sizes, each read's time beside zarr.get's
// and decode speed against tuned JavaScript, and removes the folder again,
// also when something fails. The image is read again through a read pool
// (createReadPool: the chunks decoded by worker threads), beside the read
// on this thread.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { createReadPool, PackBitsCodec, read, register, storedDataType, structFields, widenToFloat32, withDataTypes } from "../js/index.js";
import { decodePeers, widenPeers } from "../bench/peers.mjs";
import { sideBySide } from "../bench/timing.mjs";
import {
  ARRAYS, CHUNKS, DETECTION_FIELDS, LABELS, makeActivations, makeDetections, makeImage, makeMask, makeWeights, SHAPE, writeSampleStore,
} from "./sample-store.mjs";

register(zarr.registry);

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

const dir = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-demo-"));
try {
  const store = new FileSystemStore(dir);
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
      `${size(packed)} stored vs ${size(presented)} as ${arr.dtype} (${(packed / presented * 100).toFixed(1)}%), ` +
      `values verified: ${ok ? `all ${count}` : "MISMATCH"}; read ${ms(times.read)} (zarr.get ${ms(times.get)})`);
  }

  // The image again through a read pool: chunks fetched here, decoded by
  // two worker threads, the same values.
  const pool = createReadPool({ workers: 2 });
  try {
    const image = await zarr.open.v3(zarr.root(typed).resolve("image"), { kind: "array" });
    const pooled = await read(image, null, { pool });
    const ok = sameAll(pooled.data, makeImage());
    allVerified &&= ok;
    const best = { inThread: Infinity, pooled: Infinity };
    for (let round = 0; round < 7; round++) {
      for (const name of round % 2 ? ["pooled", "inThread"] : ["inThread", "pooled"]) {
        const t0 = performance.now();
        await read(image, null, name === "pooled" ? { pool } : {});
        best[name] = Math.min(best[name], performance.now() - t0);
      }
    }
    const { chunks, perWorker } = pool.stats();
    console.log(`  image through a read pool of 2 workers: values verified: ${ok ? `all ${pooled.data.length}` : "MISMATCH"}; ` +
      `read ${ms(best.inThread)} on this thread, ${ms(best.pooled)} pooled (${chunks} chunks decoded by the workers: ${perWorker.join(" + ")})`);
  } finally {
    await pool.close();
  }

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
  console.log("  (reads: best of 7 alternating rounds, from the folder; decodes: best of 15 interleaved rounds; `npm run bench` measures every case and size)");
  console.log("viewer: `npm run viewer` serves examples/viewer/ and prints its URL (any array of the store, e.g. ?array=weights or ?array=detections)");
  if (!allVerified) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
