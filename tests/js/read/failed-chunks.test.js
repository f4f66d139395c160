// read(arr, selection, { chunkErrors: "fill" }): a chunk whose fetch or
// decode fails is filled and reported in the result's failedChunks; every
// other chunk reads as written. Checked on the calling thread and in a
// pool, for the band, direct and shard paths, against the values written
// by hand (hand-store.js) with the failed chunk's region set to the fill
// element by element (selectReference).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createReadPool, read, ready, register, ZarrCodecError } from "../../../js/index.js";
import { writeArray, selectReference } from "../support/hand-store.js";
import { memoryStore } from "../support/memory-store.js";
import { expectCodecRejection } from "../support/expect-error.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 64;
const shape = [side, side];
const FILL = 7;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 40503) & 0xffff);
let pool;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  pool = createReadPool({ workers: 2, inThreadChunks: 0 });
});
afterAll(() => pool?.close());

// A store of `files` whose get and getRange of `failing` keys throw (a
// failed fetch), and whose `corrupt` keys hold garbage (a failed decode).
function storeOf(files, { failing = [], corrupt = [] } = {}) {
  const store = memoryStore([...files]);
  for (const key of corrupt) store.files.set(key, Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8, 9));
  const { get, getRange } = store;
  store.get = async (key, ...rest) => {
    if (failing.includes(key)) throw new Error(`store failed on ${key}`);
    return get.call(store, key, ...rest);
  };
  store.getRange = async (key, range, ...rest) => {
    if (failing.includes(`${key}@${range.offset}`)) throw new Error(`store failed on ${key} at ${range.offset}`);
    return getRange.call(store, key, range, ...rest);
  };
  return store;
}

function written(options) {
  const files = new Map();
  writeArray(files, "/a", { values, dataType: "uint16", shape, fillValue: FILL, fillElement: Uint16Array.of(FILL), ...options });
  return files;
}

/** The values written, with chunks `failed` (of `chunkShape`) filled. */
function expectedWith(failed, chunkShape) {
  const out = values.slice();
  for (const [cr, cc] of failed) {
    for (let r = cr * chunkShape[0]; r < (cr + 1) * chunkShape[0]; r++) {
      for (let c = cc * chunkShape[1]; c < (cc + 1) * chunkShape[1]; c++) out[r * side + c] = FILL;
    }
  }
  return out;
}

const open = (store) => zarr.open(zarr.root(store).resolve("a"), { kind: "array" });
const s = zarr.slice;

describe.each([
  ["on the calling thread", () => ({})],
  ["in a pool", () => ({ pool })],
])("chunkErrors: \"fill\" %s", (_, extra) => {
  test.each([
    ["gzip chunks (decoded in bands)", { chunkShape: [16, 16], compressors: ["gzip"] }],
    ["little-endian chunks (copied directly)", { chunkShape: [16, 64] }],
  ])("a corrupt chunk of %s is filled and reported, the rest read as written", async (__, layout) => {
    const store = storeOf(written(layout), { corrupt: ["/a/c/1/0"] });
    const arr = await open(store);
    const got = await read(arr, null, { chunkErrors: "fill", ...extra() });
    expect(Array.from(got.data)).toEqual(Array.from(expectedWith([[1, 0]], layout.chunkShape)));
    expect(got.failedChunks.map((f) => f.chunk)).toEqual([[1, 0]]);
    expect(got.failedChunks[0].error).toBeInstanceOf(ZarrCodecError);
    expect(got.failedChunks[0].error.message).toContain("c/1/0");
    // Without the option the same read rejects with that error.
    await expectCodecRejection(read(arr, null, extra()), got.failedChunks[0].error.code, got.failedChunks[0].error.message);
  });

  test("a chunk the store fails to fetch is filled and reported with the store's error", async () => {
    const store = storeOf(written({ chunkShape: [16, 16], compressors: ["gzip"] }), { failing: ["/a/c/2/3", "/a/c/0/1"] });
    const arr = await open(store);
    const got = await read(arr, [s(8, 56), s(4, 60)], { chunkErrors: "fill", ...extra() });
    const all = await read(await open(storeOf(written({ chunkShape: [16, 16], compressors: ["gzip"] }))), null);
    const reference = selectReference(expectedWith([[2, 3], [0, 1]], [16, 16]), shape, [[8, 56, 1], [4, 60, 1]]);
    expect(Array.from(got.data)).toEqual(Array.from(reference.data));
    expect(got.failedChunks.map((f) => f.chunk).sort()).toEqual([[0, 1], [2, 3]]);
    expect(got.failedChunks.map((f) => f.error.message).sort()).toEqual(["store failed on /a/c/0/1", "store failed on /a/c/2/3"]);
    expect(Array.from(all.data)).toEqual(Array.from(values));
  });
});

test("a sharded array: only the inner chunk whose range fails is filled", async () => {
  const files = written({ chunkShape: [32, 32], sharding: { chunkShape: [16, 16] }, compressors: ["gzip"] });
  // The offset of inner chunk (0, 1) of shard c/1/1, from the index at the shard's end.
  const shardBytes = files.get("/a/c/1/1");
  const index = new DataView(shardBytes.buffer, shardBytes.byteOffset + shardBytes.byteLength - (16 * 4 + 4), 16 * 4);
  const offset = Number(index.getBigUint64(16 * 1, true));
  const store = storeOf(files, { failing: [`/a/c/1/1@${offset}`] });
  const arr = await open(store);
  const got = await read(arr, null, { chunkErrors: "fill", coalesce: false });
  expect(got.failedChunks.map((f) => f.chunk)).toEqual([[2, 3]]);
  expect(Array.from(got.data)).toEqual(Array.from(expectedWith([[2, 3]], [16, 16])));
});

test("over HTTP: a chunk the server keeps failing (500) is filled, the others read", async () => {
  const files = written({ chunkShape: [32, 32], compressors: ["gzip"] });
  const server = await startNetworkServer(files);
  try {
    const arr = await open(new zarr.FetchStore(server.url));
    server.fail("/a/c/0/1", ...new Array(10).fill("500"));
    const got = await read(arr, null, { chunkErrors: "fill", retry: false });
    expect(got.failedChunks.map((f) => f.chunk)).toEqual([[0, 1]]);
    expect(Array.from(got.data)).toEqual(Array.from(expectedWith([[0, 1]], [32, 32])));
  } finally {
    await server.close();
  }
});

test("not a chunk's failure: an abort rejects, a scalar read rejects, a bad option is refused", async () => {
  const store = storeOf(written({ chunkShape: [16, 16], compressors: ["gzip"] }), { corrupt: ["/a/c/0/0"] });
  const arr = await open(store);
  const controller = new AbortController();
  controller.abort(new Error("stale viewport"));
  await expect(read(arr, null, { chunkErrors: "fill", signal: controller.signal })).rejects.toThrow("stale viewport");
  // One value has no viewport to keep: its chunk's failure is the read's.
  await expect(read(arr, [3, 4], { chunkErrors: "fill" })).rejects.toBeInstanceOf(ZarrCodecError);
  expect(await read(arr, [20, 4], { chunkErrors: "fill" })).toBe(values[20 * side + 4]);
  await expectCodecRejection(read(arr, null, { chunkErrors: "ignore" }), "INVALID_INPUT", 'read: chunkErrors must be "reject" or "fill", got "ignore"');
  // "reject", the default, gives no failedChunks.
  const fine = await read(arr, [s(16, 32), null], { chunkErrors: "reject" });
  expect(fine.failedChunks).toBeUndefined();
});
