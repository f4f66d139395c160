// read's chunk cache (createChunkCache, read's `cache` option) over HTTP:
// requests counted by a real loopback server (tests/js/support/network-server.mjs)
// behind zarrita's FetchStore, values checked against the arrays as written
// by hand (hand-store.js: every chunk encoded by the tests' references) and
// against zarr.get.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createChunkCache, createReadPool, diagnostics, read, ready, register } from "../../../js/index.js";
import { expectCodecError, expectCodecRejection } from "../support/expect-error.js";
import { writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";
import { swapGroups } from "../support/reference.js";
import { vlenBytesEncodeReference } from "../support/vlen-bytes-reference.js";

const side = 256;
const shape = [side, side];
const CHUNK = 64;
// Values that vary (so chunks differ) and compress.
const values = Uint16Array.from({ length: side * side }, (_, i) => ((i % side) * 3 + Math.floor(i / side) * 5 + ((i * 2654435761) >>> 28)) & 0xffff);
// A chunk decoded whole: 64 x 64 uint16, and what an entry counts beside it.
const CHUNK_ENTRY = CHUNK * CHUNK * 2 + 64;
const encoder = new TextEncoder();
const strings = ["a", "", "😀x", "naïve", "z\u0000y", "end", "7", "ok"];
let server;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  const common = { values, dataType: "uint16", shape, fillValue: 7, fillElement: Uint16Array.of(7), chunkShape: [CHUNK, CHUNK] };
  // Read's paths: gzip then copied (the chain in wasm), big-endian bytes
  // decoded by the package's codec, sharded, and with chunks missing.
  writeArray(files, "/plain", { ...common, compressors: ["gzip"] });
  writeArray(files, "/big", { ...common, arrayToBytes: { name: "bytes", endian: "big" } });
  writeArray(files, "/sharded", { ...common, chunkShape: [128, 128], sharding: { chunkShape: [CHUNK, CHUNK] }, compressors: ["gzip"] });
  writeArray(files, "/sparse", { ...common, missing: ([r, c]) => (r + c) % 2 === 1 });
  // Chunks stored transposed (read places them from their storage order).
  writeArray(files, "/transposed", { ...common, order: [1, 0], compressors: ["gzip"] });
  // Zarr v2, ">u2": big-endian bytes, no compressor.
  files.set("/v2be/.zarray", encoder.encode(JSON.stringify({
    zarr_format: 2, shape, chunks: [CHUNK, CHUNK], dtype: ">u2", compressor: null, filters: null, fill_value: 7, order: "C",
  })));
  for (let r = 0; r < side / CHUNK; r++) {
    for (let c = 0; c < side / CHUNK; c++) {
      const chunk = new Uint16Array(CHUNK * CHUNK);
      for (let y = 0; y < CHUNK; y++) for (let x = 0; x < CHUNK; x++) chunk[y * CHUNK + x] = values[(r * CHUNK + y) * side + c * CHUNK + x];
      files.set(`/v2be/${r}.${c}`, swapGroups(new Uint8Array(chunk.buffer), 2));
    }
  }
  // Variable-length strings: chunks zarrita decodes (values placed one by one).
  files.set("/strings/zarr.json", encoder.encode(JSON.stringify({
    zarr_format: 3, node_type: "array", shape: [2, 4], data_type: "string", fill_value: "",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [1, 3] } }, chunk_key_encoding: { name: "default" },
    codecs: [{ name: "vlen-utf8" }],
  })));
  const vlen = (items) => vlenBytesEncodeReference(items.map((t) => encoder.encode(t)));
  files.set("/strings/c/0/0", vlen(strings.slice(0, 3)));
  files.set("/strings/c/0/1", vlen([strings[3], "pad", "pad"]));
  files.set("/strings/c/1/0", vlen(strings.slice(4, 7)));
  files.set("/strings/c/1/1", vlen([strings[7], "pad", "pad"]));
  server = await startNetworkServer(files);
});
afterAll(() => server?.close());
beforeEach(() => server.configure({ ranges: true, suffixRanges: true, latencyMs: 0 }));

