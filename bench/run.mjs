// npm run bench: the codecs against their peers, side by side in one Node
// process, as ratios (see bench/timing.mjs). Peers are tuned JavaScript
// (bench/peers.mjs: what a careful engineer avoiding wasm would write) and
// the plain loops a library writes (zarrita's own BytesCodec for bytes).
// Writes bench/results.json, bench/results.md and bench/chart.svg;
// --update-docs also replaces the results in docs/performance.md.
// --quick: two sizes, few rounds (the test command's smoke run).
// --layouts: only the records, strings, N5 and byte-type cases (with --no-write).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import { BytesCodec, PackBitsCodec, ready, register, withDataTypes } from "../js/index.js";
import { coreOf } from "../js/codecs/wasm-codec.js";
import { instantiate, wasm } from "../js/wasm/load.js";
import { randomBytes as pseudoRandom } from "../tests/js/support/reference.js";
import { chart } from "./chart.mjs";
import { columnCases, n5Cases, presentedStringCases, recordCases, stringCases } from "./layouts.mjs";
import { readCases } from "./read.mjs";
import { byteStringReadCost, vlenBytesCases } from "./bytes-cases.mjs";
import { byteswapPeers, decodePeers, encodePeers, packbitsCases, widenPeers } from "./peers.mjs";
import { sideBySide } from "./timing.mjs";

const args = new Set(process.argv.slice(2));
const quick = args.has("--quick");
const layoutsOnly = args.has("--layouts");
if (layoutsOnly && !args.has("--no-write")) throw new Error("bench: --layouts measures a part only; add --no-write");
const root = fileURLToPath(new URL("..", import.meta.url));
const SIZES = quick ? [4096, 65536] : [4096, 65536, 1 << 20, 16 << 20];
const ROUNDS = quick ? 3 : 15;
// Noise on these shared machines comes in bursts longer than one case's
// rounds, so a full run passes over everything twice and each contender
// keeps its best time across the passes.
const PASSES = quick ? 1 : 2;
const BLOCK = 65536; // one scratch block: the kernels alone
const sizeLabel = (n) => (n >= 1 << 20 ? `${n >> 20} MiB` : `${n >> 10} KiB`);

const ZarritaBytesCodec = await zarr.registry.get("bytes")(); // before register()
await ready();
const simd = wasm();

// The same module built without SIMD (not shipped), for the SIMD gain.
async function loadNoSimd() {
  const glue = new URL("../dist/zarr-codecs-wasm-nosimd.mjs", import.meta.url);
  const binary = new URL("../dist/zarr-codecs-wasm-nosimd.wasm", import.meta.url);
  if (!existsSync(glue) || !existsSync(binary)) {
    console.warn("bench: no dist/zarr-codecs-wasm-nosimd.* (run scripts/bench.sh); skipping the no-SIMD build");
    return undefined;
  }
  const factory = (await import(glue.href)).default;
  return instantiate(factory, await WebAssembly.compile(readFileSync(binary)));
}
const nosimd = await loadNoSimd();

// The native kernels run in their own process, sampled at the start, the
// middle and the end; each keeps its best, as the wasm side does.
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

const bytesView = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const sameBytes = (a, b) => Buffer.compare(Buffer.from(bytesView(a)), Buffer.from(bytesView(b))) === 0;
function check(what, ours, theirs) {
  if (!sameBytes(ours, theirs)) throw new Error(`bench: ${what}: the peer's output differs from ours`);
}

const results = [];
const bestNs = new Map();
let pass = 0;

// Best time of each contender so far, over the passes.
function bestOf(key, contenders, rounds = ROUNDS) {
  const ns = sideBySide(contenders, { rounds });
  const best = bestNs.get(key) ?? {};
  for (const [name, t] of Object.entries(ns)) best[name] = Math.min(best[name] ?? Infinity, t);
  bestNs.set(key, best);
  return best;
}

// One case at one size: every contender side by side; reported after the
// last pass.
// Small chunks take 3x the rounds: a round costs little there, and a 4 KiB
// call's best time is the one most often disturbed by a scavenge.
function record(entry, contenders) {
  const rounds = entry.size <= 65536 ? 3 * ROUNDS : ROUNDS;
  const ns = bestOf(`${entry.op} ${entry.label} ${entry.size}`, contenders, rounds);
  if (pass < PASSES - 1) return;
  const r = { ...entry, ns };
  if (ns.tuned) r.vsTuned = ns.tuned / ns.ours;
  if (ns.plain) r.vsPlain = ns.plain / ns.ours;
  if (ns.floor) r.ofFloor = ns.floor / ns.ours;
  if (ns.nosimd) r.simdGain = ns.nosimd / ns.ours;
  if (ns.into) r.intoOfSet = ns.setFloor / ns.into;
  if (ns.bytesBE) r.ofBytesBE = ns.ours / ns.bytesBE;
  if (ns.inputViews) r.vsInputViews = ns.inputViews / ns.ours;
  results.push(r);
  const cells = [];
  if (r.vsTuned) cells.push(`${r.vsTuned.toFixed(2)}x tuned`);
  if (r.vsPlain) cells.push(`${r.vsPlain.toFixed(2)}x plain`);
  if (r.ofFloor) cells.push(`${r.ofFloor.toFixed(2)} floor`);
  if (r.simdGain) cells.push(`${r.simdGain.toFixed(2)}x no-SIMD`);
  if (r.intoOfSet) cells.push(`into: ${r.intoOfSet.toFixed(2)} of set()`);
  if (r.ofBytesBE) cells.push(`${r.ofBytesBE.toFixed(2)}x the time of a big-endian bytes decode`);
  if (r.vsInputViews) cells.push(`${r.vsInputViews.toFixed(2)}x views of the input`);
  console.log(`${`${r.op} ${r.label}`.padEnd(42)} ${sizeLabel(r.size).padStart(7)}  ${cells.join("  ")}`);
}

