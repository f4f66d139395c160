// A viewer's session in Chromium: the scenarios, readers and tables of
// bench/session.mjs (bench/session-cases.mjs, bench/session-report.mjs),
// run in a page that Vite builds from bench/session-page/ (zarrita 0.7.5
// and the package, as an app bundles them) and Debian's /usr/bin/chromium
// runs headless, driven by playwright-core (never a downloaded browser).
// The page is served by scripts/serve.mjs; the store by the loopback
// network server (tests/js/support/network-server.mjs) on another origin
// (CORS) with a round trip of 25 ms, one link of 6.25 MB/s shared by every
// answer, requests dropped when their client goes away, and NO cap of its
// own: the browser's own limit of connections per host (six, over
// HTTP/1.1) applies, and the browser itself drops an aborted fetch still
// queued for a connection (the server never sees it). Each run opens a
// fresh store and arrays (not timed, their requests not counted). The
// page's clock is moved onto this process's to lay its runs on the
// server's log. The temp folders (store,
// build) are removed at the end; a full run (not --quick, not
// --no-write) writes bench/session-browser-results.md.
//
//   node bench/session-browser.mjs [--quick] [--rounds=N] [--latency=25] [--rate=6.25] [--trace] [--no-store] [--no-write]
import { fileURLToPath } from "node:url";
import { startNetworkServer } from "../tests/js/support/network-server.mjs";
import { openBenchPage } from "./bench-page.mjs";
import { networkStore, writeResults, printer } from "./network-store.mjs";
import { runFacts, sessionScenarios, settle, shardLayout, whereTimeWent } from "./session-cases.mjs";
import { printSession, printTraces, readerTitles, summarise } from "./session-report.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const quick = args.includes("--quick");
const trace = args.includes("--trace");
// Every request with { cache: "no-store" } (as in bench/network-browser.mjs:
// Chromium's HTTP cache otherwise sends concurrent ranges of one URL one
// at a time).
const noStore = args.includes("--no-store");
const write = !quick && !args.includes("--no-write");
const rounds = Number(option("rounds", quick ? 1 : 3));
const latencyMs = Number(option("latency", 25));
const rates = option("rate", "6.25")
  .split(",")
  .map((r) => (r === "inf" ? Infinity : Number(r)));
const timeoutMs = quick ? 20000 : 60000;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const store = networkStore("session-browser", quick);
const { files } = store;
let server;
let opened;
try {
  server = await startNetworkServer(files, { latencyMs, cors: true });
  opened = await openBenchPage(fileURLToPath(new URL("session-page", import.meta.url)), store);
  const { page, problems } = opened;
  const setup = await page.evaluate(([url, noStore]) => window.bench.setup(url, { noStore, maxRequests: 6 }), [`${server.url}/image.zarr`, noStore]);
  const { side, hasScheduler, hasWrapper } = setup;
  const chrome = /Chrome\/([\d.]+)/.exec(setup.userAgent)?.[1] ?? setup.userAgent;
  // Added to a time on the page's clock, it is one on this process's: the
  // page's performance.now() against the middle of the quickest of 10
  // round trips to ask it (its timeOrigin alone was found ~5 ms off).
  let shift;
  let quickest = Infinity;
  for (let i = 0; i < 10; i++) {
    const before = performance.now();
    const then = await page.evaluate(() => performance.now());
    const after = performance.now();
    if (after - before < quickest) {
      quickest = after - before;
      shift = (before + after) / 2 - then;
    }
  }
  const layout = shardLayout(files, side);
  const scenarios = sessionScenarios(side);
  const readers = {
    zarrita: { title: readerTitles.zarrita },
    coalesce: { title: readerTitles.coalesce },
    read: { title: readerTitles.read },
    scheduler: { title: readerTitles.scheduler, built: hasScheduler },
    wrapper: { title: readerTitles.wrapper, built: hasWrapper },
  };
  const built = Object.keys(readers).filter((n) => readers[n].built !== false);

  const quietMs = 2 * latencyMs + 25;

  /** One run of `scenario` (variant "together", or "alone") by one reader in the page. */
  async function once(name, scenario, variant) {
    await page.evaluate(([n, s, v]) => window.bench.open(n, s, v), [name, scenario.name, variant]);
    await settle(server, 0);
    server.reset();
    const result = await page.evaluate((t) => window.bench.run(t), timeoutMs);
    if (result.error) throw new Error(`${name}, ${scenario.name}${variant === "alone" ? " alone" : ""}: ${result.error}`);
    const quiet = await settle(server, quietMs);
    const log = server.requests();
    const run = { ...result.run, t0: result.run.t0 + shift };
    return { ...runFacts(run), ...server.totals(), quiet, run, log, where: whereTimeWent(run, log, layout), stats: result.stats };
  }

  const unhandled = {};
  const countUnhandled = async (name, before) => {
    const now = await page.evaluate(() => window.bench.unhandled());
    const added = now.count - before.count;
    if (added > 0) {
      const entry = (unhandled[name] ??= { count: 0, kinds: new Map() });
      entry.count += added;
      const was = new Map(before.kinds);
      for (const [kind, n] of now.kinds) if (n > (was.get(kind) ?? 0)) entry.kinds.set(kind, (entry.kinds.get(kind) ?? 0) + n - (was.get(kind) ?? 0));
    }
  };

  const { print, printed, loadLine } = printer();
  for (const rate of rates) {
    server.configure({ rateBytesPerSec: rate * 1e6 });
    // A run of each reader first, not counted (compiling, JIT, and a reader
    // that learns the link from its answers sees this rate's).
    for (const name of built) await once(name, scenarios[0], "alone");
    const results = {};
    for (const scenario of scenarios) {
      results[scenario.name] = { together: {}, alone: {} };
      for (let r = 0; r < rounds; r++) {
        for (let k = 0; k < built.length; k++) {
          const name = built[(k + r) % built.length];
          const before = await page.evaluate(() => window.bench.unhandled());
          for (const variant of ["together", "alone"]) {
            (results[scenario.name][variant][name] ??= []).push(await once(name, scenario, variant));
          }
          await sleep(20);
          await countUnhandled(name, before);
        }
      }
    }
    const summary = summarise(results);
    const link = Number.isFinite(rate) ? `a link of ${rate} MB/s shared by every answer` : "no link limit";
    const header = `A viewer's session in Chromium ${chrome} (Vite build)${noStore ? ", cache: no-store" : ""}: ${latencyMs} ms a round trip, no cap at the server (the browser's own per-host limit), ${link}, requests dropped when their client goes away; ${side}x${side} image; median of ${rounds}`;
    printSession({ header, summary, rate, readers, scenarios, unhandled }, print);
    if (trace) printTraces({ results, readers, scenarios }, print);
  }
  print(loadLine());
  if (problems.length) throw new Error(`the page failed: ${problems.join("; ")}`);
  if (write) writeResults("session-browser", `A viewer's session in Chromium (bench/session-browser.mjs ${args.join(" ")})`, printed);
} finally {
  await opened?.close();
  await server?.close();
  store.remove();
}
