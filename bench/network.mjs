// Reads over a network: a 4096 x 4096 uint16 zstd image served by a real
// HTTP server on 127.0.0.1 (tests/js/support/network-server.mjs) that
// waits a fixed time per request and serves a few at once (a browser's
// six connections per host), written as zarr-python 3 writes it
// (bench/make-network-store.py): sharded (4 shards of 2048 x 2048, 64
// inner chunks of 256 x 256 each, index at the end with crc32c) and
// unsharded (256 x 256 chunks). Readers, side by side in one process,
// each on a fresh FetchStore and freshly opened array per round (the open
// is not timed, and its requests are not counted):
//   zarrita     zarrita 0.7.5 alone (its own codecs)
//   coalesce    zarrita + withRangeCoalescing (its default gap, 32 KiB)
//   get         zarr.get with the package registered
//   read        read()
//   pool        read() through a read pool (one worker per core less one)
//   cache       read() with a chunk cache (createChunkCache, 256 MiB), one
//               per opened array, so per round
// Cases: the whole image; a 1024 x 1024 viewport across 4 shards; one
// 256 x 256 tile; that tile and then its neighbour; a pan of 8 viewports of 512 x 512, one after another; 16
// tiles read at once (a tile layer's first screen); a viewport, panned
// away by half its width and back (what a cache saves). Printed per latency:
// the median time of the rounds, the requests and bytes the server saw,
// and zarrita's time over each reader's.
//
//   node --expose-gc bench/network.mjs [--quick] [--rounds=N] [--latency=0,25,100] [--concurrent=6]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import { createChunkCache, createReadPool, read, ready, register } from "../js/index.js";
import { startNetworkServer } from "../tests/js/support/network-server.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const quick = args.includes("--quick");
const rounds = Number(option("rounds", quick ? 1 : 3));
const latencies = option("latency", quick ? "0,25" : "0,25,100").split(",").map(Number);
const maxConcurrent = Number(option("concurrent", 6));
const gc = globalThis.gc ?? (() => {});

function loadFolder(dir, prefix) {
  const files = new Map();
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else files.set(`${prefix}/${relative(dir, p)}`, new Uint8Array(readFileSync(p)));
    }
  };
  walk(dir);
  return files;
}

/** The cases: each reads through `get(selection)` and returns the arrays read. */
function cases(side) {
  const s = (a, b) => zarr.slice(a, b);
  const tile = side / 16;
  const mid = side / 2;
  const pan = Array.from({ length: 8 }, (_, i) => [s(mid - 2 * tile, mid + 0), s(i * tile, i * tile + 2 * tile)]);
  const tiles = Array.from({ length: 16 }, (_, i) => [s(4 * tile + (i >> 2) * tile, 5 * tile + (i >> 2) * tile), s(4 * tile + (i & 3) * tile, 5 * tile + (i & 3) * tile)]);
  return {
    "whole image": [[null]],
    [`${4 * tile}x${4 * tile} viewport, 4 shards`]: [[[s(mid - 2 * tile, mid + 2 * tile), s(mid - 2 * tile, mid + 2 * tile)]]],
    [`one ${tile}x${tile} tile`]: [[[s(2 * tile, 3 * tile), s(3 * tile, 4 * tile)]]],
    // A tile, then its neighbour, of the same opened array: the second
    // costs what a reader kept of the first (metadata, the shard's index).
    "a tile, then its neighbour": [[[s(2 * tile, 3 * tile), s(3 * tile, 4 * tile)]], [[s(2 * tile, 3 * tile), s(4 * tile, 5 * tile)]]],
    [`pan: 8 viewports of ${2 * tile}x${2 * tile}`]: pan.map((sel) => [sel]),
    "16 tiles at once": [tiles],
    "a viewport, away and back": [[pan[2]], [pan[3]], [pan[2]]],
  };
}

