// A sharded array on a plain store, read with no metadata request: the
// shard shape from zarrita's own chunk getter (plan/shard-shape.js), the
// index layout taken as the default (at the end, little-endian, crc32c)
// and verified on each index fetched. Where an array stores its index
// otherwise (at the start, without a crc32c, big-endian), the index does
// not verify, read reads zarr.json once and reads right; a corrupt index
// under the default layout is refused, never read as values. Values are
// checked against the array written by hand (hand-store.js); requests
// against a real loopback server's log.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { read, ready, register } from "../../../js/index.js";
import { innerChunksPerShard } from "../../../js/read/plan/shard-shape.js";
import { zarritaArray } from "../../../js/read/plan/zarrita-array.js";
import { writeArray, selectReference } from "../support/hand-store.js";
import { memoryStore } from "../support/memory-store.js";
import { crc32c } from "../support/reference.js";
import { startNetworkServer } from "../support/network-server.mjs";
import { ZARRITAS } from "../support/zarritas.js";
import { expectCodecRejection } from "../support/expect-error.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const shape = [64, 48];
const values = Uint16Array.from({ length: 64 * 48 }, (_, i) => (i * 2654435761) >>> 20);
const common = { values, dataType: "uint16", shape, fillValue: 0, fillElement: Uint16Array.of(0), compressors: ["gzip"] };
// Shards of 32 x 16 holding 4 x 2 inner chunks of 8 x 8.
const layout = { chunkShape: [32, 16], sharding: { chunkShape: [8, 8] } };
const ENTRIES = 8;
let server;

// Rewrites each shard of `path` (written with the index at the end,
// little-endian, crc32c) with `transform(body, index)` and the document's
// index_codecs as `indexCodecs`.
function restore(files, path, indexCodecs, transform) {
  for (const [key, bytes] of [...files]) {
    if (!key.startsWith(`${path}/c/`)) continue;
    const cut = bytes.byteLength - (16 * ENTRIES + 4);
    files.set(key, transform(bytes.subarray(0, cut), bytes.subarray(cut, cut + 16 * ENTRIES)));
  }
  const doc = JSON.parse(decoder.decode(files.get(`${path}/zarr.json`)));
  doc.codecs[0].configuration.index_codecs = indexCodecs;
  files.set(`${path}/zarr.json`, encoder.encode(JSON.stringify(doc)));
}

const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
};
const crcOf = (bytes) => {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, crc32c(bytes), true);
  return out;
};

beforeAll(async () => {
  await ready();
  for (const [, z] of ZARRITAS) register(z.registry);
  const files = new Map();
  writeArray(files, "/default", { ...common, ...layout });
  writeArray(files, "/start", { ...common, ...layout, sharding: { ...layout.sharding, indexLocation: "start" } });
  // No crc32c: the index alone at the end.
  writeArray(files, "/no-crc", { ...common, ...layout });
  restore(files, "/no-crc", [{ name: "bytes", configuration: { endian: "little" } }], (body, index) => concat(body, index));
  // A big-endian index with its crc32c (of the big-endian bytes).
  writeArray(files, "/big-index", { ...common, ...layout });
  restore(files, "/big-index", [{ name: "bytes", configuration: { endian: "big" } }, { name: "crc32c" }], (body, index) => {
    const big = new Uint8Array(index.byteLength);
    for (let i = 0; i < index.byteLength; i += 8) for (let b = 0; b < 8; b++) big[i + b] = index[i + 7 - b];
    return concat(body, big, crcOf(big));
  });
  // The default layout with one shard's index damaged (a byte of an entry).
  writeArray(files, "/damaged", { ...common, ...layout });
  const shard = files.get("/damaged/c/1/1").slice();
  shard[shard.byteLength - 4 - 16 * ENTRIES + 3] ^= 0x40;
  files.set("/damaged/c/1/1", shard);
  server = await startNetworkServer(files);
});
afterAll(() => server?.close());

const s = zarr.slice;
const open = async (path) => {
  const arr = await zarr.open(zarr.root(new zarr.FetchStore(server.url)).resolve(path), { kind: "array" });
  server.reset();
  return arr;
};
const documentRequests = () => server.requests().filter((r) => r.path.endsWith("zarr.json"));
const reference = (r0, r1, c0, c1) => Array.from(selectReference(values, shape, [[r0, r1, 1], [c0, c1, 1]]).data);

