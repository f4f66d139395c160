// Servers that answer a range otherwise than asked, behind zarrita's
// FetchStore: one that honours only the start of bytes=a-b and sends
// a..EOF as a 206 (its Content-Range says so), one that sends a 206
// longer than asked, one that sends it shorter, and one that ignores
// Range. read takes an answer as the whole shard only where it verifiably
// is (its index at its place in it, every inner chunk inside it); any other
// answer that is not the range asked is LENGTH_MISMATCH naming the range
// asked and the bytes got. Never another inner chunk's values: on main at
// 4229392 an a..EOF answer was cut at the inner chunks' absolute offsets.
// Through read, read into, a read pool, and zarr.get (which must never
// return wrong values either).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createReadPool, read, ready, register } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { rejectionOf } from "../support/memory-store.js";
import { neverWrong, windowOf } from "../support/read-routes.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 256;
const shape = [side, side];
// Distinct values everywhere: another inner chunk's bytes cannot pass.
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 7 + 11) & 0xffff);
// 4 shards of 128 x 128, 16 inner chunks of 32 x 32 each (2,048 bytes,
// uncompressed), their index (16 entries and a crc32c: 260 bytes) at the
// end or at the start.
const INNER = 32 * 32 * 2;
const INDEX = 16 * 16 + 4;
const SHARD = 16 * INNER + INDEX;
let server;
let pool;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  const common = { values, dataType: "uint16", shape, chunkShape: [128, 128], fillValue: 0, fillElement: Uint16Array.of(0) };
  writeArray(files, "/end", { ...common, sharding: { chunkShape: [32, 32] } });
  writeArray(files, "/start", { ...common, sharding: { chunkShape: [32, 32], indexLocation: "start" } });
  // A shard cut short: its last inner chunk loses 100 bytes (index at the
  // start, which still says where every chunk is), and one whose end, and
  // so its index, is gone.
  writeArray(files, "/cut-start", { ...common, sharding: { chunkShape: [32, 32], indexLocation: "start" } });
  writeArray(files, "/cut-end", { ...common, sharding: { chunkShape: [32, 32] } });
  files.set("/cut-start/c/0/0", files.get("/cut-start/c/0/0").subarray(0, SHARD - 100));
  files.set("/cut-end/c/0/0", files.get("/cut-end/c/0/0").subarray(0, SHARD - 100));
  server = await startNetworkServer(files);
  pool = createReadPool({ workers: 1, inThreadChunks: 0 });
});
afterAll(async () => {
  await pool?.close();
  await server?.close();
});
beforeEach(() => server.configure({ ranges: true, rangeAnswer: "exact" }));

const s = zarr.slice;
const open = (path, options) => zarr.open(zarr.root(new zarr.FetchStore(server.url, options)).resolve(path), { kind: "array" });

const expected = (r0, r1, c0, c1) => windowOf(values, side, r0, r1, c0, c1);


// Every way of reading `selection`, each on a freshly opened array.
const routes = {
  read: async (path, sel, o) => read(await open(path, o), sel),
  "read into": async (path, sel, o) => {
    const arr = await open(path, o);
    return read(arr, sel, { into: new Uint16Array(sel.reduce((n, a) => n * (a.stop - a.start), 1)) });
  },
  "read, uncoalesced": async (path, sel, o) => read(await open(path, o), sel, { coalesce: false }),
  "read pool": async (path, sel, o) => read(await open(path, o), sel, { pool }),
};

describe("a server that sends a..EOF for bytes=a-b", () => {
  beforeEach(() => server.configure({ rangeAnswer: "to-end" }));

  test.each(Object.keys(routes))("%s: an inner chunk after the first is refused, naming the range asked and the bytes got", async (route) => {
    // Inner chunk (0, 1): bytes 2048..4095 of the shard; the server sends 2048..EOF.
    const error = await rejectionOf(routes[route]("end", [s(0, 32), s(32, 64)]));
    expect(error.code).toBe("LENGTH_MISMATCH");
    expect(error.message).toContain("read: shard /end/c/0/0: asked the store for bytes 2048-4095 (2048 bytes)");
    expect(error.message).toContain(`got ${SHARD - 2048} bytes: neither that range nor the whole shard`);
    expect(error.message).toMatch(/Range/);
  });

  test.each(Object.keys(routes))("%s: ranges coalesced into one request are refused the same way", async (route) => {
    // Inner chunks (0, 1) and (0, 2): one request for bytes 2048..6143.
    const error = await rejectionOf(routes[route]("end", [s(0, 32), s(32, 96)]));
    expect(error.code).toBe("LENGTH_MISMATCH");
    const asked = route === "read, uncoalesced" ? /bytes (2048-4095|4096-6143)/ : /bytes 2048-6143 \(4096 bytes\) \(inner chunk [12] among others\)/;
    expect(error.message).toMatch(asked);
  });

  test("the first inner chunk's a..EOF answer is the whole shard, verified: its values are right", async () => {
    // bytes=0-2047 answered with 0..EOF: the index at its end, every chunk inside.
    const got = await read(await open("end"), [s(0, 32), s(0, 32)], { coalesce: false });
    expect(Array.from(got.data)).toEqual(expected(0, 32, 0, 32));
  });

  test("an index at the start answered with the whole shard is taken as the shard: values right, no request after it", async () => {
    const arr = await open("start");
    server.reset();
    const got = await read(arr, [s(0, 128), s(0, 128)]);
    expect(Array.from(got.data)).toEqual(expected(0, 128, 0, 128));
    // (read first looks for the index where most shards have it, the end,
    // then reads the layout from zarr.json: plan/shard-shape.js.)
    const requests = server.requests().filter((r) => r.path === "/start/c/0/0");
    expect(requests.at(-1)).toMatchObject({ range: "bytes=0-259", status: 206, bytes: SHARD });
  });

  test("zarr.get never gives another chunk's values", async () => {
    const arr = await open("end");
    expect(["refused", "right"]).toContain(await neverWrong(zarr.get(arr, [s(0, 32), s(32, 64)]), expected(0, 32, 32, 64)));
  });
});

