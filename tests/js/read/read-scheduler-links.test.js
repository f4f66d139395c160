// A link (one server's origin: scheduling/link-estimate.js linkOf) is
// shared by every scheduler of the realm, and so is its count of bytes on
// their way (link.inFlightBytes), which each scheduler's dispatch checks
// against the link's window once the link's rate is learnt. A scheduler is
// asked to dispatch again only at its own enqueues and releases: when the
// bytes on the link are another scheduler's, their release wakes only that
// one. Two schedulers reading from one server (a viewer's and a library's
// through withScheduler, or two viewers on one page), and a read with a
// scheduler through a store wrapped with another scheduler, must each
// finish once the link has room; neither may wait for good.
//
// Over a loopback server with a round trip and a rate (25 ms, 6.25 MB/s),
// the link learnt first (4 MiB read), so its window is a few hundred KiB.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createReadScheduler, read, ready, register, withScheduler } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";

const rows = 2048;
const cols = 1024;
const values = Uint16Array.from({ length: rows * cols }, (_, i) => (i * 7 + 11) & 0xffff);
// 2 shards of 1024 x 1024, 16 uncompressed inner chunks of 256 x 256 (128 KiB) each.
let server;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  writeArray(files, "/a", { values, dataType: "uint16", shape: [rows, cols], chunkShape: [1024, 1024], fillValue: 0, fillElement: Uint16Array.of(0), sharding: { chunkShape: [256, 256] } });
  server = await startNetworkServer(files, { latencyMs: 25, rateBytesPerSec: 6.25e6 });
  // The link learnt: its rate known, its window bounded.
  const arr = await zarr.open(zarr.root(new zarr.FetchStore(server.url)).resolve("a"), { kind: "array" });
  expect(Array.from((await read(arr, null)).data.subarray(0, 8))).toEqual(Array.from(values.subarray(0, 8)));
});
afterAll(() => server?.close());

const s = zarr.slice;
const rowsOf = (r0, r1) => values.subarray(r0 * cols, r1 * cols);

// `promise`'s outcome, or "still waiting" after `ms` (then `abort` ends it).
async function within(promise, ms, abort) {
  let timer;
  const late = new Promise((resolve) => (timer = setTimeout(() => resolve("still waiting"), ms)));
  const outcome = await Promise.race([promise.then(() => "done", (e) => `failed: ${e?.code ?? e?.name}`), late]);
  clearTimeout(timer);
  if (outcome === "still waiting") {
    abort();
    await promise.catch(() => {});
  }
  return outcome;
}

test("two schedulers reading from one server: the second's requests go once the first's answers leave the link", async () => {
  const arr = await zarr.open(zarr.root(new zarr.FetchStore(server.url)).resolve("a"), { kind: "array" });
  // Both shards' indexes kept: every request below is an inner chunk's.
  await Promise.all([read(arr, [s(0, 1), s(0, 1)]), read(arr, [s(1024, 1025), s(0, 1)])]);
  const first = createReadScheduler();
  const second = createReadScheduler();
  // The first scheduler's requests fill the link's window (held at the server).
  server.stall("/a/c/0/0");
  const a = read(arr, [s(0, 1024), null], { scheduler: first });
  while (server.requests().filter((q) => q.path === "/a/c/0/0").length === 0) await new Promise((r) => setTimeout(r, 2));
  await new Promise((r) => setTimeout(r, 50));
  const stop = new AbortController();
  const b = read(arr, [s(1024, 1280), s(0, 256)], { scheduler: second, signal: stop.signal });
  await new Promise((r) => setTimeout(r, 50));
  server.release();
  expect(Array.from((await a).data)).toEqual(Array.from(rowsOf(0, 1024)));
  // The second read's one inner chunk: 128 KiB on an idle link.
  expect(await within(b, 5000, () => stop.abort())).toBe("done");
  expect(second.stats()).toMatchObject({ waiting: 0, inFlight: 0 });
}, 30_000);

test("a read with a scheduler through a store wrapped with another scheduler finishes (no deadlock on the link's window)", async () => {
  const own = createReadScheduler();
  const library = createReadScheduler();
  const store = withScheduler(new zarr.FetchStore(server.url), library);
  const arr = await zarr.open(zarr.root(store).resolve("a"), { kind: "array" });
  const stop = new AbortController();
  const whole = read(arr, [s(0, 1024), null], { scheduler: own, signal: stop.signal });
  expect(await within(whole, 10_000, () => stop.abort())).toBe("done");
  expect(Array.from((await whole).data)).toEqual(Array.from(rowsOf(0, 1024)));
  expect(own.stats()).toMatchObject({ waiting: 0, inFlight: 0 });
  expect(library.stats()).toMatchObject({ waiting: 0, inFlight: 0 });
}, 30_000);
