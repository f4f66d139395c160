// Array -> array codecs end to end (issue 35): what a filter chain costs a
// read, from memory (a Map store), side by side in one process. A 4096 x
// 4096 array (1024 x 1024 with --quick) in 512 x 512 chunks, zstd level 3:
//   1. one smooth float32 field (kelvin: 250 + 50 sin cos, in steps of
//      0.01 K) stored two ways:
//        (a) float32, bytes little-endian + zstd;
//        (b) uint16 through scale_offset {scale 100, offset 200} and
//            cast_value {data_type uint16}, then bytes + zstd.
//      Each value is the float32 that (b)'s stored integer k decodes to by
//      the scale_offset page's rule (float32 arithmetic, rounded after each
//      step: fround(fround(k / 100) + 200)), so (a) and (b) hold the same
//      values. zarrita alone computes k / 100 + 200 in doubles and rounds
//      once, which differs from the page in the last bit for some k: its
//      values are checked to within one float32 unit in the last place,
//      and how many differ is printed.
//   2. a float64 image (zstd), wanted as float32: read(arr, null, { dtype:
//      "float32" }) against zarr.get then Float32Array.from. (A read
//      without `dtype`, from a build before it, says so in its cell.)
// Readers:
//   zarrita   zarrita 0.7.5 alone: its own codecs (numcodecs.js zstd, its
//             scale_offset and cast_value), kept by swapping zarrita's
//             registry as it came back in while its arrays are opened and
//             read once (zarrita loads an array's codecs on its first read)
//   get       zarr.get with the package registered
//   read      read()
//   into      read() into an array made once (its `into` option)
//   pool      read() with a pool of one worker per core (createReadPool),
//             into its own output and into a SharedArrayBuffer (the
//             workers place straight into it)
//   floor     read() of (b)'s chunks as the uint16 they store: decompress
//             and place, no values step (what read(b) cannot go under)
// Every reader's values are checked on a sample (grid points, chunk edges,
// corners) against the values written before anything is timed, so a
// wrong result never gets a ratio. Times are the best of N rounds
// (bench/timing.mjs sideBySideAsync); the goals:
//   read(b) / read(a) <= 1.3          a filter chain costs little more than plain
//   zarrita alone get(b) / read(b) >= 3
//   zarrita alone get + Float32Array.from / read(dtype float32) >= 2
// A full run writes bench/array-to-array-results.md and .json (not with
// --quick or --no-write).
//
//   node --expose-gc bench/array-to-array.mjs [--quick] [--no-write] [--rounds=N]
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import { createReadPool, read } from "../js/index.js";
import { registries } from "./zarrita-alone.mjs";
import { sideBySideAsync } from "./timing.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const rounds = Number(args.find((a) => a.startsWith("--rounds="))?.slice(9) ?? (quick ? 3 : 9));
const write = !quick && !args.includes("--no-write");
const SIDE = quick ? 1024 : 4096;
const CHUNK = 512;
const SCALE = 100;
const OFFSET = 200;
const ZSTD = { name: "zstd", configuration: { level: 3, checksum: false } };
const BYTES = { name: "bytes", configuration: { endian: "little" } };
const NO_DTYPE = "read has no dtype option yet";
// The machine is shared: its load before and after goes with the numbers.
const loadBefore = loadavg();

// ---- the values -----------------------------------------------------------

/** The stored integers of (b): 0..10000, a smooth field (250 + 50 sin cos kelvin in hundredths above 200). */
function kelvinSteps(side) {
  const k = new Uint16Array(side * side);
  for (let i = 0; i < side; i++) {
    const s = Math.sin((2 * Math.PI * 3 * i) / side);
    for (let j = 0; j < side; j++) k[i * side + j] = Math.round(5000 + 5000 * s * Math.cos((2 * Math.PI * 2 * j) / side));
  }
  return k;
}

/** What the scale_offset page decodes k to on float32: each operation rounded to float32. */
const pageDecode = (k) => Math.fround(Math.fround(k / SCALE) + OFFSET);

/** A float64 image whose values mostly need rounding to float32 (so the cast does work). */
function float64Image(side) {
  const v = new Float64Array(side * side);
  for (let i = 0; i < side; i++) {
    for (let j = 0; j < side; j++) v[i * side + j] = 250 + 50 * Math.sin(i / 97) * Math.cos(j / 61) + Math.sqrt(i * side + j) * 1e-7;
  }
  return v;
}

// ---- the check ------------------------------------------------------------

