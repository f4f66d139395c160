// The read budget (js/read/place/scratch-budget.js, configureMemory): the bands
// that concurrent reads hold in wasm memory never add up to more than it,
// reads beyond it wait their turn and all read right (against the values
// the image was written from, and zarr.get), a band larger than the whole
// budget still reads (alone), and a read aborted while it waits leaves the
// queue with its signal's reason, taking nothing.
import { afterEach, beforeAll, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { configureMemory, diagnostics, read, ready, register, ZarrCodecError } from "../../../js/index.js";
import { gzipImage, sameValues } from "../support/gzip-image.js";

const MiB = 2 ** 20;
const DEFAULTS = { readBudget: 64 * MiB, recycleIdleMs: 1000 };
// 2048 x 2048 uint16 in 256 x 256 chunks: each row of chunks is one band
// of 256 rows x 4096 bytes = 1 MiB, a whole read 8 MiB.
const IMAGE = { shape: [2048, 2048], chunkShape: [256, 256] };
let image;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  // No recycling here: the wasm memory measured is one instance's.
  configureMemory({ recycleIdleMs: Infinity });
  image = gzipImage(IMAGE);
});

afterEach(() => {
  configureMemory(DEFAULTS);
});

const openImage = (store = image.store) => zarr.open(zarr.root(store).resolve("image"), { kind: "array" });

test("the documented defaults: a budget of 64 MiB, an idle second before recycling", () => {
  configureMemory(DEFAULTS);
  expect(configureMemory()).toEqual({ readBudget: 64 * MiB, recycleIdleMs: 1000 });
});

test("eight concurrent whole reads under a 3 MiB budget: bands never hold more, wasm grows by at most the budget and one chunk's buffers, every value right", async () => {
  const arr = await openImage();
  const budget = 3 * MiB;
  configureMemory({ readBudget: budget, recycleIdleMs: Infinity });
  const d = diagnostics();
  d.readScratch(true);
  const before = d.wasmMemoryBytes();
  let mostWaiting = 0;
  const onProgress = () => {
    mostWaiting = Math.max(mostWaiting, d.readScratch().waiting);
  };
  const results = await Promise.all(Array.from({ length: 8 }, () => read(arr, null, { onProgress })));
  const scratch = d.readScratch();
  // 8 reads x 8 bands of 1 MiB: at most 3 alive at once, the others waited.
  expect(scratch.peakBytes).toBeLessThanOrEqual(budget);
  expect(scratch.peakBytes).toBe(3 * MiB);
  expect(mostWaiting).toBeGreaterThan(0);
  expect(scratch.heldBytes).toBe(0);
  expect(scratch.waiting).toBe(0);
  // The slack (docs/read.md): one frame and one decoded chunk per instance
  // (128 KiB each here) and the allocator's rounding, within 2 MiB.
  expect(d.wasmMemoryBytes() - before).toBeLessThanOrEqual(budget + 2 * MiB);
  const viaZarrita = await zarr.get(arr);
  for (const r of results) {
    expect(r.shape).toEqual(IMAGE.shape);
    expect(sameValues(r.data, image.values)).toBe(true);
  }
  expect(sameValues(viaZarrita.data, image.values)).toBe(true);
});

test("with no budget (Infinity) the same reads hold many bands at once: the budget is what bounds them", async () => {
  const arr = await openImage();
  configureMemory({ readBudget: Infinity, recycleIdleMs: Infinity });
  const d = diagnostics();
  d.readScratch(true);
  const results = await Promise.all(Array.from({ length: 8 }, () => read(arr)));
  expect(d.readScratch().peakBytes).toBeGreaterThan(8 * MiB);
  for (const r of results) expect(sameValues(r.data, image.values)).toBe(true);
});

