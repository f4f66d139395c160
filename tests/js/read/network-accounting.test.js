// What read counts of its store calls, per read and in the realm
// (diagnostics().requests(), onProgress's counts and bytes), against what a real
// loopback server (tests/js/support/network-server.mjs) saw: requests and
// bytes from its log, and bytes over-read worked out by hand from the
// shard's index as written (hand-store.js).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createChunkCache, diagnostics, read, ready, register, withDataTypes } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 256;
const shape = [side, side];
const values = Uint16Array.from({ length: side * side }, (_, i) => ((i % side) * 5 + Math.floor(i / side) * 11 + ((i * 2654435761) >>> 27)) & 0xffff);
// One shard of 4 x 4 inner chunks of 64 x 64, its index at the start (so
// FetchStore asks for it in one request, without a HEAD): 16 entries of 16
// bytes and a crc32c.
const INDEX_BYTES = 16 * 16 + 4;
let server;
let files;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  files = new Map();
  const common = { values, dataType: "uint16", shape, fillValue: 0, fillElement: Uint16Array.of(0), compressors: ["gzip"] };
  writeArray(files, "/plain", { ...common, chunkShape: [64, 64], missing: (c) => c[0] === 3 && c[1] === 3 });
  writeArray(files, "/start", { ...common, chunkShape: [256, 256], sharding: { chunkShape: [64, 64], indexLocation: "start" } });
  server = await startNetworkServer(files);
});
afterAll(() => server?.close());
beforeEach(() => server.configure({ ranges: true }));

// /start through withDataTypes, which gives read the document zarrita
// opened: read takes the index layout from it, rather than first trying
// the default layout (at the end) as on a plain store
// (shard-layout-probe.test.js), so the requests here are the read's own.
async function open(path) {
  const store = new zarr.FetchStore(server.url);
  const arr = await zarr.open(zarr.root(path === "start" ? withDataTypes(store) : store).resolve(path), { kind: "array" });
  server.reset();
  diagnostics().requests(true);
  return arr;
}

/** What the server saw, but the metadata. */
function seen() {
  const log = server.requests().filter((r) => !r.path.endsWith("zarr.json"));
  return { requests: log.length, bytes: log.reduce((n, r) => n + r.bytes, 0) };
}

/** Offset and length of each inner chunk of /start's shard, from its index as written. */
function innerChunks() {
  const shard = files.get("/start/c/0/0");
  const view = new DataView(shard.buffer, shard.byteOffset, shard.byteLength);
  return Array.from({ length: 16 }, (_, i) => ({ offset: Number(view.getBigUint64(16 * i, true)), length: Number(view.getBigUint64(16 * i + 8, true)) }));
}

const s = zarr.slice;
const lastRead = () => diagnostics().requests().recent.at(-1);