/** Flat indices to compare: a 61 x 61 grid, the rows and columns either side of each chunk edge, the corners. */
function sampleIndices(side) {
  const rows = new Set([0, side - 1]);
  for (let r = 0; r < side; r += Math.max(1, Math.floor(side / 61))) rows.add(r);
  for (let e = CHUNK; e < side; e += CHUNK) rows.add(e - 1).add(e);
  const out = [];
  for (const r of rows) for (const c of rows) out.push(r * side + c);
  return out;
}

/** float32's unit in the last place at x (x normal and positive here). */
const ulp32 = (x) => 2 ** (Math.floor(Math.log2(x)) - 23);

/**
 * Throws unless `got` holds `want` at every sampled index (within one
 * float32 unit in the last place where `lastBit`); returns how many
 * sampled values differ at all.
 */
function checkSample(what, got, want, ctor, { lastBit = false } = {}) {
  if (!(got.data instanceof ctor)) throw new Error(`${what}: a ${got.data?.constructor?.name}, not a ${ctor.name}`);
  if (got.data.length !== want.length) throw new Error(`${what}: ${got.data.length} values, not ${want.length}`);
  let differ = 0;
  for (const i of sampleIndices(SIDE)) {
    const g = got.data[i];
    const w = want[i];
    if (g === w) continue;
    differ++;
    if (!lastBit || !(Math.abs(g - w) <= ulp32(w))) throw new Error(`${what}: value ${i} is ${g}, written ${w}`);
  }
  return differ;
}

// ---- the stores -----------------------------------------------------------

const store = new Map();
const shape = [SIDE, SIDE];
const whole = (values) => ({ data: values, shape, stride: [SIDE, 1] });
async function createArray(path, dtype, codecs, fillValue, values) {
  const arr = await zarr.create(zarr.root(store).resolve(path), { shape, chunkShape: [CHUNK, CHUNK], dtype, codecs, fillValue });
  await zarr.set(arr, null, whole(values));
}

const { plainCodecs, packageCodecs, useCodecs } = await registries(zarr);

const k = kelvinSteps(SIDE);
const kelvin = Float32Array.from(k, pageDecode);
const image = float64Image(SIDE);
const image32 = Float32Array.from(image); // fround: nearest, ties to even
// Written with the package registered (zarrita 0.7.5 has no encode for
// scale_offset and cast_value); the encode of each kelvin value gives back
// its k, checked below on (b)'s chunks as plain uint16.
await createArray("a", "float32", [BYTES, ZSTD], 250, kelvin);
await createArray("b", "float32", [{ name: "scale_offset", configuration: { scale: SCALE, offset: OFFSET } }, { name: "cast_value", configuration: { data_type: "uint16" } }, BYTES, ZSTD], 250, kelvin);
await createArray("f64", "float64", [BYTES, ZSTD], 0, image);
// (b)'s chunks seen as what they store: uint16 k, bytes + zstd.
const bMeta = JSON.parse(new TextDecoder().decode(store.get("/b/zarr.json")));
store.set("/b-stored/zarr.json", new TextEncoder().encode(JSON.stringify({ ...bMeta, data_type: "uint16", fill_value: 5000, codecs: [BYTES, ZSTD] })));
for (const [key, bytes] of [...store]) if (key.startsWith("/b/c/")) store.set(`/b-stored/${key.slice(3)}`, bytes);

const open = async (path) => {
  const arr = await zarr.open.v3(zarr.root(store).resolve(path), { kind: "array" });
  await zarr.get(arr, [zarr.slice(0, 1), zarr.slice(0, 1)]); // loads its codecs now, from the registry in use
  return arr;
};
useCodecs(plainCodecs);
const alone = { a: await open("a"), b: await open("b"), f64: await open("f64"), stored: await open("b-stored") };
useCodecs(packageCodecs);
const ours = { a: await open("a"), b: await open("b"), f64: await open("f64"), stored: await open("b-stored") };

// ---- checks, then times ----------------------------------------------------