const BYTES_TYPES = [["int16", Int16Array], ["float32", Float32Array], ["float64", Float64Array]];
const kernels = [];
const breakdowns = [];
const overheads = [];
let dataTypesCost;
let byteStringCost;

function bytesCases(size) {
  const raw = pseudoRandom(size, size);
  const floorSrc = pseudoRandom(size, 7);
  const setDst = new Uint8Array(size);
  for (const [dataType, ArrayType] of BYTES_TYPES) {
    const meta = { dataType, shape: [size / ArrayType.BYTES_PER_ELEMENT] };
    const ours = BytesCodec.fromConfig({ endian: "big" }, meta);
    const plain = ZarritaBytesCodec.fromConfig({ endian: "big" }, meta);
    const tuned = byteswapPeers.tuned[dataType];
    const slow = nosimd && new BytesCodec({ endian: "big" }, meta, { module: nosimd });
    const decoded = ours.decode(raw).data;
    check(`bytes decode ${dataType} (zarrita)`, decoded, plain.decode(raw).data);
    check(`bytes decode ${dataType} (tuned)`, decoded, tuned(raw));
    const out = new ArrayType(decoded.length);
    record({ op: "bytes-be-decode", label: dataType, size }, {
      ours: () => ours.decode(raw),
      plain: () => plain.decode(raw),
      tuned: () => tuned(raw),
      floor: () => floorSrc.slice(),
      ...(slow && { nosimd: () => slow.decode(raw) }),
      into: () => ours.decodeInto(raw, out),
      setFloor: () => setDst.set(floorSrc),
    });
    const chunk = { data: decoded, shape: meta.shape, stride: [1] };
    const valueBytes = bytesView(decoded);
    check(`bytes encode ${dataType} (zarrita)`, ours.encode(chunk), plain.encode(chunk));
    check(`bytes encode ${dataType} (tuned)`, ours.encode(chunk), tuned(valueBytes));
    record({ op: "bytes-be-encode", label: dataType, size }, {
      ours: () => ours.encode(chunk),
      plain: () => plain.encode(chunk),
      tuned: () => tuned(valueBytes),
      ...(slow && { nosimd: () => slow.encode(chunk) }),
    });
  }
}

function packbitsCasesAt(size) {
  const floorSrc = pseudoRandom(size, 9);
  const setDst = new Uint8Array(size);
  for (const [label, { dataType, config, ArrayType }] of Object.entries(packbitsCases)) {
    const n = size / ArrayType.BYTES_PER_ELEMENT;
    const meta = { dataType, shape: [n] };
    const ours = PackBitsCodec.fromConfig(config, meta);
    const slow = nosimd && new PackBitsCodec(config, meta, { module: nosimd });
    const values = new ArrayType(pseudoRandom(size, n).buffer);
    const packed = encodePeers.plain[label](values);
    const decoded = ours.decode(packed).data;
    check(`packbits decode ${label} (plain)`, decoded, decodePeers.plain[label](packed, n));
    check(`packbits decode ${label} (tuned)`, decoded, decodePeers.tuned[label](packed, n));
    const out = new ArrayType(n);
    record({ op: "packbits-decode", label, size }, {
      ours: () => ours.decode(packed),
      plain: () => decodePeers.plain[label](packed, n),
      tuned: () => decodePeers.tuned[label](packed, n),
      floor: () => floorSrc.slice(),
      ...(slow && { nosimd: () => slow.decode(packed) }),
      into: () => ours.decodeInto(packed, out),
      setFloor: () => setDst.set(floorSrc),
    });
    const chunk = { data: values, shape: [n], stride: [1] };
    check(`packbits encode ${label} (plain)`, ours.encode(chunk), packed);
    check(`packbits encode ${label} (tuned)`, encodePeers.tuned[label](values), packed);
    record({ op: "packbits-encode", label, size }, {
      ours: () => ours.encode(chunk),
      plain: () => encodePeers.plain[label](values),
      tuned: () => encodePeers.tuned[label](values),
      ...(slow && { nosimd: () => slow.encode(chunk) }),
    });
  }
}

// Widening decodes into Float32Array; size is the float32 output.
// A codec widening `count` values of `peer`'s format to float32, and the
// stored codes of `count` values.
function widenCodec(peer, count, module) {
  const Codec = peer.codec === "bytes" ? BytesCodec : PackBitsCodec;
  return new Codec(peer.config, { dataType: peer.dataType, shape: [count] }, { floats: "float32", module });
}
const widenStored = (peer, count) => pseudoRandom(count * peer.codeBytes, count + 3);

function widenCase(label, size) {
  const peer = widenPeers[label];
  const n = size / 4;
  const ours = widenCodec(peer, n);
  const slow = nosimd && widenCodec(peer, n, nosimd);
  const stored = widenStored(peer, n);
  const floorSrc = pseudoRandom(size, 11);
  check(`widen ${label} (tuned)`, ours.decode(stored).data, peer.tuned(stored));
  return { ours, slow, stored, floorSrc };
}

