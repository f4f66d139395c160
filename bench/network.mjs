// Reads over a network: a 4096 x 4096 uint16 zstd image served by a real
// HTTP server on 127.0.0.1 (tests/js/support/network-server.mjs, in a
// worker thread so that decoding on this thread does not hold up its
// timers: bench/network-server-thread.mjs) that waits a fixed time per
// request and serves a few at once (a browser's six connections per
// host), written as zarr-python 3 writes it
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
//   withDataTypes  read() on the package's withDataTypes(FetchStore),
//               which keeps the zarr.json it gave zarrita at the open, so
//               read's own fetch of it (the shard layout zarrita does not
//               show) costs no round trip (docs/read.md, "Over a network")
// --suffix-requests: every FetchStore asks for a shard's index with a
// suffix range ("bytes=-n", zarrita's useSuffixRequest) instead of a HEAD
// and then a range: one round trip less per index, for every reader.
// Cases (bench/network-cases.mjs): the whole image; a 1024 x 1024
// viewport across 4 shards; one 256 x 256 tile; that tile and then its
// neighbour; a pan of 8 viewports of 512 x 512, one after another; 16
// tiles read at once (a tile layer's first screen); the pan back again
// with a chunk cache (read with createChunkCache, where the package
// exports it). --rate: the server's answers share one link of R MB/s
// (10^6 bytes a second; "inf": no link, the default), each rate run at
// each latency. Printed per latency and rate: the median time of the
// rounds, the requests the server served and the MiB it sent, read's
// speed-up over zarrita alone and over zarrita + withRangeCoalescing, and
// the goal, met or not: issue 34's on an unlimited link, issue 41's on a
// link (set at 6.25 MB/s: read >= 1.0x zarrita alone, bytes <= 1.15x
// zarrita alone's).
// --trace: each round's requests of zarrita and read on their timeline
// (when each arrived at the server and was answered), with the round trips
// they waited for in a row ("waves") and the time after the last answer.
//
// A full run (not --quick, not --no-write) writes its tables to
// bench/network-results.md, with the command line, machine and load.
//
//   node --expose-gc bench/network.mjs [--quick] [--rounds=N] [--latency=0,25,100] [--rate=6.25,25,inf] [--concurrent=6] [--trace] [--suffix-requests] [--no-write]
import * as zarr from "zarrita";
import * as pkg from "../js/index.js";
import { checkSample, logFacts, measureCases, networkCases, printTable } from "./network-cases.mjs";
import { networkStore, writeResults, printer } from "./network-store.mjs";
import { startNetworkServerThread } from "./network-server-thread.mjs";
import { registries } from "./zarrita-alone.mjs";

const { createReadPool, read } = pkg;
// Another change adds the chunk cache; until it is there, its row says so.
const createChunkCache = pkg.createChunkCache;

const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const quick = args.includes("--quick");
const trace = args.includes("--trace");
const fetchOptions = args.includes("--suffix-requests") ? { useSuffixRequest: true } : {};
const rounds = Number(option("rounds", quick ? 1 : 3));
const latencies = option("latency", quick ? "0,25" : "0,25,100").split(",").map(Number);
const maxConcurrent = Number(option("concurrent", 6));
// MB/s (10^6 bytes a second) of the link every answer shares; inf: none.
const rates = option("rate", "inf")
  .split(",")
  .map((r) => (r === "inf" ? Infinity : Number(r)));
const write = !quick && !args.includes("--no-write");
const gc = globalThis.gc ?? (() => {});

const toSlices = (selection) => (selection ? selection.map(([a, b]) => zarr.slice(a, b)) : null);