describe.each(ZARRITAS)("the shard shape zarrita %s's chunk getter shows", (_, z) => {
  test.each([
    [[64, 48], [32, 16], [8, 8], [4, 2]],
    [[10, 9, 7], [10, 6, 7], [5, 2, 7], [2, 3, 1]],
    [[100], [100], [1], [100]],
  ])("array %j in shards %j of inner chunks %j: %j per shard, and no request", async (arrayShape, shardShape, innerShape, perShard) => {
    const files = new Map();
    const n = arrayShape.reduce((a, b) => a * b, 1);
    writeArray(files, "/a", { values: new Uint16Array(n), dataType: "uint16", shape: arrayShape, fillValue: 0, fillElement: Uint16Array.of(0), chunkShape: shardShape, sharding: { chunkShape: innerShape } });
    const store = memoryStore([...files]);
    const arr = await z.open(z.root(store).resolve("a"), { kind: "array" });
    let asked = 0;
    const { get, getRange } = store;
    store.get = (...args) => ((asked += 1), get.apply(store, args));
    store.getRange = (...args) => ((asked += 1), getRange.apply(store, args));
    expect(innerChunksPerShard(arr, zarritaArray(arr))).toEqual(perShard);
    expect(asked).toBe(0);
    // The array is as it was: resolve is zarrita's again.
    expect(Object.getOwnPropertyDescriptor(arr, "resolve")).toBeUndefined();
    expect(Array.from((await read(arr, null)).data)).toEqual(new Array(n).fill(0));
  });
});

describe("the index layout: taken as the default, verified, read from zarr.json where it does not hold", () => {
  test("the default layout: no metadata request, across reads", async () => {
    const arr = await open("default");
    expect(Array.from((await read(arr, [s(8, 40), s(0, 24)])).data)).toEqual(reference(8, 40, 0, 24));
    expect(Array.from((await read(arr, null)).data)).toEqual(Array.from(values));
    expect(documentRequests()).toEqual([]);
  });

  test.each(["start", "no-crc", "big-index"])("an index stored otherwise (%s): zarr.json read once, the values right", async (path) => {
    const arr = await open(path);
    expect(Array.from((await read(arr, [s(8, 40), s(0, 24)])).data)).toEqual(reference(8, 40, 0, 24));
    expect(documentRequests()).toHaveLength(1);
    // Later reads, and every shard: the layout the document says.
    const [a, b] = await Promise.all([read(arr, null), read(arr, [s(33, 64), s(17, 48)])]);
    expect(Array.from(a.data)).toEqual(Array.from(values));
    expect(Array.from(b.data)).toEqual(reference(33, 64, 17, 48));
    expect(documentRequests()).toHaveLength(1);
  });

  test("a damaged index under the default layout: CHECKSUM_MISMATCH naming the shard, the other shards read", async () => {
    const arr = await open("damaged");
    await expectCodecRejection(read(arr, [s(32, 40), s(16, 24)]), "CHECKSUM_MISMATCH", /^read: shard \/damaged\/c\/1\/1: its index's crc32c is 0x[0-9a-f]{8}, the index's bytes give 0x[0-9a-f]{8} \(the shard's last 132 bytes are not an intact index: a damaged index, or a shard cut short\)$/);
    // The document was read to tell a damaged index from another layout.
    expect(documentRequests()).toHaveLength(1);
    expect(Array.from((await read(arr, [s(0, 32), s(0, 48)])).data)).toEqual(reference(0, 32, 0, 48));
    const filled = await read(arr, null, { chunkErrors: "fill" });
    expect(filled.failedChunks).toHaveLength(ENTRIES);
  });
});

describe("reading the document after all: failures and aborts", () => {
  // A memory store of /start (index at the start) whose zarr.json `get`s
  // after the open are answered by `answer` (each call its own promise).
  async function startArray(answer) {
    const files = new Map();
    writeArray(files, "/start", { ...common, ...layout, sharding: { ...layout.sharding, indexLocation: "start" } });
    const store = memoryStore([...files]);
    const arr = await zarr.open(zarr.root(store).resolve("start"), { kind: "array" });
    const get = store.get;
    let calls = 0;
    store.get = (key, ...rest) => (key.endsWith("zarr.json") ? answer(++calls, () => get.call(store, key, ...rest)) : get.call(store, key, ...rest));
    return arr;
  }

  test("a zarr.json request that fails fails that read only: the next read asks again and reads right", async () => {
    const arr = await startArray((call, real) => (call === 1 ? Promise.reject(new Error("Unexpected response status 503 Service Unavailable")) : real()));
    await expect(read(arr, [s(0, 8), s(0, 8)])).rejects.toThrow("Unexpected response status 503 Service Unavailable");
    expect(Array.from((await read(arr, [s(0, 8), s(0, 8)])).data)).toEqual(reference(0, 8, 0, 8));
    expect(Array.from((await read(arr, null)).data)).toEqual(Array.from(values));
  });

  test("a read aborted while zarr.json is on its way rejects at once with its reason; another read gets the values", async () => {
    let release;
    const stalled = new Promise((resolve) => {
      release = resolve;
    });
    const arr = await startArray(async (_, real) => {
      await stalled;
      return real();
    });
    const controller = new AbortController();
    const aborted = read(arr, [s(0, 8), s(0, 8)], { signal: controller.signal });
    const other = read(arr, [s(8, 16), s(0, 8)]);
    setTimeout(() => controller.abort(new Error("panned away")), 20);
    await expect(aborted).rejects.toThrow("panned away");
    release();
    expect(Array.from((await other).data)).toEqual(reference(8, 16, 0, 8));
  });
});
