// read(arr, selection, { pool }) against read on the calling thread, value
// for value: every array of the committed fixture stores (withDataTypes'
// types, records, N5 through withN5, v2 shuffle), arrays written by hand
// (tests/js/support/hand-store.js: packbits, both byte orders, transposed,
// sharded, missing chunks with every kind of fill) checked against their
// written values too, step selections, and `into` on a plain and on a
// SharedArrayBuffer. The pool must have decoded what it can (its stats),
// and left the rest (JS codecs, strings) to the calling thread.
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { createReadPool, diagnostics, read, ready, register, withDataTypes, withN5 } from "../../../js/index.js";
import { fixturePath } from "../support/fixtures.js";
import { selectReference, writeArray } from "../support/hand-store.js";
import { memoryStore } from "../support/memory-store.js";
import { cOrder, difference } from "../support/read-compare.js";
import { bytesOf, randomBytes } from "../support/reference.js";

jest.setTimeout(120000);

let pool;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  // Every read through the workers, tiles too (by default a read of up to
  // four chunks decodes on the calling thread).
  pool = createReadPool({ workers: 2, inThreadChunks: 0 });
});

afterAll(() => pool?.close());

/** Pooled reads of `arr` (plain and shared output) against in-thread, for `selection`. */
async function samePooled(arr, selection) {
  const theirs = await read(arr, selection);
  const plain = await read(arr, selection, { pool });
  expect(difference(plain, theirs)).toBe("");
  expect(plain.stride).toEqual(cOrder(plain.shape));
  if (typeof plain.data?.buffer?.byteLength === "number") {
    const shared = await read(arr, selection, { pool, useSharedArrayBuffer: true });
    expect(shared.data.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(difference(shared, theirs)).toBe("");
  }
  return theirs;
}

function selections(shape) {
  const mid = (n) => zarr.slice(Math.floor(n / 4), Math.max(Math.floor(n / 4) + 1, Math.ceil((3 * n) / 4)));
  const out = [null, shape.map(mid), shape.map((n) => zarr.slice(n > 1 ? 1 : 0, null, 2))];
  if (shape.length > 1) out.push([shape[0] - 1, ...shape.slice(1).map(() => null)]);
  return out;
}

const FIXTURES = [
  ["v2-big-endian.zarr", (s) => withDataTypes(s)],
  ["v2-data-types.zarr", (s) => withDataTypes(s)],
  ["v2-filters.zarr", (s) => withDataTypes(s)],
  ["v2-records.zarr", (s) => withDataTypes(s)],
  ["v3-data-types.zarr", (s) => withDataTypes(s)],
  ["v3-records.zarr", (s) => withDataTypes(s)],
  ["n5-store.n5", (s) => withN5(withDataTypes(s))],
  ["v3-bytes.zarr", (s) => withDataTypes(s)],
];

function arraysOf(name) {
  const expected = JSON.parse(readFileSync(`${fixturePath(name)}/expected.json`, "utf8"));
  return Object.keys(expected).filter((k) => !k.startsWith("_") && !expected[k].refused);
}

describe.each(FIXTURES)("every array of %s, pooled and in-thread alike", (storeName, wrap) => {
  test("whole, a region, steps and an integer index", async () => {
    const store = wrap(new FileSystemStore(fixturePath(storeName)));
    const before = pool.stats();
    let compared = 0;
    for (const name of arraysOf(storeName)) {
      let arr;
      try {
        // withN5 presents v3 metadata: opened as such (zarr.open asks for
        // .zarray first, which withDataTypes answers with NOT_FOUND).
        const open = storeName.endsWith(".n5") ? zarr.open.v3 : zarr.open;
        arr = await open(zarr.root(store).resolve(name), { kind: "array" });
      } catch {
        continue; // refused at open (the data-type tests say why)
      }
      for (const selection of arr.shape.length ? selections(arr.shape) : [null]) {
        let theirs;
        try {
          theirs = await read(arr, selection);
        } catch (error) {
          // What read refuses in-thread, it refuses pooled, in the same words.
          await expect(read(arr, selection, { pool })).rejects.toMatchObject({ code: error.code, message: error.message });
          continue;
        }
        if (theirs !== null && typeof theirs === "object") await samePooled(arr, selection);
        else expect(Object.is(await read(arr, selection, { pool }), theirs)).toBe(true);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(0);
    // Workers decoded chunks of every store (each holds arrays of the
    // package's codecs without JS compressors).
    expect(pool.stats().jobs).toBeGreaterThan(before.jobs);
  });
});

// ---- arrays written by hand ----------------------------------------------------

function values(ArrayType, n, seed, map = (v) => v) {
  const raw = randomBytes(n * ArrayType.BYTES_PER_ELEMENT, seed);
  const out = new ArrayType(raw.buffer);
  for (let i = 0; i < n; i++) out[i] = map(out[i], i);
  return out;
}
const product = (v) => v.reduce((a, b) => a * b, 1);

const HAND = {
  packbits_12bit_missing: () => {
    const shape = [37, 53];
    return { shape, chunkShape: [8, 16], dataType: "uint16", values: values(Uint16Array, product(shape), 1, (x) => x & 0xfff),
      fillValue: 9, fillElement: Uint16Array.of(9), arrayToBytes: { name: "packbits", bits: 12 }, missing: (c) => (c[0] + c[1]) % 4 === 1 };
  },
  big_endian_int16_transposed: () => {
    const shape = [37, 53];
    return { shape, chunkShape: [16, 8], dataType: "int16", values: values(Int16Array, product(shape), 2), fillValue: -3,
      fillElement: Int16Array.of(-3), order: [1, 0], arrayToBytes: { name: "bytes", endian: "big" } };
  },
  big_endian_float32_3d_transposed_missing: () => {
    const shape = [5, 9, 11];
    return { shape, chunkShape: [2, 4, 3], dataType: "float32", values: values(Float32Array, product(shape), 3), fillValue: "NaN",
      fillElement: Float32Array.of(NaN), order: [2, 0, 1], arrayToBytes: { name: "bytes", endian: "big" }, missing: (c) => (c[0] + c[1] + c[2]) % 3 === 0 };
  },
  little_endian_float64_missing: () => {
    const shape = [23, 19];
    return { shape, chunkShape: [5, 6], dataType: "float64", values: values(Float64Array, product(shape), 4), fillValue: 2.5,
      fillElement: Float64Array.of(2.5), missing: (c) => (c[0] * 7 + c[1]) % 4 === 1 };
  },
  bool_packbits: () => {
    const shape = [33, 17];
    return { shape, chunkShape: [8, 8], dataType: "bool", values: values(Uint8Array, product(shape), 5, (x) => x & 1), fillValue: true,
      fillElement: Uint8Array.of(1), arrayToBytes: { name: "packbits", bits: 1, isBool: true }, missing: (c) => c[0] === 1 };
  },
  sharded_uint8_missing_inner: () => {
    const shape = [40, 30];
    return { shape, chunkShape: [16, 16], sharding: { chunkShape: [4, 8] }, dataType: "uint8", values: values(Uint8Array, product(shape), 6),
      fillValue: 7, fillElement: Uint8Array.of(7), missing: (c) => (c[0] + 2 * c[1]) % 5 === 0 };
  },
  sharded_big_endian_int32_transposed_index_at_start: () => {
    const shape = [21, 18];
    return { shape, chunkShape: [8, 12], sharding: { chunkShape: [4, 6], indexLocation: "start" }, dataType: "int32",
      values: values(Int32Array, product(shape), 7), fillValue: 0, fillElement: Int32Array.of(0), order: [1, 0], arrayToBytes: { name: "bytes", endian: "big" } };
  },
  big_endian_uint64: () => {
    const shape = [9, 13];
    return { shape, chunkShape: [4, 5], dataType: "uint64", values: values(BigUint64Array, product(shape), 8), fillValue: 0,
      fillElement: BigUint64Array.of(0n), arrayToBytes: { name: "bytes", endian: "big" } };
  },
  int4_packbits_presented: () => {
    const shape = [17, 11];
    return { shape, chunkShape: [5, 4], dataType: "int4", values: values(Int8Array, product(shape), 9, (x) => (x << 28) >> 28), fillValue: -2,
      fillElement: Int8Array.of(-2), arrayToBytes: { name: "packbits", bits: 4 }, missing: (c) => c[1] === 2, presented: true };
  },
};

function withFills(c) {
  if (!c.missing) return c;
  const chunk = c.sharding ? c.sharding.chunkShape : c.chunkShape;
  const n = product(c.shape);
  const index = new Array(c.shape.length).fill(0);
  for (let i = 0; i < n; i++) {
    if (c.missing(index.map((v, k) => Math.floor(v / chunk[k])))) c.values[i] = c.fillElement[0];
    for (let k = c.shape.length - 1; k >= 0 && ++index[k] === c.shape[k]; k--) index[k] = 0;
  }
  return c;
}

function handSelections(shape) {
  return [
    [null, null],
    [shape.map((n) => zarr.slice(Math.floor(n / 3), n - 1)), shape.map((n) => [Math.floor(n / 3), n - 1, 1])],
    [shape.map((n) => zarr.slice(1, n, 3)), shape.map((n) => [1, n, 3])],
    [[-1, ...shape.slice(1).map((n) => zarr.slice(2, n, 2))], [shape[0] - 1, ...shape.slice(1).map((n) => [2, n, 2])]],
  ];
}

describe.each(Object.keys(HAND))("%s", (name) => {
  const c = withFills(HAND[name]());
  const map = new Map();
  writeArray(map, "/a", c);

  test("the values written, pooled as in-thread, into plain and shared arrays, every chunk in a worker", async () => {
    const base = memoryStore([...map]);
    const arr = await zarr.open(zarr.root(c.presented ? withDataTypes(base) : base).resolve("a"), { kind: "array" });
    const before = pool.stats();
    const counts = diagnostics().reads();
    for (const [given, ranges] of handSelections(c.shape)) {
      const selection = given?.every((s) => s === null) ? null : given;
      const theirs = await samePooled(arr, selection);
      const want = selectReference(c.values, c.shape, ranges);
      const data = theirs.data.constructor.name === "BoolArray" ? new Uint8Array(theirs.data.buffer) : theirs.data;
      expect(theirs.shape).toEqual(want.shape);
      expect(Buffer.compare(Buffer.from(bytesOf(data)), Buffer.from(bytesOf(want.data)))).toBe(0);
      // into: plain and shared, each filled by the pool.
      const Container = theirs.data.constructor;
      const length = theirs.data.length;
      const plainInto = new Container(length);
      const sharedInto = Container.name === "BoolArray" ? new Container(new SharedArrayBuffer(length)) : new Container(new SharedArrayBuffer(length * Container.BYTES_PER_ELEMENT));
      for (const into of [plainInto, sharedInto]) {
        const got = await read(arr, selection, { pool, into });
        expect(got.data).toBe(into);
        expect(difference(got, theirs)).toBe("");
      }
    }
    const after = pool.stats();
    expect(after.inThread).toBe(before.inThread);
    expect(after.shared).toBeGreaterThan(before.shared);
    expect(after.transferred).toBeGreaterThan(before.transferred);
    expect(diagnostics().reads().viaZarrita).toBe(counts.viaZarrita);
  });
});

test("numcodecs' Shuffle filter (the package's own codec) is decoded in the workers", async () => {
  const store = withDataTypes(new FileSystemStore(fixturePath("v2-filters.zarr")));
  for (const name of ["c8_shuffle", "f2_shuffle"]) {
    const arr = await zarr.open.v2(zarr.root(store).resolve(name), { kind: "array" });
    const before = pool.stats();
    await samePooled(arr, null);
    expect(pool.stats().inThread).toBe(before.inThread);
    expect(pool.stats().jobs).toBeGreaterThan(before.jobs);
  }
});

test("a worker forgets chains it has not used for a while, and learns them again", async () => {
  const own = createReadPool({ workers: 1 });
  try {
    const arrays = [];
    for (let k = 0; k < 40; k++) {
      const map = new Map();
      writeArray(map, "/a", { shape: [6, 7], chunkShape: [4, 4], dataType: "int16", values: Int16Array.from({ length: 42 }, (_, i) => i * (k + 1)), fillValue: 0, fillElement: Int16Array.of(0), arrayToBytes: { name: "bytes", endian: "big" } });
      arrays.push(await zarr.open(zarr.root(memoryStore([...map])).resolve("a"), { kind: "array" }));
    }
    // Concurrently, so jobs of chains about to be forgotten are still queued.
    const results = await Promise.all([...arrays, ...arrays.slice(0, 5)].map((arr) => read(arr, null, { pool: own })));
    results.forEach((r, i) => expect(Array.from(r.data)).toEqual(Array.from({ length: 42 }, (_, j) => j * ((i % 40) + 1))));
  } finally {
    await own.close();
  }
});

describe("what workers do not decode is read on the calling thread, as without a pool", () => {
  test("strings (a gzip chain, the package's own decoder, is the workers')", async () => {
    const shape = [20, 20];
    const c = { shape, chunkShape: [8, 8], dataType: "uint16", values: values(Uint16Array, 400, 11), fillValue: 0, fillElement: Uint16Array.of(0),
      arrayToBytes: { name: "bytes", endian: "big" }, compressors: ["gzip"] };
    const map = new Map();
    writeArray(map, "/a", c);
    const arr = await zarr.open(zarr.root(memoryStore([...map])).resolve("a"), { kind: "array" });
    const before = pool.stats();
    const got = await read(arr, null, { pool });
    expect(Array.from(got.data)).toEqual(Array.from(c.values));
    // gzip decodes in the package's wasm, so in the workers: every chunk a job.
    expect(pool.stats().inThread).toBe(before.inThread);
    expect(pool.stats().jobs).toBe(before.jobs + 9);

    const store = withDataTypes(new FileSystemStore(fixturePath("v3-data-types.zarr")));
    const expected = JSON.parse(readFileSync(`${fixturePath("v3-data-types.zarr")}/expected.json`, "utf8"));
    const stringsName = Object.keys(expected).find((k) => expected[k].data_type?.name === "fixed_length_utf32" || expected[k].data_type === "fixed_length_utf32");
    if (stringsName) {
      const strings = await zarr.open(zarr.root(store).resolve(stringsName), { kind: "array" });
      const jobs = pool.stats().jobs;
      expect(difference(await read(strings, null, { pool }), await read(strings))).toBe("");
      expect(pool.stats().jobs).toBe(jobs);
    }
  });
});
