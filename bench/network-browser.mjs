// Reads over a network in Chromium: the cases and table of bench/network.mjs
// (bench/network-cases.mjs), run in a page that Vite builds from
// bench/network-page/ (zarrita 0.7.5 and the package, as an app bundles
// them) and Debian's /usr/bin/chromium runs headless, driven by
// playwright-core (never a downloaded browser). The page is served by
// scripts/serve.mjs; the store by the loopback network server
// (tests/js/support/network-server.mjs) on another origin (CORS), with a
// delay per request and NO cap of its own: the browser's own limit of
// connections per host (six, over HTTP/1.1) is the one that applies.
// Readers: zarrita alone, zarrita + withRangeCoalescing, read() (no pool:
// the page has no worker), and read() on withDataTypes(FetchStore), which
// keeps the array's zarr.json from the open (as in bench/network.mjs). Each round opens a fresh store and array (not
// timed, its requests not counted: the server's log is reset after it).
// --rate: the server's answers share one link of R MB/s (as in
// bench/network.mjs; "inf", the default: no link), each rate run at each
// latency, with issue 41's goal on a link. A full run (not --quick, not
// --no-write) writes its tables to bench/network-browser-results.md.
// The temp folders (store, build) are removed at the end.
//
//   node bench/network-browser.mjs [--quick] [--rounds=N] [--latency=25] [--rate=6.25,25,inf] [--trace] [--no-store] [--no-write]
import { fileURLToPath } from "node:url";
import { startNetworkServer } from "../tests/js/support/network-server.mjs";
import { openBenchPage } from "./bench-page.mjs";
import { logFacts, measureCases, networkCases, printTable } from "./network-cases.mjs";
import { networkStore, writeResults, printer } from "./network-store.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const quick = args.includes("--quick");
const trace = args.includes("--trace");
// Every request with { cache: "no-store" }: Chromium's HTTP cache then
// takes no lock per URL (with it, concurrent range requests of one shard
// wait for each other: zarrita's 16 tiles go out one at a time).
const noStore = args.includes("--no-store");
const rounds = Number(option("rounds", quick ? 1 : 3));
const latencies = option("latency", "25").split(",").map(Number);
const rates = option("rate", "inf")
  .split(",")
  .map((r) => (r === "inf" ? Infinity : Number(r)));
const names = ["zarrita", "coalesce", "read", "withDataTypes"];
const write = !quick && !args.includes("--no-write");

const store = networkStore("network-browser", quick);
const { files } = store;
const sizeOf = (path) => files.get(path)?.byteLength;
let server;
let opened;
try {
  server = await startNetworkServer(files, { cors: true });
  opened = await openBenchPage(fileURLToPath(new URL("network-page", import.meta.url)), store);
  const { page, problems } = opened;
  const { side, cache, userAgent } = await page.evaluate(([url, n]) => window.bench.setup(url, n), [`${server.url}/image.zarr`, noStore]);
  const chrome = /Chrome\/([\d.]+)/.exec(userAgent)?.[1] ?? userAgent;

  async function once(name, arrayName, c) {
    const plain = { steps: c.steps, warm: c.warm, cache: c.cache };
    await page.evaluate(([n, a, k]) => window.bench.open(n, a, k), [name, arrayName, plain]);
    server.reset();
    const t0 = performance.now();
    const ms = await page.evaluate((k) => window.bench.run(k), plain);
    const log = server.requests();
    return { ms, t0, log, ...logFacts(log, sizeOf) };
  }

  const cases = networkCases(side);
  const { print, printed, loadLine } = printer();
  for (const latencyMs of latencies) {
    for (const rate of rates) {
      server.configure({ latencyMs, rateBytesPerSec: rate * 1e6 });
      const { rows, traces } = await measureCases({ cases, names, rounds, once, trace, hasCache: Boolean(cache), link: Number.isFinite(rate) });
      const link = Number.isFinite(rate) ? `a link of ${rate} MB/s shared by every answer` : "no link limit";
      const header = `Chromium ${chrome} (Vite build)${noStore ? ", cache: no-store" : ""}, ${latencyMs} ms per request, no cap at the server (the browser's own per-host limit), ${link}; median of ${rounds}; ms (requests, MiB moved); read/x = x's ms / read's`;
      printTable({ header, names, rows }, print);
      if (traces.length) console.log(`\n-- requests on the timeline at ${latencyMs} ms (w = wave; times from the driver's clock, ~1 ms early)\n${traces.join("\n")}`);
    }
  }
  if (problems.length) throw new Error(`the page failed: ${problems.join("; ")}`);
  const load = loadLine();
  console.log(load);
  if (write) writeResults("network-browser", `Reads over a network in Chromium (bench/network-browser.mjs ${args.join(" ")})`, printed, { facts: load });
} finally {
  await opened?.close();
  await server?.close();
  store.remove();
}
