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
// inside) and is cut at the inner chunks' absolute offsets as if it were
// the whole shard, a bytes further on. An answer that could be a..EOF is
// the whole shard only where its length is the shard's; else it must be
// LENGTH_MISMATCH naming the range asked and the bytes got, as for shards
// without unused space (network-range-answers.test.js). Through read, read
// into, uncoalesced, a pool and a chunk cache, with and without a
// scheduler, and zarr.get through withScheduler (which may refuse, never
// give other values); the array's other shards read right afterwards.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createChunkCache, createReadPool, createReadScheduler, read, ready, register, withScheduler } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
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

function expected(r0, r1, c0, c1) {
  const out = [];
  for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) out.push(values[r * side + c]);
  return out;
}

// The package's error, unwrapped from zarrita's own where it wraps it.
async function failure(promise) {
  let got;
  try {
    got = await promise;
  } catch (e) {
    let error = e;
    while (error && error.name !== "ZarrCodecError" && error.cause) error = error.cause;
    return error;
  }
  // What came back instead: how many values differ from the array's.
  const want = expected(0, 32, 32, 64);
  const wrong = Array.from(got.data).filter((v, i) => v !== want[i]).length;
  return { code: `no error; ${wrong} of ${want.length} values wrong` };
}

const routes = {
  read: (arr, sel, o) => read(arr, sel, o),
  "read into": (arr, sel, o) => read(arr, sel, { ...o, into: new Uint16Array(32 * 32) }),
  "read, uncoalesced": (arr, sel, o) => read(arr, sel, { ...o, coalesce: false }),
  "read pool": (arr, sel, o) => read(arr, sel, { ...o, pool }),
  "chunk cache": (arr, sel, o) => read(arr, sel, { ...o, cache: createChunkCache() }),
};
const cases = Object.keys(routes).flatMap((route) => [[route, false], [route, true]]);

describe("a server that sends a..EOF for bytes=a-b, on a shard with unused space before its index", () => {
  test.each(cases)("%s (scheduler: %s): inner chunk (0, 1) is refused as LENGTH_MISMATCH, never inner chunk (0, 2)'s values", async (route, scheduled) => {
    const arr = await open();
    const options = scheduled ? { scheduler: createReadScheduler({ maxRequests: 2 }) } : {};
    // Inner chunk (0, 1): bytes 2048..4095; the server sends 2048..EOF,
    // which ends with the index and holds 2048 + 4 x 2048 bytes past the data.
    const error = await failure(routes[route](arr, [s(0, 32), s(32, 64)], options));
    expect(error.code).toBe("LENGTH_MISMATCH");
    expect(error.message).toContain("read: shard /a/c/0/0: asked the store for bytes 2048-4095 (2048 bytes)");
    // The rest of the array still reads: inner chunk (0, 0) of shard
    // c/1/1, whose a..EOF answer is that whole shard.
    const other = await routes[route](arr, [s(128, 160), s(128, 160)], options);
    expect(Array.from(other.data)).toEqual(expected(128, 160, 128, 160));
  });

  test("zarr.get through withScheduler never gives another chunk's values", async () => {
    const store = withScheduler(new zarr.FetchStore(server.url), createReadScheduler());
    const arr = await zarr.open(zarr.root(store).resolve("a"), { kind: "array" });
    let got;
    try {
      got = await zarr.get(arr, [s(0, 32), s(32, 64)]);
    } catch {
      return; // refused: right
    }
    expect(Array.from(got.data)).toEqual(expected(0, 32, 32, 64));
  });
});
