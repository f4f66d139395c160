// Reads with a scheduler that share one store call: a shard's index, or a
// chunk a chunk cache fetches once for every read that wants it.
//
// - One read's priority function that throws fails that read (docs/read.md:
//   "fails the read's waiting requests with CALLBACK_FAILED; the scheduler
//   goes on for the others"), not the other reads waiting on the same call:
//   requests/store-requests.js StoreCall.priority asks every requester's
//   priority, and the first that throws drops the call for all of them.
// - A read that joins a cached chunk's request while it waits lends it its
//   priority, as a read that joins a shard's index does ("a shard's index
//   is sent at the priority of the highest read waiting on it"): the
//   cache's request carries only the first read's priority, so a tile asked
//   for the view at a high priority waits behind the prefetch ring that
//   asked for it first.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createChunkCache, createReadScheduler, read, ready, register } from "../../../js/index.js";
import { selectReference, writeArray } from "../support/hand-store.js";
import { memoryStore } from "../support/memory-store.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 256;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 5 + 1) & 0xffff);
const files = new Map();
let server;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const common = { values, dataType: "uint16", shape: [side, side], fillValue: 0, fillElement: Uint16Array.of(0) };
  writeArray(files, "/s", { ...common, chunkShape: [128, 128], sharding: { chunkShape: [32, 32] } });
  writeArray(files, "/plain", { ...common, chunkShape: [64, 64] });
  server = await startNetworkServer(files, { latencyMs: 5 });
});
afterAll(() => server?.close());

const s = zarr.slice;
function expected(r0, r1, c0, c1) {
  return Array.from(selectReference(values, [side, side], [[r0, r1, 1], [c0, c1, 1]]).data);
}
const gone = () => {
  throw new Error("tile gone");
};

describe("a read's priority that throws fails no other read", () => {
  test("two reads waiting on one shard's index: the one whose priority throws fails, the other gets its values", async () => {
    const arr = await zarr.open(zarr.root(memoryStore([...files])).resolve("s"), { kind: "array" });
    await read(arr, [s(200, 201), s(200, 201)]); // the plan made; shard c/0/0's index not yet kept
    const scheduler = createReadScheduler({ maxRequests: 1 });
    const [failing, other] = await Promise.allSettled([
      read(arr, [s(0, 32), s(0, 32)], { scheduler, priority: gone }),
      read(arr, [s(32, 64), s(32, 64)], { scheduler }),
    ]);
    expect(failing).toMatchObject({ status: "rejected", reason: { code: "CALLBACK_FAILED" } });
    expect(other.status).toBe("fulfilled");
    expect(Array.from(other.value.data)).toEqual(expected(32, 64, 32, 64));
  });

  test("two reads of one chunk through a chunk cache: the one whose priority throws fails, the other gets its values", async () => {
    const arr = await zarr.open(zarr.root(memoryStore([...files])).resolve("plain"), { kind: "array" });
    await read(arr, [s(200, 201), s(200, 201)]);
    const scheduler = createReadScheduler({ maxRequests: 1 });
    const cache = createChunkCache();
    const [failing, other] = await Promise.allSettled([
      read(arr, [s(0, 64), s(0, 64)], { scheduler, cache, priority: gone }),
      read(arr, [s(0, 64), s(0, 64)], { scheduler, cache }),
    ]);
    expect(failing).toMatchObject({ status: "rejected", reason: { code: "CALLBACK_FAILED" } });
    expect(other.status).toBe("fulfilled");
    expect(Array.from(other.value.data)).toEqual(expected(0, 64, 0, 64));
  });
});

test("a read that joins a cached chunk's waiting request lends it its priority: the visible tile goes before the prefetch ring", async () => {
  const arr = await zarr.open(zarr.root(new zarr.FetchStore(server.url)).resolve("plain"), { kind: "array" });
  await read(arr, [s(0, 1), s(0, 1)]); // the plan made
  server.reset();
  const scheduler = createReadScheduler({ maxRequests: 1 });
  const cache = createChunkCache();
  const tile = (r, c) => [s(64 * r, 64 * r + 64), s(64 * c, 64 * c + 64)];
  // The prefetch ring at -10, its first request held at the server.
  server.stall("/plain/c/3/3");
  const ringTiles = [[3, 3], [0, 1], [0, 2], [0, 3], [1, 0], [2, 0], [3, 0]];
  const ring = ringTiles.map(([r, c]) => read(arr, tile(r, c), { scheduler, cache, priority: -10 }));
  while (server.requests().length === 0) await new Promise((r) => setTimeout(r, 1));
  // Tile (3, 0) of the ring comes into view: asked again at 10, same cache.
  const visible = read(arr, tile(3, 0), { scheduler, cache, priority: 10 });
  await new Promise((r) => setTimeout(r, 20));
  server.release();
  const [got] = await Promise.all([visible, ...ring]);
  expect(Array.from(got.data)).toEqual(expected(192, 256, 0, 64));
  // Sent right after the request on its way, before the ring's others.
  expect(server.requests().map((q) => q.path).slice(0, 2)).toEqual(["/plain/c/3/3", "/plain/c/3/0"]);
});
