// A shard cut short so that an inner chunk its index places lies wholly
// past the shard's end: its range starts past the end of the object, and
// a server answers 416 (Range Not Satisfiable: RFC 9110, what nginx, Caddy,
// S3 and this package's test server send). zarrita's FetchStore throws a
// plain "Unexpected response status 416 Range Not Satisfiable". read calls
// a range that is cut short LENGTH_MISMATCH, naming the range and where
// its index says the shard goes (network-range-answers.test.js); a range
// wholly past the end is the same truncated shard and must say so too,
// with the package's error, not the store's bare status. Through read,
// read into, uncoalesced, a pool and a chunk cache, with and without a
// scheduler; the array's other shards read right afterwards.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createReadPool, createReadScheduler, ready, register } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { windowOf, readRoutes, withAndWithoutScheduler } from "../support/read-routes.js";
import { rejectionOf } from "../support/expect-error.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 256;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 9 + 2) & 0xffff);
// 4 shards of 128 x 128, 16 uncompressed inner chunks of 32 x 32 (2,048
// bytes), the index (16 entries and a crc32c: 260 bytes) at the start.
const INNER = 2048;
const INDEX = 16 * 16 + 4;
const SHARD = INDEX + 16 * INNER;
let server;
let pool;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  writeArray(files, "/a", { values, dataType: "uint16", shape: [side, side], chunkShape: [128, 128], fillValue: 0, fillElement: Uint16Array.of(0), sharding: { chunkShape: [32, 32], indexLocation: "start" } });
  // Shard c/0/1 loses its last 3,000 bytes: its last inner chunk (bytes
  // SHARD - 2048 .. SHARD) starts past its new end.
  files.set("/a/c/0/1", files.get("/a/c/0/1").subarray(0, SHARD - 3000));
  server = await startNetworkServer(files);
  pool = createReadPool({ workers: 1, inThreadChunks: 0 });
});
afterAll(async () => {
  await pool?.close();
  await server?.close();
});

const s = zarr.slice;
const expected = (r0, r1, c0, c1) => windowOf(values, side, r0, r1, c0, c1);
const routes = readRoutes(() => pool);
const cases = withAndWithoutScheduler(routes);

describe("an inner chunk wholly past the end of its shard (the server answers 416)", () => {
  test.each(cases)("%s (scheduler: %s): LENGTH_MISMATCH naming the range asked and the truncated shard", async (route, scheduled) => {
    const arr = await zarr.open(zarr.root(new zarr.FetchStore(server.url)).resolve("a"), { kind: "array" });
    const options = scheduled ? { scheduler: createReadScheduler({ maxRequests: 2 }) } : {};
    // Inner chunk (3, 3) of shard c/0/1: array rows 96..128, columns 224..256.
    const error = await rejectionOf(routes[route](arr, [s(96, 128), s(224, 256)], options));
    expect(error?.code).toBe("LENGTH_MISMATCH");
    expect(error.message).toContain(`read: shard /a/c/0/1: asked the store for bytes ${SHARD - INNER}-${SHARD - 1} (${INNER} bytes)`);
    expect(error.message).toMatch(/416/);
    // The rest of the array reads right.
    const other = await routes[route](arr, [s(128, 160), s(128, 160)], options);
    expect(Array.from(other.data)).toEqual(expected(128, 160, 128, 160));
  });
});
