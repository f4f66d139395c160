// read with a scheduler (createReadScheduler) over real HTTP: the order the
// server sees requests in (highest priority first, priorities asked again,
// a shard's index at the priority of the highest read waiting on it),
// requests of an aborted read dropped before they are sent (the server's
// log holds none of them), the budget shared by reads of several arrays, a
// pool shared by reads decoding by the same priorities, and values right
// on every path.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createChunkCache, createReadPool, createReadScheduler, diagnostics, read, ready, register } from "../../../js/index.js";
import { selectReference, writeArray } from "../support/hand-store.js";
import { memoryStore } from "../support/memory-store.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 256;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 7 + 3) & 0xffff);
// 4 shards of 128 x 128, 16 inner chunks of 32 x 32 (2,048 bytes) each.
const INNER = 2048;
const INDEX = 16 * 16 + 4;
let server;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  const common = { values, dataType: "uint16", shape: [side, side], fillValue: 0, fillElement: Uint16Array.of(0) };
  writeArray(files, "/s", { ...common, chunkShape: [128, 128], sharding: { chunkShape: [32, 32] } });
  writeArray(files, "/plain", { ...common, chunkShape: [64, 64] });
  server = await startNetworkServer(files, { latencyMs: 10 });
});
afterAll(() => server?.close());
beforeEach(() => server.release());

const s = zarr.slice;
const open = (path = "s") => zarr.open(zarr.root(new zarr.FetchStore(server.url, { useSuffixRequest: true })).resolve(path), { kind: "array" });
function expected(r0, r1, c0, c1) {
  return Array.from(selectReference(values, [side, side], [[r0, r1, 1], [c0, c1, 1]]).data);
}
// The byte range of inner chunk (r, c) (of 32 x 32) in its shard, as the server logs it.
const rangeOf = (r, c) => {
  const at = (r % 4) * 4 + (c % 4);
  return `bytes=${at * INNER}-${at * INNER + INNER - 1}`;
};
const shardOf = (r, c) => `/s/c/${Math.floor(r / 4)}/${Math.floor(c / 4)}`;
const logged = () => server.requests().map((q) => `${q.path} ${q.range}`);
const tile = (r, c) => [s(32 * r, 32 * r + 32), s(32 * c, 32 * c + 32)];
const isIndex = (q) => q.range === `bytes=-${INDEX}`;

