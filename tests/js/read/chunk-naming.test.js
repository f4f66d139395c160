// How read names a chunk in its errors: a sharded array's chunks are inner
// chunks, named by their place in their shard and the shard's key ("inner
// chunk (0, 1) of shard c/1/0"), where on main at 4229392 "chunk c/0/1"
// read like a store key it was not. Unsharded chunks keep their key.
import { beforeAll, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createReadPool, read, ready, register } from "../../../js/index.js";
import { memoryStore, shard, v3Array } from "../support/memory-store.js";

beforeAll(async () => {
  await ready();
  register(zarr.registry);
});

// A 4 x 4 uint8 array of 2 x 2 shards of two 1 x 2 inner chunks (2 bytes
// each); in shard c/1/0, inner chunk (1, 0) holds 3 bytes instead of 2.
function store() {
  const inner = (n) => Uint8Array.from({ length: n }, (_, i) => i + 1);
  const good = shard([inner(2), inner(2)]);
  const bad = shard([inner(2), inner(3)]);
  const sharding = { name: "sharding_indexed", configuration: { chunk_shape: [1, 2], codecs: [{ name: "bytes" }], index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }] } };
  return memoryStore([
    ["/zarr.json", v3Array({ shape: [4, 4], chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 2] } }, codecs: [sharding] })],
    ["/c/0/0", good],
    ["/c/0/1", good],
    ["/c/1/0", bad],
    ["/c/1/1", good],
    ["/plain/zarr.json", v3Array({ shape: [4], chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } } })],
    ["/plain/c/0", Uint8Array.of(1, 2)],
    ["/plain/c/1", Uint8Array.of(1, 2, 3)],
  ]);
}

test.each([["on this thread", () => ({})], ["in a pool", (pool) => ({ pool })]])("%s: a sharded array's inner chunk, by its place in its shard", async (_, options) => {
  const pool = createReadPool({ workers: 1, inThreadChunks: 0 });
  try {
    const arr = await zarr.open(zarr.root(store()), { kind: "array" });
    const error = await read(arr, null, options(pool)).then(
      () => undefined,
      (e) => e,
    );
    expect(error?.code).toBe("LENGTH_MISMATCH");
    // Array row 3 is the second row of shard row 1: inner chunk (3, 0) of the array is (1, 0) of shard c/1/0.
    expect(error.message).toMatch(/^read: inner chunk \(1, 0\) of shard c\/1\/0 of array \/: the chunk's decoded bytes should be 2, got 3$/);
  } finally {
    await pool.close();
  }
});

test("an unsharded array's chunk, by its key", async () => {
  const arr = await zarr.open(zarr.root(store()).resolve("plain"), { kind: "array" });
  const error = await read(arr, null).then(
    () => undefined,
    (e) => e,
  );
  expect(error?.code).toBe("LENGTH_MISMATCH");
  expect(error.message).toMatch(/^read: chunk c\/1 of array \/plain: /);
});