describe("per read, as the server saw it", () => {
  test("an unsharded read: one request per chunk, its bytes, nothing over-read; onProgress's bytes add up to them", async () => {
    const arr = await open("plain");
    const bytes = [];
    await read(arr, [s(10, 140), s(0, 100)], { onProgress: (p) => bytes.push(p.bytes) });
    const server = seen();
    expect(server.requests).toBe(6);
    expect(lastRead()).toMatchObject({ path: "/plain", requests: 6, bytes: server.bytes, overReadBytes: 0, retries: 0, chunks: 6, failed: false });
    expect(bytes).toHaveLength(6);
    expect(bytes.at(-1)).toBe(server.bytes);
    // Non-decreasing, as chunks arrive.
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
  });

  test("onProgress's bytes count a coalesced answer whole when it arrives: the first chunk placed already reports all the read fetched", async () => {
    const arr = await open("start");
    // The first row of inner chunks: the index, then one coalesced request
    // for the four (back to back in the shard).
    const events = [];
    await read(arr, [s(0, 64), null], { onProgress: (p) => events.push(p) });
    const inner = innerChunks();
    const data = inner[3].offset + inner[3].length - inner[0].offset;
    expect(seen()).toEqual({ requests: 2, bytes: INDEX_BYTES + data });
    expect(events.map((p) => [p.done, p.total, p.bytes])).toEqual([1, 2, 3, 4].map((done) => [done, 4, INDEX_BYTES + data]));
    expect(events.map((p) => p.chunk.join(",")).sort()).toEqual(["0,0", "0,1", "0,2", "0,3"]);
    expect(events.every((p) => p.worker === null)).toBe(true);
  });

  test("onProgress counts every chunk the selection touches, a missing one too; chunks from a cache add no bytes", async () => {
    const arr = await open("plain");
    const cache = createChunkCache();
    const selection = [s(128, 256), s(128, 256)]; // chunks (2, 2), (2, 3), (3, 2) and the missing (3, 3)
    const first = [];
    await read(arr, selection, { cache, onProgress: (p) => first.push(p) });
    expect(first.map((p) => [p.done, p.total])).toEqual([[1, 4], [2, 4], [3, 4], [4, 4]]);
    expect(first.map((p) => p.chunk.join(",")).sort()).toEqual(["2,2", "2,3", "3,2", "3,3"]);
    expect(first.at(-1).bytes).toBe(seen().bytes);
    const again = [];
    await read(arr, selection, { cache, onProgress: (p) => again.push(p) });
    expect(again.map((p) => [p.done, p.total, p.bytes])).toEqual([[1, 4, 0], [2, 4, 0], [3, 4, 0], [4, 4, 0]]);
  });

  test("a missing chunk is one request (its 404) and no bytes", async () => {
    const arr = await open("plain");
    await read(arr, [s(192, 256), s(192, 256)]);
    expect(server.requests().map((r) => r.status)).toEqual([404]);
    expect(lastRead()).toMatchObject({ requests: 1, bytes: 0, overReadBytes: 0, chunks: 1 });
  });

  test("a retried chunk counts each attempt and one retry", async () => {
    const arr = await open("plain");
    server.fail("/plain/c/1/0", "503");
    await read(arr, [s(64, 128), s(0, 128)], { retry: { baseDelayMs: 1 } });
    expect(server.requests().map((r) => r.status).sort()).toEqual([200, 200, 503]);
    expect(lastRead()).toMatchObject({ requests: 3, retries: 1, bytes: seen().bytes, chunks: 2 });
  });

  test("a coalesced read over a gap: the gap's bytes are over-read, as the index says", async () => {
    const arr = await open("start");
    // Inner chunks (0, 0) and (0, 2), not (0, 1) between them: one request
    // from the first's offset to the end of the third (a gap of 1 MiB at
    // most read through: on this server without latency the link's own
    // gap would be a few bytes).
    const got = await read(arr, [s(0, 1), s(0, 192, 128)], { coalesce: { maxGapBytes: 1 << 20 } });
    expect(Array.from(got.data)).toEqual([values[0], values[128]]);
    const inner = innerChunks();
    const [first, gap, third] = [inner[0], inner[1], inner[2]];
    expect(gap.offset).toBe(first.offset + first.length); // back to back, as zarr-python writes shards
    const data = third.offset + third.length - first.offset;
    expect(server.requests().filter((r) => !r.path.endsWith("zarr.json")).map((r) => [r.range, r.bytes])).toEqual([
      [`bytes=0-${INDEX_BYTES - 1}`, INDEX_BYTES],
      [`bytes=${first.offset}-${first.offset + data - 1}`, data],
    ]);
    expect(lastRead()).toMatchObject({ requests: 2, bytes: INDEX_BYTES + data, overReadBytes: gap.length, chunks: 2 });
    expect(diagnostics().requests().totals).toMatchObject({ reads: 1, requests: 2, bytes: seen().bytes, overReadBytes: gap.length });
  });

  test("a server that ignores Range: the whole shard is fetched, all but the index and the chunk used over-read", async () => {
    server.configure({ ranges: false });
    const arr = await open("start");
    const got = await read(arr, [s(64, 65), s(64, 66)]);
    expect(Array.from(got.data)).toEqual([values[64 * side + 64], values[64 * side + 65]]);
    const shard = files.get("/start/c/0/0").byteLength;
    expect(seen()).toEqual({ requests: 1, bytes: shard });
    const used = innerChunks()[1 * 4 + 1].length;
    expect(lastRead()).toMatchObject({ requests: 1, bytes: shard, overReadBytes: shard - INDEX_BYTES - used });
  });
});

describe("in the realm", () => {
  test("reads sharing a coalesced request each count it; the totals count it once", async () => {
    const arr = await open("start");
    await read(arr, [s(0, 1), s(0, 1)]); // the index kept
    server.reset();
    diagnostics().requests(true);
    await Promise.all([read(arr, [s(0, 64), s(0, 64)]), read(arr, [s(0, 64), s(64, 128)])]);
    const { totals, recent } = diagnostics().requests();
    expect(seen().requests).toBe(1);
    expect(totals).toMatchObject({ reads: 2, requests: 1, bytes: seen().bytes, overReadBytes: 0 });
    expect(recent.map((r) => [r.requests, r.sharedRequests, r.bytes])).toEqual([
      [1, 1, seen().bytes],
      [1, 1, seen().bytes],
    ]);
  });

  test("a failed read is kept with its error's code; requests(true) starts afresh", async () => {
    const arr = await open("plain");
    server.fail("/plain/c/0/0", "500");
    await expect(read(arr, [s(0, 1), s(0, 1)], { retry: false })).rejects.toMatchObject({ code: "FETCH_FAILED" });
    const { totals, recent } = diagnostics().requests(true);
    expect(totals).toMatchObject({ reads: 1, failedReads: 1, requests: 1, failedRequests: 1, bytes: 0 });
    expect(recent).toHaveLength(1);
    expect(recent[0]).toMatchObject({ path: "/plain", failed: true, error: "FETCH_FAILED", requests: 1 });
    expect(diagnostics().requests()).toEqual({ totals: { reads: 0, failedReads: 0, requests: 0, retries: 0, failedRequests: 0, bytes: 0, overReadBytes: 0 }, recent: [], scheduled: { waiting: 0, inFlight: 0, sent: 0, droppedBeforeSending: 0, abortedInFlight: 0, bytes: 0 } });
  });

  test("the last 32 reads are kept, oldest first", async () => {
    const arr = await open("plain");
    for (let i = 0; i < 40; i++) await read(arr, [s(i, i + 1), s(0, 1)]);
    const { totals, recent } = diagnostics().requests();
    expect(totals.reads).toBe(40);
    expect(totals.requests).toBe(40);
    expect(recent).toHaveLength(32);
    expect(recent.every((r) => r.requests === 1 && r.chunks === 1)).toBe(true);
  });
});