function widenCases(size) {
  for (const label of Object.keys(widenPeers)) {
    const { ours, slow, stored, floorSrc } = widenCase(label, size);
    record({ op: "widen-decode", label, size }, {
      ours: () => ours.decode(stored),
      tuned: () => widenPeers[label].tuned(stored),
      floor: () => floorSrc.slice(),
      ...(slow && { nosimd: () => slow.decode(stored) }),
    });
  }
}

// The kernels alone: one 64 KiB block of decoded output, scratch to
// scratch, through each codec's embind instance (Codec::run_block).
function kernelCases() {
  const cases = [];
  for (const [dataType, ArrayType] of BYTES_TYPES) {
    cases.push(["bytes-be-decode", dataType, true, (m) => new BytesCodec({ endian: "big" }, { dataType, shape: [BLOCK / ArrayType.BYTES_PER_ELEMENT] }, { module: m })]);
  }
  for (const direction of ["decode", "encode"]) {
    for (const [label, { dataType, config, ArrayType }] of Object.entries(packbitsCases)) {
      cases.push([`packbits-${direction}`, label, direction === "decode", (m) => new PackBitsCodec(config, { dataType, shape: [BLOCK / ArrayType.BYTES_PER_ELEMENT] }, { module: m })]);
    }
  }
  for (const [label, peer] of Object.entries(widenPeers)) {
    const Codec = peer.codec === "bytes" ? BytesCodec : PackBitsCodec;
    cases.push(["widen-decode", label, true, (m) => new Codec(peer.config, { dataType: peer.dataType, shape: [BLOCK / 4] }, { module: m, floats: "float32" })]);
  }
  for (const [op, label, decoding, make] of cases) {
    const reps = 64;
    const timer = (m) => {
      const codec = make(m);
      // Fill the scratch block with a real chunk's bytes first.
      if (decoding) codec.decode(pseudoRandom(codec.computeEncodedSize(BLOCK), 5));
      else codec.encode({ data: codec.decode(pseudoRandom(codec.computeEncodedSize(BLOCK), 5)).data });
      const core = codec[coreOf].live;
      return () => core.runKernel(decoding, reps);
    };
    const ns = bestOf(`kernel ${op} ${label}`, {
      simd: timer(simd),
      ...(nosimd && { nosimd: timer(nosimd) }),
    }, 2 * ROUNDS);
    if (pass < PASSES - 1) continue;
    const gbs = (t) => (BLOCK * reps) / t;
    const k = { op, label, simdGBs: gbs(ns.simd) };
    if (ns.nosimd) k.nosimdGBs = gbs(ns.nosimd);
    const nativeGBs = native[`${op} ${label}`];
    if (nativeGBs) {
      k.nativeGBs = nativeGBs;
      k.ofNative = k.simdGBs / nativeGBs;
    }
    kernels.push(k);
    console.log(`kernel ${`${op} ${label}`.padEnd(42)} wasm SIMD ${k.simdGBs.toFixed(1)} GB/s` +
      (k.nosimdGBs ? `, no SIMD ${k.nosimdGBs.toFixed(1)}` : "") +
      (k.nativeGBs ? `, native ${k.nativeGBs.toFixed(1)} (wasm ${k.ofNative.toFixed(2)} of native)` : ""));
  }
}