async function open(path, store = new zarr.FetchStore(server.url)) {
  const arr = await zarr.open(zarr.root(store).resolve(path), { kind: "array" });
  server.reset();
  return arr;
}

/** The values of rows [r0, r1) (every `step`th) and columns [c0, c1), from the array as written. */
function expected(r0, r1, c0, c1, step = 1) {
  const out = [];
  for (let r = r0; r < r1; r += step) for (let c = c0; c < c1; c++) out.push(values[r * side + c]);
  return out;
}

/** The same region of the sparse array: the fill where a chunk is missing. */
function expectedSparse(r0, r1, c0, c1) {
  const out = [];
  for (let r = r0; r < r1; r++) {
    for (let c = c0; c < c1; c++) out.push((Math.floor(r / CHUNK) + Math.floor(c / CHUNK)) % 2 === 1 ? 7 : values[r * side + c]);
  }
  return out;
}

const s = zarr.slice;
const dataRequests = () => server.requests().filter((r) => !r.path.endsWith("zarr.json") && !r.path.endsWith(".zarray"));

describe("createChunkCache", () => {
  test("maxBytes is checked: the package's error names what it got", () => {
    expectCodecError(() => createChunkCache({ maxBytes: -1 }), "INVALID_INPUT", "createChunkCache: maxBytes must be a number of bytes (an integer >= 0), got -1");
    expectCodecError(() => createChunkCache({ maxBytes: "1mb" }), "INVALID_INPUT", 'createChunkCache: maxBytes must be a number of bytes (an integer >= 0), got "1mb"');
    expectCodecError(() => createChunkCache({ maxBytes: 1.5 }), "INVALID_INPUT", "createChunkCache: maxBytes must be a number of bytes (an integer >= 0), got 1.5");
    expectCodecError(() => createChunkCache(5), "INVALID_INPUT", "createChunkCache: options must be an object, got 5");
    expect(createChunkCache().maxBytes).toBe(64 << 20);
    expect(createChunkCache({ maxBytes: Infinity }).maxBytes).toBe(Infinity);
  });

  test("read refuses a cache that createChunkCache did not make", async () => {
    const arr = await open("plain");
    await expectCodecRejection(read(arr, [s(0, 1), s(0, 1)], { cache: new Map() }), "INVALID_INPUT", "read: cache must come from createChunkCache(), got a Map");
    await expectCodecRejection(read(arr, [s(0, 1), s(0, 1)], { cache: { maxBytes: 10 } }), "INVALID_INPUT", /^read: cache must come from createChunkCache\(\), got/);
    expect(dataRequests()).toHaveLength(0);
  });
});