const storedK = (await zarr.get(alone.stored)).data;
if (Buffer.compare(Buffer.from(storedK.buffer, storedK.byteOffset, storedK.byteLength), Buffer.from(k.buffer)) !== 0) {
  throw new Error("(b) does not store the integers k the field was made of");
}
checkSample("zarrita alone (a)", await zarr.get(alone.a), kelvin, Float32Array);
checkSample("zarr.get (a)", await zarr.get(ours.a), kelvin, Float32Array);
checkSample("read (a)", await read(ours.a), kelvin, Float32Array);
checkSample("zarr.get (b)", await zarr.get(ours.b), kelvin, Float32Array);
checkSample("read (b)", await read(ours.b), kelvin, Float32Array);
const aloneB = (await zarr.get(alone.b)).data;
checkSample("zarrita alone (b)", { data: aloneB }, kelvin, Float32Array, { lastBit: true });
let lastBitOff = 0;
for (let i = 0; i < kelvin.length; i++) {
  if (aloneB[i] === kelvin[i]) continue;
  lastBitOff++;
  if (!(Math.abs(aloneB[i] - kelvin[i]) <= ulp32(kelvin[i]))) throw new Error(`zarrita alone (b): value ${i} is ${aloneB[i]}, written ${kelvin[i]}`);
}
const note = `zarrita alone reads (b) one unit in the last place off the scale_offset page's float32 arithmetic in ${lastBitOff} of ${kelvin.length} values (it divides in doubles and rounds once); timed anyway`;
console.log(`array -> array codecs, ${SIDE}x${SIDE} in ${CHUNK}x${CHUNK} chunks, zstd level 3, from memory; best of ${rounds} rounds, ms`);
console.log(note);

const toFloat32 = async (pending) => Float32Array.from((await pending).data);
checkSample("zarrita alone float64 -> Float32Array.from", { data: await toFloat32(zarr.get(alone.f64)) }, image32, Float32Array);
checkSample("zarr.get float64 -> Float32Array.from", { data: await toFloat32(zarr.get(ours.f64)) }, image32, Float32Array);
checkSample("read float64 -> Float32Array.from", { data: await toFloat32(read(ours.f64)) }, image32, Float32Array);
const probe = await read(ours.f64, null, { dtype: "float32" });
const hasDtype = probe.data instanceof Float32Array;
if (hasDtype) checkSample("read { dtype: float32 }", probe, image32, Float32Array);

// A pool of one worker per core: what a viewer that made one reads with.
const pool = createReadPool({ workers: cpus().length });
checkSample("read (b), pooled", await read(ours.b, null, { pool }), kelvin, Float32Array);
// An output made once and reused, as a viewer's texture is (read's
// `into`): a fresh 64 MiB array costs its page faults on every read.
const intoKelvin = new Float32Array(SIDE * SIDE);
checkSample("read (b) into", await read(ours.b, null, { into: intoKelvin }), kelvin, Float32Array);
const kelvinMs = await sideBySideAsync({
  zarritaA: () => zarr.get(alone.a),
  zarritaB: () => zarr.get(alone.b),
  getA: () => zarr.get(ours.a),
  getB: () => zarr.get(ours.b),
  readA: () => read(ours.a),
  readB: () => read(ours.b),
  poolA: () => read(ours.a, null, { pool }),
  poolB: () => read(ours.b, null, { pool }),
  sharedA: () => read(ours.a, null, { pool, useSharedArrayBuffer: true }),
  sharedB: () => read(ours.b, null, { pool, useSharedArrayBuffer: true }),
  // (b)'s very chunks read as the uint16 they store: decompressing and
  // placing alone, the floor under read(b).
  storedB: () => read(ours.stored),
  intoA: () => read(ours.a, null, { into: intoKelvin }),
  intoB: () => read(ours.b, null, { into: intoKelvin }),
}, rounds);
const castMs = await sideBySideAsync({
  zarrita: () => toFloat32(zarr.get(alone.f64)),
  get: () => toFloat32(zarr.get(ours.f64)),
  readThenFrom: () => toFloat32(read(ours.f64)),
  ...(hasDtype ? { readDtype: () => read(ours.f64, null, { dtype: "float32" }) } : {}),
  ...(hasDtype ? { poolDtype: () => read(ours.f64, null, { dtype: "float32", pool }) } : {}),
}, rounds);
await pool.close();

// ---- the table ------------------------------------------------------------