// Where the time of a decode goes: each step timed alone on the same
// blocks the codec streams. Large chunks: allocating the output, copying
// the packed bytes into wasm memory, the kernel, copying the values out.
function largeBreakdowns() {
  // Each row: the stored bytes of a decode and codecs for the whole output
  // and for one 64 KiB block of it, with the tuned peer.
  const packbitsRow = (label) => (size) => {
    const { dataType, config, ArrayType } = packbitsCases[label];
    const n = size / ArrayType.BYTES_PER_ELEMENT;
    const values = new ArrayType(pseudoRandom(size, 11).buffer);
    const stored = encodePeers.plain[label](values);
    const codecFor = (count) => PackBitsCodec.fromConfig(config, { dataType, shape: [count] });
    return { ArrayType, n, stored, codecFor, blockValues: BLOCK / ArrayType.BYTES_PER_ELEMENT, tuned: () => decodePeers.tuned[label](stored, n) };
  };
  const widenRow = (label) => (size) => {
    const peer = widenPeers[label];
    const n = size / 4;
    const stored = widenStored(peer, n);
    const codecFor = (count) => widenCodec(peer, count);
    return { ArrayType: Float32Array, n, stored, codecFor, blockValues: BLOCK / 4, tuned: () => peer.tuned(stored) };
  };
  const rows = [
    ["packbits-decode uint16 12-bit", packbitsRow("uint16 12-bit")],
    ["packbits-decode bool", packbitsRow("bool")],
    ["widen-decode float8_e4m3 (bytes)", widenRow("float8_e4m3 (bytes)")],
    ["widen-decode bfloat16 (bytes)", widenRow("bfloat16 (bytes)")],
  ];
  for (const [label, rowAt] of rows) {
    for (const size of SIZES.filter((s) => s >= 1 << 20)) {
      const { ArrayType, n, stored, codecFor, blockValues, tuned } = rowAt(size);
      const codec = codecFor(n);
      const block = codecFor(blockValues);
      const blocks = size / BLOCK;
      const inPerBlock = stored.length / blocks;
      block.decode(stored.subarray(0, inPerBlock));
      const at = simd.zcwIo.kept; // where the block's output sits in wasm memory
      const out = new Uint8Array(size);
      const floorSrc = pseudoRandom(size, 13);
      const kernel = block[coreOf].live;
      // A fresh array's pages are mapped on first write, not by `new`: the
      // output's real cost shows only when it is written, so "allocate and
      // copy out" writes the blocks into a fresh array, as decode does;
      // "copy out" alone writes into one already in use.
      const ns = bestOf(`breakdown ${label} ${size}`, {
        allocate: () => new ArrayType(n),
        copyIn: () => {
          for (let b = 0; b < blocks; b++) simd.HEAPU8.set(stored.subarray(b * inPerBlock, (b + 1) * inPerBlock), at);
        },
        kernel: () => kernel.runKernel(true, blocks),
        copyOut: () => {
          for (let b = 0; b < blocks; b++) out.set(simd.HEAPU8.subarray(at, at + BLOCK), b * BLOCK);
        },
        allocateAndCopyOut: () => {
          const fresh = new Uint8Array(size);
          for (let b = 0; b < blocks; b++) fresh.set(simd.HEAPU8.subarray(at, at + BLOCK), b * BLOCK);
          return fresh;
        },
        decode: () => codec.decode(stored),
        floor: () => floorSrc.slice(),
        tuned,
      });
      if (pass < PASSES - 1) continue;
      const parts = ns.copyIn + ns.kernel + ns.allocateAndCopyOut;
      const d = { label, size, ms: Object.fromEntries(Object.entries(ns).map(([k, v]) => [k, v / 1e6])) };
      // With a kernel that took no time, the decode would still cost the
      // other steps: the best ratio to the tuned peer any kernel allows.
      d.bestPossibleVsTuned = ns.tuned / (parts - ns.kernel);
      breakdowns.push(d);
      const f = (v) => `${(v / 1e6).toFixed(3)} ms`;
      console.log(`where the time goes, ${label} ${sizeLabel(size)}: copy in ${f(ns.copyIn)}, kernel ${f(ns.kernel)}, ` +
        `allocate and copy out ${f(ns.allocateAndCopyOut)} (new alone ${f(ns.allocate)}, copy out into used memory ${f(ns.copyOut)}) = ${f(parts)}; ` +
        `whole decode ${f(ns.decode)}; floor ${f(ns.floor)}; tuned JS ${f(ns.tuned)}; ` +
        `a free kernel would make it ${d.bestPossibleVsTuned.toFixed(2)}x tuned JS`);
    }
  }
}

// A 4 KiB decode's per-call cost, step by step: what JS does before and
// after the wasm call, the call itself, the copies and the kernel.
function smallBreakdowns() {
  const size = 4096;
  const cases = [
    ["packbits-decode bool", PackBitsCodec.fromConfig({}, { dataType: "bool", shape: [size] }), pseudoRandom(size / 8, 21)],
    ["packbits-decode uint16 12-bit", PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [size / 2] }), pseudoRandom(size * 3 / 4, 22)],
    ["bytes-be-decode int16", BytesCodec.fromConfig({ endian: "big" }, { dataType: "int16", shape: [size / 2] }), pseudoRandom(size, 23)],
  ];
  for (const [label, codec, input] of cases) {
    codec.decode(input);
    const at = simd.zcwIo.kept;
    const kernel = codec[coreOf].live;
    const floorSrc = pseudoRandom(size, 24);
    const ns = bestOf(`overhead ${label}`, {
      decode: () => codec.decode(input),
      call: () => simd._zcw_abi_version(),
      copyIn: () => simd.HEAPU8.set(input, at),
      kernel: () => kernel.runKernel(true, 1),
      embindCall: () => kernel.runKernel(true, 0),
      copyOut: () => simd.HEAPU8.slice(at, at + size),
      floor: () => floorSrc.slice(),
    });
    if (pass < PASSES - 1) continue;
    const kernelOnly = Math.max(ns.kernel - ns.embindCall, 0);
    const measured = ns.call + ns.copyIn + kernelOnly + ns.copyOut;
    const o = { label, size, ns: { ...ns, kernelOnly, rest: ns.decode - measured } };
    overheads.push(o);
    const f = (v) => `${Math.round(v)} ns`;
    console.log(`per call, ${label} 4 KiB: decode ${f(ns.decode)} = wasm call ${f(ns.call)} + copy in ${f(ns.copyIn)} + ` +
      `kernel ${f(kernelOnly)} + copy out (the output's allocation) ${f(ns.copyOut)} + the rest (JS checks, io slots, error check) ${f(o.ns.rest)}; ` +
      `floor ${f(ns.floor)}`);
  }
}

