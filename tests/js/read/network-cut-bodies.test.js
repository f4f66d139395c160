// A server that cuts answers short mid-body for some requests: the
// headers promise the whole answer (its Content-Length and Content-Range),
// half the body is sent, then the connection is closed (a proxy or an
// overloaded origin dropping connections). fetch rejects while the body is
// read ("terminated", "other side closed"), which read counts as a network
// error and tries again. Through read, read into, uncoalesced, a pool and
// a chunk cache, with and without a scheduler, for an inner chunk's range
// and an unsharded chunk, and zarr.get through withScheduler:
//   - cut once: the values as written, the retry seen by the server;
//   - cut on every attempt: FETCH_FAILED naming the key and the attempts,
//     every slot free again, nothing left waiting, and the rest of the
//     store read right afterwards;
//   - no rejection unhandled (a Jest run fails on one).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createReadPool, createReadScheduler, read, ready, register, withScheduler } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { readRoutes, windowOf, withAndWithoutScheduler } from "../support/read-routes.js";
import { rejectionOf } from "../support/expect-error.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 256;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 11 + 3) & 0xffff);
let server;
let pool;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  const common = { values, dataType: "uint16", shape: [side, side], fillValue: 0, fillElement: Uint16Array.of(0) };
  writeArray(files, "/s", { ...common, chunkShape: [128, 128], sharding: { chunkShape: [32, 32] } });
  writeArray(files, "/plain", { ...common, chunkShape: [64, 64], compressors: ["gzip"] });
  server = await startNetworkServer(files);
  pool = createReadPool({ workers: 1, inThreadChunks: 0 });
});
afterAll(async () => {
  await pool?.close();
  await server?.close();
});

const s = zarr.slice;
const expected = (r0, r1, c0, c1) => windowOf(values, side, r0, r1, c0, c1);
// Opened afresh, with its first shard's index (or its plan) already kept,
// so that the next request of the path is the one cut.
async function opened(path, store = new zarr.FetchStore(server.url, { useSuffixRequest: true })) {
  const arr = await zarr.open(zarr.root(store).resolve(path), { kind: "array" });
  await read(arr, [s(0, 1), s(0, 1)]);
  return arr;
}
const routes = readRoutes(() => pool);
const cases = ["s", "plain"].flatMap((path) => withAndWithoutScheduler(routes).map((c) => [path, ...c]));
const shardOrChunk = (path) => (path === "s" ? "/s/c/0/0" : "/plain/c/0/0");
// Inner chunks (0, 1) and (0, 2) of shard c/0/0, or a part of chunk c/0/0.
const selection = [s(0, 32), s(32, 128)];
const retry = { baseDelayMs: 1 };

describe("a server that cuts some answers mid-body", () => {
  test.each(cases)("/%s, %s (scheduler: %s): cut once, tried again: the values as written", async (path, route, scheduled) => {
    const arr = await opened(path);
    const scheduler = scheduled ? createReadScheduler({ maxRequests: 2 }) : undefined;
    server.reset();
    server.fail(shardOrChunk(path), "cut");
    const got = await routes[route](arr, selection, { scheduler, retry });
    expect(Array.from(got.data)).toEqual(expected(0, 32, 32, 128));
    // The cut answer and the one after it.
    const sent = server.requests().filter((q) => q.path === shardOrChunk(path));
    expect(sent[0].status).toBe(path === "s" ? 206 : 200);
    expect(sent[0].bytes).toBeGreaterThan(0);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    if (scheduler) expect(scheduler.stats()).toMatchObject({ waiting: 0, inFlight: 0 });
  });

  test.each(cases)("/%s, %s (scheduler: %s): cut at every attempt: FETCH_FAILED naming the key and the attempts; the rest of the store reads", async (path, route, scheduled) => {
    const arr = await opened(path);
    const scheduler = scheduled ? createReadScheduler({ maxRequests: 2 }) : undefined;
    server.fail(shardOrChunk(path), "cut", "cut", "cut", "cut", "cut", "cut", "cut", "cut");
    const error = await rejectionOf(routes[route](arr, selection, { scheduler, retry: { ...retry, retries: 2 } }));
    // Faults left over (a coalesced read asks once per attempt, an uncoalesced one per inner chunk) forgotten.
    server.clearFaults(shardOrChunk(path));
    expect(error?.code).toBe("FETCH_FAILED");
    expect(error.message).toContain(`read: fetching ${shardOrChunk(path)} from the store failed 3 times (a network error (`);
    // Every slot free again. (Not at once: a failed read's other requests
    // in flight are aborted, and free their slots as their aborts settle:
    // read-failure-stops-requests.test.js.)
    for (let t = 0; scheduler && t < 300 && scheduler.stats().waiting + scheduler.stats().inFlight > 0; t++) await new Promise((r) => setTimeout(r, 10));
    if (scheduler) expect(scheduler.stats()).toMatchObject({ waiting: 0, inFlight: 0 });
    // Another shard, or chunk, of the array reads right through the same scheduler.
    const after = await routes[route](arr, [s(128, 160), s(128, 224)], { scheduler, retry });
    expect(Array.from(after.data)).toEqual(expected(128, 160, 128, 224));
  });

  test.each(["s", "plain"])("zarr.get through withScheduler on /%s: cut once, it fails as zarrita fails (no retry of its own), leaves no slot taken, and the store reads again", async (path) => {
    const scheduler = createReadScheduler({ maxRequests: 2 });
    const arr = await zarr.open(zarr.root(withScheduler(new zarr.FetchStore(server.url, { useSuffixRequest: true }), scheduler)).resolve(path), { kind: "array" });
    server.fail(shardOrChunk(path), "cut");
    await expect(zarr.get(arr, selection)).rejects.toThrow();
    server.clearFaults(shardOrChunk(path));
    expect(scheduler.stats()).toMatchObject({ waiting: 0, inFlight: 0 });
    const got = await zarr.get(arr, selection);
    expect(Array.from(got.data)).toEqual(expected(0, 32, 32, 128));
  });
});
