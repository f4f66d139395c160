// The calling thread's instance replaced by a fresh one (js/wasm/recycle.js)
// once it grew and stayed idle: its memory comes back to a fresh
// instance's, codecs made before (directly, and inside zarrita's arrays
// through register) decode right after, the kernels' implementation
// carries over, and a replacement racing reads never breaks one: a read
// holds the instance, a replacement made meanwhile is dropped, and reads
// that start after it use the new one.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { BytesCodec, configureMemory, diagnostics, read, ready, register, ZarrCodecError } from "../../../js/index.js";
import { recycleNow } from "../../../js/wasm/recycle.js";
import { gzipImage, sameValues } from "../support/gzip-image.js";

const MiB = 2 ** 20;
let image;
let arr;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  image = gzipImage({ shape: [2048, 2048], chunkShape: [256, 256] });
  arr = await zarr.open(zarr.root(image.store).resolve("image"), { kind: "array" });
});

afterAll(() => {
  configureMemory({ readBudget: 64 * MiB, recycleIdleMs: 1000 });
  diagnostics().setImplementation("simd");
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Big-endian uint16, worked by hand: 0x1234, 0xabcd, 0x0001, 0xffff.
const BIG_ENDIAN = Uint8Array.of(0x12, 0x34, 0xab, 0xcd, 0x00, 0x01, 0xff, 0xff);
const VALUES = [0x1234, 0xabcd, 0x0001, 0xffff];

test("a grown instance is replaced after the idle delay; codecs made before it decode right after, and the implementation carries over", async () => {
  const d = diagnostics();
  configureMemory({ readBudget: Infinity, recycleIdleMs: 100 });
  const codec = BytesCodec.fromConfig({ endian: "big" }, { dataType: "uint16", shape: [4] });
  expect(Array.from((await codec.decode(BIG_ENDIAN)).data)).toEqual(VALUES);
  d.setImplementation("portable");
  const recyclesBefore = d.recycles();
  // Ten whole reads at once, no budget: 80 MiB of bands.
  const results = await Promise.all(Array.from({ length: 10 }, () => read(arr)));
  for (const r of results) expect(sameValues(r.data, image.values)).toBe(true);
  results.length = 0;
  expect(d.wasmMemoryBytes()).toBeGreaterThan(64 * MiB);
  for (let i = 0; i < 60 && d.recycles() === recyclesBefore; i++) await sleep(50);
  expect(d.recycles()).toBe(recyclesBefore + 1);
  // A fresh instance's memory (16 MiB when this was written) is back.
  expect(d.wasmMemoryBytes()).toBeLessThanOrEqual(32 * MiB);
  expect(d.implementation()).toBe("portable");
  // The codec made before binds again to the new instance.
  expect(Array.from((await codec.decode(BIG_ENDIAN)).data)).toEqual(VALUES);
  expect(d.liveInstances()).toBeGreaterThanOrEqual(1);
  // read's plan, made before, and zarr.get through the registered codecs.
  expect(sameValues((await read(arr)).data, image.values)).toBe(true);
  expect(sameValues((await zarr.get(arr)).data, image.values)).toBe(true);
  codec.dispose();
  await expect(Promise.resolve().then(() => codec.decode(BIG_ENDIAN))).rejects.toMatchObject({ code: "DISPOSED" });
  d.setImplementation("simd");
});

test("an instance that did not grow is kept when idle", async () => {
  const d = diagnostics();
  configureMemory({ readBudget: 64 * MiB, recycleIdleMs: 50 });
  await recycleNow(); // from a fresh instance
  const before = d.recycles();
  expect(sameValues((await read(arr, [zarr.slice(0, 256), null])).data, image.values.subarray(0, 256 * 2048))).toBe(true);
  await sleep(300);
  expect(d.recycles()).toBe(before);
});

test("a read holds the instance: a replacement asked for meanwhile is refused, and the read is right", async () => {
  const d = diagnostics();
  configureMemory({ readBudget: 64 * MiB, recycleIdleMs: Infinity });
  let open;
  const gate = new Promise((resolve) => {
    open = resolve;
  });
  const gated = {
    async get(key, options) {
      if (key.includes("/c/")) await gate;
      return image.store.get(key, options);
    },
  };
  const slow = await zarr.open(zarr.root(gated).resolve("image"), { kind: "array" });
  const before = d.recycles();
  const reading = read(slow);
  await sleep(20); // its bands are alive in the instance's memory
  expect(await recycleNow()).toBe(false);
  expect(d.recycles()).toBe(before);
  open();
  expect(sameValues((await reading).data, image.values)).toBe(true);
  expect(await recycleNow()).toBe(true);
  expect(d.recycles()).toBe(before + 1);
});

test("replacements racing reads as they start: every read right, whichever instance it got", async () => {
  const d = diagnostics();
  configureMemory({ readBudget: 64 * MiB, recycleIdleMs: Infinity });
  const codec = BytesCodec.fromConfig({ endian: "big" }, { dataType: "uint16", shape: [4] });
  const before = d.recycles();
  for (let delay = 0; delay < 8; delay++) {
    const replaced = recycleNow();
    for (let k = 0; k < delay; k++) await Promise.resolve();
    const reads = [read(arr), read(arr, [zarr.slice(300, 900), zarr.slice(100, 1900)]), codec.decode(BIG_ENDIAN)];
    const [whole, region, decoded] = await Promise.all(reads);
    await replaced;
    expect(sameValues(whole.data, image.values)).toBe(true);
    const want = new Uint16Array(600 * 1800);
    for (let y = 0; y < 600; y++) want.set(image.values.subarray((300 + y) * 2048 + 100, (300 + y) * 2048 + 1900), y * 1800);
    expect(sameValues(region.data, want)).toBe(true);
    expect(Array.from(decoded.data)).toEqual(VALUES);
  }
  // At least some replacements went through between the reads.
  expect(d.recycles()).toBeGreaterThan(before);
  codec.dispose();
});

test("configureMemory works before and after ready(), and refuses a delay that is not one", () => {
  expect(() => configureMemory({ recycleIdleMs: "1s" })).toThrow(ZarrCodecError);
  expect(configureMemory({ recycleIdleMs: 0 }).recycleIdleMs).toBe(0);
});