const { files, expected, side, remove } = networkStore("network", quick);
let pool;
let server;
try {
  server = await startNetworkServerThread(files, { maxConcurrent });
  const sizeOf = (path) => files.get(path)?.byteLength;

  // zarrita alone and the package, side by side (zarrita-alone.mjs).
  const { plainCodecs, packageCodecs, useCodecs } = await registries(zarr);
  pool = createReadPool();

  const withCache = (options, cache) => (cache ? { ...options, cache } : options);
  const fetchStore = (url) => new zarr.FetchStore(url, fetchOptions);
  const keepingMetadata = (url) => pkg.withDataTypes(fetchStore(url));
  const readers = {
    zarrita: { codecs: plainCodecs, store: fetchStore, get: (arr, sel) => zarr.get(arr, sel) },
    coalesce: { codecs: plainCodecs, store: (url) => zarr.withRangeCoalescing(fetchStore(url)), get: (arr, sel) => zarr.get(arr, sel) },
    get: { codecs: packageCodecs, store: fetchStore, get: (arr, sel) => zarr.get(arr, sel) },
    read: { codecs: packageCodecs, store: fetchStore, get: (arr, sel, cache) => read(arr, sel, withCache({}, cache)) },
    pool: { codecs: packageCodecs, store: fetchStore, get: (arr, sel, cache) => read(arr, sel, withCache({ pool }, cache)) },
    withDataTypes: { codecs: packageCodecs, store: keepingMetadata, get: (arr, sel, cache) => read(arr, sel, withCache({}, cache)) },
  };
  const names = Object.keys(readers);

  /** One round of one case by one reader: ms, the server's log; values checked. */
  async function once(name, arrayName, c) {
    const reader = readers[name];
    useCodecs(reader.codecs);
    const store = reader.store(`${server.url}/image.zarr`);
    const arr = await zarr.open.v3(zarr.root(store).resolve(arrayName), { kind: "array" });
    const cache = c.cache ? createChunkCache({ maxBytes: 256 << 20 }) : undefined;
    const run = async (steps) => {
      const results = [];
      for (const step of steps) results.push(...(await Promise.all(step.map((sel) => reader.get(arr, toSlices(sel), cache)))));
      steps.flat().forEach((sel, i) => check(results[i], sel));
    };
    if (c.warm) await run(c.warm);
    gc();
    await server.reset();
    const t0 = performance.now();
    await run(c.steps);
    const ms = performance.now() - t0 - checkMs;
    checkMs = 0;
    const log = await server.requests();
    return { ms, t0, log, ...logFacts(log, sizeOf) };
  }

  // The check's time, taken off the round's (it runs after each step).
  let checkMs = 0;
  function check(got, selection) {
    const t = performance.now();
    checkSample(got, selection, expected, side);
    checkMs += performance.now() - t;
  }

  const cases = networkCases(side);
  const { print, printed, loadLine } = printer();
  for (const latencyMs of latencies) {
    for (const rate of rates) {
      await server.configure({ latencyMs, rateBytesPerSec: rate * 1e6 });
      const { rows, traces } = await measureCases({
        cases, names, rounds, once, trace, hasCache: typeof createChunkCache === "function", link: Number.isFinite(rate),
        traceTail: (path) => `, then ${path.afterMs.toFixed(1)} ms to the end`,
      });
      const link = Number.isFinite(rate) ? `a link of ${rate} MB/s shared by every answer` : "no link limit";
      const header = `${latencyMs} ms per request, at most ${maxConcurrent} at once, ${link}${fetchOptions.useSuffixRequest ? ", suffix requests" : ""}; Node ${process.version}; median of ${rounds}; ms (requests, MiB moved); read/x = x's ms / read's`;
      printTable({ header, names, rows }, print);
      if (traces.length) console.log(`\n-- requests on the timeline at ${latencyMs} ms (w = wave: round trips in a row)\n${traces.join("\n")}`);
    }
  }
  const load = loadLine();
  console.log(load);
  if (write) writeResults("network", `Reads over a network (bench/network.mjs ${args.join(" ")})`, printed, { facts: load });
} finally {
  await pool?.close();
  await server?.close();
  remove();
}
