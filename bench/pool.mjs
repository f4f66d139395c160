// The read pool's benchmark (issue 30): read() on the calling thread
// against read(..., { pool }) with 1 and 2 workers, side by side in one
// process, ratios printed. A 4096 x 4096 uint16 image holding 12 bits
// (microscopy-like: smooth cells over a background, Poisson noise) in
// 512 x 512 chunks (1024 x 1024 in 256 x 256 with --quick), in memory,
// stored each way STORES lists. Measured:
//   whole    a whole read: in-thread, pooled into a plain output (boxes
//            transferred back), pooled into a shared one (useSharedArrayBuffer)
//   gap      the longest gap of a 1 ms timer on the calling thread during
//            a whole read (the median of 5), in-thread and pooled, into a
//            fresh output and into an array made once
//   tile     a 512 x 512 tile (one chunk; and one across four chunks)
//            through a warm pool against in-thread
//   parts    per chunk: decode into the box and placing it (in the
//            workers), the calling thread's share (copying the chunk out,
//            posting, placing a transferred box), and the message round
//            trip, to extrapolate to 4 and 8 cores
//
//   node --expose-gc bench/pool.mjs [--quick] [--no-write]
//
// To add a store (a compressor, once the package's wasm has it), add an
// entry to STORES: its codecs as zarrita writes them.
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import { createReadPool, read, register } from "../js/index.js";
import { sideBySideAsync } from "./timing.mjs";

const args = new Set(process.argv.slice(2));
const quick = args.has("--quick");
const SIDE = quick ? 1024 : 4096;
const CHUNK = quick ? 256 : 512;
const ROUNDS = quick ? 3 : 9;
const gc = globalThis.gc ?? (() => {});

/** The stores measured: name -> codecs (zarrita writes them). */
export const STORES = {
  "uncompressed LE": [{ name: "bytes", configuration: { endian: "little" } }],
  "uncompressed BE": [{ name: "bytes", configuration: { endian: "big" } }],
  "packbits 12-bit": [{ name: "packbits", configuration: { last_bit: 11 } }],
  // The compressed stores of issue 29, written through the package's
  // encoders (the same libraries numcodecs writes with).
  "zstd L3": [{ name: "bytes", configuration: { endian: "little" } }, { name: "zstd", configuration: { level: 3, checksum: false } }],
  "blosc lz4 shuffle": [{ name: "bytes", configuration: { endian: "little" } }, { name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 2, blocksize: 0 } }],
  "gzip L1": [{ name: "bytes", configuration: { endian: "little" } }, { name: "gzip", configuration: { level: 1 } }],
};

// A seeded PRNG (mulberry32) and Poisson samples: Knuth's method for small
// means, a rounded normal for large ones.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function poisson(random, mean) {
  if (mean < 30) {
    const limit = Math.exp(-mean);
    let k = 0;
    for (let p = random(); p > limit; p *= random()) k++;
    return k;
  }
  const u = Math.max(random(), 1e-12);
  const normal = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  return Math.round(mean + Math.sqrt(mean) * normal);
}

/** The image: cells (Gaussian blobs) over a background of 100, Poisson noise, clipped to 12 bits. */
export function microscopyImage(side, seed = 1) {
  const random = prng(seed);
  const cells = Array.from({ length: Math.round((side * side) / 40000) }, () => ({
    x: random() * side, y: random() * side, r: 8 + random() * 24, peak: 300 + random() * 2500,
  }));
  const mean = new Float32Array(side * side).fill(100);
  for (const { x, y, r, peak } of cells) {
    const reach = Math.ceil(3 * r);
    for (let j = Math.max(0, Math.floor(y - reach)); j < Math.min(side, y + reach); j++) {
      for (let i = Math.max(0, Math.floor(x - reach)); i < Math.min(side, x + reach); i++) {
        mean[j * side + i] += peak * Math.exp(-((i - x) ** 2 + (j - y) ** 2) / (2 * r * r));
      }
    }
  }
  const out = new Uint16Array(side * side);
  for (let k = 0; k < out.length; k++) out[k] = Math.min(4095, Math.max(0, poisson(random, mean[k])));
  return out;
}

async function arrayOf(codecs, values) {
  const store = new Map();
  const shape = [SIDE, SIDE];
  const arr = await zarr.create(zarr.root(store).resolve("image"), { shape, chunkShape: [CHUNK, CHUNK], dtype: "uint16", codecs, fillValue: 0 });
  await zarr.set(arr, null, { data: values, shape, stride: [SIDE, 1] });
  return zarr.open(zarr.root(store).resolve("image"), { kind: "array" });
}