// Reading through withDataTypes against reading a type zarrita knows, with
// the same shape and chunking: int4 (packbits, presented as int8) and int4
// (bytes), against int8 (bytes).
async function dataTypesOverhead() {
  const shape = quick ? [256, 256] : [1024, 1024];
  const chunks = quick ? [128, 128] : [256, 256];
  const n = shape[0] * shape[1];
  const values = Int8Array.from(pseudoRandom(n, 31), (b) => (b & 15) - 8);
  // zarrita cannot create int4 arrays, so each is written as int8 with the
  // same stored bytes and then renamed: int4 with bytes is int8's layout
  // for values in -8..7, and packbits of int8 bits 0..3 is int4's stream.
  async function arrayOf(dataType, codecs, path) {
    const store = new Map();
    const arr = await zarr.create(zarr.root(store).resolve(path), {
      shape, chunkShape: chunks, dtype: "int8", fillValue: 0, codecs,
    });
    await zarr.set(arr, null, { data: values, shape, stride: [shape[1], 1] });
    if (dataType !== "int8") {
      const key = `/${path}/zarr.json`;
      const doc = JSON.parse(new TextDecoder().decode(store.get(key)));
      doc.data_type = dataType;
      doc.codecs = doc.codecs.map(({ name }) => ({ name }));
      store.set(key, new TextEncoder().encode(JSON.stringify(doc)));
    }
    return zarr.open(zarr.root(withDataTypes(store)).resolve(path), { kind: "array" });
  }
  const int8 = await arrayOf("int8", [{ name: "bytes" }], "a");
  const int4bytes = await arrayOf("int4", [{ name: "bytes" }], "b");
  const int4packed = await arrayOf("int4", [{ name: "packbits", configuration: { last_bit: 3 } }], "c");
  // The same packed bytes and kernel as int4 with packbits, in a type
  // zarrita reads itself: the difference is withDataTypes' own cost. (An
  // int8 `bytes` chunk is a zero-copy view, so against it the int4 reads
  // also pay for a decode.)
  const int8packed = await arrayOf("int8", [{ name: "packbits", configuration: { last_bit: 3 } }], "d");
  const want = (await zarr.get(int8)).data;
  for (const arr of [int4bytes, int4packed, int8packed]) check("withDataTypes int4", (await zarr.get(arr)).data, want);
  // zarr.get is async: time whole reads, awaited one after another.
  const timeAsync = async (fn, reps) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) await fn();
    return Number(process.hrtime.bigint() - t0) / reps;
  };
  const contenders = {
    int8: () => zarr.get(int8),
    int4bytes: () => zarr.get(int4bytes),
    int4packed: () => zarr.get(int4packed),
    int8packed: () => zarr.get(int8packed),
  };
  const best = {};
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, fn] of Object.entries(contenders)) {
      globalThis.gc?.();
      best[name] = Math.min(best[name] ?? Infinity, await timeAsync(fn, quick ? 3 : 10));
    }
  }
  dataTypesCost = {
    shape, chunks,
    ms: Object.fromEntries(Object.entries(best).map(([k, v]) => [k, v / 1e6])),
    int4bytes: best.int4bytes / best.int8,
    int4packed: best.int4packed / best.int8,
    layer: best.int4packed / best.int8packed,
  };
  console.log(`withDataTypes: zarr.get of ${shape.join("x")} (chunks ${chunks.join("x")}): int8 ${dataTypesCost.ms.int8.toFixed(2)} ms; ` +
    `int4 as int8 (packbits) ${dataTypesCost.int4packed.toFixed(3)}x of that, int4 as int8 (bytes) ${dataTypesCost.int4bytes.toFixed(3)}x; ` +
    `int4 (packbits) against int8 with the same packbits bytes: ${dataTypesCost.layer.toFixed(3)}x`);
}

register(zarr.registry);
const layoutBytes = { ours: await zarr.registry.get("bytes")(), zarrita: ZarritaBytesCodec };
const LAYOUT_SIZES = SIZES.filter((s) => s >= 65536);
const N5_SIDES = quick ? [256] : [256, 512, 1024];

for (pass = 0; pass < PASSES; pass++) {
  if (PASSES > 1) console.log(`-- pass ${pass + 1} of ${PASSES}${pass < PASSES - 1 ? " (results after the last)" : ""}`);
  for (const size of LAYOUT_SIZES) recordCases(record, check, size);
  for (const size of LAYOUT_SIZES) await columnCases(record, check, size);
  for (const size of LAYOUT_SIZES) stringCases(record, check, size, layoutBytes);
  for (const size of LAYOUT_SIZES) presentedStringCases(record, size, layoutBytes);
  for (const side of N5_SIDES) n5Cases(record, check, side);
  for (const size of LAYOUT_SIZES) vlenBytesCases(record, check, size);
  if (layoutsOnly) continue;
  for (const size of SIZES) bytesCases(size);
  sampleNative();
  for (const size of SIZES) packbitsCasesAt(size);
  for (const size of SIZES) widenCases(size);
  kernelCases();
  sampleNative();
  largeBreakdowns();
  smallBreakdowns();
}
if (!layoutsOnly) await dataTypesOverhead();
byteStringCost = await byteStringReadCost({ quick, rounds: ROUNDS });
console.log(`null_terminated_bytes: zarr.get of ${byteStringCost.shape.join("x")} (chunks ${byteStringCost.chunks.join("x")}, ${byteStringCost.width} bytes each) through withDataTypes: ` +
  `${byteStringCost.ratio.toFixed(3)}x zarrita's own read of the same bytes as v2 |S (${byteStringCost.ms.zarrita.toFixed(2)} ms)`);

