// zarrita #431: over withByteCaching, big-endian data read wrong on every
// second read: zarrita's bytes codec swapped the cached buffer in place, so
// the next read swapped it back (zarrita 0.7.5 copies first; 0.5 and 0.6
// do not). With the package registered, the package's bytes codec decodes
// (it never writes into its input), and read decodes chunks itself: both
// read the right values on the 1st, 2nd and 3rd read, through zarrita's
// own withByteCaching over FetchStore on real HTTP (0.7.5), and through a
// cache of the same kind (one Uint8Array per key, handed out again) with
// 0.5 and 0.6, which have no withByteCaching. Chunks are uncompressed, so
// the bytes the cache holds are the ones the bytes codec is given.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import * as zarrita07 from "zarrita";
import * as zarrita061 from "zarrita-0.6.1";
import { BytesCodec, read, ready, register } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";
import { swapGroups } from "../support/reference.js";
import { ZARRITAS } from "../support/zarritas.js";

const encoder = new TextEncoder();
const shape = [16, 16];
const u2 = Uint16Array.from({ length: 256 }, (_, i) => (i * 257 + 3) & 0xffff);
const f8 = Float64Array.from({ length: 256 }, (_, i) => i * 1.5 - 100.25);
let server;

// [path, values]: v3 `bytes` big-endian (unsharded and sharded: inner
// chunks are views of one cached range), v2 ">u2" and ">f8".
const ARRAYS = [
  ["v3-uint16", u2],
  ["v3-float64", f8],
  ["v3-sharded-uint16", u2],
  ["v2-u2", u2],
  ["v2-f8", f8],
];

function writeV2(files, path, values, dtype) {
  files.set(`${path}/.zarray`, encoder.encode(JSON.stringify({ zarr_format: 2, shape, chunks: [8, 8], dtype, order: "C", compressor: null, filters: null, fill_value: 0 })));
  for (let r = 0; r < 2; r++) {
    for (let c = 0; c < 2; c++) {
      const chunk = new values.constructor(64);
      for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) chunk[i * 8 + j] = values[(r * 8 + i) * 16 + c * 8 + j];
      files.set(`${path}/${r}.${c}`, swapGroups(new Uint8Array(chunk.buffer), values.BYTES_PER_ELEMENT));
    }
  }
}

beforeAll(async () => {
  await ready();
  // zarrita 0.6.1 is left unregistered: the control (its own bytes codec).
  for (const [version, z] of ZARRITAS) if (version !== "0.6.1") register(z.registry);
  const files = new Map();
  const big = { name: "bytes", endian: "big" };
  writeArray(files, "/v3-uint16", { values: u2, dataType: "uint16", shape, fillValue: 0, fillElement: Uint16Array.of(0), chunkShape: [8, 8], arrayToBytes: big });
  writeArray(files, "/v3-float64", { values: f8, dataType: "float64", shape, fillValue: 0, fillElement: Float64Array.of(0), chunkShape: [8, 8], arrayToBytes: big });
  writeArray(files, "/v3-sharded-uint16", { values: u2, dataType: "uint16", shape, fillValue: 0, fillElement: Uint16Array.of(0), chunkShape: [16, 16], sharding: { chunkShape: [8, 8] }, arrayToBytes: big });
  writeV2(files, "/v2-u2", u2, ">u2");
  writeV2(files, "/v2-f8", f8, ">f8");
  server = await startNetworkServer(files);
});
afterAll(() => server?.close());

/** A byte cache as withByteCaching keeps one: the same Uint8Array for a key each time. */
function sameBytesCache(store) {
  const kept = new Map();
  const once = async (key, fetch) => {
    if (!kept.has(key)) kept.set(key, await fetch());
    return kept.get(key);
  };
  return {
    get: (key, options) => once(key, () => store.get(key, options)),
    getRange: (key, range, options) => once(`${key} ${JSON.stringify(range)}`, () => store.getRange(key, range, options)),
  };
}

const cachedOf = (z) => (typeof z.withByteCaching === "function" ? (store) => z.withByteCaching(store) : sameBytesCache);

async function opened(z, path, wrap) {
  return z.open(z.root(wrap(new z.FetchStore(server.url))).resolve(path), { kind: "array" });
}

/** Whether each of `reads` (zarr.get or read, three times) gave `values`. */
async function threeReads(arr, how, values) {
  const right = [];
  for (let k = 0; k < 3; k++) right.push(Array.from((await how(arr)).data).every((v, i) => Object.is(v, values[i])));
  return right;
}

describe.each(ZARRITAS.filter(([version]) => version !== "0.6.1"))("zarrita %s, registered, over a byte cache", (_version, z) => {
  test.each(ARRAYS)("%s: zarr.get and read give the values on the 1st, 2nd and 3rd read", async (path, values) => {
    expect(await threeReads(await opened(z, path, cachedOf(z)), z.get, values)).toEqual([true, true, true]);
    expect(await threeReads(await opened(z, path, cachedOf(z)), read, values)).toEqual([true, true, true]);
    // Both on one cache, in turns.
    const arr = await opened(z, path, cachedOf(z));
    for (const how of [read, z.get, read, z.get]) expect(await threeReads(arr, how, values)).toEqual([true, true, true]);
  });
});

test("the cache is zarrita's own withByteCaching with 0.7.5, and it answers the second read itself", async () => {
  expect(typeof zarrita07.withByteCaching).toBe("function");
  const arr = await opened(zarrita07, "v2-u2", cachedOf(zarrita07));
  await read(arr);
  server.reset();
  expect(Array.from((await read(arr)).data)).toEqual(Array.from(u2));
  expect(server.requests()).toEqual([]);
});

test("what the tests guard against: zarrita 0.6.1's own bytes codec (unregistered) over the same cache reads wrong every second time", async () => {
  for (const [path, values] of ARRAYS) {
    const arr = await opened(zarrita061, path, sameBytesCache);
    expect(await threeReads(arr, zarrita061.get, values)).toEqual([true, false, true]);
  }
});

describe("the package's bytes codec never writes into its input", () => {
  test.each([
    ["uint16", Uint16Array.from([1, 0x0203, 0xfffe, 0x8000])],
    ["float64", Float64Array.from([1.5, -0, Number.MAX_VALUE, -100.25])],
  ])("big-endian %s: decode and decodeInto leave the bytes as they were", (dataType, values) => {
    const codec = BytesCodec.fromConfig({ endian: "big" }, { dataType, shape: [4] });
    const input = swapGroups(new Uint8Array(values.buffer), values.BYTES_PER_ELEMENT);
    const before = input.slice();
    const decoded = codec.decode(input);
    expect(Array.from(decoded.data)).toEqual(Array.from(values));
    expect(input).toEqual(before);
    const out = new values.constructor(4);
    codec.decodeInto(input, out);
    expect(Array.from(out)).toEqual(Array.from(values));
    expect(input).toEqual(before);
    // A second decode of the same bytes: the same values.
    expect(Array.from(codec.decode(input).data)).toEqual(Array.from(values));
  });
});