const f = (x) => x.toFixed(x < 10 ? 2 : 1);
const goals = [
  { goal: "read(b) / read(a) <= 1.3", value: kelvinMs.readB / kelvinMs.readA, pass: (x) => x <= 1.3, show: (x) => x.toFixed(2) },
  { goal: "zarrita alone zarr.get(b) / read(b) >= 3", value: kelvinMs.zarritaB / kelvinMs.readB, pass: (x) => x >= 3, show: (x) => `${x.toFixed(2)}x` },
  { goal: "the same, read into an array made once", value: kelvinMs.zarritaB / kelvinMs.intoB, pass: (x) => x >= 3, show: (x) => `${x.toFixed(2)}x` },
  { goal: `the same, read with a pool of ${cpus().length}`, value: kelvinMs.zarritaB / kelvinMs.poolB, pass: (x) => x >= 3, show: (x) => `${x.toFixed(2)}x` },
  { goal: `the same, read with a pool of ${cpus().length} into shared output`, value: kelvinMs.zarritaB / kelvinMs.sharedB, pass: (x) => x >= 3, show: (x) => `${x.toFixed(2)}x` },
  { goal: "(informative) zarrita alone zarr.get(b) / the floor under read(b)", value: kelvinMs.zarritaB / kelvinMs.storedB, pass: () => true, show: (x) => `${x.toFixed(2)}x` },
  { goal: "zarrita alone zarr.get + Float32Array.from / read(dtype float32) >= 2", value: hasDtype ? castMs.zarrita / castMs.readDtype : undefined, pass: (x) => x >= 2, show: (x) => `${x.toFixed(2)}x` },
].map((g) => ({ goal: g.goal, value: g.value ?? null, shown: g.value === undefined ? NO_DTYPE : g.show(g.value), result: g.value === undefined ? "-" : g.pass(g.value) ? "PASS" : "MISS" }));
const table = [
  `| store | zarrita alone | zarr.get, registered | read | read into | read, pool of ${cpus().length} | read, pool, shared output |`,
  "|---|---|---|---|---|---|---|",
  `| (a) float32, bytes + zstd | ${f(kelvinMs.zarritaA)} | ${f(kelvinMs.getA)} | ${f(kelvinMs.readA)} | ${f(kelvinMs.intoA)} | ${f(kelvinMs.poolA)} | ${f(kelvinMs.sharedA)} |`,
  `| (b) float32 as uint16: scale_offset + cast_value + bytes + zstd | ${f(kelvinMs.zarritaB)} | ${f(kelvinMs.getB)} | ${f(kelvinMs.readB)} | ${f(kelvinMs.intoB)} | ${f(kelvinMs.poolB)} | ${f(kelvinMs.sharedB)} |`,
  `| (b)'s chunks read as the uint16 they store (the floor: decompress and place) | | | ${f(kelvinMs.storedB)} | | | |`,
  `| float64, bytes + zstd, to float32: zarr.get / read then Float32Array.from | ${f(castMs.zarrita)} | ${f(castMs.get)} | ${f(castMs.readThenFrom)} | | | |`,
  `| float64, bytes + zstd, to float32: read(arr, null, { dtype: "float32" }) | | | ${hasDtype ? f(castMs.readDtype) : NO_DTYPE} | | ${hasDtype ? f(castMs.poolDtype) : NO_DTYPE} | |`,
  "",
  "| goal | measured | |",
  "|---|---|---|",
  ...goals.map((g) => `| ${g.goal} | ${g.shown} | ${g.result} |`),
];
const showLoad = (l) => l.map((x) => x.toFixed(2)).join(", ");
const load = `${showLoad(loadBefore)} before, ${showLoad(loadavg())} after`;
console.log(table.join("\n"));
console.log(`load average (1, 5, 15 min): ${load}`);

if (write) {
  const machine = `${cpus().length} cores (${cpus()[0]?.model?.trim() ?? "unknown CPU"}), Node ${process.version}`;
  let commit = "unknown";
  try {
    commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
  } catch {}
  const date = new Date().toISOString().slice(0, 10);
  const md = [
    `Array -> array codecs end to end, measured ${date} on ${machine}, commit ${commit}, load average (1, 5, 15 min) ${load}.`,
    "",
    `${SIDE}x${SIDE} arrays in ${CHUNK}x${CHUNK} chunks from memory, zstd level 3, written by zarrita 0.7.5 with the package registered; ms, best of ${rounds} rounds. ${note}.`,
    "",
    ...table,
    "",
  ].join("\n");
  writeFileSync(join(root, "bench/array-to-array-results.md"), md);
  writeFileSync(join(root, "bench/array-to-array-results.json"), `${JSON.stringify({ date, machine, commit, loadavg: { before: loadBefore, after: loadavg() }, side: SIDE, chunk: CHUNK, rounds, lastBitOff, ms: { kelvin: kelvinMs, float64ToFloat32: castMs }, readHasDtype: hasDtype, goals: goals.map(({ goal, value, result }) => ({ goal, value, result })) }, null, 1)}\n`);
}