// ---- end to end: whole and region reads (bench/read.mjs) ------------------------
let reads = [];
if (!layoutsOnly) {
  console.log("\nEnd to end (ms, best of rounds): read | read into | zarr.get | zarrita alone, little-endian | floor | set() floor");
  reads = await readCases(check, { quick, rounds: quick ? 3 : ROUNDS });
  for (const r of reads) {
    const m = r.ms;
    if (r.op === "read") {
      console.log(`${`${r.label}, ${r.region}`.padEnd(42)} ${[m.read, m.into, m.get, m.zarritaLE, m.floor, m.setFloor].map((v) => v.toFixed(2).padStart(8)).join(" ")}  ` +
        `(${(m.get / m.read).toFixed(2)}x zarr.get, ${(m.read / m.floor).toFixed(2)}x the floor)`);
    } else {
      console.log(`${r.label}: us per chunk: read ${r.usPerChunk.read.toFixed(1)}, zarr.get of little-endian ${r.usPerChunk.getLE.toFixed(1)}, zarr.get ${r.usPerChunk.get.toFixed(1)}`);
    }
  }
}

// ---- goals (issues: performance, data types) ---------------------------------
const find = (op, label, size) => results.find((r) => r.op === op && r.label === label && r.size === size);
const goals = [];
// pass is null (n/a) where this run measured nothing for the goal.
function goal(text, values, ok) {
  goals.push({ goal: text, values, pass: values.length ? values.every(ok) : null });
}
const decodes = results.filter((r) => r.op.endsWith("decode"));
const headline = [["packbits-decode", "bool"], ["packbits-decode", "uint16 12-bit"], ["bytes-be-decode", "int16"]];
const bigger = SIZES.filter((s) => s >= 65536);
for (const [op, label] of headline) {
  goal(`${op} ${label} >= 3x tuned JS (64 KiB, 1 MiB, 16 MiB)`, bigger.map((s) => find(op, label, s)?.vsTuned).filter(Boolean), (v) => v >= 3);
}
// vlen-bytes has a goal of its own (below).
const others = decodes.filter((r) => r.size >= 65536 && r.op !== "vlen-bytes-decode" && !headline.some(([op, label]) => r.op === op && r.label === label));
goal("every other decode >= 2x tuned JS (64 KiB and up)", others.map((r) => r.vsTuned), (v) => v >= 2);
const small = decodes.filter((r) => r.size === 4096);
goal("every decode at 4 KiB >= 1.5x tuned JS", small.map((r) => r.vsTuned), (v) => v >= 1.5);
goal("every decode at 4 KiB >= 0.7 of the floor", small.map((r) => r.ofFloor), (v) => v >= 0.7);
goal("decodeInto bool >= 0.3 of set() at 4 KiB", [find("packbits-decode", "bool", 4096)?.intoOfSet].filter(Boolean), (v) => v >= 0.3);
goal("decodeInto bool >= 0.6 of set() at 1 MiB", [find("packbits-decode", "bool", 1 << 20)?.intoOfSet].filter(Boolean), (v) => v >= 0.6);
const widenBig = results.filter((r) => r.op === "widen-decode" && r.size >= 1 << 20);
goal("widening decode >= 4x tuned JS (1, 16 MiB)", widenBig.map((r) => r.vsTuned), (v) => v >= 4);
goal("widening decode >= 0.5 of the floor (1, 16 MiB)", widenBig.map((r) => r.ofFloor), (v) => v >= 0.5);
goal("withDataTypes int4 (packbits) read costs <= 5% over int8", [dataTypesCost?.int4packed].filter(Boolean), (v) => v <= 1.05);
goal("withDataTypes int4 (bytes) read costs <= 5% over int8", [dataTypesCost?.int4bytes].filter(Boolean), (v) => v <= 1.05);
goal("withDataTypes' own cost: int4 (packbits) read <= 5% over int8 with the same packbits bytes", [dataTypesCost?.layer].filter(Boolean), (v) => v <= 1.05);
const layoutRows = (op) => results.filter((r) => r.op === op);
goal("big-endian records of mixed field sizes >= 3x a tuned JS DataView loop (64 KiB and up)", layoutRows("records-be-decode").map((r) => r.vsTuned), (v) => v >= 3);
goal("structFields >= 2x a tuned JS column split", layoutRows("structFields").map((r) => r.vsTuned), (v) => v >= 2);
goal(">U strings >= 3x zarrita's own swap", layoutRows("strings-be-decode").map((r) => r.vsPlain), (v) => v >= 3);
goal("N5 uint16 block with reversed axes (256x256 and up) <= 1.3x the time of a big-endian bytes decode", layoutRows("n5-reversed-decode").map((r) => r.ofBytesBE), (v) => v <= 1.3);
goal("N5 uint16 block with N5's axes >= 3x a tuned JS swap-and-transpose", layoutRows("n5-decode").map((r) => r.vsTuned), (v) => v >= 3);
const readRows = reads.filter((r) => r.op === "read");
goal("read >= 2x zarr.get with the package registered, every end-to-end case", readRows.map((r) => r.ms.get / r.ms.read), (v) => v >= 2);
goal("read into, 12-bit packbits: no slower than zarrita's own get of the values stored little-endian (ratio zarrita / ours)",
  readRows.filter((r) => r.label.startsWith("uint16 12-bit")).map((r) => r.ms.zarritaLE / r.ms.into), (v) => v >= 1);
goal("whole reads within 1.5x of the floor", readRows.filter((r) => r.region === "whole").map((r) => r.ms.read / r.ms.floor), (v) => v <= 1.5);
goal("per chunk, 64x64 chunks: read of packbits no slower than zarr.get of little-endian (ratio theirs / ours)",
  reads.filter((r) => r.op === "read-per-chunk").map((r) => r.ms.getLE / r.ms.read), (v) => v >= 1);
