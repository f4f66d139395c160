// A server (or a cache in front of one) that answers bytes=a-b with a 206
// of the same length from another place, its Content-Range saying so.
// zarrita's FetchStore gives read the bytes only, never Content-Range
// (docs/read.md, "Over a network"), so an answer of the right length is
// judged by what it holds: where inner chunks carry a crc32c (a
// bytes -> bytes codec of their chain), bytes from elsewhere fail it, and
// read refuses with CHECKSUM_MISMATCH on every path, with and without a
// scheduler. (Two cases no reader that sees bytes alone can tell: an answer
// shifted by exactly whole inner chunks of one size, which holds another
// inner chunk with its own valid crc32c; and any shift where chunks carry
// no checksum and the bytes decode. Both give the other bytes' values.)
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createReadPool, createReadScheduler, ready, register } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { readRoutes, withAndWithoutScheduler } from "../support/read-routes.js";
import { rejectionOf } from "../support/expect-error.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 256;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 13 + 1) & 0xffff);
let server;
let pool;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  writeArray(files, "/a", { values, dataType: "uint16", shape: [side, side], chunkShape: [128, 128], fillValue: 0, fillElement: Uint16Array.of(0), compressors: ["crc32c"], sharding: { chunkShape: [32, 32] } });
  // Ranges of inner chunks (2,052 bytes with their crc32c) answered from
  // 100 bytes further on; the index (a suffix of 260 bytes) as asked.
  server = await startNetworkServer(files, { rangeAnswer: { shift: 100, atLeast: 1000 } });
  pool = createReadPool({ workers: 1, inThreadChunks: 0 });
});
afterAll(async () => {
  await pool?.close();
  await server?.close();
});

const s = zarr.slice;
const routes = readRoutes(() => pool);
const cases = withAndWithoutScheduler(routes);

test.each(cases)("%s (scheduler: %s): an inner chunk answered with bytes from 100 bytes on is CHECKSUM_MISMATCH, never values", async (route, scheduled) => {
  const arr = await zarr.open(zarr.root(new zarr.FetchStore(server.url, { useSuffixRequest: true })).resolve("a"), { kind: "array" });
  const options = scheduled ? { scheduler: createReadScheduler({ maxRequests: 2 }) } : {};
  const error = await rejectionOf(routes[route](arr, [s(0, 32), s(32, 64)], options));
  expect(error?.code).toBe("CHECKSUM_MISMATCH");
  expect(error.message).toContain("inner chunk (0, 1) of shard c/0/0");
});
