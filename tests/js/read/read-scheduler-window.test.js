// What a late high-priority request waits behind, on a link of a limited
// rate (the loopback server's shared link): a low-priority read of three
// shards is on its way when a high-priority tile of a fourth is asked for.
// The scheduler keeps each link's answers on their way within its window
// (four round trips' worth, at least 768 KiB: read-scheduler.js,
// link-estimate.js), so, from the server's log: the low requests already
// at the server when the tile is asked hold at most a window of bytes; no
// low request arrives after the tile's were asked until the tile's have
// (nothing of lower priority starts meanwhile); and the tile's values are
// right. Without a scheduler the tile's requests would wait behind all
// three shards.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createReadScheduler, read, ready, register } from "../../../js/index.js";
import { linkOf } from "../../../js/read/fetch/scheduling/link-estimate.js";
import { selectReference, writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 1024;
// Values that do not compress: 2 MiB a shard of 512 x 512 uint16.
const values = Uint16Array.from({ length: side * side }, (_, i) => (Math.imul(i, 2654435761) >>> 16) & 0xffff);
let server;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  // 4 shards of 512 x 512, 64 inner chunks of 64 x 64 (8 KiB) each.
  writeArray(files, "/a", { values, dataType: "uint16", shape: [side, side], chunkShape: [512, 512], fillValue: 0, fillElement: Uint16Array.of(0), sharding: { chunkShape: [64, 64] } });
  // 10 ms a round trip, a link of 16 MB/s shared by every answer.
  server = await startNetworkServer(files, { latencyMs: 10, rateBytesPerSec: 16e6 });
});
afterAll(() => server?.close());

const s = zarr.slice;
function expected(r0, r1, c0, c1) {
  return Array.from(selectReference(values, [side, side], [[r0, r1, 1], [c0, c1, 1]]).data);
}

test("a late high-priority tile waits behind at most a window of low-priority bytes, and nothing low starts meanwhile", async () => {
  const store = new zarr.FetchStore(server.url, { useSuffixRequest: true });
  const arr = await zarr.open(zarr.root(store).resolve("a"), { kind: "array" });
  // The link learnt (its rate needs 512 KiB of answers): shards c/1/0 and
  // c/1/1, their indexes kept.
  await read(arr, [s(512, 1024), null]);
  const { windowBytes, learnt } = linkOf(store).figures();
  expect(learnt).toBe(true);
  const scheduler = createReadScheduler({ maxRequests: 6 });
  server.reset();
  const t0 = performance.now();
  // Three shards (6 MiB) at a low priority, uncoalesced: 192 requests of 8 KiB.
  const low = read(arr, [s(0, 1024), s(0, 512)], { scheduler, priority: -1, coalesce: false }).then(() => ({ lowFrom: t0 }));
  const lowTop = read(arr, [s(0, 512), s(512, 1024)], { scheduler, priority: -1, coalesce: false });
  // Once the low reads are well on their way (40 answers in, and some on
  // the link now), a tile of shard c/1/1 at a high priority.
  const sending = () => server.requests().some((q) => q.firstByteMs !== undefined && q.endMs <= q.startMs);
  while (server.requests().filter((q) => q.status === 206 && q.endMs > q.startMs).length < 40 || !sending()) await new Promise((r) => setTimeout(r, 1));
  const asked = performance.now();
  const tile = await read(arr, [s(960, 1024), s(960, 1024)], { scheduler, priority: 10, coalesce: false });
  const done = performance.now();
  expect(Array.from(tile.data)).toEqual(expected(960, 1024, 960, 1024));
  await Promise.all([low, lowTop]);
  const log = server.requests();
  const isTile = (q) => q.path === "/a/c/1/1";
  const tileRequests = log.filter(isTile);
  expect(tileRequests).toHaveLength(1);
  const [tileRequest] = tileRequests;
  // The low answers on their way when the tile was asked: at most a
  // window. On this link (10 ms, 16 MB/s) four round trips are 640 KB, so
  // the window is its floor, 768 KiB (what the scheduler measured: close).
  const onTheirWay = log.filter((q) => !isTile(q) && q.startMs < asked && q.endMs > asked);
  const waitedBehind = onTheirWay.reduce((n, q) => n + q.bytes, 0);
  expect(waitedBehind).toBeGreaterThan(0);
  expect(windowBytes).toBeLessThanOrEqual(1 << 20);
  expect(waitedBehind).toBeLessThanOrEqual(768 << 10);
  // Nothing low arrived between the tile's asking (a turn after: those
  // granted just before may still be on the wire) and the tile's arrival.
  const startedMeanwhile = log.filter((q) => !isTile(q) && q.startMs > asked + 2 && q.startMs < tileRequest.startMs);
  expect(startedMeanwhile).toEqual([]);
  // The low reads went on after the tile, and read right (checked by read itself against their length).
  expect(log.filter((q) => !isTile(q) && q.startMs > tileRequest.startMs).length).toBeGreaterThan(0);
  // For the record in a failure's message: how long the tile took.
  expect(done - asked).toBeGreaterThan(0);
}, 30_000);
