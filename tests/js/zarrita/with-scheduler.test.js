// withScheduler(store, scheduler, { priority }): zarr.get on every zarrita
// through a store whose requests share a read scheduler's budget, over real
// HTTP: the values, the order of the requests by the stores' priorities,
// requests of an aborted
// get dropped before they are sent where zarrita passes the signal to the
// store (0.6 and 0.7), and no other get's AbortError. Unhandled rejections
// are counted in a process of their own (support/with-scheduler-probe.mjs).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createReadScheduler, read, ready, register, withScheduler } from "../../../js/index.js";
import { selectReference, writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";
import { expectCodecError } from "../support/expect-error.js";
import { ZARRITAS } from "../support/zarritas.js";

const side = 256;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 5 + 1) & 0xffff);
const INDEX = 16 * 16 + 4;
let server;

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
  const files = new Map();
  const common = { values, dataType: "uint16", shape: [side, side], fillValue: 0, fillElement: Uint16Array.of(0) };
  writeArray(files, "/s", { ...common, chunkShape: [128, 128], sharding: { chunkShape: [32, 32] } });
  writeArray(files, "/plain", { ...common, chunkShape: [64, 64] });
  server = await startNetworkServer(files, { latencyMs: 5 });
});
afterAll(() => server?.close());

function expected(r0, r1, c0, c1) {
  return Array.from(selectReference(values, [side, side], [[r0, r1, 1], [c0, c1, 1]]).data);
}
// A suffix request per index: one request per store call.
const fetchStore = (zarr) => new zarr.FetchStore(server.url, { useSuffixRequest: true });

describe.each(ZARRITAS)("zarrita %s", (version, zarr) => {
  const s = zarr.slice;

  test("zarr.get through the scheduler: values right, every store call one of its requests, never more in flight than its slots", async () => {
    const scheduler = createReadScheduler({ maxRequests: 2 });
    const store = withScheduler(fetchStore(zarr), scheduler);
    server.reset();
    const [a, b] = await Promise.all([zarr.open(zarr.root(store).resolve("s"), { kind: "array" }), zarr.open(zarr.root(store).resolve("plain"), { kind: "array" })]);
    const [x, y] = await Promise.all([zarr.get(a, [s(0, 160), null]), zarr.get(b, [null, s(64, 192)])]);
    expect(Array.from(x.data)).toEqual(expected(0, 160, 0, side));
    expect(Array.from(y.data)).toEqual(expected(0, side, 64, 192));
    // zarrita asks for metadata it does not find (v2 .zarray, .zattrs): 404s, requests too.
    expect(scheduler.stats().sent).toBe(server.requests().length);
    const events = server.requests().flatMap((q) => [[q.startMs, 1], [q.endMs, -1]]).sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    let at = 0;
    let most = 0;
    for (const [, d] of events) most = Math.max(most, (at += d));
    expect(most).toBeLessThanOrEqual(2);
  });

  test("requests go by the stores' priorities: an overview store's before a prefetch store's", async () => {
    const scheduler = createReadScheduler({ maxRequests: 1 });
    const prefetch = withScheduler(fetchStore(zarr), scheduler, { priority: -1 });
    const overview = withScheduler(fetchStore(zarr), scheduler, { priority: () => 10 });
    const [low, high] = await Promise.all([zarr.open(zarr.root(prefetch).resolve("plain"), { kind: "array" }), zarr.open(zarr.root(overview).resolve("plain"), { kind: "array" })]);
    server.reset();
    server.stall("/plain/c/0/0");
    const lowGet = zarr.get(low, [s(0, 64), null]); // 4 chunks: c/0/0 held, 3 waiting
    while (server.requests().length === 0) await new Promise((r) => setTimeout(r, 1));
    const highGet = zarr.get(high, [s(192, 256), null]);
    await new Promise((r) => setTimeout(r, 20));
    server.release();
    const [l, h] = await Promise.all([lowGet, highGet]);
    expect(Array.from(l.data)).toEqual(expected(0, 64, 0, side));
    expect(Array.from(h.data)).toEqual(expected(192, 256, 0, side));
    const paths = server.requests().map((q) => q.path);
    expect(paths[0]).toBe("/plain/c/0/0");
    // The overview's 4 chunks went before the prefetch's 3 that waited.
    expect(paths.slice(1, 5).every((p) => p.startsWith("/plain/c/3/"))).toBe(true);
    expect(paths.slice(5).every((p) => p.startsWith("/plain/c/0/"))).toBe(true);
  });

  test("an aborted get: its waiting requests are never sent where zarrita gives the store its signal; another get goes on", async () => {
    const scheduler = createReadScheduler({ maxRequests: 1 });
    const store = withScheduler(fetchStore(zarr), scheduler);
    const arr = await zarr.open(zarr.root(store).resolve("plain"), { kind: "array" });
    server.reset();
    server.stall("/plain/c/0/0");
    const stale = new AbortController();
    // zarrita 0.7 passes get's signal to the store; 0.6 its opts.
    const staleGet = zarr.get(arr, [s(0, 64), null], { signal: stale.signal, opts: { signal: stale.signal } }).then(
      () => "resolved",
      (e) => e.name,
    );
    while (server.requests().length === 0) await new Promise((r) => setTimeout(r, 1));
    stale.abort();
    const fresh = zarr.get(arr, [s(64, 128), s(0, 64)]);
    server.release();
    expect(Array.from((await fresh).data)).toEqual(expected(64, 128, 0, 64));
    const outcome = await staleGet;
    const paths = server.requests().map((q) => q.path);
    expect(outcome).toBe("AbortError");
    // The stale get's first chunk, then the fresh get's: its 3 others never sent.
    expect(paths).toEqual(["/plain/c/0/0", "/plain/c/1/0"]);
    // Every zarrita asked the store for them with the signal (0.5 too, for
    // unsharded chunks): the scheduler dropped them.
    expect(scheduler.stats().droppedBeforeSending).toBe(3);
  });

  test("read and zarr.get share one scheduler", async () => {
    const scheduler = createReadScheduler({ maxRequests: 2 });
    const store = withScheduler(fetchStore(zarr), scheduler, { priority: 1 });
    const arr = await zarr.open(zarr.root(store).resolve("s"), { kind: "array" });
    server.reset();
    const [viaGet, viaRead] = await Promise.all([zarr.get(arr, [s(0, 64), null]), read(arr, [s(64, 128), null], { scheduler, priority: 2 })]);
    expect(Array.from(viaGet.data)).toEqual(expected(0, 64, 0, side));
    expect(Array.from(viaRead.data)).toEqual(expected(64, 128, 0, side));
    // read's own requests and zarr.get's through the store both went through it.
    expect(scheduler.stats().sent).toBeGreaterThanOrEqual(server.requests().length);
    expect(server.requests().filter((q) => q.range === `bytes=-${INDEX}`).length).toBeGreaterThanOrEqual(2);
  });
});