describe("the order requests are sent in", () => {
  test("one slot: the index, then the tiles highest priority first, first asked first among equals", async () => {
    const arr = await open();
    server.reset();
    const scheduler = createReadScheduler({ maxRequests: 1 });
    // No two tiles merge (coalescing off), so each is one request.
    const tiles = [
      [0, 0, -1],
      [1, 1, 5],
      [2, 2, 0],
      [3, 3, 5],
      [0, 3, 9],
    ];
    const got = await Promise.all(tiles.map(([r, c, priority]) => read(arr, tile(r, c), { scheduler, priority, coalesce: false })));
    tiles.forEach(([r, c], i) => expect(Array.from(got[i].data)).toEqual(expected(32 * r, 32 * r + 32, 32 * c, 32 * c + 32)));
    expect(logged()).toEqual([`/s/c/0/0 bytes=-${INDEX}`, ...[[0, 3], [1, 1], [3, 3], [2, 2], [0, 0]].map(([r, c]) => `${shardOf(r, c)} ${rangeOf(r, c)}`)]);
    expect(scheduler.stats()).toMatchObject({ sent: 6, waiting: 0, inFlight: 0, droppedBeforeSending: 0 });
  });

  test("a priority function is asked again each time a slot frees: the view's centre moves while tiles wait", async () => {
    const arr = await open();
    await read(arr, tile(0, 0)); // the index, kept
    server.reset();
    const scheduler = createReadScheduler({ maxRequests: 1 });
    let centre = [0, 0];
    const distance = (r, c) => () => -Math.hypot(r - centre[0], c - centre[1]);
    const order = [[0, 0], [0, 1], [1, 0], [3, 3], [2, 3], [3, 2]];
    server.stall("/s/c/0/0");
    const pending = order.map(([r, c]) => read(arr, tile(r, c), { scheduler, priority: distance(r, c), coalesce: false }));
    // Once the first tile is on its way (held there), the user pans to the far corner.
    while (server.requests().length === 0) await new Promise((r) => setTimeout(r, 1));
    centre = [3, 3];
    server.release();
    await Promise.all(pending);
    // (0, 1) and (1, 0) lie as far from (3, 3): first asked first.
    expect(logged()).toEqual([[0, 0], [3, 3], [2, 3], [3, 2], [0, 1], [1, 0]].map(([r, c]) => `/s/c/0/0 ${rangeOf(r, c)}`));
  });

  test("a shard's index is sent at the priority of the highest read waiting on it", async () => {
    const arr = await open();
    await read(arr, tile(0, 0)); // shard c/0/0's index, kept
    server.reset();
    server.stall("/s/c/0/0");
    const scheduler = createReadScheduler({ maxRequests: 1 });
    // A low read of shard c/0/0 holds the slot; more of its tiles wait; a
    // low read of shard c/1/1 waits for its index, then a high read of c/1/1 joins it.
    const low = [[0, 1], [0, 2], [0, 3]].map(([r, c]) => read(arr, tile(r, c), { scheduler, priority: -1, coalesce: false }));
    while (server.requests().length === 0) await new Promise((r) => setTimeout(r, 1));
    const lowOther = read(arr, tile(4, 4), { scheduler, priority: -1, coalesce: false });
    await new Promise((r) => setTimeout(r, 20));
    const high = read(arr, tile(5, 5), { scheduler, priority: 10, coalesce: false });
    await new Promise((r) => setTimeout(r, 20));
    server.release();
    await Promise.all([...low, lowOther, high]);
    const sent = logged();
    expect(sent[0]).toBe(`/s/c/0/0 ${rangeOf(0, 1)}`);
    // Next the index of c/1/1, before the low tiles that waited longer, then the high tile.
    expect(sent.slice(1, 3)).toEqual([`/s/c/1/1 bytes=-${INDEX}`, `/s/c/1/1 ${rangeOf(5, 5)}`]);
    expect(sent).toHaveLength(6);
  });
});

describe("cancellation", () => {
  test("requests of an aborted read not yet sent are never sent; one in flight goes on for another read waiting on it", async () => {
    const arr = await open();
    await read(arr, tile(0, 0)); // the index, kept
    server.reset();
    server.stall("/s/c/0/0");
    const scheduler = createReadScheduler({ maxRequests: 1 });
    const stale = new AbortController();
    // The stale viewport: 4 tiles in a row, each its own request.
    const viewport = read(arr, [s(32, 64), s(0, 128)], { scheduler, signal: stale.signal, coalesce: false });
    while (server.requests().length === 0) await new Promise((r) => setTimeout(r, 1));
    const first = logged()[0];
    // A fresh read of the tile on its way joins its request (a chunk cache would share it the same way).
    stale.abort();
    await expect(viewport).rejects.toMatchObject({ name: "AbortError" });
    const fresh = read(arr, tile(2, 2), { scheduler, priority: 1, coalesce: false });
    server.release();
    expect(Array.from((await fresh).data)).toEqual(expected(64, 96, 64, 96));
    // The stale read's three waiting tiles were dropped: the server saw its first and the fresh one only.
    expect(logged()).toEqual([first, `/s/c/0/0 ${rangeOf(2, 2)}`]);
    expect(scheduler.stats()).toMatchObject({ droppedBeforeSending: 3, abortedInFlight: 1, sent: 2 });
    expect(diagnostics().requests().scheduled.droppedBeforeSending).toBeGreaterThanOrEqual(3);
  });
});

