// Coalescing by what bytes cost on the link, against the loopback server
// with a round trip, a cap and a link of a limited rate: once read has
// learnt the link from its own answers, two inner chunks of a shard merge
// into one request where the gap between them costs less than the round
// trip it saves (gap <= round trip x rate), and not where it costs more;
// a merged request holds at most what the link moves in 250 ms (with a
// scheduler, a third of its window). Counted from the server's log: the
// requests and the bytes moved. On main at 4229392 the gap was zarr-python's
// 1 MiB on every link.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createReadScheduler, read, ready, register } from "../../../js/index.js";
import { linkOf } from "../../../js/read/fetch/scheduling/link-estimate.js";
import { selectReference, writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 1024;
// Values that do not compress, each inner chunk of 64 x 64 8 KiB on its own.
const values = Uint16Array.from({ length: side * side }, (_, i) => (Math.imul(i, 2246822519) >>> 16) & 0xffff);
const INNER = 64 * 64 * 2;
const LATENCY_MS = 20;
const RATE = 4e6; // bytes a second
let server;
let store;
let arr;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  // 4 shards of 512 x 512, 64 inner chunks of 64 x 64 each (row-major in the shard).
  writeArray(files, "/a", { values, dataType: "uint16", shape: [side, side], chunkShape: [512, 512], fillValue: 0, fillElement: Uint16Array.of(0), sharding: { chunkShape: [64, 64] } });
  server = await startNetworkServer(files, { latencyMs: LATENCY_MS, maxConcurrent: 6, rateBytesPerSec: RATE });
  store = new zarr.FetchStore(server.url, { useSuffixRequest: true });
  arr = await zarr.open(zarr.root(store).resolve("a"), { kind: "array" });
  // The link learnt from read's own answers (its rate wants 512 KiB of
  // them): shard c/1/1 whole; and every shard's index kept.
  await read(arr, [s(512, 1024), s(512, 1024)]);
  await read(arr, [s(0, 1), null]);
  await read(arr, [s(512, 513), s(0, 1)]);
}, 30_000);
afterAll(() => server?.close());

const s = zarr.slice;
function expected(r0, r1, c0, c1, step = 1) {
  return Array.from(selectReference(values, [side, side], [[r0, r1, 1], [c0, c1, step]]).data);
}
const data = () => server.requests().filter((q) => q.status === 206);
const moved = () => data().reduce((n, q) => n + q.bytes, 0);

test("the link as read learnt it: about the server's round trip and rate", () => {
  const f = linkOf(store).figures();
  expect(f.learnt).toBe(true);
  // The round trip: at least the server's latency, no more than twice it
  // (a store's own overhead on loopback); the rate: at most the link's,
  // and not far below it (the round trips of requests sent while others
  // were on their way count as busy time, so it errs low).
  expect(f.rttMs).toBeGreaterThanOrEqual(LATENCY_MS * 0.9);
  expect(f.rttMs).toBeLessThan(LATENCY_MS * 2);
  expect(f.bytesPerMs * 1000).toBeLessThanOrEqual(RATE * 1.05);
  expect(f.bytesPerMs * 1000).toBeGreaterThan(RATE / 1.5);
  expect(f.gapBytes).toBe(Math.floor(f.rttMs * f.bytesPerMs));
});

test("two inner chunks merge where the gap between them costs less than a round trip, and not where it costs more", async () => {
  const { gapBytes } = linkOf(store).figures();
  // Shard c/0/0's chunks lie back to back in row-major order: chunk 0 and
  // chunk k have k - 1 chunks (of 8 KiB) between them.
  const under = Math.max(1, Math.floor(gapBytes / INNER)); // k - 1 chunks fit the gap
  const over = Math.ceil(gapBytes / INNER) + 2; // k - 1 chunks do not
  expect(over + 1).toBeLessThan(64);
  for (const [between, merges] of [
    [under, true],
    [over, false],
  ]) {
    const k = between + 1;
    const [r, c] = [64 * Math.floor(k / 8), 64 * (k % 8)];
    server.reset();
    // A pixel of each, read in one tick: read coalesces the tick's ranges of a shard.
    const got = await Promise.all([read(arr, [0, 0]), read(arr, [r, c])]);
    expect(got).toEqual([values[0], values[r * side + c]]);
    if (merges) {
      expect(data()).toHaveLength(1);
      expect(moved()).toBe((k + 1) * INNER); // the gap's chunks read through
    } else {
      expect(data()).toHaveLength(2);
      expect(moved()).toBe(2 * INNER); // nothing but the two chunks
    }
  }
});

test("a merged request holds at most what the link moves in 250 ms; with a scheduler, a third of its window", async () => {
  const f = linkOf(store).figures();
  // Shard c/0/1 whole: 64 chunks back to back, 512 KiB.
  server.reset();
  const whole = await read(arr, [s(0, 512), s(512, 1024)]);
  expect(Array.from(whole.data)).toEqual(expected(0, 512, 512, 1024));
  expect(Math.max(...data().map((q) => q.bytes))).toBeLessThanOrEqual(f.answerBytes);
  expect(data()).toHaveLength(Math.ceil((64 * INNER) / Math.floor(f.answerBytes / INNER) / INNER));
  server.reset();
  const scheduled = await read(arr, [s(0, 512), s(512, 1024)], { scheduler: createReadScheduler() });
  expect(Array.from(scheduled.data)).toEqual(expected(0, 512, 512, 1024));
  const third = Math.min(f.answerBytes, f.windowBytes / 3);
  expect(Math.max(...data().map((q) => q.bytes))).toBeLessThanOrEqual(third);
  expect(data().length).toBeGreaterThanOrEqual(Math.ceil((64 * INNER) / third));
}, 30_000);
