// read over HTTP asks for no metadata zarrita already fetched: over a real
// loopback server (tests/js/support/network-server.mjs) and zarrita's own
// FetchStore, a tile read by read makes exactly the requests zarr.get
// makes, for Zarr v2 and v3 arrays, with every zarrita; never a 404.
// Sharded arrays too: the shard shape from zarrita's own chunk getter,
// the index layout taken as the default and verified
// (shard-layout-probe.test.js has the other layouts).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { deflateSync } from "node:zlib";
import { read, ready, register, withDataTypes } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";
import { ZARRITAS } from "../support/zarritas.js";

const encoder = new TextEncoder();
const shape = [8, 12];
const values = Uint16Array.from({ length: 96 }, (_, i) => (i * 37 + 5) % 65536);
let server;

// A v2 array written by hand: .zarray, little-endian u2 in 4 x 4 chunks,
// each compressed by node's zlib (numcodecs' "zlib" is the zlib format).
function writeV2(files, path) {
  files.set(`${path}/.zarray`, encoder.encode(JSON.stringify({
    zarr_format: 2, shape, chunks: [4, 4], dtype: "<u2", order: "C",
    compressor: { id: "zlib", level: 1 }, filters: null, fill_value: 0,
  })));
  for (let r = 0; r < 2; r++) {
    for (let c = 0; c < 3; c++) {
      const chunk = new Uint16Array(16);
      for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) chunk[i * 4 + j] = values[(r * 4 + i) * 12 + c * 4 + j];
      files.set(`${path}/${r}.${c}`, deflateSync(new Uint8Array(chunk.buffer)));
    }
  }
}

beforeAll(async () => {
  await ready();
  for (const [, z] of ZARRITAS) register(z.registry);
  const files = new Map();
  writeV2(files, "/v2");
  const common = { values, dataType: "uint16", shape, fillValue: 0, fillElement: Uint16Array.of(0) };
  writeArray(files, "/v3", { ...common, chunkShape: [4, 4], compressors: ["gzip"] });
  writeArray(files, "/sharded", { ...common, chunkShape: [8, 8], sharding: { chunkShape: [4, 4] }, compressors: ["gzip"] });
  server = await startNetworkServer(files);
});
afterAll(() => server?.close());

const requestsOf = () => server.requests().map((r) => `${r.method} ${r.path} ${r.range ?? ""} ${r.status}`).sort();

async function opened(z, path) {
  const arr = await z.open.v3 && path !== "v2"
    ? await z.open(z.root(new z.FetchStore(server.url)).resolve(path), { kind: "array" })
    : await z.open(z.root(new z.FetchStore(server.url)).resolve(path), { kind: "array" });
  server.reset();
  return arr;
}

const tile = (z) => [z.slice(4, 8), z.slice(4, 8)];
const expectedTile = Array.from({ length: 16 }, (_, i) => values[(4 + (i >> 2)) * 12 + 4 + (i & 3)]);

describe.each(ZARRITAS)("zarrita %s over FetchStore", (_version, z) => {
  test.each(["v2", "v3"])("a %s tile: read makes zarr.get's requests, no metadata, no 404", async (path) => {
    const viaGet = await opened(z, path);
    const got = await z.get(viaGet, tile(z));
    const getRequests = requestsOf();
    const viaRead = await opened(z, path);
    const mine = await read(viaRead, tile(z));
    expect(requestsOf()).toEqual(getRequests);
    expect(getRequests).toHaveLength(1);
    expect(Array.from(mine.data)).toEqual(expectedTile);
    expect(Array.from(got.data)).toEqual(expectedTile);
    // Another tile of the same array: its one chunk.
    server.reset();
    expect(Array.from((await read(viaRead, [z.slice(0, 4), z.slice(0, 4)])).data)).toEqual(Array.from({ length: 16 }, (_, i) => values[(i >> 2) * 12 + (i & 3)]));
    expect(requestsOf()).toEqual([`GET /${path}/${path === "v2" ? "0.0" : "c/0/0"}  200`]);
  });

  test("a sharded tile: read makes zarr.get's requests, no metadata, no 404", async () => {
    const viaGet = await opened(z, "sharded");
    await z.get(viaGet, tile(z));
    const getRequests = requestsOf();
    const viaRead = await opened(z, "sharded");
    expect(Array.from((await read(viaRead, tile(z))).data)).toEqual(expectedTile);
    const mine = requestsOf();
    expect(mine).toEqual(getRequests);
    expect(mine.some((r) => r.includes("zarr.json") || / 404$/.test(r))).toBe(false);
    server.reset();
    await read(viaRead, [z.slice(0, 4), z.slice(0, 4)]);
    expect(requestsOf().some((r) => r.includes("zarr.json"))).toBe(false);
  });
});

test.each(["v2", "v3", "sharded"])("through withDataTypes, a %s tile: no metadata request (the document it gave zarrita)", async (path) => {
  const z = ZARRITAS.at(-1)[1];
  const arr = await z.open(z.root(withDataTypes(new z.FetchStore(server.url))).resolve(path), { kind: "array" });
  server.reset();
  expect(Array.from((await read(arr, tile(z))).data)).toEqual(expectedTile);
  expect(requestsOf().filter((r) => /zarr\.json|\.zarray/.test(r))).toEqual([]);
});

describe("where zarrita's fill lost what the metadata says, read reads the document", () => {
  // The fuzzer's finds (tests/fuzz/js/read-differential.mjs, seed
  // 20261126): zarrita rounds an integer fill past 2^53 (to a BigInt in
  // 0.7, a number in 0.5 and 0.6), and 2^53 + 1 to 2^53 itself.
  test.each(ZARRITAS)("uint64 2^53 + 1 and int64 2^63 - 1 fill missing chunks exactly, with zarrita %s", async (_v, z) => {
    const cases = [
      ["u", `{"zarr_format":3,"node_type":"array","shape":[2],"data_type":"uint64","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[1]}},"chunk_key_encoding":{"name":"default","configuration":{"separator":"/"}},"fill_value":9007199254740993,"codecs":[{"name":"bytes","configuration":{"endian":"little"}}]}`, "zarr.json", 9007199254740993n],
      ["i", `{"zarr_format":2,"shape":[2],"chunks":[1],"dtype":"<i8","order":"C","compressor":null,"filters":null,"fill_value":9223372036854775807}`, ".zarray", 9223372036854775807n],
    ];
    for (const [path, doc, file, fill] of cases) {
      const store = new Map([[`/${path}/${file}`, encoder.encode(doc)]]);
      const arr = await z.open(z.root(store).resolve(path), { kind: "array" });
      expect(Array.from((await read(arr)).data)).toEqual([fill, fill]);
    }
  });
});
