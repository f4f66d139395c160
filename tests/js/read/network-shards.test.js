// read over HTTP on a sharded store: shard indexes kept per opened array
// and shared by concurrent reads, inner chunks' ranges coalesced, and a
// server that ignores Range. Requests are counted by a real loopback
// server (tests/js/support/network-server.mjs) behind zarrita's FetchStore;
// values are checked against the array written by hand (hand-store.js:
// inner chunks back to back, the index at the end with its crc32c, as
// zarr-python writes shards) and against zarr.get.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "@jest/globals";
import { getEventListeners } from "node:events";
import * as zarr from "zarrita";
import { createReadPool, read, ready, register } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";
import { memoryStore, shard, v3Array } from "../support/memory-store.js";

const side = 512;
const shape = [side, side];
// Values that vary (so inner chunks differ in size) and compress.
const values = Uint16Array.from({ length: side * side }, (_, i) => ((i % side) * 3 + Math.floor(i / side) * 5 + ((i * 2654435761) >>> 28)) & 0xffff);
let server;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  const common = { values, dataType: "uint16", shape, fillValue: 0, fillElement: Uint16Array.of(0), compressors: ["gzip"] };
  // 4 shards of 256 x 256, each 16 inner chunks of 64 x 64.
  writeArray(files, "/sharded", { ...common, chunkShape: [256, 256], sharding: { chunkShape: [64, 64] } });
  writeArray(files, "/plain", { ...common, chunkShape: [64, 64] });
  // A round trip of 10 ms: read merges ranges across the gaps that cost
  // less than a round trip (at the link rate it assumes until it has seen
  // enough bytes to measure one: 50 Mbit/s, a gap of 62 KB).
  server = await startNetworkServer(files, { latencyMs: 10 });
});
afterAll(() => server?.close());
beforeEach(() => server.configure({ ranges: true, suffixRanges: true }));

async function open(path = "sharded") {
  const arr = await zarr.open(zarr.root(new zarr.FetchStore(server.url)).resolve(path), { kind: "array" });
  server.reset();
  return arr;
}

/** The values of rows [r0, r1) and columns [c0, c1), from the array as written. */
function expected(r0, r1, c0, c1) {
  const out = [];
  for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) out.push(values[r * side + c]);
  return out;
}

