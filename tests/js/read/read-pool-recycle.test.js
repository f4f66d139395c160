// Pool workers give their memory back (js/pool/read-pool.js): a worker
// whose wasm memory grew by more than 16 MiB and then stayed idle for
// recycleIdleMs is ended (stats().recycled), and the next read starts a
// new one and reads right; a worker that did not grow stays warm. Workers
// report their wasm memory (stats().memoryBytes, perWorkerMemory).
import { beforeAll, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createReadPool, read, ready, register, ZarrCodecError } from "../../../js/index.js";
import { gzipImage, sameValues } from "../support/gzip-image.js";

const MiB = 2 ** 20;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// One chunk of 24 MiB: the worker's box alone grows its memory past 16 MiB.
// Rows of slowly changing values, quick to gzip.
let big;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  big = gzipImage({ shape: [3072, 8192], chunkShape: [3072, 8192], dataType: "uint8", value: (i) => ((i >> 13) + (i & 7)) & 255 });
});

async function until(condition, ms = 5000) {
  for (const start = Date.now(); !condition() && Date.now() - start < ms; ) await sleep(25);
  return condition();
}

test("a worker that grew is ended after recycleIdleMs idle, and the next read starts a new one", async () => {
  const image = big;
  const arr = await zarr.open(zarr.root(image.store).resolve("image"), { kind: "array" });
  const pool = createReadPool({ workers: 1, inThreadChunks: 0, recycleIdleMs: 200 });
  try {
    const first = await read(arr, null, { pool });
    expect(sameValues(first.data, image.values)).toBe(true);
    let stats = pool.stats();
    expect(stats).toMatchObject({ started: 1, alive: 1, recycled: 0, chunks: 1 });
    expect(stats.memoryBytes).toBeGreaterThanOrEqual(16 * MiB + 24 * MiB);
    expect(stats.perWorkerMemory).toEqual([stats.memoryBytes]);
    expect(await until(() => pool.stats().recycled === 1)).toBe(true);
    stats = pool.stats();
    expect(stats).toMatchObject({ alive: 0, failed: 0, memoryBytes: 0, perWorkerMemory: [null] });
    const second = await read(arr, null, { pool });
    expect(sameValues(second.data, image.values)).toBe(true);
    expect(pool.stats()).toMatchObject({ started: 2, alive: 1, failed: 0, chunks: 2 });
  } finally {
    await pool.close();
  }
}, 60000);

test("a worker that did not grow stays warm when idle", async () => {
  const image = gzipImage({ shape: [512, 512], chunkShape: [128, 128] });
  const arr = await zarr.open(zarr.root(image.store).resolve("image"), { kind: "array" });
  const pool = createReadPool({ workers: 1, inThreadChunks: 0, recycleIdleMs: 50 });
  try {
    expect(sameValues((await read(arr, null, { pool })).data, image.values)).toBe(true);
    await sleep(400);
    expect(pool.stats()).toMatchObject({ started: 1, alive: 1, recycled: 0 });
    expect(pool.stats().memoryBytes).toBeGreaterThan(0);
  } finally {
    await pool.close();
  }
});

test("recycleIdleMs: Infinity keeps a grown worker; anything but a delay is refused", async () => {
  expect(() => createReadPool({ recycleIdleMs: -1 })).toThrow(ZarrCodecError);
  expect(() => createReadPool({ recycleIdleMs: "1s" })).toThrow(/createReadPool: recycleIdleMs must be a whole number of milliseconds or Infinity, got/);
  const image = big;
  const arr = await zarr.open(zarr.root(image.store).resolve("image"), { kind: "array" });
  const pool = createReadPool({ workers: 1, inThreadChunks: 0, recycleIdleMs: Infinity });
  try {
    expect(sameValues((await read(arr, null, { pool })).data, image.values)).toBe(true);
    await sleep(300);
    expect(pool.stats()).toMatchObject({ alive: 1, recycled: 0 });
  } finally {
    await pool.close();
  }
}, 60000);
