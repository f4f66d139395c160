// npm run bench: the codecs against their peers, side by side in one Node
// process, as ratios (see bench/timing.mjs). Writes bench/results.json,
// bench/results.md and bench/chart.svg; --update-readme also replaces the
// README's performance table. --quick: small sizes, few rounds (a smoke run).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import { BytesCodec, PackBitsCodec, ready } from "../js/index.js";
import { instantiate, wasm } from "../js/module.js";
import { randomBytes as pseudoRandom } from "../tests/js/reference.js";
import { chart } from "./chart.mjs";
import { decodePeers, encodePeers, packbitsCases } from "./peers.mjs";
import { sideBySide } from "./timing.mjs";

const args = new Set(process.argv.slice(2));
const quick = args.has("--quick");
const root = fileURLToPath(new URL("..", import.meta.url));
const SIZES = quick ? [4096, 65536] : [4096, 65536, 1 << 20, 16 << 20];
const ROUNDS = quick ? 2 : 7;
// Noise on these shared machines comes in bursts longer than one case's
// rounds, so the full run passes over everything three times and each
// contender keeps its best time across the passes.
const PASSES = quick ? 1 : 3;
const KERNEL_SIZE = 65536; // one scratch block: kernels alone, heap to heap
const sizeLabel = (n) => (n >= 1 << 20 ? `${n >> 20} MiB` : `${n >> 10} KiB`);

// zarrita's own JS bytes codec, from its (unregistered) registry.
const ZarritaBytesCodec = await zarr.registry.get("bytes")();
await ready();
const simd = wasm();
const nosimdPath = new URL("../dist/zarr-codecs-wasm-nosimd.mjs", import.meta.url);
const nosimd = existsSync(nosimdPath)
  ? await instantiate((await import(nosimdPath.href)).default)
  : undefined;
if (!nosimd) console.warn("bench: no dist/zarr-codecs-wasm-nosimd.mjs (run scripts/bench.sh); skipping the no-SIMD build");

// The native kernels run in their own process, three times spread through
// the run (start, middle, end); each kernel keeps its best, as the wasm
// side does, so a noisy moment on this shared machine penalises neither.
const nativeBin = `${root}build/native-release/zcw_native_bench`;
const native = {};
function sampleNative() {
  if (!existsSync(nativeBin)) return;
  const run = JSON.parse(execFileSync(nativeBin, { encoding: "utf8" }));
  for (const [key, value] of Object.entries(run)) {
    if (typeof value === "number") native[key] = Math.max(native[key] ?? 0, value);
  }
}
sampleNative();
if (!existsSync(nativeBin)) console.warn("bench: no native build (run scripts/bench.sh); skipping the native comparison");

