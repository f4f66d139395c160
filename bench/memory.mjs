// Wasm memory through a burst of reads (issue 33): ten whole reads of a
// 4096 x 4096 uint16 image (32 MiB each) at once (Promise.all), from an
// in-memory store, then nothing. Measured, in MiB of wasm memory:
//   before  when the burst starts
//   peak    the most during it (memory only grows within an instance, so
//           this is what it holds when the burst ends)
//   +1 s    one second after the burst ended, and +2 s two seconds after
// in-thread (the calling thread's instance, which is replaced by a fresh
// one when grown and idle: js/wasm/recycle.js) and pooled (the sum over
// the pool's workers, from pool.stats().memoryBytes; a grown idle worker
// is ended). Stores: zstd in 512 x 512 and 256 x 256 chunks, and
// uncompressed little-endian (placed from JavaScript, no wasm) and
// big-endian (through wasm bands) in 512 x 512.
// Then the time of the ten concurrent reads with the read budget
// (configureMemory's default) against none (readBudget: Infinity), side
// by side in this process, in turns: the best wall time of each, and the
// median of the process's CPU time (user + system), which other jobs on
// a shared machine disturb less.
//
//   node --expose-gc bench/memory.mjs [--quick] [--no-write]
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import { configureMemory, createReadPool, diagnostics, read, ready, register } from "../js/index.js";
import { microscopyImage } from "./pool.mjs";

const args = new Set(process.argv.slice(2));
const quick = args.has("--quick");
const SIDE = quick ? 1024 : 4096;
const READS = 10;
const ROUNDS = quick ? 2 : 9;
const gc = globalThis.gc ?? (() => {});
const MiB = (bytes) => bytes / 2 ** 20;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const LE = { name: "bytes", configuration: { endian: "little" } };
const ZSTD = { name: "zstd", configuration: { level: 3, checksum: false } };
// Chunk sides halved with --quick (a 1024 x 1024 image).
const side = (chunk) => (quick ? chunk / 2 : chunk);
const CASES = [
  { kind: "zstd L3", chunk: side(512), codecs: [LE, ZSTD] },
  { kind: "zstd L3", chunk: side(256), codecs: [LE, ZSTD] },
  { kind: "uncompressed LE", chunk: side(512), codecs: [LE] },
  { kind: "uncompressed BE", chunk: side(512), codecs: [{ name: "bytes", configuration: { endian: "big" } }] },
].map((c) => ({ ...c, name: `${c.kind}, ${c.chunk}x${c.chunk} chunks` }));

async function arrayOf({ chunk, codecs }, values) {
  const store = new Map();
  const shape = [SIDE, SIDE];
  const where = zarr.root(store).resolve("image");
  const arr = await zarr.create(where, { shape, chunkShape: [chunk, chunk], dtype: "uint16", codecs, fillValue: 0 });
  await zarr.set(arr, null, { data: values, shape, stride: [SIDE, 1] });
  return zarr.open(where, { kind: "array" });
}

function same(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// The burst and what follows it; `memory()` is the wasm memory measured.
async function burst(arr, values, memory, options = {}) {
  gc();
  const before = memory();
  let peak = before;
  const onProgress = () => {
    peak = Math.max(peak, memory());
  };
  const results = await Promise.all(Array.from({ length: READS }, () => read(arr, null, { ...options, onProgress })));
  peak = Math.max(peak, memory());
  const right = results.every((r) => same(r.data, values));
  results.length = 0;
  await sleep(1000);
  const after1 = memory();
  await sleep(1000);
  const after2 = memory();
  gc();
  return { before: MiB(before), peak: MiB(peak), after1: MiB(after1), after2: MiB(after2), right, arrayBuffers: MiB(process.memoryUsage().arrayBuffers) };
}

// Until the calling thread's instance is a fresh one again (the burst
// before grew it), so each case starts where a new page would.
async function settle() {
  for (let i = 0; i < 40 && diagnostics().wasmMemoryBytes() > 32 << 20; i++) await sleep(100);
}

// Ten concurrent whole reads under each budget, in turns (the order
// rotated each round, the collector run before each): the best wall
// time and the median CPU time of each, in ms.
async function inTurns(budgets, arr) {
  const names = Object.keys(budgets);
  const wall = Object.fromEntries(names.map((n) => [n, []]));
  const cpu = Object.fromEntries(names.map((n) => [n, []]));
  const ten = () => Promise.all(Array.from({ length: READS }, () => read(arr)));
  await ten(); // warm up
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r) % names.length];
      configureMemory({ readBudget: budgets[name] });
      gc();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await ten();
      wall[name].push(performance.now() - t0);
      const { user, system } = process.cpuUsage(c0);
      cpu[name].push((user + system) / 1000);
    }
  }
  const median = (values) => values.slice().sort((a, b) => a - b)[values.length >> 1];
  return {
    budgetMs: Math.min(...wall.budget),
    noneMs: Math.min(...wall.none),
    budgetCpuMs: median(cpu.budget),
    noneCpuMs: median(cpu.none),
  };
}

