// A viewer's session over a user's link: the scenarios of issue 41
// (bench/session-cases.mjs: prefetch, fling, levels, each also alone) on
// the image of bench/make-network-store.py (4096 x 4096 uint16 zstd, 4
// shards of 64 inner chunks of 256 x 256, as zarr-python writes shards;
// and its 1/4 level, one shard of 16), served by the loopback server
// (tests/js/support/network-server.mjs, in a worker thread:
// bench/network-server-thread.mjs) with a round trip of 25 ms, at
// most 6 requests at once, one link of 6.25 MB/s (50 Mbit/s) shared by
// every answer, and requests dropped when their client goes away (as a
// browser drops an aborted fetch still queued). Readers, side by side in
// one process, each on a fresh FetchStore and freshly opened arrays per
// run (the opens not timed, their requests not counted):
//   zarrita    zarrita 0.7.5 alone (its own codecs), zarr.get per tile
//   coalesce   zarrita + withRangeCoalescing (its default gap, 32 KiB)
//   read       read() with one chunk cache (createChunkCache) per run
//   scheduler  read() with the same cache and one createReadScheduler({
//              maxRequests: 6 }) per run, each read at its wave's
//              priority (visible and the 1/4 level high, the ring and the
//              level-0 viewport low, each viewport of a fling higher
//              than the last): read(arr, sel, { scheduler, priority })
//   wrapper    zarr.get (the package registered) on arrays opened on
//              withScheduler(FetchStore, scheduler, { priority }), one
//              per priority, sharing one scheduler
// The last two run where the package exports createReadScheduler (and
// withScheduler); until then their columns say "not built".
// Printed: the scenarios' times as issue 41's table gives them (median of
// the rounds), requests served, dropped and aborted, MiB moved, the goals
// of issue 41 met or not for the package's readers, and per scenario where
// the time went from the server's log (round trips in a row for the
// measured reads, bytes on the link meanwhile and theirs among them, the
// time after their last answer). Unhandled rejections during each reader's
// runs are counted (zarrita alone leaves an AbortError unhandled for each
// aborted sharded get), as are reads failed by another read's abort and
// hangs. Every read's values are checked on a sample against the image;
// a wrong value fails the bench.
// --trace: each reader's median run of each scenario, request by request.
// A full run (not --quick, not --no-write) writes bench/session-results.md
// and .json.
//
//   node --expose-gc bench/session.mjs [--quick] [--rounds=N] [--latency=25] [--rate=6.25] [--concurrent=6] [--readers=zarrita,coalesce,read,scheduler,wrapper] [--trace] [--no-write]
import { setMaxListeners } from "node:events";
import * as zarr from "zarrita";
import * as pkg from "../js/index.js";
import { checkSample } from "./network-cases.mjs";
import { networkStore, writeResults, printer } from "./network-store.mjs";
import { startNetworkServerThread } from "./network-server-thread.mjs";
import { alone, arraysOf, checkRun, runFacts, runScenario, sessionScenarios, settle, shardLayout, whereTimeWent } from "./session-cases.mjs";
import { printSession, printTraces, readerTitles, summarise } from "./session-report.mjs";
import { registries } from "./zarrita-alone.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const quick = args.includes("--quick");
const trace = args.includes("--trace");
const write = !quick && !args.includes("--no-write");
const rounds = Number(option("rounds", quick ? 1 : 3));
const latencyMs = Number(option("latency", 25));
const maxConcurrent = Number(option("concurrent", 6));
const rates = option("rate", "6.25")
  .split(",")
  .map((r) => (r === "inf" ? Infinity : Number(r)));
// A run not settled by then is a hang.
const timeoutMs = quick ? 20000 : 60000;
const gc = globalThis.gc ?? (() => {});

