// The byte-bounded cache of promises behind shard indexes and a chunk
// cache (js/read/bounded-cache.js): least recently used dropped
// first, entries on their way never dropped, a rejection not kept, and an
// entry past the bound alone dropped by itself, the others kept.
import { expect, test } from "@jest/globals";
import { BoundedCache, ENTRY_BYTES } from "../../../js/read/bounded-cache.js";

const settle = () => new Promise((resolve) => setImmediate(resolve));
const sized = (value) => value;

test("least recently used dropped first, within the bound", async () => {
  const cache = new BoundedCache(3 * (ENTRY_BYTES + 100));
  for (const key of ["a", "b", "c"]) cache.set(key, Promise.resolve(100), sized);
  await settle();
  cache.get("a"); // now the most recently used
  cache.set("d", Promise.resolve(100), sized);
  await settle();
  expect(cache.keys()).toEqual(["c", "a", "d"]);
  expect(cache.bytes).toBe(3 * (ENTRY_BYTES + 100));
  expect(cache.evictions).toBe(1);
});

test("an entry larger than the bound alone is not kept, and the others stay", async () => {
  const cache = new BoundedCache(1000);
  for (const key of ["a", "b", "c"]) cache.set(key, Promise.resolve(100), sized);
  await settle();
  const big = cache.set("big", Promise.resolve(5000), sized);
  expect(await big).toBe(5000); // the reads that wanted it have it
  await settle();
  expect(cache.keys()).toEqual(["a", "b", "c"]);
  expect(cache.bytes).toBe(3 * (ENTRY_BYTES + 100));
  expect(cache.evictions).toBe(1);
});

test("an entry on its way is never dropped; a rejection is not kept", async () => {
  const cache = new BoundedCache(0);
  let resolve;
  const pending = cache.set("on its way", new Promise((r) => (resolve = r)), sized);
  cache.trim();
  expect(cache.get("on its way")).toBe(pending);
  resolve(10);
  await settle();
  expect(cache.size).toBe(0); // settled, past a bound of 0: dropped
  const failed = cache.set("failed", Promise.reject(new Error("503")), sized);
  await expect(failed).rejects.toThrow("503");
  expect(cache.get("failed")).toBeUndefined();
});