export async function memoryCases() {
  const values = microscopyImage(SIDE);
  const rows = [];
  const timings = [];
  // The smoke run (--quick, part of scripts/test.sh) takes a compressed
  // store and a plain one: each burst waits two seconds.
  for (const c of quick ? [CASES[0], CASES[2]] : CASES) {
    const arr = await arrayOf(c, values);
    await settle();
    const inThread = await burst(arr, values, () => diagnostics().wasmMemoryBytes());
    const pool = createReadPool({ workers: 2 });
    const pooled = await burst(arr, values, () => pool.stats().memoryBytes, { pool });
    pooled.recycled = pool.stats().recycled;
    await pool.close();
    rows.push({ store: c.name, inThread, pooled });
    if (c === CASES[0]) {
      // 0.5.0's behaviour, for comparison: no budget, nothing replaced.
      const settings = configureMemory();
      configureMemory({ readBudget: Infinity, recycleIdleMs: Infinity });
      const unbounded = await burst(arr, values, () => diagnostics().wasmMemoryBytes());
      configureMemory(settings);
      rows.push({ store: `${c.name}, as 0.5.0 (readBudget and recycleIdleMs Infinity)`, inThread: unbounded, pooled: undefined });
    }
    if (c.codecs.length > 1 || c.codecs[0].configuration.endian === "big") {
      // The budget's cost in time: ten concurrent reads with and without it.
      const { readBudget, recycleIdleMs } = configureMemory();
      configureMemory({ recycleIdleMs: Infinity });
      const best = await inTurns({ budget: readBudget, none: Infinity }, arr);
      configureMemory({ readBudget, recycleIdleMs });
      timings.push({ store: c.name, ...best });
    }
  }
  return { rows, timings, budget: configureMemory().readBudget };
}

const f1 = (x) => x.toFixed(1);

export function report({ rows, timings, budget }) {
  const lines = [];
  lines.push(`Ten concurrent whole reads of a ${SIDE}x${SIDE} uint16 image (${f1(MiB(SIDE * SIDE * 2))} MiB each), wasm memory in MiB (read budget ${MiB(budget)} MiB, recycled after 1 s idle):`);
  lines.push("| store | in-thread before | peak | +1 s | +2 s | pooled (2 workers) before | peak | +1 s | +2 s | values |");
  lines.push("|---|---|---|---|---|---|---|---|---|---|");
  for (const { store, inThread: t, pooled: p } of rows) {
    const pooled = p ? `${f1(p.before)} | ${f1(p.peak)} | ${f1(p.after1)} | ${f1(p.after2)}` : "| | |";
    lines.push(`| ${store} | ${f1(t.before)} | ${f1(t.peak)} | ${f1(t.after1)} | ${f1(t.after2)} | ${pooled} | ${t.right && (!p || p.right) ? "right" : "WRONG"} |`);
  }
  lines.push("");
  lines.push(`Ten concurrent whole reads in-thread, ms, in turns over ${ROUNDS} rounds: best wall time, and median CPU time of the process; x = with the budget / without:`);
  lines.push("| store | wall, budget (default) | wall, no budget (Infinity) | x wall | CPU, budget | CPU, no budget | x CPU |");
  lines.push("|---|---|---|---|---|---|---|");
  for (const t of timings) {
    lines.push(`| ${t.store} | ${f1(t.budgetMs)} | ${f1(t.noneMs)} | ${(t.budgetMs / t.noneMs).toFixed(2)}x | ${f1(t.budgetCpuMs)} | ${f1(t.noneCpuMs)} | ${(t.budgetCpuMs / t.noneCpuMs).toFixed(2)}x |`);
  }
  return lines.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await ready();
  register(zarr.registry);
  const results = await memoryCases();
  const machine = `${cpus().length} cores (${cpus()[0]?.model?.trim() ?? "unknown CPU"}), Node ${process.version}`;
  const md = `Wasm memory through a burst of reads, measured ${new Date().toISOString().slice(0, 10)} on ${machine}${quick ? " (quick run)" : ""}.\n\n${report(results)}\n`;
  console.log(md);
  if (results.rows.some((r) => !r.inThread.right || (r.pooled && !r.pooled.right))) process.exitCode = 1;
  if (!args.has("--no-write") && !quick) {
    const root = fileURLToPath(new URL("..", import.meta.url));
    writeFileSync(`${root}bench/memory-results.md`, md);
    writeFileSync(`${root}bench/memory-results.json`, `${JSON.stringify({ machine, side: SIDE, reads: READS, rounds: ROUNDS, results }, null, 1)}\n`);
  }
}
