// What the network benchmarks (bench/network.mjs, bench/network-browser.mjs)
// read from the loopback server's log: the requests each round made, the
// most times one shard's index was fetched, and the round trips waited
// for in a row ("waves"). Checked on logs worked out by hand, and on the
// real server: a request sent after another was answered starts after it
// in the log (startMs, endMs), the order the waves are counted from.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { criticalPath, logFacts } from "../../../bench/network-cases.mjs";
import { startNetworkServer } from "../support/network-server.mjs";

const SHARD = "/image.zarr/sharded/c/0/0";
const OTHER = "/image.zarr/sharded/c/0/1";
const sizes = new Map([
  [SHARD, 1000],
  [OTHER, 2000],
]);
const sizeOf = (path) => sizes.get(path);
const entry = (method, path, range, bytes, startMs, endMs) => ({ method, path, range, status: 206, bytes, startMs, endMs });

test("logFacts: requests, bytes, and an index counted where a GET reaches the shard's last byte or is a suffix range", () => {
  const log = [
    entry("GET", "/image.zarr/sharded/zarr.json", undefined, 500, 0, 1),
    entry("HEAD", SHARD, undefined, 0, 1, 2),
    entry("GET", SHARD, "bytes=972-999", 28, 2, 3), // the index, by offset
    entry("GET", SHARD, "bytes=0-99", 100, 3, 4), // an inner chunk
    entry("GET", SHARD, "bytes=-28", 28, 4, 5), // the index again, by suffix
    entry("GET", OTHER, "bytes=1972-1999", 28, 5, 6), // the other shard's index
    entry("GET", OTHER, "bytes=1000-1999", 1000, 6, 7), // a range to its end that is not only the index counts too
  ];
  expect(logFacts(log, sizeOf)).toEqual({ requests: 7, bytes: 500 + 28 + 100 + 28 + 28 + 1000, indexFetches: 2 });
  expect(logFacts([], sizeOf)).toEqual({ requests: 0, bytes: 0, indexFetches: 0 });
});

test("criticalPath: a request's wave is one more than the latest among those answered before it was sent", () => {
  // zarr.json; then HEAD of two shards at once; then one index; then two
  // chunks, one sent before the index answered (the same wave as it).
  const log = [
    entry("GET", "/z", undefined, 0, 10, 35),
    entry("HEAD", SHARD, undefined, 0, 36, 61),
    entry("HEAD", OTHER, undefined, 0, 37, 62),
    entry("GET", SHARD, "bytes=972-999", 0, 63, 88),
    entry("GET", OTHER, "bytes=0-9", 0, 70, 95),
    entry("GET", SHARD, "bytes=0-99", 0, 90, 120),
  ];
  const path = criticalPath(log, 5, 130);
  expect(path.waves).toBe(4);
  expect(path.sorted.map((e, i) => `${e.startMs}:${path.waveOf[i]}`)).toEqual(["10:1", "36:2", "37:2", "63:3", "70:3", "90:4"]);
  expect(path.lastAnswerMs).toBe(115);
  expect(path.afterMs).toBe(15);
});

let server;
beforeAll(async () => {
  server = await startNetworkServer(new Map([[SHARD, new Uint8Array(1000)]]), { latencyMs: 5 });
});
afterAll(async () => {
  await server?.close();
});

test("the server's log: each request's arrival and answer, one after the other for requests sent one after the other", async () => {
  server.reset();
  await (await fetch(`${server.url}${SHARD}`, { method: "HEAD" })).arrayBuffer();
  await (await fetch(`${server.url}${SHARD}`, { headers: { range: "bytes=972-999" } })).arrayBuffer();
  const [head, get] = server.requests();
  expect([head.method, get.method, get.range, get.bytes]).toEqual(["HEAD", "GET", "bytes=972-999", 28]);
  for (const e of [head, get]) expect(e.endMs).toBeGreaterThanOrEqual(e.startMs);
  expect(get.startMs).toBeGreaterThanOrEqual(head.endMs);
  expect(criticalPath([head, get], head.startMs, 0).waves).toBe(2);
  expect(logFacts([head, get], (p) => (p === SHARD ? 1000 : undefined))).toEqual({ requests: 2, bytes: 28, indexFetches: 1 });
});
