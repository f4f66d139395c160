// read() on every array of every committed fixture store (written by
// zarr-python 2, numcodecs, and from the registry's pages: see
// docs/development.md), opened through withDataTypes (and withN5) with
// zarrita 0.5, 0.6 and 0.7, against zarr.get of the same array: whole, a
// region, steps and an integer index. Where zarr.get refuses (a missing
// chunk whose fill zarrita 0.5 and 0.6 cannot write), read's values are
// held against zarrita 0.7's zarr.get instead, which fills it. And the
// arrays whose chunks read decodes itself must have taken that path.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import FileSystemStore from "@zarrita/storage/fs";
import { createChunkCache, createReadPool, read, ready, register, withDataTypes, withN5 } from "../../../js/index.js";
import { fixturePath } from "../support/fixtures.js";
import { cOrder, difference, pathsTaken } from "../support/read-compare.js";
import { ZARRITAS } from "../support/zarritas.js";

const zarr7 = ZARRITAS.find(([v]) => v.startsWith("0.7"))[1];

const STORES = [
  ["v2-big-endian.zarr", (s) => withDataTypes(s)],
  ["v2-data-types.zarr", (s) => withDataTypes(s)],
  ["v2-packbits.zarr", (s) => withDataTypes(s)],
  ["v2-records.zarr", (s) => withDataTypes(s)],
  ["v3-data-types.zarr", (s) => withDataTypes(s)],
  ["v3-numcodecs-packbits.zarr", (s) => withDataTypes(s)],
  ["v3-records.zarr", (s) => withDataTypes(s)],
  ["n5-store.n5", (s) => withN5(withDataTypes(s))],
  ["v2-bytes.zarr", (s) => withDataTypes(s)],
  ["v3-bytes.zarr", (s) => withDataTypes(s)],
];

// Arrays whose every chunk read must decode itself (none through zarrita):
// the package's codecs, N5 blocks, little-endian bytes, fills.
const VIA_ZARRITA_ALLOWED = new Set([
  "v2-big-endian.zarr/strings", // zarrita's own variable-length strings
  "v2-packbits.zarr/mask", // numcodecs' PackBits filter: an array -> array codec
  "v2-packbits.zarr/mask2d",
  "v2-packbits.zarr/aligned",
  "v3-numcodecs-packbits.zarr/mask",
]);

function arraysOf(name) {
  const file = name.endsWith(".n5") ? `${fixturePath(name)}/expected.json` : `${fixturePath(name)}/expected.json`;
  const expected = JSON.parse(readFileSync(file, "utf8"));
  return Object.keys(expected).filter((k) => !k.startsWith("_") && !expected[k].refused);
}

function selections(shape) {
  const mid = (n) => zarr7.slice(Math.floor(n / 4), Math.max(Math.floor(n / 4) + 1, Math.ceil((3 * n) / 4)));
  const out = [null, shape.map(mid), shape.map((n) => zarr7.slice(n > 1 ? 1 : 0, null, 2))];
  if (shape.length > 1) out.push([shape[0] - 1, ...shape.slice(1).map(() => null)]);
  return out;
}

// A 1-d selection of an array of byte strings, from the bytes numpy wrote
// for the whole array (expected.json's "raw").
function rawSelection(storeName, name, selection) {
  const expected = JSON.parse(readFileSync(`${fixturePath(storeName)}/expected.json`, "utf8"))[name];
  const raw = Buffer.from(expected.raw, "hex");
  const width = raw.length / expected.shape[0];
  const s = selection?.[0] ?? { start: null, stop: null, step: null };
  const out = [];
  for (let i = s.start ?? 0; i < (s.stop ?? expected.shape[0]); i += s.step ?? 1) out.push(...raw.subarray(i * width, (i + 1) * width));
  return out;
}

const rawBytesOf = (result) => Array.from(new Uint8Array(result.data.buffer, result.data.byteOffset, result.data.byteLength));

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