goal("vlen-bytes decode >= 3x a tuned JS parser returning the same (views of one fresh buffer)", layoutRows("vlen-bytes-decode").map((r) => r.vsTuned), (v) => v >= 3);
goal("null_terminated_bytes through withDataTypes <= 1.1x zarrita's own v2 |S read", [byteStringCost?.ratio].filter(Boolean), (v) => v <= 1.1);
console.log("\nGoals");
for (const g of goals) {
  const verdict = g.pass === null ? "n/a " : g.pass ? "met " : "MISS";
  console.log(`  ${verdict}  ${g.goal}: ${g.values.map((v) => v.toFixed(2)).join(", ")}`);
}

// ---- outputs ------------------------------------------------------------------
const date = new Date().toISOString().slice(0, 10);
const machine = `Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? "unknown CPU"}`;
const rows = [];
for (const op of ["bytes-be-decode", "bytes-be-encode", "packbits-decode", "packbits-encode", "widen-decode"]) {
  for (const label of [...new Set(results.filter((r) => r.op === op).map((r) => r.label))]) {
    const bySize = {};
    for (const r of results.filter((x) => x.op === op && x.label === label)) bySize[sizeLabel(r.size)] = r;
    rows.push({ label: `${op} ${label}`, bySize });
  }
}
const sizeNames = SIZES.map(sizeLabel);
const cell = (r) => {
  if (!r) return "";
  const parts = [`${r.vsTuned.toFixed(1)}x`];
  parts.push(r.vsPlain ? `${r.vsPlain.toFixed(1)}x` : "–");
  parts.push(r.ofFloor ? r.ofFloor.toFixed(2) : "–");
  return parts.join(" / ");
};
let md = `Measured ${date}, ${machine}${quick ? " (quick run)" : ""}. Ratios of best times (${ROUNDS} rounds, order rotated, GC before each, in each of ${PASSES} passes), measured side by side in one process. Each cell: x tuned JS / x plain JS (zarrita's BytesCodec for bytes) / fraction of the floor (decodes).\n\n`;
md += `| case | ${sizeNames.join(" | ")} |\n|---|${sizeNames.map(() => "---").join("|")}|\n`;
for (const row of rows) md += `| ${row.label} | ${sizeNames.map((s) => cell(row.bySize[s])).join(" | ")} |\n`;
const layoutLabels = {
  "records-be-decode": "big-endian records", structFields: "structFields", "strings-be-decode": "big-endian strings",
  "strings-presented-decode": "big-endian strings as JS strings", "n5-decode": "N5 block, axes n5", "n5-reversed-decode": "N5 block, axes reversed",
  "vlen-bytes-decode": "vlen-bytes",
};
const layouts = results.filter((r) => r.op in layoutLabels);
if (layouts.length) {
  md += `\nRecords, strings and N5 blocks (records: int32, uint8, float64, int16, float32, 19 bytes; strings: 16 code points, against zarrita's own bytes codec as plain JS, and as JS strings against zarrita's UnicodeStringArray with every string read; N5: a uint16 block, raw), against the fastest JS peer (records: a DataView loop; structFields: a DataView column split; strings: 32-bit word swaps, then String.fromCodePoint per string; N5: a tiled swap-and-transpose for axes n5, a word swap for axes reversed):\n\n| case | size | x tuned JS | x plain JS | fraction of the floor | time of a big-endian bytes decode of the same size |\n|---|---|---|---|---|---|\n`;
  for (const r of layouts) {
    md += `| ${layoutLabels[r.op]} ${r.label} | ${sizeLabel(r.size)} | ${r.vsTuned.toFixed(2)}x | ${r.vsPlain ? `${r.vsPlain.toFixed(2)}x` : "–"} | ${r.ofFloor?.toFixed(2) ?? "–"} | ${r.ofBytesBE ? `${r.ofBytesBE.toFixed(2)}x` : "–"} |\n`;
  }
}
md += `\ndecodeInto against TypedArray.prototype.set() of the same bytes: ${results.filter((r) => r.intoOfSet && r.label === "bool" && r.op === "packbits-decode").map((r) => `${sizeLabel(r.size)} ${r.intoOfSet.toFixed(2)}`).join(", ")} (bool).\n`;
md += `\nKernels alone (one 64 KiB block, scratch to scratch), GB/s of decoded bytes:\n\n| kernel | wasm SIMD | wasm no SIMD | native -O3 | wasm / native |\n|---|---|---|---|---|\n`;
for (const k of kernels) {
  md += `| ${k.op} ${k.label} | ${k.simdGBs.toFixed(1)} | ${k.nosimdGBs?.toFixed(1) ?? ""} | ${k.nativeGBs?.toFixed(1) ?? ""} | ${k.ofNative?.toFixed(2) ?? ""} |\n`;
}
if (breakdowns.length) {
  md += `\nWhere the time of a large decode goes (64 KiB blocks, each step timed alone; a fresh array's pages are mapped when first written, so the output's cost is timed as allocate-and-copy-out), ms:\n\n| decode | copy in | kernel | allocate and copy out | (\`new\` alone) | (copy out into used memory) | whole decode | floor | tuned JS | best ratio to tuned JS with a free kernel |\n|---|---|---|---|---|---|---|---|---|---|\n`;
  for (const d of breakdowns) {
    const m = d.ms;
    md += `| ${d.label} ${sizeLabel(d.size)} | ${[m.copyIn, m.kernel, m.allocateAndCopyOut, m.allocate, m.copyOut, m.decode, m.floor, m.tuned].map((v) => v.toFixed(3)).join(" | ")} | ${d.bestPossibleVsTuned.toFixed(2)}x |\n`;
  }
}
if (overheads.length) {
  md += `\nWhere the time of a 4 KiB decode goes, ns:\n\n| decode | whole decode | wasm call | copy in | kernel | copy out (allocates the output) | the rest (JS) | floor |\n|---|---|---|---|---|---|---|---|\n`;
  for (const o of overheads) {
    const n = o.ns;
    md += `| ${o.label} | ${[n.decode, n.call, n.copyIn, n.kernelOnly, n.copyOut, n.rest, n.floor].map((v) => Math.round(v)).join(" | ")} |\n`;
  }
}
if (layouts.some((r) => r.op === "vlen-bytes-decode")) {
  md += `\nvlen-bytes: tuned JS returns what the codec returns (views of one fresh buffer of the items' bytes), plain JS a copy per item; the floor is that output alone (the buffer and a view per item, from lengths known beforehand). Against views of the input (zero-copy, items aliasing the chunk): ${layouts.filter((r) => r.vsInputViews).map((r) => `${r.label} ${sizeLabel(r.size)} ${r.vsInputViews.toFixed(2)}x`).join(", ")}.\n`;
}
if (byteStringCost) md += `\nnull_terminated_bytes through withDataTypes (zarr.get of a ${byteStringCost.shape.join("x")} array, chunks ${byteStringCost.chunks.join("x")}, ${byteStringCost.width} bytes each, in memory): ${byteStringCost.ratio.toFixed(3)}x zarrita's own read of the same bytes as a v2 |S array (${byteStringCost.ms.zarrita.toFixed(2)} ms).\n`;
if (readRows.length) {
  md += `\nEnd to end: a whole and a region read of a ${quick ? "1024x1024 array in 256x256" : "4096x4096 array in 512x512"} chunks, in memory (ms, best of ${ROUNDS} rounds, order rotated, GC before each). \`read\` and \`into\`: this package's read(); \`zarr.get\`: with the package registered; \`zarrita LE\`: zarrita alone, the same values stored little-endian uncompressed; floor: a fresh output filled once; set(): one set() of the output into an array made once.\n\n| case | read | into | zarr.get | zarrita LE | floor | set() | x zarr.get | x floor |\n|---|---|---|---|---|---|---|---|---|\n`;
  for (const r of readRows) {
    const m = r.ms;
    md += `| ${r.label}, ${r.region} | ${[m.read, m.into, m.get, m.zarritaLE, m.floor, m.setFloor].map((v) => v.toFixed(2)).join(" | ")} | ${(m.get / m.read).toFixed(2)}x | ${(m.read / m.floor).toFixed(2)}x |\n`;
  }
  for (const r of reads.filter((x) => x.op === "read-per-chunk")) {
    md += `\nPer chunk, ${r.label}: read ${r.usPerChunk.read.toFixed(1)} us, zarr.get of the same values little-endian ${r.usPerChunk.getLE.toFixed(1)} us, zarr.get of the packbits chunks ${r.usPerChunk.get.toFixed(1)} us.\n`;
  }
}
if (dataTypesCost) md += `\nReading through withDataTypes (zarr.get of a ${dataTypesCost.shape.join("x")} array, chunks ${dataTypesCost.chunks.join("x")}, in memory): int8 ${dataTypesCost.ms.int8.toFixed(2)} ms; int4 presented as int8, packbits: ${dataTypesCost.int4packed.toFixed(3)}x of that; int4 presented as int8, bytes: ${dataTypesCost.int4bytes.toFixed(3)}x; int4 (packbits) against int8 stored with the same packbits bytes (withDataTypes' own cost): ${dataTypesCost.layer.toFixed(3)}x.\n`;
const verdictOf = (g) => (g.pass === null ? "n/a" : g.pass ? "met" : "**missed**");
md += `\nGoals:\n\n${goals.map((g) => `- ${verdictOf(g)}: ${g.goal} (${g.values.map((v) => v.toFixed(2)).join(", ")})`).join("\n")}\n`;

if (!args.has("--no-write")) {
  writeFileSync(`${root}bench/results.json`, `${JSON.stringify({ date, machine, quick, rounds: ROUNDS, passes: PASSES, results, kernels, breakdowns, overheads, dataTypesCost, byteStringCost, reads, goals }, null, 1)}\n`);
  writeFileSync(`${root}bench/results.md`, md);
  writeFileSync(`${root}bench/chart.svg`, chart(rows, sizeNames, `zarr-codecs-wasm benchmark, ${date}, ${machine}`));
  console.log("\nwrote bench/results.json, bench/results.md, bench/chart.svg");
  if (args.has("--update-docs")) {
    const page = `${root}docs/performance.md`;
    const text = readFileSync(page, "utf8");
    const start = "<!-- bench:start -->";
    const end = "<!-- bench:end -->";
    const a = text.indexOf(start);
    const b = text.indexOf(end);
    if (a < 0 || b < a) throw new Error("bench: docs/performance.md has no bench:start / bench:end markers");
    writeFileSync(page, `${text.slice(0, a + start.length)}\n${md}${text.slice(b)}`);
    console.log("updated docs/performance.md's results");
  }
}