test("a band larger than the whole budget still reads, alone: three reads under a budget of 1000 bytes", async () => {
  const arr = await openImage();
  configureMemory({ readBudget: 1000, recycleIdleMs: Infinity });
  const d = diagnostics();
  d.readScratch(true);
  const results = await Promise.all([read(arr), read(arr, [zarr.slice(0, 700), null]), read(arr)]);
  expect(d.readScratch().peakBytes).toBe(1 * MiB);
  expect(sameValues(results[0].data, image.values)).toBe(true);
  expect(sameValues(results[1].data, image.values.subarray(0, 700 * 2048))).toBe(true);
  expect(sameValues(results[2].data, image.values)).toBe(true);
});

// A store whose chunk fetches wait until opened: a read on it takes its
// first band at once and holds it while its chunks are on their way.
function gatedStore(store) {
  let open;
  const gate = new Promise((resolve) => {
    open = resolve;
  });
  return {
    open,
    store: {
      async get(key, options) {
        if (key.includes("/c/")) await gate;
        return store.get(key, options);
      },
    },
  };
}

const turns = (n) => new Promise((resolve) => setTimeout(resolve, n));

test("a read aborted while it waits for the budget rejects with its signal's reason and takes nothing; the read that held the budget reads right", async () => {
  const gated = gatedStore(image.store);
  const holder = await openImage(gated.store);
  const waiter = await openImage();
  configureMemory({ readBudget: 1 * MiB, recycleIdleMs: Infinity });
  const d = diagnostics();
  const first = read(holder);
  await turns(20);
  expect(d.readScratch().heldBytes).toBe(1 * MiB);
  const controller = new AbortController();
  const second = read(waiter, null, { signal: controller.signal });
  const outcome = second.then(() => "resolved", (error) => error);
  await turns(50); // its chunks are fetched and waiting for a band
  // Waiting: the holder's next band, then the second read's first.
  expect(d.readScratch().waiting).toBe(2);
  const reason = new Error("the viewer scrolled away");
  controller.abort(reason);
  expect(await outcome).toBe(reason);
  expect(d.readScratch()).toMatchObject({ heldBytes: 1 * MiB, waiting: 1 });
  gated.open();
  const result = await first;
  expect(sameValues(result.data, image.values)).toBe(true);
  expect(d.readScratch()).toMatchObject({ heldBytes: 0, waiting: 0 });
});

test("bands waiting for the budget are served first come, first served: a later read's band never passes an earlier one's", async () => {
  const gated = gatedStore(image.store);
  const holder = await openImage(gated.store);
  const arr = await openImage();
  configureMemory({ readBudget: 1 * MiB, recycleIdleMs: Infinity });
  const first = read(holder);
  await turns(20);
  // Each read's first chunk placed marks its first band granted.
  const order = [];
  const firstPlaced = (name) => ({ done }) => done === 1 && order.push(name);
  const second = read(arr, [zarr.slice(0, 512), null], { onProgress: firstPlaced("second") });
  await turns(20);
  const third = read(arr, [zarr.slice(0, 256), null], { onProgress: firstPlaced("third") });
  await turns(20);
  expect(order).toEqual([]);
  gated.open();
  const [, a, b] = await Promise.all([first, second, third]);
  expect(order).toEqual(["second", "third"]);
  expect(sameValues(a.data, image.values.subarray(0, 512 * 2048))).toBe(true);
  expect(sameValues(b.data, image.values.subarray(0, 256 * 2048))).toBe(true);
});

test("configureMemory refuses what is not a budget or a delay", () => {
  for (const options of [{ readBudget: 0 }, { readBudget: -1 }, { readBudget: 1.5 }, { readBudget: "64MiB" }, { recycleIdleMs: -1 }, { recycleIdleMs: NaN }]) {
    expect(() => configureMemory(options)).toThrow(ZarrCodecError);
  }
  expect(() => configureMemory(null)).toThrow(/configureMemory: options must be an object, got null/);
  expect(() => configureMemory({ readBudget: 0 })).toThrow(/readBudget must be an integer >= 1 or Infinity, got 0/);
});