describe.each(STORES)("%s", (storeName, wrap) => {
  const names = arraysOf(storeName);

  describe.each(ZARRITAS)("zarrita %s", (version, zarr) => {
    test.each(names)("%s", async (name) => {
      const store = wrap(new FileSystemStore(fixturePath(storeName)));
      let arr;
      try {
        arr = await zarr.open(zarr.root(store).resolve(name), { kind: "array" });
      } catch {
        return; // refused at open (the data-type tests say why): nothing to read
      }
      if (arr.shape.length === 0) {
        // One value: zarrita 0.5 and 0.6 give 0 from zarr.get without
        // reading, so read is held against the chunk itself.
        const { data } = await arr.getChunk([]);
        const want = typeof data.get === "function" ? data.get(0) : data[0];
        expect(Object.is(await read(arr), want)).toBe(true);
        return;
      }
      const opened7 = () => zarr7.open(zarr7.root(wrap(new FileSystemStore(fixturePath(storeName)))).resolve(name), { kind: "array" });
      for (const selection of selections(arr.shape)) {
        let ours;
        let taken;
        try {
          ({ value: ours, taken } = await pathsTaken(() => read(arr, selection)));
        } catch (error) {
          // Refused by read as by zarr.get of every zarrita (a fill of
          // bytes that are no UTF-8: withDataTypes refuses the missing
          // chunk).
          expect(error.code).toBe("UNFILLABLE_CHUNK");
          await expect(zarr.get(arr, selection)).rejects.toThrow();
          continue;
        }
        let theirs;
        try {
          theirs = await zarr.get(arr, selection);
        } catch (error) {
          if (error.code === "UNFILLABLE_CHUNK" && /no UTF-8/.test(error.message)) {
            // Byte strings whose fill is no UTF-8: no zarrita can fill them
            // (withDataTypes refuses), read writes the fill's bytes; held
            // against the values numpy wrote (expected.json's raw bytes).
            expect(rawBytesOf(ours, arr)).toEqual(rawSelection(storeName, name, selection));
            continue;
          }
          // zarrita 0.5 and 0.6 cannot fill such a chunk, nor take an
          // integer index of a transposed array (zarrita #427, fixed in
          // 0.7): their 0.7 reading is the reference there.
          expect(`${error.cause?.code ?? error.code} ${error.message}`).toMatch(/UNFILLABLE_CHUNK|Order length must match/);
          expect(zarr).not.toBe(zarr7);
          theirs = await zarr7.get(await opened7(), selection);
        }
        expect(difference(ours, theirs)).toBe("");
        expect(ours.stride).toEqual(cOrder(ours.shape));
        // Arrays of JavaScript values (strings, variable-length types) are
        // zarrita's to decode; read places them value by value.
        const values = arr.dtype === "v2:object" || arr.dtype === "string";
        if (!values && !VIA_ZARRITA_ALLOWED.has(`${storeName}/${name}`)) expect(taken.viaZarrita).toBe(0);
      }
    });
  });
});

// With a chunk cache (docs/read.md, "Chunk cache"), every fixture array
// reads as without one, from a cold cache and again from what it kept:
// each chunk decoded whole (N5's edge blocks, packbits, records, strings,
// transposed and big-endian chunks) and then placed from the cache.
// Through a pool as well (every read of more than one value to the workers):
// their whole-chunk decodes fill the cache.
let pool;
afterAll(() => pool?.close());

describe.each(STORES)("%s with a chunk cache", (storeName, wrap) => {
  test.each(arraysOf(storeName).flatMap((name) => [[name, "in-thread"], [name, "pooled"]]))("%s, %s", async (name, how) => {
    if (how === "pooled") pool ??= createReadPool({ workers: 2, inThreadChunks: 0 });
    const through = how === "pooled" ? { pool } : {};
    const files = new FileSystemStore(fixturePath(storeName));
    let asked = 0; // what the cached reads ask the store for
    let counting = false;
    const count = () => (asked += counting ? 1 : 0);
    const store = wrap({
      get: (key, options) => (count(), files.get(key, options)),
      ...(files.getRange ? { getRange: (key, range, options) => (count(), files.getRange(key, range, options)) } : {}),
    });
    let arr;
    try {
      arr = await zarr7.open(zarr7.root(store).resolve(name), { kind: "array" });
    } catch {
      return; // refused at open: nothing to read
    }
    const cache = createChunkCache();
    const sel = arr.shape.length === 0 ? [null] : selections(arr.shape);
    let refused = false;
    for (let pass = 0; pass < 2; pass++) {
      asked = 0;
      for (const selection of sel) {
        let plain;
        try {
          plain = await read(arr, selection);
        } catch (error) {
          refused = true;
          await expect(read(arr, selection, { ...through, cache })).rejects.toMatchObject({ code: error.code });
          continue;
        }
        counting = true;
        const cached = await read(arr, selection, { ...through, cache });
        counting = false;
        if (arr.shape.length === 0) expect(Object.is(cached, plain)).toBe(true);
        else expect(difference(cached, plain)).toBe("");
      }
      // The first time the cache fetches the chunks; the second time,
      // every chunk comes from it.
      if (!refused) expect([pass, asked > 0]).toEqual([pass, pass === 0]);
    }
  });
});