const sameBytes = (a, b) => Buffer.compare(
  Buffer.from(a.buffer, a.byteOffset, a.byteLength),
  Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;

function check(what, ours, theirs) {
  if (!sameBytes(ours, theirs)) throw new Error(`bench: ${what}: the peer's output differs from ours`);
}

const results = [];
const bestNs = new Map();
let pass = 0;

// Best time of each contender so far, over the passes.
function bestOf(key, contenders, rounds) {
  const ns = sideBySide(contenders, { rounds });
  const best = bestNs.get(key) ?? {};
  for (const [name, t] of Object.entries(ns)) best[name] = Math.min(best[name] ?? Infinity, t);
  bestNs.set(key, best);
  return best;
}

// One case at one size: every contender timed side by side; reported after
// the last pass.
function record(entry, contenders) {
  const ns = bestOf(`${entry.op} ${entry.label} ${entry.size}`, contenders, ROUNDS);
  if (pass < PASSES - 1) return;
  const r = { ...entry, ns };
  r.vsPeer = ns.peer / ns.ours;
  if (ns.floor) r.ofFloor = ns.floor / ns.ours;
  if (ns.nosimd) r.simdGain = ns.nosimd / ns.ours;
  if (ns.into) r.intoOfSet = ns.setFloor / ns.into;
  results.push(r);
  const cells = [`${r.vsPeer.toFixed(2)}x peer`];
  if (r.ofFloor) cells.push(`${r.ofFloor.toFixed(2)} floor`);
  if (r.simdGain) cells.push(`${r.simdGain.toFixed(2)}x no-SIMD`);
  if (r.intoOfSet) cells.push(`into: ${r.intoOfSet.toFixed(2)} of set()`);
  console.log(`${`${r.op} ${r.label}`.padEnd(36)} ${sizeLabel(r.size).padStart(7)}  ${cells.join("  ")}`);
}

const BYTES_TYPES = [["int16", Int16Array], ["float32", Float32Array], ["float64", Float64Array]];
const kernels = [];
const breakdowns = [];

// One scratch block, heap to heap, so only the kernel is timed.
function kernelCall(module, op, label) {
  const { input, output } = module.scratch;
  module.HEAPU8.set(pseudoRandom(KERNEL_SIZE, 5), input);
  if (op === "bytes-be-decode") {
    const width = { int16: 2, float32: 4, float64: 8 }[label];
    return () => module._zcw_bytes_transform(width, 0, input, output, KERNEL_SIZE);
  }
  const { config, ArrayType } = packbitsCases[label];
  const bits = (config.last_bit ?? 0) - (config.first_bit ?? 0) + 1;
  const container = ArrayType.BYTES_PER_ELEMENT;
  const run = op === "packbits-decode" ? module._zcw_packbits_decode : module._zcw_packbits_encode;
  const signed = label.startsWith("int") ? 1 : 0;
  const isBool = label === "bool" ? 1 : 0;
  return () => run(config.first_bit ?? 0, bits, container, signed, isBool, input, output, KERNEL_SIZE / container);
}
for (pass = 0; pass < PASSES; pass++) {
  if (PASSES > 1) console.log(`-- pass ${pass + 1} of ${PASSES}${pass < PASSES - 1 ? " (results after the last)" : ""}`);
  // ---- bytes, big-endian: against zarrita's own JS BytesCodec ---------------
  for (const size of SIZES) {
    const raw = pseudoRandom(size, size);
    const floorSrc = pseudoRandom(size, 7);
    const setDst = new Uint8Array(size);
    for (const [dataType, ArrayType] of BYTES_TYPES) {
      const meta = { dataType, shape: [size / ArrayType.BYTES_PER_ELEMENT] };
      const ours = BytesCodec.fromConfig({ endian: "big" }, meta);
      const peer = ZarritaBytesCodec.fromConfig({ endian: "big" }, meta);
      const slow = nosimd && new BytesCodec({ endian: "big" }, meta, { module: nosimd });
      const decoded = ours.decode(raw).data;
      check(`bytes decode ${dataType}`, decoded, peer.decode(raw).data);
      const out = new ArrayType(decoded.length);
      record({ op: "bytes-be-decode", label: dataType, size }, {
        ours: () => ours.decode(raw),
        peer: () => peer.decode(raw),
        floor: () => floorSrc.slice(),
        ...(slow && { nosimd: () => slow.decode(raw) }),
        into: () => ours.decodeInto(raw, out),
        setFloor: () => setDst.set(floorSrc),
      });
      const chunk = { data: decoded, shape: meta.shape, stride: [1] };
      check(`bytes encode ${dataType}`, ours.encode(chunk), peer.encode(chunk));
      record({ op: "bytes-be-encode", label: dataType, size }, {
        ours: () => ours.encode(chunk),
        peer: () => peer.encode(chunk),
        ...(slow && { nosimd: () => slow.encode(chunk) }),
      });
    }
  }

  sampleNative();

  // ---- packbits: against plain-JS loops; size is the decoded output --------
  for (const size of SIZES) {
    const floorSrc = pseudoRandom(size, 9);
    const setDst = new Uint8Array(size);
    for (const [label, { dataType, config, ArrayType }] of Object.entries(packbitsCases)) {
      const n = size / ArrayType.BYTES_PER_ELEMENT;
      const meta = { dataType, shape: [n] };
      const ours = PackBitsCodec.fromConfig(config, meta);
      const slow = nosimd && new PackBitsCodec(config, meta, { module: nosimd });
      const values = new ArrayType(pseudoRandom(size, n).buffer);
      const packed = encodePeers[label](values);
      const decoded = ours.decode(packed).data;
      check(`packbits decode ${label}`, decoded, decodePeers[label](packed, n));
      const out = new ArrayType(n);
      record({ op: "packbits-decode", label, size }, {
        ours: () => ours.decode(packed),
        peer: () => decodePeers[label](packed, n),
        floor: () => floorSrc.slice(),
        ...(slow && { nosimd: () => slow.decode(packed) }),
        into: () => ours.decodeInto(packed, out),
        setFloor: () => setDst.set(floorSrc),
      });
      const chunk = { data: values, shape: [n], stride: [1] };
      check(`packbits encode ${label}`, ours.encode(chunk), packed);
      record({ op: "packbits-encode", label, size }, {
        ours: () => ours.encode(chunk),
        peer: () => encodePeers[label](values),
        ...(slow && { nosimd: () => slow.encode(chunk) }),
      });
    }
  }

  sampleNative();

  // ---- kernels alone: wasm SIMD, wasm without SIMD, native -------------------
  for (const op of ["bytes-be-decode", "packbits-decode", "packbits-encode"]) {
    const labels = op === "bytes-be-decode" ? BYTES_TYPES.map(([t]) => t) : Object.keys(packbitsCases);
    for (const label of labels) {
      const ns = bestOf(`kernel ${op} ${label}`, {
        simd: kernelCall(simd, op, label),
        ...(nosimd && { nosimd: kernelCall(nosimd, op, label) }),
      }, 3 * ROUNDS);
      if (pass < PASSES - 1) continue;
      const gbs = (t) => KERNEL_SIZE / t;
      const k = { op, label, simdGBs: gbs(ns.simd) };
      if (ns.nosimd) k.nosimdGBs = gbs(ns.nosimd);
      const nativeGBs = native[`${op} ${label} ${KERNEL_SIZE}`];
      if (nativeGBs) {
        k.nativeGBs = nativeGBs;
        k.ofNative = k.simdGBs / nativeGBs;
      }
      kernels.push(k);
      console.log(`kernel ${`${op} ${label}`.padEnd(36)} wasm SIMD ${k.simdGBs.toFixed(1)} GB/s` +
        (k.nosimdGBs ? `, no SIMD ${k.nosimdGBs.toFixed(1)}` : "") +
        (k.nativeGBs ? `, native ${k.nativeGBs.toFixed(1)} (wasm ${k.ofNative.toFixed(2)} of native)` : ""));
    }
  }

  // ---- where the time goes: a packbits decode taken apart ----------------------
  // The same blocks the codec streams (64 KiB of output each), each step timed
  // alone: allocating the output, copying the packed bytes into wasm memory,
  // the kernel, copying the values out. Their sum is what a decode costs even
  // before any JS overhead; the floor and the peer are timed beside them.
  for (const label of ["uint16 12-bit", "bool"]) {
    for (const size of SIZES.filter((s) => s >= 1 << 20)) {
      const { dataType, config, ArrayType } = packbitsCases[label];
      const n = size / ArrayType.BYTES_PER_ELEMENT;
      const codec = PackBitsCodec.fromConfig(config, { dataType, shape: [n] });
      const values = new ArrayType(pseudoRandom(size, 11).buffer);
      const packed = encodePeers[label](values);
      const blocks = size / KERNEL_SIZE;
      const inPerBlock = packed.length / blocks;
      const { input, output } = simd.scratch;
      const kernel = kernelCall(simd, "packbits-decode", label);
      const out = new Uint8Array(size);
      const floorSrc = pseudoRandom(size, 13);
      const ns = bestOf(`breakdown ${label} ${size}`, {
        allocate: () => new ArrayType(n),
        copyIn: () => {
          for (let b = 0; b < blocks; b++) simd.HEAPU8.set(packed.subarray(b * inPerBlock, (b + 1) * inPerBlock), input);
        },
        kernel: () => {
          for (let b = 0; b < blocks; b++) kernel();
        },
        copyOut: () => {
          for (let b = 0; b < blocks; b++) out.set(simd.HEAPU8.subarray(output, output + KERNEL_SIZE), b * KERNEL_SIZE);
        },
        decode: () => codec.decode(packed),
        floor: () => floorSrc.slice(),
        peer: () => decodePeers[label](packed, n),
      }, ROUNDS);
      if (pass < PASSES - 1) continue;
      const parts = ns.allocate + ns.copyIn + ns.kernel + ns.copyOut;
      const d = { label, size, ms: Object.fromEntries(Object.entries(ns).map(([k, v]) => [k, v / 1e6])) };
      // With a kernel that took no time at all, the decode would still cost
      // the other three steps: the best ratio to the peer any kernel allows.
      d.bestPossibleVsPeer = ns.peer / (parts - ns.kernel);
      breakdowns.push(d);
      const f = (v) => `${(v / 1e6).toFixed(2)} ms`;
      console.log(`where the time goes, packbits-decode ${label} ${sizeLabel(size)}: allocate ${f(ns.allocate)}, ` +
        `copy in ${f(ns.copyIn)}, kernel ${f(ns.kernel)}, copy out ${f(ns.copyOut)} = ${f(parts)}; ` +
        `whole decode ${f(ns.decode)}; floor ${f(ns.floor)}; plain JS ${f(ns.peer)}; ` +
        `a free kernel would make it ${d.bestPossibleVsPeer.toFixed(2)}x plain JS`);
    }
  }

}

// ---- goals (issue: performance) ----------------------------------------------
const find = (op, label, size) => results.find((r) => r.op === op && r.label === label && r.size === size);
const goals = [];
// pass is null (n/a) where this run measured nothing for the goal.
function goal(text, values, pass) {
  goals.push({ goal: text, values, pass: values.length ? values.every(pass) : null });
}
const large = SIZES.filter((s) => s >= 1 << 20);
for (const t of BYTES_TYPES.map(([t]) => t)) {
  goal(`bytes big-endian decode ${t} >= 4x zarrita (1, 16 MiB)`, large.map((s) => find("bytes-be-decode", t, s).vsPeer), (v) => v >= 4);
  goal(`bytes big-endian decode ${t} >= 0.5 of floor (1, 16 MiB)`, large.map((s) => find("bytes-be-decode", t, s).ofFloor), (v) => v >= 0.5);
}
goal("packbits bool decode >= 8x plain JS (1, 16 MiB)", large.map((s) => find("packbits-decode", "bool", s).vsPeer), (v) => v >= 8);
goal("packbits uint16 12-bit decode >= 5x plain JS (1, 16 MiB)", large.map((s) => find("packbits-decode", "uint16 12-bit", s).vsPeer), (v) => v >= 5);
for (const label of ["bool", "uint16 12-bit"]) {
  goal(`packbits ${label} decode >= 0.5 of floor (1, 16 MiB)`, large.map((s) => find("packbits-decode", label, s).ofFloor), (v) => v >= 0.5);
}
goal("every case at 4 KiB no slower than its JS peer", results.filter((r) => r.size === 4096).map((r) => r.vsPeer), (v) => v >= 1);
goal("wasm SIMD kernels within 2x of native", kernels.filter((k) => k.ofNative).map((k) => k.ofNative), (v) => v >= 0.5);
goal("decodeInto bool mask >= 0.5 of set() at 1 MiB", large.includes(1 << 20) ? [find("packbits-decode", "bool", 1 << 20).intoOfSet] : [], (v) => v >= 0.5);
console.log("\nGoals");
for (const g of goals) {
  const verdict = g.pass === null ? "n/a " : g.pass ? "met " : "MISS";
  console.log(`  ${verdict}  ${g.goal}: ${g.values.map((v) => v.toFixed(2)).join(", ")}`);
}

// ---- outputs ----------------------------------------------------------------
const date = new Date().toISOString().slice(0, 10);
const machine = `Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? "unknown CPU"}`;
const rows = [];
for (const op of ["bytes-be-decode", "bytes-be-encode", "packbits-decode", "packbits-encode"]) {
  for (const label of [...new Set(results.filter((r) => r.op === op).map((r) => r.label))]) {
    const bySize = {};
    for (const r of results.filter((x) => x.op === op && x.label === label)) bySize[sizeLabel(r.size)] = r;
    rows.push({ label: `${op} ${label}`, bySize });
  }
}
const sizeNames = SIZES.map(sizeLabel);
let md = `Measured ${date}, ${machine}${quick ? " (quick run)" : ""}. Ratios of best times (${ROUNDS} rounds in each of ${PASSES} passes), measured side by side in one process.\n\n`;
md += `| case | ${sizeNames.map((s) => `${s}: x peer / of floor`).join(" | ")} |\n|---|${sizeNames.map(() => "---").join("|")}|\n`;
for (const row of rows) {
  md += `| ${row.label} | ${sizeNames.map((s) => {
    const r = row.bySize[s];
    if (!r) return "";
    return r.ofFloor ? `${r.vsPeer.toFixed(1)}x / ${r.ofFloor.toFixed(2)}` : `${r.vsPeer.toFixed(1)}x`;
  }).join(" | ")} |\n`;
}
md += `\nKernels alone (64 KiB, heap to heap), GB/s of decoded bytes:\n\n| kernel | wasm SIMD | wasm no SIMD | native -O3 | wasm / native |\n|---|---|---|---|---|\n`;
for (const k of kernels) {
  md += `| ${k.op} ${k.label} | ${k.simdGBs.toFixed(1)} | ${k.nosimdGBs?.toFixed(1) ?? ""} | ${k.nativeGBs?.toFixed(1) ?? ""} | ${k.ofNative?.toFixed(2) ?? ""} |\n`;
}
if (breakdowns.length) {
  md += `\nWhere the time of a decode goes (same 64 KiB blocks, each step timed alone), ms:\n\n| decode | allocate | copy in | kernel | copy out | whole decode | floor | plain JS | best ratio to plain JS with a free kernel |\n|---|---|---|---|---|---|---|---|---|\n`;
  for (const d of breakdowns) {
    const m = d.ms;
    md += `| ${d.label} ${sizeLabel(d.size)} | ${[m.allocate, m.copyIn, m.kernel, m.copyOut, m.decode, m.floor, m.peer].map((v) => v.toFixed(2)).join(" | ")} | ${d.bestPossibleVsPeer.toFixed(2)}x |\n`;
  }
}
const verdictOf = (g) => (g.pass === null ? "n/a" : g.pass ? "met" : "**missed**");
md += `\nGoals:\n\n${goals.map((g) => `- ${verdictOf(g)}: ${g.goal} (${g.values.map((v) => v.toFixed(2)).join(", ")})`).join("\n")}\n`;

if (!args.has("--no-write")) {
  writeFileSync(`${root}bench/results.json`, `${JSON.stringify({ date, machine, quick, rounds: ROUNDS, results, kernels, breakdowns, goals }, null, 1)}\n`);
  writeFileSync(`${root}bench/results.md`, md);
  writeFileSync(`${root}bench/chart.svg`, chart(rows, sizeNames, `zarr-codecs-wasm benchmark, ${date}, ${machine}`));
  console.log("\nwrote bench/results.json, bench/results.md, bench/chart.svg");
  if (args.has("--update-readme")) {
    const readme = readFileSync(`${root}README.md`, "utf8");
    const start = "<!-- bench:start -->";
    const end = "<!-- bench:end -->";
    const a = readme.indexOf(start);
    const b = readme.indexOf(end);
    if (a < 0 || b < a) throw new Error("bench: README.md has no bench:start / bench:end markers");
    writeFileSync(`${root}README.md`, `${readme.slice(0, a + start.length)}\n${md}${readme.slice(b)}`);
    console.log("updated README.md's performance section");
  }
}