describe("a server that sends a 206 longer than asked", () => {
  beforeEach(() => server.configure({ rangeAnswer: { extra: 100 } }));

  test.each(Object.keys(routes))("%s: data ranges are refused", async (route) => {
    const error = await rejectionOf(routes[route]("end", [s(32, 64), s(0, 32)]));
    expect(error.code).toBe("LENGTH_MISMATCH");
    // Inner chunk (1, 0) is entry 4: bytes 8192..10239, answered with 2148.
    expect(error.message).toContain("asked the store for bytes 8192-10239 (2048 bytes)");
    expect(error.message).toContain("got 2148 bytes");
  });

  test("an index at the start answered longer is refused: 360 bytes cannot hold the shard its index describes", async () => {
    const error = await rejectionOf(read(await open("start"), [s(0, 32), s(0, 32)]));
    expect(error.code).toBe("LENGTH_MISMATCH");
    expect(error.message).toContain("asked the store for the 260 bytes of its index at its start, and got 360 bytes");
  });

  test("zarr.get never gives wrong values", async () => {
    expect(["refused", "right"]).toContain(await neverWrong(zarr.get(await open("end"), [s(32, 64), s(0, 32)]), expected(32, 64, 0, 32)));
    expect(["refused", "right"]).toContain(await neverWrong(zarr.get(await open("start"), [s(0, 32), s(0, 32)]), expected(0, 32, 0, 32)));
  });
});

describe("a server that sends a 206 shorter than asked", () => {
  // Ranges of inner chunks (2,048 bytes and more) short by 10 bytes.
  beforeEach(() => server.configure({ rangeAnswer: { extra: -10, atLeast: 1000 } }));

  test.each(Object.keys(routes))("%s: a data range is LENGTH_MISMATCH, naming the range and where the answer ended", async (route) => {
    const error = await rejectionOf(routes[route]("start", [s(0, 32), s(32, 64)]));
    expect(error.code).toBe("LENGTH_MISMATCH");
    // Index at the start: inner chunk 1 is bytes 2308..4355.
    expect(error.message).toContain("asked the store for bytes 2308-4355 (2048 bytes), inner chunk 1, and got 2038 bytes: the shard ends at byte 4346, where its index says it holds bytes up to 4356");
  });

  test("an index answered short is LENGTH_MISMATCH naming both lengths", async () => {
    server.configure({ rangeAnswer: { extra: -10 } });
    const error = await rejectionOf(read(await open("start"), [s(0, 32), s(0, 32)]));
    expect(error.code).toBe("LENGTH_MISMATCH");
    expect(error.message).toContain("asked the store for the 260 bytes of its index at its start, and got 250 bytes");
  });
});

describe("a server that ignores Range (the whole object, 200)", () => {
  beforeEach(() => server.configure({ ranges: false }));

  test.each(["end", "start"])("index at the %s: the whole shard verified, values right", async (path) => {
    const got = await read(await open(path), [s(16, 80), s(100, 200)]);
    expect(Array.from(got.data)).toEqual(expected(16, 80, 100, 200));
  });
});

describe("a shard cut short", () => {
  test("with its index at the start: LENGTH_MISMATCH naming where the shard ends and where its index says it goes", async () => {
    // The last inner chunk (3, 3) is entry 15, bytes 260 + 15 * 2048 .. SHARD.
    const error = await rejectionOf(read(await open("cut-start"), [s(96, 128), s(96, 128)]));
    expect(error.code).toBe("LENGTH_MISMATCH");
    expect(error.message).toContain(`the shard ends at byte ${SHARD - 100}, where its index says it holds bytes up to ${SHARD}`);
    // The other inner chunks of the shard still read.
    const got = await read(await open("cut-start"), [s(0, 64), s(0, 64)]);
    expect(Array.from(got.data)).toEqual(expected(0, 64, 0, 64));
  });

  test("with its index at the end (gone with the cut): CHECKSUM_MISMATCH, saying the shard may be cut short", async () => {
    const error = await rejectionOf(read(await open("cut-end"), [s(0, 32), s(0, 32)]));
    expect(error.code).toBe("CHECKSUM_MISMATCH");
    expect(error.message).toMatch(/last 260 bytes are not an intact index: a damaged index, or a shard cut short/);
  });
});