describe("a revisited viewport makes no request", () => {
  for (const path of ["plain", "big", "sharded", "v2be", "transposed"]) {
    test(`${path}: the same values as the array written and as zarr.get, then no request for what is kept`, async () => {
      const cache = createChunkCache({ maxBytes: 64 << 20 });
      const arr = await open(path);
      const view = [s(32, 160), s(96, 224)]; // 3 x 3 chunks
      const first = await read(arr, view, { cache });
      expect(Array.from(first.data)).toEqual(expected(32, 160, 96, 224));
      expect(dataRequests().length).toBeGreaterThan(0);
      server.reset();
      const again = await read(arr, view, { cache });
      expect(Array.from(again.data)).toEqual(expected(32, 160, 96, 224));
      expect(server.requests()).toEqual([]);
      // A viewport within what is kept, at another offset and step, and a
      // single value. (zarr.get of the transposed array with a step gives
      // other values, with every zarrita, the package's codecs or not.)
      const inside = await read(arr, [s(64, 160, 3), s(100, 200)], { cache });
      expect(Array.from(inside.data)).toEqual(expected(64, 160, 100, 200, 3));
      if (path !== "transposed") expect(Array.from(inside.data)).toEqual(Array.from((await zarr.get(await open(path), [s(64, 160, 3), s(100, 200)])).data));
      server.reset();
      expect(await read(arr, [100, 130], { cache })).toBe(values[100 * side + 130]);
      expect(server.requests()).toEqual([]);
      expect(cache.stats()).toMatchObject({ misses: 9, entries: 9, evictions: 0 });
    });
  }

  test("panning by one chunk fetches only the chunks it newly shows", async () => {
    const cache = createChunkCache({ maxBytes: 64 << 20 });
    const arr = await open("plain");
    await read(arr, [s(0, 128), s(0, 128)], { cache });
    expect(dataRequests()).toHaveLength(4);
    server.reset();
    const panned = await read(arr, [s(0, 128), s(64, 192)], { cache });
    expect(Array.from(panned.data)).toEqual(expected(0, 128, 64, 192));
    expect(dataRequests().map((r) => r.path).sort()).toEqual(["/plain/c/0/2", "/plain/c/1/2"]);
  });

  test("missing chunks are kept as missing: filled, and asked for once", async () => {
    const cache = createChunkCache();
    const arr = await open("sparse");
    const got = await read(arr, null, { cache });
    expect(Array.from(got.data)).toEqual(expectedSparse(0, side, 0, side));
    expect(dataRequests().filter((r) => r.status === 404)).toHaveLength(8);
    server.reset();
    const before = diagnostics().reads();
    const again = await read(arr, [s(10, 250), s(3, 200)], { cache });
    expect(Array.from(again.data)).toEqual(expectedSparse(10, 250, 3, 200));
    expect(server.requests()).toEqual([]);
    const after = diagnostics().reads();
    expect(after.cached - before.cached).toBe(16);
    expect(after.filled - before.filled).toBe(0);
    // A missing chunk counts only an entry's bytes: 8 chunks of data and 16 entries.
    expect(cache.bytes).toBe(8 * CHUNK * CHUNK * 2 + 16 * 64);
  });

  test("strings (chunks zarrita decodes): the same values, no request the second time, the cache's values unchanged by the caller", async () => {
    const cache = createChunkCache();
    const arr = await open("strings");
    const first = await read(arr, null, { cache });
    expect(first.data).toEqual(strings);
    expect(dataRequests()).toHaveLength(4);
    first.data[0] = "changed";
    server.reset();
    const part = await read(arr, [1, s(1, 4, 2)], { cache });
    expect(part.data).toEqual([strings[5], strings[7]]);
    expect((await read(arr, null, { cache })).data).toEqual(strings);
    expect(server.requests()).toEqual([]);
  });
});

describe("what read returns is the caller's", () => {
  // zarrita #431: with withByteCaching, zarrita's bytes codec swaps a
  // big-endian chunk in place in the bytes the cache keeps, so every
  // second read gave swapped values.
  for (const path of ["big", "v2be", "plain", "transposed"]) {
    test(`${path}: mutating the result, or into, leaves the next read's values right (also through withByteCaching)`, async () => {
      const cache = createChunkCache();
      const store = zarr.withByteCaching(new zarr.FetchStore(server.url));
      const arr = await open(path, store);
      const view = [s(0, 128), s(64, 192)];
      const want = expected(0, 128, 64, 192);
      for (let i = 0; i < 3; i++) {
        const got = await read(arr, view, { cache });
        expect(Array.from(got.data)).toEqual(want);
        got.data.fill(0xbeef);
      }
      const into = new Uint16Array(128 * 128);
      for (let i = 0; i < 3; i++) {
        const got = await read(arr, view, { cache, into });
        expect(got.data).toBe(into);
        expect(Array.from(into)).toEqual(want);
        into.reverse();
      }
      // The whole chunk, straight from the cache: a selection that is one
      // chunk exactly (one copy of its bytes into place), and one column of chunks.
      const chunk = await read(arr, [s(64, 128), s(64, 128)], { cache });
      chunk.data[0] ^= 0xffff;
      expect(Array.from((await read(arr, [s(64, 128), s(64, 128)], { cache })).data)).toEqual(expected(64, 128, 64, 128));
      const column = await read(arr, [s(10, 250), s(128, 192)], { cache });
      expect(Array.from(column.data)).toEqual(expected(10, 250, 128, 192));
      column.data.fill(1);
      expect(Array.from((await read(arr, [s(10, 250), s(128, 192)], { cache })).data)).toEqual(expected(10, 250, 128, 192));
    });
  }
});

