// read(arr, sel, { dtype }) casts the fill only where a missing chunk is
// filled: a float32 array whose fill is NaN (usual for scientific data)
// reads as uint8 where every chunk exists, and refuses, with the package's
// VALUE_OUT_OF_RANGE naming the chunk, only where one is missing. And a
// typed read shares the array's shard reader: its indexes are not fetched
// again. On main at 4229392 the first always failed, and every dtype had
// its own index cache.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { createChunkCache, createReadPool, read, ready, register } from "../../../js/index.js";
import { selectReference, writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";

const side = 64;
// Finite values in 0..255, none a tie: as uint8, each rounds to the
// nearest integer (cast_value's nearest-even; no ties to break).
const floats = Float32Array.from({ length: side * side }, (_, i) => (i % 250) + ((i % 2) * 2 + 1) / 4);
const asUint8 = (x) => Math.round(x);
let server;
let pool;

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  const files = new Map();
  const common = { values: floats, dataType: "float32", shape: [side, side], fillValue: "NaN", fillElement: Float32Array.of(NaN) };
  writeArray(files, "/complete", { ...common, chunkShape: [32, 32] });
  writeArray(files, "/one-missing", { ...common, chunkShape: [32, 32], missing: ([r, c]) => r === 1 && c === 1 });
  writeArray(files, "/sharded", { ...common, chunkShape: [64, 64], sharding: { chunkShape: [16, 16] } });
  server = await startNetworkServer(files);
  pool = createReadPool({ workers: 1, inThreadChunks: 0 });
});
afterAll(async () => {
  await pool?.close();
  await server?.close();
});
beforeEach(() => server.reset());

const s = zarr.slice;
const open = (path) => zarr.open(zarr.root(new zarr.FetchStore(server.url)).resolve(path), { kind: "array" });
function expected(r0, r1, c0, c1, f = (x) => x) {
  return Array.from(selectReference(floats, [side, side], [[r0, r1, 1], [c0, c1, 1]]).data, f);
}
const ways = {
  read: () => ({}),
  "read into": (n = side * side) => ({ into: new Uint8Array(n) }),
  "read pool": () => ({ pool }),
  "read, chunk cache": () => ({ cache: createChunkCache() }),
  "read pool, chunk cache": () => ({ pool, cache: createChunkCache() }),
};

describe("dtype with a NaN fill", () => {
  test.each(Object.keys(ways))("%s: every chunk there: the values as uint8", async (way) => {
    const got = await read(await open("complete"), null, { dtype: "uint8", ...ways[way]() });
    expect(got.data).toBeInstanceOf(Uint8Array);
    expect(Array.from(got.data)).toEqual(expected(0, side, 0, side, asUint8));
  });

  test.each(Object.keys(ways))("%s: a missing chunk: VALUE_OUT_OF_RANGE naming it and the fill", async (way) => {
    const arr = await open("one-missing");
    // Chunks that exist still read...
    const some = await read(arr, [s(0, 32), null], { dtype: "uint8", ...ways[way](32 * side) });
    expect(Array.from(some.data)).toEqual(expected(0, 32, 0, side, asUint8));
    // ...and the one that would be filled refuses, also under chunkErrors: "fill".
    for (const chunkErrors of ["reject", "fill"]) {
      const error = await read(arr, null, { dtype: "uint8", chunkErrors, ...ways[way]() }).then(
        () => undefined,
        (e) => e,
      );
      expect(error?.code).toBe("VALUE_OUT_OF_RANGE");
      expect(error.message).toMatch(/^read: chunk c\/1\/1 of array \/one-missing is missing, and its fill value cannot be read as uint8 \(read's dtype\): .*NaN/);
    }
  });

  test("float32 from float32 needs no cast: the NaN fill fills", async () => {
    const got = await read(await open("one-missing"), [s(32, 64), s(32, 64)], { dtype: "float32" });
    expect(Array.from(got.data).every(Number.isNaN)).toBe(true);
  });
});

describe("typed reads share the array's shard indexes", () => {
  const indexRequests = () => server.requests().filter((r) => r.path === "/sharded/c/0/0" && (r.method === "HEAD" || r.bytes === 16 * 16 + 4));

  test("a read, then reads as float64 and uint8: the index fetched once", async () => {
    const arr = await open("sharded");
    server.reset();
    expect(Array.from((await read(arr, [s(0, 16), s(0, 16)])).data)).toEqual(expected(0, 16, 0, 16));
    expect(Array.from((await read(arr, [s(16, 32), s(0, 16)], { dtype: "float64" })).data)).toEqual(expected(16, 32, 0, 16));
    expect(Array.from((await read(arr, [s(32, 48), s(0, 16)], { dtype: "uint8", pool })).data)).toEqual(expected(32, 48, 0, 16, asUint8));
    // FetchStore asks for an index in two requests: a HEAD, then the range.
    expect(indexRequests().map((r) => r.method)).toEqual(["HEAD", "GET"]);
  });

  test("concurrent reads of three types: the index fetched once", async () => {
    const arr = await open("sharded");
    server.reset();
    const got = await Promise.all([read(arr, [s(0, 16), null]), read(arr, [s(16, 32), null], { dtype: "float64" }), read(arr, [s(32, 48), null], { dtype: "uint8" })]);
    expect(Array.from(got[2].data)).toEqual(expected(32, 48, 0, side, asUint8));
    expect(indexRequests().map((r) => r.method)).toEqual(["HEAD", "GET"]);
  });
});