/** The longest gap between ticks of a 1 ms timer while `run` runs (ms). */
async function longestGap(run) {
  let last = performance.now();
  let longest = 0;
  let ticking = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (ticking) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  last = performance.now();
  longest = 0;
  await run();
  const gap = Math.max(longest, performance.now() - last);
  ticking = false;
  return gap;
}

/** The median of a few longest gaps (GC before each). */
async function medianGap(run, times = 5) {
  const gaps = [];
  for (let i = 0; i < times; i++) {
    gc();
    gaps.push(await longestGap(run));
  }
  return gaps.sort((a, b) => a - b)[times >> 1];
}

function same(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const ms = (v) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
const x = (a, b) => `${(a / b).toFixed(2)}x`;

export async function poolCases() {
  register(zarr.registry);
  const values = microscopyImage(SIDE);
  const pools = { 1: createReadPool({ workers: 1 }), 2: createReadPool({ workers: 2 }) };
  const results = [];
  try {
    for (const [name, codecs] of Object.entries(STORES)) {
      const arr = await arrayOf(codecs, values);
      const shared = { useSharedArrayBuffer: true };
      // Every contender's values checked once against the image.
      for (const options of [{}, { pool: pools[1] }, { pool: pools[2] }, { pool: pools[2], ...shared }]) {
        if (!same((await read(arr, null, options)).data, values)) throw new Error(`pool bench: ${name}: a read gave other values`);
      }
      const whole = await sideBySideAsync({
        inThread: () => read(arr),
        pool1: () => read(arr, null, { pool: pools[1] }),
        pool2: () => read(arr, null, { pool: pools[2] }),
        pool1Shared: () => read(arr, null, { pool: pools[1], ...shared }),
        pool2Shared: () => read(arr, null, { pool: pools[2], ...shared }),
      }, ROUNDS);
      const into = new Uint16Array(SIDE * SIDE);
      const sharedWhole = new Uint16Array(new SharedArrayBuffer(2 * SIDE * SIDE));
      const gap = {
        inThread: await medianGap(() => read(arr)),
        pool2: await medianGap(() => read(arr, null, { pool: pools[2] })),
        pool2Shared: await medianGap(() => read(arr, null, { pool: pools[2], ...shared })),
        inThreadInto: await medianGap(() => read(arr, null, { into })),
        pool2Into: await medianGap(() => read(arr, null, { pool: pools[2], into })),
        pool2SharedInto: await medianGap(() => read(arr, null, { pool: pools[2], into: sharedWhole })),
      };
      const t = Math.floor(SIDE / CHUNK / 2) * CHUNK;
      const aligned = [zarr.slice(t, t + CHUNK), zarr.slice(t, t + CHUNK)];
      const across = [zarr.slice(t + CHUNK / 2, t + (3 * CHUNK) / 2), zarr.slice(t + CHUNK / 2, t + (3 * CHUNK) / 2)];
      const tileInto = new Uint16Array(CHUNK * CHUNK);
      const sharedInto = new Uint16Array(new SharedArrayBuffer(2 * CHUNK * CHUNK));
      const tile = await sideBySideAsync({
        inThread: () => read(arr, aligned, { into: tileInto }),
        pool2: () => read(arr, aligned, { pool: pools[2], into: tileInto }),
        pool2Shared: () => read(arr, aligned, { pool: pools[2], into: sharedInto }),
        acrossInThread: () => read(arr, across, { into: tileInto }),
        acrossPool2: () => read(arr, across, { pool: pools[2], into: tileInto }),
        acrossPool2Shared: () => read(arr, across, { pool: pools[2], into: sharedInto }),
      }, ROUNDS * 3);
      // The parts of a whole read per pool (stats before and after), of
      // the quickest of a few reads.
      const parts = {};
      for (const [key, options] of [["pool1", { pool: pools[1] }], ["pool2", { pool: pools[2] }], ["pool1Shared", { pool: pools[1], ...shared }], ["pool2Shared", { pool: pools[2], ...shared }]]) {
        for (let r = 0; r < ROUNDS; r++) {
          gc();
          const before = options.pool.stats();
          const t0 = performance.now();
          await read(arr, null, options);
          const wall = performance.now() - t0;
          const after = options.pool.stats();
          if (parts[key] && parts[key].wall <= wall) continue;
          parts[key] = {
            wall,
            chunks: after.chunks - before.chunks,
            decodeMs: after.decodeMs - before.decodeMs,
            placeMs: after.placeMs - before.placeMs,
            callingMs: after.callingMs - before.callingMs,
          };
        }
      }
      results.push({ name, whole, gap, tile, parts });
    }
  } finally {
    await Promise.all(Object.values(pools).map((p) => p.close()));
  }
  return results;
}

// What n workers would give, from one worker's measured parts: the work
// spread over n cores, where the calling thread's share stays serial.
function extrapolate(p, n) {
  const work = p.decodeMs + p.placeMs;
  return Math.max(p.callingMs, work / n) + (p.wall - Math.max(p.callingMs, work));
}

export function report(results) {
  const lines = [];
  const chunks = (SIDE / CHUNK) ** 2;
  lines.push(`Whole ${SIDE}x${SIDE} uint16 reads (${chunks} chunks of ${CHUNK}x${CHUNK}), ms, best of ${ROUNDS}; x = in-thread / pooled:`);
  lines.push("| store | in-thread | 1 worker | 2 workers | 1 worker, shared | 2 workers, shared | x 1 | x 2 | x 2 shared |");
  lines.push("|---|---|---|---|---|---|---|---|---|");
  for (const { name, whole: w } of results) {
    lines.push(`| ${name} | ${ms(w.inThread)} | ${ms(w.pool1)} | ${ms(w.pool2)} | ${ms(w.pool1Shared)} | ${ms(w.pool2Shared)} | ${x(w.inThread, w.pool1)} | ${x(w.inThread, w.pool2)} | ${x(w.inThread, w.pool2Shared)} |`);
  }
  lines.push("", "The calling thread during a whole read: the longest gap of a 1 ms timer, ms, median of 5 reads (goal for pooled <= 15):");
  lines.push("| store | output | in-thread | 2 workers | 2 workers, shared |", "|---|---|---|---|---|");
  for (const { name, gap: g } of results) {
    lines.push(`| ${name} | fresh | ${ms(g.inThread)} | ${ms(g.pool2)} | ${ms(g.pool2Shared)} |`);
    lines.push(`| ${name} | into, made once | ${ms(g.inThreadInto)} | ${ms(g.pool2Into)} | ${ms(g.pool2SharedInto)} |`);
  }
  lines.push("", `A ${CHUNK}x${CHUNK} tile into an array made once, warm pool of 2, ms; x = pooled / in-thread (goal <= 1.3):`);
  lines.push("| store | tile | in-thread | pooled | pooled, shared into | x | x shared |", "|---|---|---|---|---|---|---|");
  for (const { name, tile: t } of results) {
    lines.push(`| ${name} | one chunk | ${ms(t.inThread)} | ${ms(t.pool2)} | ${ms(t.pool2Shared)} | ${x(t.pool2, t.inThread)} | ${x(t.pool2Shared, t.inThread)} |`);
    lines.push(`| ${name} | across 4 chunks | ${ms(t.acrossInThread)} | ${ms(t.acrossPool2)} | ${ms(t.acrossPool2Shared)} | ${x(t.acrossPool2, t.acrossInThread)} | ${x(t.acrossPool2Shared, t.acrossInThread)} |`);
  }
  lines.push("", `Parts of a whole read, ms summed over its chunks: decode (into the box) and place (box into a shared output, or copied out for transfer) in the workers; the calling thread's share (copy each chunk out, post it, place transferred boxes); and the wall time, of the quickest of ${ROUNDS} reads. Extrapolated from the 1-worker reads: the workers' share spread over n cores, the calling thread's kept serial, the rest (waiting) kept:`);
  lines.push("| store | read | wall | decode | place | calling thread | 4 workers (est.) | 8 workers (est.) |", "|---|---|---|---|---|---|---|---|");
  for (const { name, parts } of results) {
    for (const [key, p] of Object.entries(parts)) {
      const est = key.startsWith("pool1") ? [ms(extrapolate(p, 4)), ms(extrapolate(p, 8))] : ["", ""];
      lines.push(`| ${name} | ${key} | ${ms(p.wall)} | ${ms(p.decodeMs)} | ${ms(p.placeMs)} | ${ms(p.callingMs)} | ${est[0]} | ${est[1]} |`);
    }
  }
  return lines.join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const results = await poolCases();
  const machine = `${cpus().length} cores (${cpus()[0]?.model?.trim() ?? "unknown CPU"}), Node ${process.version}`;
  const md = `Read pool, measured ${new Date().toISOString().slice(0, 10)} on ${machine}${quick ? " (quick run)" : ""}.\n\n${report(results)}\n`;
  console.log(md);
  if (!args.has("--no-write") && !quick) {
    const root = fileURLToPath(new URL("..", import.meta.url));
    writeFileSync(`${root}bench/pool-results.md`, md);
    writeFileSync(`${root}bench/pool-results.json`, `${JSON.stringify({ machine, side: SIDE, chunk: CHUNK, rounds: ROUNDS, results }, null, 1)}\n`);
  }
}