test("zarrita 0.7: withScheduler composes in extendStore with zarrita's own extensions", async () => {
  const [, zarr] = ZARRITAS.find(([v]) => v.startsWith("0.7"));
  const s = zarr.slice;
  const scheduler = createReadScheduler({ maxRequests: 2 });
  const store = await zarr.extendStore(fetchStore(zarr), (inner) => withScheduler(inner, scheduler), (inner) => zarr.withRangeCoalescing(inner));
  const arr = await zarr.open(zarr.root(store).resolve("s"), { kind: "array" });
  server.reset();
  const before = scheduler.stats().sent;
  const got = await zarr.get(arr, [s(0, 64), null]);
  expect(Array.from(got.data)).toEqual(expected(0, 64, 0, side));
  // Every request the server saw went through the scheduler's slots.
  expect(scheduler.stats().sent - before).toBe(server.requests().length);
  expect(server.requests().length).toBeGreaterThan(0);
});

test("withScheduler checks its arguments", () => {
  const scheduler = createReadScheduler();
  expectCodecError(() => withScheduler({}, scheduler), "INVALID_INPUT", "withScheduler: expected a store (an object with get(key)), got an object");
  expectCodecError(() => withScheduler({ get: async () => undefined }, {}), "INVALID_INPUT", "withScheduler: scheduler must come from createReadScheduler(), got an object");
  expectCodecError(() => withScheduler({ get: async () => undefined }, scheduler, { priority: "soon" }), "INVALID_INPUT", 'withScheduler: priority must be a number or a function that returns one, got "soon"');
});

test("aborted sharded and unsharded gets through it on every zarrita leave no rejection unhandled, and none hangs", () => {
  const probe = fileURLToPath(new URL("../support/with-scheduler-probe.mjs", import.meta.url));
  const out = JSON.parse(execFileSync(process.execPath, [probe], { encoding: "utf8", timeout: 60_000 }).trim().split("\n").at(-1));
  expect(out.unhandled).toEqual([]);
  // Every get settled (none hangs), each as its zarrita settles it.
  expect(out.settled).toBe(out.gets);
  expect(out.gets).toBeGreaterThanOrEqual(ZARRITAS.length * 8);
});