test("the cache keeps bytes of its own: a chunk's data that its giver changes afterwards (a store's reused buffer) does not change what is kept", async () => {
  const cache = createChunkCache();
  const arr = await open("big");
  // Every chunk through this getChunk (zarrita's path), whose data is then
  // overwritten, as a store that reuses its buffers would.
  const given = [];
  const reusing = await zarr.extendArray(arr, zarr.defineArrayExtension((a) => ({
    async getChunk(coords, options) {
      const chunk = await a.getChunk(coords, options);
      given.push(chunk.data);
      return chunk;
    },
  })));
  const before = diagnostics().reads();
  expect(Array.from((await read(reusing, [s(0, 128), s(0, 128)], { cache })).data)).toEqual(expected(0, 128, 0, 128));
  expect(diagnostics().reads().viaZarrita - before.viaZarrita).toBe(4);
  expect(given).toHaveLength(4);
  for (const data of given) data.fill(0);
  expect(Array.from((await read(reusing, [s(0, 128), s(0, 128)], { cache })).data)).toEqual(expected(0, 128, 0, 128));
  expect(given).toHaveLength(4);
});

describe("bound and order", () => {
  test("cache.bytes stays within maxBytes over many reads; least recently used dropped first", async () => {
    const cache = createChunkCache({ maxBytes: 3 * CHUNK_ENTRY });
    const arr = await open("plain");
    for (let r = 0; r < side; r += 64) {
      const got = await read(arr, [s(r, r + 64), null], { cache });
      expect(Array.from(got.data)).toEqual(expected(r, r + 64, 0, side));
      expect(cache.bytes).toBeLessThanOrEqual(3 * CHUNK_ENTRY);
    }
    const whole = await read(arr, null, { cache });
    expect(Array.from(whole.data)).toEqual(Array.from(values));
    expect(cache.bytes).toBeLessThanOrEqual(3 * CHUNK_ENTRY);
    expect(cache.size).toBeLessThanOrEqual(3);
    expect(cache.stats().evictions).toBeGreaterThan(0);

    // LRU: two chunks' room; A, B, then A again, then C drops B.
    const small = createChunkCache({ maxBytes: 2 * CHUNK_ENTRY });
    const A = [s(0, 64), s(0, 64)];
    const B = [s(0, 64), s(64, 128)];
    const C = [s(0, 64), s(128, 192)];
    await read(arr, A, { cache: small });
    await read(arr, B, { cache: small });
    await read(arr, A, { cache: small });
    await read(arr, C, { cache: small });
    server.reset();
    expect(Array.from((await read(arr, A, { cache: small })).data)).toEqual(expected(0, 64, 0, 64));
    expect(server.requests()).toEqual([]);
    expect(Array.from((await read(arr, B, { cache: small })).data)).toEqual(expected(0, 64, 64, 128));
    expect(dataRequests().map((r) => r.path)).toEqual(["/plain/c/0/1"]);
  });

  test("a chunk larger than maxBytes is read right and not kept; maxBytes 0 keeps nothing", async () => {
    const arr = await open("plain");
    for (const maxBytes of [0, CHUNK_ENTRY - 1]) {
      const cache = createChunkCache({ maxBytes });
      server.reset();
      expect(Array.from((await read(arr, [s(0, 64), s(0, 64)], { cache })).data)).toEqual(expected(0, 64, 0, 64));
      expect(Array.from((await read(arr, [s(0, 64), s(0, 64)], { cache })).data)).toEqual(expected(0, 64, 0, 64));
      expect(dataRequests()).toHaveLength(2);
      expect([cache.size, cache.bytes]).toEqual([0, 0]);
    }
  });

  test("cache.clear() drops every entry: the next read asks again; stats count hits and misses", async () => {
    const cache = createChunkCache();
    const arr = await open("plain");
    await read(arr, [s(0, 128), s(0, 64)], { cache });
    await read(arr, [s(0, 128), s(0, 64)], { cache });
    expect(cache.stats()).toEqual({ hits: 2, misses: 2, evictions: 0, entries: 2, bytes: 2 * CHUNK_ENTRY, maxBytes: 64 << 20 });
    cache.clear();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
    server.reset();
    expect(Array.from((await read(arr, [s(0, 128), s(0, 64)], { cache })).data)).toEqual(expected(0, 128, 0, 64));
    expect(dataRequests()).toHaveLength(2);
  });

  test("one cache, several arrays: entries are the opened array's (same coordinates, other values)", async () => {
    const cache = createChunkCache();
    const plain = await open("plain");
    const sparse = await open("sparse");
    const a = await read(plain, [s(0, 64), s(64, 128)], { cache });
    const b = await read(sparse, [s(0, 64), s(64, 128)], { cache });
    expect(Array.from(a.data)).toEqual(expected(0, 64, 64, 128));
    expect(Array.from(b.data)).toEqual(expectedSparse(0, 64, 64, 128));
    expect(cache.size).toBe(2);
    // Another opening of the same path is another array: its own entries.
    const reopened = await open("plain");
    await read(reopened, [s(0, 64), s(64, 128)], { cache });
    expect(dataRequests()).toHaveLength(1);
  });
});