describe("one budget", () => {
  test("reads of two arrays through one scheduler: never more requests in flight than its slots", async () => {
    const [a, b] = await Promise.all([open("s"), open("plain")]);
    server.reset();
    server.configure({ latencyMs: 15 });
    const scheduler = createReadScheduler({ maxRequests: 3 });
    try {
      const reads = [read(a, null, { scheduler, coalesce: false }), read(b, null, { scheduler }), read(a, [s(0, 64), null], { scheduler, coalesce: false })];
      const [whole, plain] = await Promise.all(reads);
      expect(Array.from(whole.data)).toEqual(Array.from(values));
      expect(Array.from(plain.data)).toEqual(Array.from(values));
      // The most requests the server served at once.
      const events = server.requests().flatMap((q) => [[q.startMs, 1], [q.endMs, -1]]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      let at = 0;
      let most = 0;
      for (const [, d] of events) most = Math.max(most, (at += d));
      expect(most).toBeLessThanOrEqual(3);
      expect(scheduler.stats().sent).toBe(server.requests().length);
    } finally {
      server.configure({ latencyMs: 10 });
    }
  });

  test("values right with a scheduler on every path: into, a pool, a chunk cache, and beside reads without one", async () => {
    const arr = await open();
    const scheduler = createReadScheduler({ maxRequests: 2 });
    const pool = createReadPool({ workers: 1, inThreadChunks: 0 });
    try {
      const cache = createChunkCache();
      const into = new Uint16Array(64 * side);
      const got = await Promise.all([
        read(arr, [s(0, 64), null], { scheduler, into }),
        read(arr, [s(64, 128), null], { scheduler, pool, priority: 3 }),
        read(arr, [s(128, 192), null], { scheduler, cache, priority: () => 2 }),
        read(arr, [s(192, 256), null]),
      ]);
      got.forEach((g, i) => expect(Array.from(g.data)).toEqual(expected(64 * i, 64 * i + 64, 0, side)));
      expect(got[0].data).toBe(into);
    } finally {
      await pool.close();
    }
  });

  test("scheduler and priority are checked", async () => {
    const arr = await open();
    await expect(read(arr, tile(0, 0), { scheduler: {} })).rejects.toMatchObject({ code: "INVALID_INPUT", message: "read: scheduler must come from createReadScheduler(), got an object" });
    await expect(read(arr, tile(0, 0), { priority: "high" })).rejects.toMatchObject({ code: "INVALID_INPUT", message: 'read: priority must be a number or a function that returns one, got "high"' });
    const scheduler = createReadScheduler();
    const failing = () => {
      throw new Error("no view");
    };
    await expect(read(arr, tile(1, 1), { scheduler, priority: failing })).rejects.toMatchObject({ code: "CALLBACK_FAILED", message: "read: priority threw: no view" });
    // The scheduler goes on for the others.
    expect(Array.from((await read(arr, tile(1, 1), { scheduler })).data)).toEqual(expected(32, 64, 32, 64));
  });
});

describe("a pool shared by reads", () => {
  test.each([["", () => ({})], [" (with a chunk cache, whose misses the pool decodes)", () => ({ cache: createChunkCache() })]])("decodes by the reads' priorities: a late high-priority read's chunks go before a low one's waiting chunks%s", async (_, more) => {
    const files = new Map();
    const rows = 40 * 64;
    const tall = Uint16Array.from({ length: rows * 256 }, (_, i) => (i * 3) & 0xffff);
    writeArray(files, "/t", { values: tall, dataType: "uint16", shape: [rows, 256], chunkShape: [64, 256], fillValue: 0, fillElement: Uint16Array.of(0), compressors: ["gzip"] });
    const arr = await zarr.open(zarr.root(memoryStore([...files])).resolve("t"), { kind: "array" });
    const pool = createReadPool({ workers: 1, inThreadChunks: 0 });
    try {
      await read(arr, [s(0, 64), null], { pool }); // the worker started
      const log = [];
      const low = read(arr, [s(0, 32 * 64), null], { pool, priority: 0, onProgress: (p) => log.push(`low ${p.chunk[0]}`), ...more() });
      const high = read(arr, [s(32 * 64, rows), null], { pool, priority: 10, onProgress: (p) => log.push(`high ${p.chunk[0]}`), ...more() });
      const [a, b] = await Promise.all([low, high]);
      expect(Array.from(a.data)).toEqual(Array.from(tall.subarray(0, 32 * 64 * 256)));
      expect(Array.from(b.data)).toEqual(Array.from(tall.subarray(32 * 64 * 256)));
      // The worker holds two jobs at once: the low read's first two went
      // before the high read asked; every high chunk then before the rest.
      const lastHigh = log.lastIndexOf("high 39");
      expect(log.slice(0, lastHigh + 1).filter((e) => e.startsWith("low"))).toHaveLength(2);
    } finally {
      await pool.close();
    }
  });
});