const s = zarr.slice;
// An index: 16 entries of 16 bytes and a crc32c, at the shard's end
// (FetchStore asks for a suffix in two round trips: a HEAD for the size,
// then the range).
const INDEX_BYTES = 16 * 16 + 4;
const isIndex = (r) => r.method === "HEAD" || (r.status === 206 && r.bytes === INDEX_BYTES);
// read asks for no metadata (network-metadata.test.js); a zarr.json
// request would not count as a shard's here.
const shardRequests = () => server.requests().filter((r) => !r.path.endsWith("zarr.json"));
const indexRequests = () => shardRequests().filter(isIndex);
const dataRequests = () => shardRequests().filter((r) => !isIndex(r));
const shardOf = (r) => r.path.replace(/^\/sharded\//, "");

describe("shard indexes kept", () => {
  test("two concurrent reads of one shard fetch its index once; a second read of the array fetches none", async () => {
    const arr = await open();
    const [a, b] = await Promise.all([read(arr, [s(0, 64), s(0, 64)]), read(arr, [s(128, 192), s(64, 128)])]);
    expect(Array.from(a.data)).toEqual(expected(0, 64, 0, 64));
    expect(Array.from(b.data)).toEqual(expected(128, 192, 64, 128));
    // FetchStore asks for a suffix in two round trips: a HEAD, then the range.
    expect(indexRequests().map((r) => `${r.method} ${shardOf(r)}`)).toEqual(["HEAD c/0/0", "GET c/0/0"]);
    server.reset();
    const c = await read(arr, [s(64, 128), s(192, 256)]);
    expect(Array.from(c.data)).toEqual(expected(64, 128, 192, 256));
    expect(shardRequests().map((r) => `${r.method} ${shardOf(r)} ${r.status}`)).toEqual(["GET c/0/0 206"]);
  });

  test("pooled reads share the array's indexes: with a read on the calling thread, each index once", async () => {
    const pool = createReadPool({ workers: 1, inThreadChunks: 0 });
    try {
      const arr = await open();
      const [pooled, here] = await Promise.all([read(arr, [s(0, 256), s(0, 512)], { pool }), read(arr, [s(0, 64), s(0, 64)])]);
      expect(Array.from(pooled.data)).toEqual(expected(0, 256, 0, 512));
      expect(Array.from(here.data)).toEqual(expected(0, 64, 0, 64));
      expect(indexRequests().map((r) => `${r.method} ${shardOf(r)}`).sort()).toEqual(["GET c/0/0", "GET c/0/1", "HEAD c/0/0", "HEAD c/0/1"]);
      server.reset();
      await read(arr, [s(0, 256), s(0, 512)], { pool });
      expect(indexRequests()).toHaveLength(0);
      expect(dataRequests()).toHaveLength(2);
    } finally {
      await pool.close();
    }
  });

  test("the bound evicts: with room for one index, reading another shard's drops the first", async () => {
    const arr = await open();
    // One index: 16 entries of 16 bytes and a crc32c, and what an entry counts beside it.
    const indexCacheBytes = 16 * 16 + 4 + 64;
    await read(arr, [s(0, 64), s(0, 64)], { indexCacheBytes });
    await read(arr, [s(0, 64), s(256, 320)], { indexCacheBytes });
    server.reset();
    await read(arr, [s(0, 64), s(256, 320)], { indexCacheBytes }); // shard 0/1 kept
    expect(indexRequests()).toHaveLength(0);
    const back = await read(arr, [s(0, 64), s(0, 64)], { indexCacheBytes }); // shard 0/0 dropped
    expect(Array.from(back.data)).toEqual(expected(0, 64, 0, 64));
    expect(indexRequests().map((r) => `${r.method} ${shardOf(r)}`)).toEqual(["HEAD c/0/0", "GET c/0/0"]);
    // 0: none kept past the reads using it.
    server.reset();
    await read(arr, [s(0, 64), s(256, 320)], { indexCacheBytes: 0 });
    await read(arr, [s(0, 64), s(256, 320)], { indexCacheBytes: 0 });
    expect(indexRequests()).toHaveLength(4);
    // A read with a lower bound than the last drops what is past it first.
    await read(arr, [s(0, 64), s(0, 64)]);
    server.reset();
    await read(arr, [s(0, 64), s(0, 64)]);
    expect(indexRequests()).toHaveLength(0);
    await read(arr, [s(0, 64), s(0, 64)], { indexCacheBytes: 0 });
    expect(indexRequests()).toHaveLength(2);
  });

  test("a failed index fetch is not kept: the next read asks again and reads right", async () => {
    const arr = await open();
    server.fail("/sharded/c/1/1", "503");
    // Without retries (a 503 is otherwise tried again: network-retries.test.js).
    await expect(read(arr, [s(300, 310), s(300, 310)], { retry: false })).rejects.toMatchObject({ code: "FETCH_FAILED" });
    server.reset();
    const again = await read(arr, [s(300, 310), s(300, 310)]);
    expect(Array.from(again.data)).toEqual(expected(300, 310, 300, 310));
    expect(indexRequests().map((r) => `${r.method} ${shardOf(r)} ${r.status}`)).toEqual(["HEAD c/1/1 200", "GET c/1/1 206"]);
  });
});

describe("coalesced ranges", () => {
  test("the whole image: at most 3 requests per shard, values equal to zarr.get's", async () => {
    const arr = await open();
    const whole = await read(arr);
    const log = shardRequests();
    for (const shard of ["c/0/0", "c/0/1", "c/1/0", "c/1/1"]) {
      expect(log.filter((r) => shardOf(r) === shard).map((r) => r.method)).toEqual(["HEAD", "GET", "GET"]);
    }
    expect(log).toHaveLength(12);
    expect(Array.from(whole.data)).toEqual(Array.from(values));
    expect(Array.from((await zarr.get(arr)).data)).toEqual(Array.from(values));
  });

  test("a viewport over 4 shards: 3 requests a shard; one tile: zarr.get's 3", async () => {
    const arr = await open();
    const view = await read(arr, [s(128, 384), s(128, 384)]);
    expect(Array.from(view.data)).toEqual(expected(128, 384, 128, 384));
    expect(shardRequests()).toHaveLength(12);
    expect(dataRequests()).toHaveLength(4);
    const fresh = await open();
    await zarr.get(fresh, [s(64, 128), s(64, 128)]);
    const viaGet = server.requests().map((r) => `${r.method} ${r.range}`);
    const tileArr = await open();
    const tile = await read(tileArr, [s(64, 128), s(64, 128)]);
    expect(Array.from(tile.data)).toEqual(expected(64, 128, 64, 128));
    expect(shardRequests().map((r) => `${r.method} ${r.range}`)).toEqual(viaGet);
    expect(viaGet).toHaveLength(3);
  });

  test("16 tiles read at once: the index once, their chunks in one request", async () => {
    const arr = await open();
    const tiles = Array.from({ length: 16 }, (_, i) => [64 * (i >> 2), 64 * (i & 3)]);
    const got = await Promise.all(tiles.map(([r, c]) => read(arr, [s(r, r + 64), s(c, c + 64)])));
    tiles.forEach(([r, c], i) => expect(Array.from(got[i].data)).toEqual(expected(r, r + 64, c, c + 64)));
    expect(indexRequests()).toHaveLength(2);
    expect(dataRequests()).toHaveLength(1);
  });

  test("over-read stays within the gap; coalesce: false and a small maxBytes ask for each chunk", async () => {
    // Inner chunks (0, 0) and (0, 2) of shard 0/0: one chunk between them.
    const selection = [s(0, 1), s(0, 192, 128)];
    const arr = await open();
    await read(arr, [s(0, 1), s(0, 1)]); // the index, kept
    const sizes = [];
    for (const options of [{ coalesce: { maxGapBytes: 0 } }, { coalesce: false }, { coalesce: { maxBytes: 1 } }]) {
      server.reset();
      const got = await read(arr, selection, options);
      expect(Array.from(got.data)).toEqual([values[0], values[128]]);
      expect(dataRequests()).toHaveLength(2);
      sizes.push(dataRequests().reduce((n, r) => n + r.bytes, 0));
    }
    // The chunks alone: the same bytes each way.
    expect(new Set(sizes).size).toBe(1);
    server.reset();
    const got = await read(arr, selection);
    expect(Array.from(got.data)).toEqual([values[0], values[128]]);
    expect(dataRequests()).toHaveLength(1);
    // What was read beyond the two chunks: the one between them, below the gap.
    const over = dataRequests()[0].bytes - sizes[0];
    expect(over).toBeGreaterThan(0);
    expect(over).toBeLessThanOrEqual(1 << 20);
    server.reset();
    await read(arr, selection, { coalesce: { maxGapBytes: over - 1 } });
    expect(dataRequests()).toHaveLength(2);
  });

  test("an unsharded array: one request per chunk, nothing else", async () => {
    const arr = await open("plain");
    const got = await read(arr, [s(32, 160), s(0, 256)]);
    expect(Array.from(got.data)).toEqual(expected(32, 160, 0, 256));
    expect(server.requests().map((r) => `${r.method} ${r.range ?? ""} ${r.status}`)).toEqual(new Array(12).fill("GET  200"));
  });

  test("coalesce and indexCacheBytes are checked", async () => {
    const arr = await open();
    for (const options of [{ coalesce: 5 }, { coalesce: { maxGapBytes: -1 } }, { coalesce: { maxBytes: 1.5 } }, { indexCacheBytes: "1" }]) {
      await expect(read(arr, [0, 0], options)).rejects.toMatchObject({ code: "INVALID_INPUT" });
    }
    expect(server.requests()).toHaveLength(0);
  });
});

describe("aborting one of the reads sharing a request", () => {
  test("the other read gets its values; the aborted one its reason", async () => {
    const arr = await open();
    await read(arr, [0, 0]); // shard 0/0's index, kept
    server.configure({ latencyMs: 40 });
    try {
      server.reset();
      const a = new AbortController();
      const b = new AbortController();
      const first = read(arr, [s(0, 64), s(0, 64)], { signal: a.signal });
      const second = read(arr, [s(0, 64), s(64, 128)], { signal: b.signal });
      setTimeout(() => a.abort(new Error("panned away")), 10);
      await expect(first).rejects.toThrow("panned away");
      expect(Array.from((await second).data)).toEqual(expected(0, 64, 64, 128));
      // Both chunks were one request, which the second read kept.
      expect(dataRequests()).toHaveLength(1);
    } finally {
      server.configure({ latencyMs: 0 });
    }
  });

  test("a signal a viewer keeps for many reads gathers no listeners from the requests they shared", async () => {
    const arr = await open();
    const session = new AbortController();
    for (let i = 0; i < 12; i++) {
      const tile = new AbortController();
      // Neighbouring inner chunks of one shard, in the same tick: one request.
      await Promise.all([
        read(arr, [s(0, 64), s(0, 64)], { signal: session.signal }),
        read(arr, [s(0, 64), s(64, 128)], { signal: tile.signal }),
      ]);
    }
    expect(getEventListeners(session.signal, "abort")).toHaveLength(0);
  });
});

describe("a server that ignores Range (python3 -m http.server)", () => {
  test("read takes each shard once, whole, and reads right", async () => {
    server.configure({ ranges: false });
    const arr = await open();
    const got = await read(arr, [s(0, 300), s(100, 400)]);
    expect(Array.from(got.data)).toEqual(expected(0, 300, 100, 400));
    // Per shard: FetchStore's HEAD, then the GET answered 200 with the whole shard.
    expect(shardRequests().map((r) => `${r.method} ${shardOf(r)} ${r.status}`).sort()).toEqual(
      ["c/0/0", "c/0/1", "c/1/0", "c/1/1"].flatMap((k) => [`GET ${k} 200`, `HEAD ${k} 200`]).sort(),
    );
    server.reset();
    const tile = await read(arr, [s(64, 128), s(64, 128)]);
    expect(Array.from(tile.data)).toEqual(expected(64, 128, 64, 128));
    expect(server.requests()).toHaveLength(0); // the shard kept with its index
  });

  test("zarrita alone, on the same server, does not give the values (what read is compared with)", async () => {
    server.configure({ ranges: false });
    const arr = await open();
    const outcome = await zarr.get(arr, [s(64, 128), s(64, 128)]).then(
      (got) => (Array.from(got.data).every((v, i) => v === expected(64, 128, 64, 128)[i]) ? "right" : "wrong values"),
      (error) => `refused: ${error?.message}`,
    );
    expect(outcome).not.toBe("right");
  });

  test("only offset ranges ignored: inner chunks sliced from the whole shard", async () => {
    // The index comes as asked; the chunks' ranges come back whole.
    const arr = await open();
    await read(arr, [0, 0]);
    server.configure({ ranges: false, suffixRanges: true });
    const got = await read(arr, [s(0, 128), s(0, 128)]);
    expect(Array.from(got.data)).toEqual(expected(0, 128, 0, 128));
  });
});

test("inner chunks zarrita decodes (strings) fetched in one request each get bytes of their own", async () => {
  // Found by the read fuzzer: vlen-utf8 as zarrita decodes it reads a
  // chunk's buffer from its start, so views of one coalesced request gave
  // every inner chunk the first one's strings.
  const vlen = (...strings) => {
    const parts = strings.map((t) => new TextEncoder().encode(t));
    const out = new DataView(new ArrayBuffer(4 + parts.reduce((n, p) => n + 4 + p.length, 0)));
    out.setUint32(0, parts.length, true);
    let at = 4;
    for (const p of parts) {
      out.setUint32(at, p.length, true);
      new Uint8Array(out.buffer).set(p, at + 4);
      at += 4 + p.length;
    }
    return new Uint8Array(out.buffer);
  };
  const store = memoryStore([
    ["/t/zarr.json", v3Array({
      shape: [4], data_type: "string", fill_value: "", chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
      codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [2], codecs: [{ name: "vlen-utf8", configuration: {} }], index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }] } }],
    })],
    ["/t/c/0", shard([vlen("ab", "c"), vlen("def", "")])],
  ]);
  const arr = await zarr.open(zarr.root(store).resolve("t"), { kind: "array" });
  expect(Array.from((await read(arr)).data)).toEqual(["ab", "c", "def", ""]);
});