const dir = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-network-"));
let pool;
let server;
try {
  execFileSync("/usr/bin/python3", [join(root, "bench/make-network-store.py"), dir, ...(quick ? ["--quick"] : [])], { stdio: "inherit" });
  const files = loadFolder(join(dir, "image.zarr"), "/image.zarr");
  const expected = new Uint16Array(readFileSync(join(dir, "expected.u16")).buffer.slice(0));
  const side = Math.sqrt(expected.length);
  server = await startNetworkServer(files, { maxConcurrent });

  // zarrita alone and the package, side by side: zarrita's registry as it
  // came, and as register() leaves it, swapped in before each reader opens
  // its array (zarrita looks its codecs up on an array's first read).
  const plainCodecs = new Map(zarr.registry);
  await ready();
  register(zarr.registry);
  const packageCodecs = new Map(zarr.registry);
  const useCodecs = (codecs) => {
    zarr.registry.clear();
    for (const [k, v] of codecs) zarr.registry.set(k, v);
  };
  pool = createReadPool();

  const readers = {
    zarrita: { codecs: plainCodecs, store: (url) => new zarr.FetchStore(url), get: (arr, sel) => zarr.get(arr, sel) },
    coalesce: { codecs: plainCodecs, store: (url) => zarr.withRangeCoalescing(new zarr.FetchStore(url)), get: (arr, sel) => zarr.get(arr, sel) },
    get: { codecs: packageCodecs, store: (url) => new zarr.FetchStore(url), get: (arr, sel) => zarr.get(arr, sel) },
    read: { codecs: packageCodecs, store: (url) => new zarr.FetchStore(url), get: (arr, sel) => read(arr, sel) },
    pool: { codecs: packageCodecs, store: (url) => new zarr.FetchStore(url), get: (arr, sel) => read(arr, sel, { pool }) },
    cache: { codecs: packageCodecs, store: (url) => new zarr.FetchStore(url), get: (arr, sel) => read(arr, sel, { cache: cacheOf(arr) }) },
  };
  const names = Object.keys(readers);
  const caches = new WeakMap();
  const cacheOf = (arr) => {
    if (!caches.has(arr)) caches.set(arr, createChunkCache({ maxBytes: 256 << 20 }));
    return caches.get(arr);
  };

  /** One round of one case by one reader: ms, requests, bytes; values checked. */
  async function once(reader, arrayName, steps) {
    useCodecs(reader.codecs);
    const store = reader.store(`${server.url}/image.zarr`);
    const arr = await zarr.open.v3(zarr.root(store).resolve(arrayName), { kind: "array" });
    gc();
    server.reset();
    const t0 = performance.now();
    const results = [];
    for (const step of steps) results.push(...(await Promise.all(step.map((sel) => reader.get(arr, sel)))));
    const ms = performance.now() - t0;
    const { requests, bytes } = server.totals();
    const flat = steps.flat();
    results.forEach((got, i) => check(got, flat[i]));
    return { ms, requests, bytes };
  }

  function check(got, selection) {
    const [rows, cols] = selection ? selection.map((sl) => [sl.start, sl.stop]) : [[0, side], [0, side]];
    const width = cols[1] - cols[0];
    for (let r = rows[0]; r < rows[1]; r += 17) {
      for (let c = cols[0]; c < cols[1]; c += 13) {
        if (got.data[(r - rows[0]) * width + (c - cols[0])] !== expected[r * side + c]) {
          throw new Error(`value at (${r}, ${c}) differs from the image`);
        }
      }
    }
  }

  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const f = (x) => (x < 10 ? x.toFixed(1) : x.toFixed(0));
  for (const latencyMs of latencies) {
    server.configure({ latencyMs });
    console.log(`\n== ${latencyMs} ms per request, ${maxConcurrent} at once; median of ${rounds}; ms (requests); x = zarrita alone / reader`);
    console.log(`${"array".padEnd(8)} ${"case".padEnd(32)} ${names.map((n) => n.padStart(20)).join("")}`);
    for (const arrayName of ["sharded", "chunked"]) {
      for (const [label, steps] of Object.entries(cases(side))) {
        const runs = Object.fromEntries(names.map((n) => [n, []]));
        for (let r = 0; r < rounds; r++) {
          for (let k = 0; k < names.length; k++) {
            const name = names[(k + r) % names.length];
            runs[name].push(await once(readers[name], arrayName, steps));
          }
        }
        const ms = Object.fromEntries(names.map((n) => [n, median(runs[n].map((x) => x.ms))]));
        const cells = names.map((n) => {
          const req = median(runs[n].map((x) => x.requests));
          const ratio = n === "zarrita" ? "" : ` ${(ms.zarrita / ms[n]).toFixed(2)}x`;
          return `${f(ms[n])} (${req})${ratio}`.padStart(20);
        });
        console.log(`${arrayName.padEnd(8)} ${label.padEnd(32)} ${cells.join("")}`);
      }
    }
  }
} finally {
  await pool?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
}