// Where the package has them: the scheduler and the store wrapper of issue
// 41, used exactly as it states them.
const { read, createChunkCache } = pkg;
const createReadScheduler = pkg.createReadScheduler;
const withScheduler = pkg.withScheduler;
const hasScheduler = typeof createReadScheduler === "function";
const hasWrapper = hasScheduler && typeof withScheduler === "function";

const toSlices = (selection) => (selection ? selection.map(([a, b]) => zarr.slice(a, b)) : null);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Unhandled rejections, counted against the reader whose runs are going on.
let current = "none";
const unhandled = {};
process.on("unhandledRejection", (reason) => {
  const entry = (unhandled[current] ??= { count: 0, kinds: new Map() });
  entry.count++;
  const kind = `${reason?.name ?? typeof reason}: ${String(reason?.message ?? reason).slice(0, 80)}`;
  entry.kinds.set(kind, (entry.kinds.get(kind) ?? 0) + 1);
});

const { files, expected, side, remove } = networkStore("session", quick);
let server;
try {
  // The 1/4 level: every 4th row and column of the image.
  const quarterSide = side / 4;
  const expectedQuarter = new Uint16Array(quarterSide * quarterSide);
  for (let r = 0; r < quarterSide; r++) for (let c = 0; c < quarterSide; c++) expectedQuarter[r * quarterSide + c] = expected[4 * r * side + 4 * c];
  const images = { sharded: [expected, side], quarter: [expectedQuarter, quarterSide] };
  const check = (array, sel, got) => checkSample(got, sel, ...images[array]);
  const layout = shardLayout(files, side);
  server = await startNetworkServerThread(files, { latencyMs, maxConcurrent });

  const { plainCodecs, packageCodecs, useCodecs } = await registries(zarr);
  const fetchStore = () => new zarr.FetchStore(`${server.url}/image.zarr`);
  const openOn = (store, array) => zarr.open.v3(zarr.root(store).resolve(array), { kind: "array" });
  const newCache = () => createChunkCache({ maxBytes: 256 << 20 });

  // Each reader makes a fresh session per run: open(array, priority) and
  // get(arr, sel, { signal, priority }).
  const readers = {
    zarrita: {
      title: readerTitles.zarrita,
      codecs: plainCodecs,
      session() {
        const store = fetchStore();
        return { open: (array) => openOn(store, array), get: (arr, sel, { signal }) => zarr.get(arr, toSlices(sel), { signal }) };
      },
    },
    coalesce: {
      title: readerTitles.coalesce,
      codecs: plainCodecs,
      session() {
        const store = zarr.withRangeCoalescing(fetchStore());
        return { open: (array) => openOn(store, array), get: (arr, sel, { signal }) => zarr.get(arr, toSlices(sel), { signal }) };
      },
    },
    read: {
      title: readerTitles.read,
      codecs: packageCodecs,
      session() {
        const store = fetchStore();
        const cache = newCache();
        return { open: (array) => openOn(store, array), get: (arr, sel, { signal }) => read(arr, toSlices(sel), { cache, signal }) };
      },
    },
    scheduler: {
      title: readerTitles.scheduler,
      codecs: packageCodecs,
      built: hasScheduler,
      session() {
        const store = fetchStore();
        const cache = newCache();
        const scheduler = createReadScheduler({ maxRequests: maxConcurrent });
        return {
          scheduler,
          open: (array) => openOn(store, array),
          get: (arr, sel, { signal, priority }) => read(arr, toSlices(sel), { cache, signal, scheduler, priority }),
        };
      },
    },
    wrapper: {
      title: readerTitles.wrapper,
      codecs: packageCodecs,
      built: hasWrapper,
      perPriority: true,
      session() {
        const base = fetchStore();
        const scheduler = createReadScheduler({ maxRequests: maxConcurrent });
        return {
          scheduler,
          open: (array, priority) => openOn(withScheduler(base, scheduler, { priority }), array),
          get: (arr, sel, { signal }) => zarr.get(arr, toSlices(sel), { signal }),
        };
      },
    },
  };
  // --readers=scheduler,read: only those (tuning one reader; a full run takes all).
  const only = option("readers", undefined)?.split(",");
  for (const n of Object.keys(readers)) if (only && !only.includes(n)) delete readers[n];
  const names = Object.keys(readers);
  const built = names.filter((n) => readers[n].built !== false);

  // After a run: two round trips and a little more.
  const quietMs = 2 * latencyMs + 25;
  // A wave's signal is shared by its reads (16 tiles, 48 for the ring),
  // each of which may listen to it more than once at a time (read: the
  // read, its index's fetch, its ranges'): above Node's warning level of
  // 10 listeners (a read of one shard listens once per chunk), which is
  // no leak here.
  const roomFor = (signal) => setMaxListeners(0, signal);

  /** One run of a scenario by one reader: its facts, the server's log; values checked. */
  async function once(name, scenario) {
    const reader = readers[name];
    useCodecs(reader.codecs);
    const session = reader.session();
    const arrays = new Map();
    for (const { array, priority } of arraysOf(scenario)) {
      const key = reader.perPriority ? `${array}@${priority}` : array;
      if (!arrays.has(key)) arrays.set(key, await session.open(array, priority));
    }
    await settle(server, 0);
    gc();
    await server.reset();
    const get = (array, sel, options) => session.get(arrays.get(reader.perPriority ? `${array}@${options.priority}` : array), sel, options);
    const run = await runScenario(scenario, get, { timeoutMs, onSignal: roomFor });
    const quiet = await settle(server, quietMs);
    const log = await server.requests();
    const facts = runFacts(run);
    try {
      checkRun(run, check);
    } catch (e) {
      throw new Error(`${name}, ${scenario.name}: ${e.message}`);
    }
    const totals = await server.totals();
    return { ...facts, ...totals, quiet, run, log, where: whereTimeWent(run, log, layout), stats: session.scheduler?.stats?.() };
  }

  const scenarios = sessionScenarios(side);
  const { print, printed, loadLine } = printer();
  const json = { rates: [], hasScheduler, hasWrapper };
  for (const rate of rates) {
    await server.configure({ rateBytesPerSec: rate * 1e6 });
    // A run of each reader first, not counted: the first reads of a process
    // compile codecs' modules and warm the JIT, and a reader that learns
    // the link from its answers (per origin) sees this rate's.
    for (const name of built) {
      current = name;
      await once(name, alone(scenarios[0]));
    }
    current = "none";
    /** results[scenario][variant][reader] = runs */
    const results = {};
    for (const scenario of scenarios) {
      results[scenario.name] = { together: {}, alone: {} };
      for (let r = 0; r < rounds; r++) {
        for (let k = 0; k < built.length; k++) {
          const name = built[(k + r) % built.length];
          current = name;
          for (const [variant, s] of [
            ["together", scenario],
            ["alone", alone(scenario)],
          ]) {
            (results[scenario.name][variant][name] ??= []).push(await once(name, s));
          }
          await sleep(20); // late unhandled rejections still count against this reader
          current = "none";
        }
      }
    }
    const summary = summarise(results);
    const link = Number.isFinite(rate) ? `a link of ${rate} MB/s shared by every answer` : "no link limit";
    const header = `A viewer's session: ${latencyMs} ms a round trip, at most ${maxConcurrent} requests at once, ${link}, requests dropped when their client goes away; ${side}x${side} image; Node ${process.version}; median of ${rounds}`;
    printSession({ header, summary, rate, readers, scenarios, unhandled }, print);
    if (trace) printTraces({ results, readers, scenarios }, print);
    json.rates.push({ rate, summary });
  }
  const load = loadLine();
  print(load);
  if (write) writeResults("session", `A viewer's session (bench/session.mjs ${args.join(" ")})`, printed, { json: { load, latencyMs, maxConcurrent, rounds, side, ...json } });
} finally {
  await server?.close();
  remove();
}
