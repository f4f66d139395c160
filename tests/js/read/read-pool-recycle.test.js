// Pool workers give their memory back (js/pool/read-pool.js): a worker
// whose wasm memory grew by more than 16 MiB and then stayed idle for
// recycleIdleMs is ended (stats().recycled), and the next read starts a
// new one and reads right; a worker that did not grow stays warm. Workers
// report their wasm memory (stats().memoryBytes, perWorkerMemory). The
// idle timers (the pool's, and the calling thread's instance's) never keep
// a Node process alive.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
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

test("a Node process ends by itself with ten-minute idle timers armed, in-thread and pooled, the pool left open", async () => {
  const root = fileURLToPath(new URL("../../..", import.meta.url));
  const script = `
    import * as zarr from "zarrita";
    import { configureMemory, createReadPool, read, register } from "./js/index.js";
    register(zarr.registry);
    configureMemory({ recycleIdleMs: 600000 });
    const store = new Map();
    const arr = await zarr.create(zarr.root(store).resolve("a"), { shape: [64, 64], chunkShape: [16, 16], dtype: "uint16", codecs: [{ name: "bytes", configuration: { endian: "big" } }], fillValue: 0 });
    await zarr.set(arr, null, { data: new Uint16Array(4096).map((_, i) => i), shape: [64, 64], stride: [64, 1] });
    const inThread = await read(arr);
    const pool = createReadPool({ workers: 1, inThreadChunks: 0, recycleIdleMs: 600000 });
    const { data } = await read(arr, null, { pool });
    if (data[4095] !== 4095 || inThread.data[4095] !== 4095 || pool.stats().chunks !== 16) throw new Error("wrong");
    console.log("read");
  `;
  const t0 = Date.now();
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: root, timeout: 60000 });
  expect(stdout.trim()).toBe("read");
  expect(Date.now() - t0).toBeLessThan(60000);
}, 70000);