describe("reads at once", () => {
  test("two concurrent reads of one chunk: one request, one decode", async () => {
    server.configure({ latencyMs: 20 });
    for (const path of ["plain", "sharded"]) {
      const cache = createChunkCache();
      const arr = await open(path);
      const [a, b] = await Promise.all([read(arr, [s(0, 10), s(0, 10)], { cache }), read(arr, [s(30, 64), s(5, 64)], { cache })]);
      expect(Array.from(a.data)).toEqual(expected(0, 10, 0, 10));
      expect(Array.from(b.data)).toEqual(expected(30, 64, 5, 64));
      const chunkRequests = dataRequests().filter((r) => r.method === "GET" && r.status !== 404);
      // plain: the chunk; sharded: the index's suffix range and the inner chunk.
      expect(chunkRequests).toHaveLength(path === "plain" ? 1 : 2);
      expect(cache.stats()).toMatchObject({ hits: 1, misses: 1 });
    }
  });

  test("an aborted read does not fail another waiting for the same chunk; a failure is not kept", async () => {
    server.configure({ latencyMs: 50 });
    const cache = createChunkCache();
    const arr = await open("plain");
    const controller = new AbortController();
    const aborted = read(arr, [s(0, 64), s(0, 64)], { cache, signal: controller.signal });
    const waiting = read(arr, [s(0, 32), s(0, 32)], { cache });
    setTimeout(() => controller.abort(), 10);
    await expect(aborted).rejects.toThrow(/abort/i);
    expect(Array.from((await waiting).data)).toEqual(expected(0, 32, 0, 32));
    expect(cache.size).toBe(1);

    server.configure({ latencyMs: 0 });
    server.fail("/plain/c/3/3", "503");
    // retry: false: the 503 fails the read (it is otherwise tried again).
    await expect(read(arr, [s(192, 256), s(192, 256)], { cache, retry: false })).rejects.toThrow();
    expect(cache.size).toBe(1);
    server.reset();
    expect(Array.from((await read(arr, [s(192, 256), s(192, 256)], { cache })).data)).toEqual(expected(192, 256, 192, 256));
    expect(dataRequests()).toHaveLength(1);
  });
});

