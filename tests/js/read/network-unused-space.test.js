// Shards with unused space before their index, which the sharding spec
// allows ("inner chunks are written successively in a shard, where unused
// space between them is allowed, followed by an index": an inner chunk
// replaced in place by a smaller one, or the spec's "other formats" whose
// own bytes follow the data), served by a server that honours only the
// start of bytes=a-b and sends a..EOF as a 206.
//
// Such an answer ends with the shard's index and, where the unused space
// is at least a, holds as many bytes as the index's data needs: it passes
// shard-reader.js holdsShard (the index at its place, every inner chunk
// inside), and on main before this test was cut at the inner chunks'
// absolute offsets as if it were the whole shard, a bytes further on:
// another inner chunk's values, no error. By its bytes alone it may be the
// whole shard or a..EOF: read asks for the whole object without Range
// (which either server answers with the whole shard), verifies it, keeps
// it with the index, and cuts the chunks from it: the values as written.
// Through read, read into, uncoalesced, a pool and a chunk cache, with and
// without a scheduler, and zarr.get through withScheduler (which may
// refuse, never give other values); the array's other shards read right
// afterwards.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createReadPool, createReadScheduler, ready, register, withScheduler } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { neverWrong, readRoutes, windowOf, withAndWithoutScheduler } from "../support/read-routes.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 256;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 7 + 11) & 0xffff);
// 4 shards of 128 x 128, 16 uncompressed inner chunks of 32 x 32 (2,048
// bytes) each, the index (16 entries and a crc32c) at the end.
const INNER = 32 * 32 * 2;
const INDEX = 16 * 16 + 4;
// Unused space between the last inner chunk and the index.
const UNUSED = 4 * INNER;
let server;
let pool;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  writeArray(files, "/a", { values, dataType: "uint16", shape: [side, side], chunkShape: [128, 128], fillValue: 0, fillElement: Uint16Array.of(0), sharding: { chunkShape: [32, 32] } });
  // Shard c/0/0 with unused space before its index: offsets unchanged.
  const packed = files.get("/a/c/0/0");
  const spaced = new Uint8Array(packed.length + UNUSED);
  spaced.set(packed.subarray(0, packed.length - INDEX));
  spaced.set(packed.subarray(packed.length - INDEX), packed.length - INDEX + UNUSED);
  files.set("/a/c/0/0", spaced);
  server = await startNetworkServer(files, { rangeAnswer: "to-end" });
  pool = createReadPool({ workers: 1, inThreadChunks: 0 });
});
afterAll(async () => {
  await pool?.close();
  await server?.close();
});

const s = zarr.slice;
const open = () => zarr.open(zarr.root(new zarr.FetchStore(server.url)).resolve("a"), { kind: "array" });

const expected = (r0, r1, c0, c1) => windowOf(values, side, r0, r1, c0, c1);


const routes = readRoutes(() => pool);
const cases = withAndWithoutScheduler(routes);

describe("a server that sends a..EOF for bytes=a-b, on a shard with unused space before its index", () => {
  test.each(cases)("%s (scheduler: %s): inner chunk (0, 1) reads right, from the whole shard asked for without Range, never inner chunk (0, 2)'s values", async (route, scheduled) => {
    const arr = await open();
    const options = scheduled ? { scheduler: createReadScheduler({ maxRequests: 2 }) } : {};
    server.reset();
    // Inner chunk (0, 1): bytes 2048..4095; the server sends 2048..EOF,
    // which ends with the index and holds 2048 + 4 x 2048 bytes past the data.
    const got = await routes[route](arr, [s(0, 32), s(32, 64)], options);
    expect(Array.from(got.data)).toEqual(expected(0, 32, 32, 64));
    // The whole shard, asked for once without Range, kept: another chunk of it asks for nothing.
    const whole = () => server.requests().filter((q) => q.path === "/a/c/0/0" && q.method === "GET" && q.range === undefined);
    expect(whole()).toHaveLength(1);
    const before = server.requests().length;
    const again = await routes[route](arr, [s(32, 64), s(64, 96)], options);
    expect(Array.from(again.data)).toEqual(expected(32, 64, 64, 96));
    if (route !== "chunk cache") expect(server.requests().slice(before).filter((q) => q.path === "/a/c/0/0")).toEqual([]);
    // The rest of the array still reads: inner chunk (0, 0) of shard
    // c/1/1, whose a..EOF answer is that whole shard.
    const other = await routes[route](arr, [s(128, 160), s(128, 160)], options);
    expect(Array.from(other.data)).toEqual(expected(128, 160, 128, 160));
  });

  test("zarr.get through withScheduler never gives another chunk's values", async () => {
    const store = withScheduler(new zarr.FetchStore(server.url), createReadScheduler());
    const arr = await zarr.open(zarr.root(store).resolve("a"), { kind: "array" });
    expect(["refused", "right"]).toContain(await neverWrong(zarr.get(arr, [s(0, 32), s(32, 64)]), expected(0, 32, 32, 64)));
  });
});
