// Work that reads share (a chunk a chunk cache fetches once, the plan of
// an array, a shard index, a coalesced range) ends each read's wait at
// that read's own abort, and at no other read's; the work itself stops
// only once every read waiting on it has aborted. And a read listens to
// its signal once, however many chunks it waits on, and 100 reads given
// one signal add no warning either. On main at 4229392: a read that
// joined a cached chunk's fetch stayed pending after its abort; aborting
// the read that made an array's plan failed the reads that joined it with
// its AbortError; a sharded read of 11 or more inner chunks with a signal
// printed MaxListenersExceededWarning.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import { createChunkCache, read, ready, register } from "../../../js/index.js";
import { selectReference, writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 128;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 13 + 5) & 0xffff);
const floats = Float32Array.from({ length: 64 * 64 }, (_, i) => i / 8);
let server;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  const common = { values, dataType: "uint16", shape: [side, side], fillValue: 0, fillElement: Uint16Array.of(0) };
  writeArray(files, "/plain", { ...common, chunkShape: [32, 32] });
  // 1 shard of 128 x 128: 64 inner chunks of 16 x 16.
  writeArray(files, "/sharded", { ...common, chunkShape: [128, 128], sharding: { chunkShape: [16, 16] } });
  // A NaN fill: read's plan reads the array's zarr.json for its bits.
  writeArray(files, "/nan-fill", { values: floats, dataType: "float32", shape: [64, 64], chunkShape: [32, 32], fillValue: "NaN", fillElement: Float32Array.of(NaN) });
  server = await startNetworkServer(files);
});
afterAll(() => server?.close());
afterEach(() => server.release());

const s = zarr.slice;
const open = (path) => zarr.open(zarr.root(new zarr.FetchStore(server.url)).resolve(path), { kind: "array" });
const arrived = async (path) => {
  for (let i = 0; i < 200 && !server.requests().some((r) => r.path === path); i++) await new Promise((r) => setTimeout(r, 5));
  expect(server.requests().some((r) => r.path === path)).toBe(true);
};
// How a promise settles within `ms`: "pending", or its outcome.
const within = (promise, ms) =>
  Promise.race([
    promise.then(
      () => "resolved",
      (e) => `rejected: ${e?.name}`,
    ),
    new Promise((r) => setTimeout(() => r("pending"), ms)),
  ]);
function expected(r0, r1, c0, c1, from = values, width = side) {
  return Array.from(selectReference(from, [from.length / width, width], [[r0, r1, 1], [c0, c1, 1]]).data);
}

describe("a chunk cache's shared fetch", () => {
  test("a read that joined another's fetch ends at its own abort, at once; the other read goes on", async () => {
    const arr = await open("plain");
    const cache = createChunkCache();
    server.reset();
    server.stall("/plain/c/0/0");
    const a = read(arr, [s(0, 32), s(0, 32)], { cache });
    await arrived("/plain/c/0/0");
    const b = new AbortController();
    const joined = read(arr, [s(0, 16), s(0, 16)], { cache, signal: b.signal });
    await new Promise((r) => setTimeout(r, 20));
    b.abort();
    expect(await within(joined, 200)).toBe("rejected: AbortError");
    expect(await within(a, 50)).toBe("pending");
    server.release();
    expect(Array.from((await a).data)).toEqual(expected(0, 32, 0, 32));
    // One request, for both reads.
    expect(server.requests().filter((r) => r.path === "/plain/c/0/0")).toHaveLength(1);
  });

  test("the read that started the fetch aborts: one that joined without a signal still gets its values, from the same request", async () => {
    const arr = await open("plain");
    const cache = createChunkCache();
    server.reset();
    server.stall("/plain/c/0/1");
    const first = new AbortController();
    const a = read(arr, [s(0, 32), s(32, 64)], { cache, signal: first.signal });
    await arrived("/plain/c/0/1");
    const b = read(arr, [s(0, 32), s(32, 64)], { cache });
    await new Promise((r) => setTimeout(r, 20));
    first.abort();
    expect(await within(a, 200)).toBe("rejected: AbortError");
    server.release();
    expect(Array.from((await b).data)).toEqual(expected(0, 32, 32, 64));
    expect(server.requests().filter((r) => r.path === "/plain/c/0/1")).toHaveLength(1);
  });
});

describe("an array's plan, made for every read waiting on it", () => {
  test("aborting the read that started it does not fail a read that joined it without a signal", async () => {
    const arr = await open("nan-fill");
    server.reset();
    server.stall("/nan-fill/zarr.json");
    const first = new AbortController();
    const a = read(arr, [s(0, 32), s(0, 32)], { signal: first.signal });
    await arrived("/nan-fill/zarr.json");
    const b = read(arr, [s(0, 32), s(32, 64)]);
    first.abort();
    expect(await within(a, 200)).toBe("rejected: AbortError");
    server.release();
    expect(Array.from((await b).data)).toEqual(expected(0, 32, 32, 64, floats, 64));
  });

  test("a read that joined it ends at its own abort before the plan is made", async () => {
    const arr = await open("nan-fill");
    server.reset();
    server.stall("/nan-fill/zarr.json");
    const a = read(arr, [s(0, 32), s(0, 32)]);
    await arrived("/nan-fill/zarr.json");
    const second = new AbortController();
    const b = read(arr, [s(32, 64), s(0, 32)], { signal: second.signal });
    second.abort();
    expect(await within(b, 200)).toBe("rejected: AbortError");
    server.release();
    expect(Array.from((await a).data)).toEqual(expected(0, 32, 0, 32, floats, 64));
  });
});

describe("one abort listener per signal", () => {
  // Node prints "MaxListenersExceededWarning: Possible EventTarget memory
  // leak detected. 11 abort listeners added to [AbortSignal]" on its own
  // process, which a Jest test's `process` does not show: the reads run in
  // a process of their own (support/abort-listeners-probe.mjs).
  test("a sharded read of 64 inner chunks, a cached read, and 100 reads sharing one signal: no warning, values right", () => {
    const probe = fileURLToPath(new URL("../support/abort-listeners-probe.mjs", import.meta.url));
    const out = execFileSync(process.execPath, [probe], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    const { warnings, checked } = JSON.parse(out.trim().split("\n").at(-1));
    expect(warnings).toEqual([]);
    expect(checked).toBe(102);
  });
});