test("chunkErrors: \"fill\": a chunk that fails is filled and listed, and not kept: the next read reads it", async () => {
  const cache = createChunkCache();
  const arr = await open("plain");
  server.fail("/plain/c/1/1", "503");
  const got = await read(arr, [s(0, 128), s(0, 128)], { cache, chunkErrors: "fill", retry: false });
  expect(got.failedChunks.map((f) => f.chunk)).toEqual([[1, 1]]);
  const want = expected(0, 128, 0, 128).map((v, i) => (Math.floor(i / 128) >= 64 && i % 128 >= 64 ? 7 : v));
  expect(Array.from(got.data)).toEqual(want);
  expect(cache.size).toBe(3);
  server.reset();
  const again = await read(arr, [s(0, 128), s(0, 128)], { cache, chunkErrors: "fill" });
  expect(again.failedChunks).toEqual([]);
  expect(Array.from(again.data)).toEqual(expected(0, 128, 0, 128));
  expect(dataRequests().map((r) => `${r.path} ${r.status}`)).toEqual(["/plain/c/1/1 200"]);
});

describe("with a pool", () => {
  test("pooled and in-thread reads share entries; the workers decode the misses", async () => {
    const pool = createReadPool({ workers: 2, inThreadChunks: 0 });
    try {
      for (const path of ["plain", "big", "sharded"]) {
        const cache = createChunkCache();
        const arr = await open(path);
        const before = pool.stats().chunks;
        const pooled = await read(arr, [s(0, 192), null], { cache, pool });
        expect(Array.from(pooled.data)).toEqual(expected(0, 192, 0, side));
        expect(pool.stats().chunks - before).toBe(12);
        server.reset();
        const here = await read(arr, [s(20, 100), s(10, 250)], { cache });
        expect(Array.from(here.data)).toEqual(expected(20, 100, 10, 250));
        expect(server.requests()).toEqual([]);
        // In-thread misses, then pooled hits: no request, no job.
        await read(arr, [s(192, 256), null], { cache });
        server.reset();
        const again = await read(arr, null, { cache, pool });
        expect(Array.from(again.data)).toEqual(Array.from(values));
        expect(server.requests()).toEqual([]);
        expect(pool.stats().chunks - before).toBe(12);
        // The result is the caller's here too.
        again.data.fill(0);
        expect(Array.from((await read(arr, null, { cache, pool })).data)).toEqual(Array.from(values));
      }
    } finally {
      await pool.close();
    }
  }, 60000);

  test("a chunk that arrives after its pooled read failed is still decoded for another read waiting for it", async () => {
    // One request at a time, in order: the read's first chunk fails, its
    // second arrives after the read rejected, while a second read waits
    // for that chunk's entry.
    server.configure({ maxConcurrent: 1, latencyMs: 20 });
    const pool = createReadPool({ workers: 1, inThreadChunks: 0 });
    try {
      const cache = createChunkCache();
      const arr = await open("plain");
      server.fail("/plain/c/0/0", "503");
      const failing = read(arr, [s(0, 64), s(0, 128)], { cache, pool, retry: false });
      failing.catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 5));
      const waiting = read(arr, [s(0, 64), s(64, 128)], { cache, pool });
      await expect(failing).rejects.toThrow();
      expect(Array.from((await waiting).data)).toEqual(expected(0, 64, 64, 128));
      expect(dataRequests().map((r) => `${r.path} ${r.status}`)).toEqual(["/plain/c/0/0 503", "/plain/c/0/1 200"]);
    } finally {
      server.configure({ maxConcurrent: Infinity });
      await pool.close();
    }
  }, 60000);
});
