// read over zarrita 0.7's store extensions (withRangeCoalescing,
// withByteCaching, withConsolidatedMetadata, and all three through
// extendStore) on zarrita's FetchStore, over real HTTP on 127.0.0.1
// (tests/js/support/network-server.mjs): the values are the ones written
// (hand-store.js: shards as zarr-python writes them, the index at the end
// with its crc32c), and read over an extension makes no more requests than
// read over the plain FetchStore, as the server's log counts them. Where
// an extension answers from memory (a cached range, consolidated
// metadata), read makes fewer. zarr.get with the package registered reads
// the same values over the same stores.
//
// Also: FetchStore's useSuffixRequest (one request per shard index) and
// what read does where a server ignores or refuses suffix ranges.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { deflateSync } from "node:zlib";
import * as zarr from "zarrita";
import { read, ready, register } from "../../../js/index.js";
import { writeArray } from "../support/hand-store.js";
import { startNetworkServer } from "../support/network-server.mjs";
import { ZARRITAS } from "../support/zarritas.js";

const encoder = new TextEncoder();
const side = 512;
const shape = [side, side];
// Values that vary (so inner chunks differ in size) and compress.
const values = Uint16Array.from({ length: side * side }, (_, i) => ((i % side) * 3 + Math.floor(i / side) * 5 + ((i * 2654435761) >>> 28)) & 0xffff);
const s = zarr.slice;
let server;

/** A Zarr v2 array of `values` in 64 x 64 chunks, "<u2", zlib (node's): its .zarray document. */
function writeV2(files, path) {
  const doc = { zarr_format: 2, shape, chunks: [64, 64], dtype: "<u2", order: "C", compressor: { id: "zlib", level: 1 }, filters: null, fill_value: 0 };
  files.set(`${path}/.zarray`, encoder.encode(JSON.stringify(doc)));
  for (let r = 0; r < side / 64; r++) {
    for (let c = 0; c < side / 64; c++) {
      const chunk = new Uint16Array(64 * 64);
      for (let i = 0; i < 64; i++) for (let j = 0; j < 64; j++) chunk[i * 64 + j] = values[(r * 64 + i) * side + c * 64 + j];
      files.set(`${path}/${r}.${c}`, new Uint8Array(deflateSync(new Uint8Array(chunk.buffer))));
    }
  }
  return doc;
}

beforeAll(async () => {
  await ready();
  for (const [, z] of ZARRITAS) register(z.registry);
  const files = new Map();
  const common = { values, dataType: "uint16", shape, fillValue: 0, fillElement: Uint16Array.of(0), compressors: ["gzip"] };
  // A v3 hierarchy, consolidated as zarr-python 3 writes it (the arrays'
  // documents inline in the root group's zarr.json): 4 shards of 256 x 256,
  // each 16 inner chunks of 64 x 64; and the same values unsharded.
  const sharded = writeArray(files, "/v3/sharded", { ...common, chunkShape: [256, 256], sharding: { chunkShape: [64, 64] } });
  const plain = writeArray(files, "/v3/plain", { ...common, chunkShape: [64, 64] });
  files.set("/v3/zarr.json", encoder.encode(JSON.stringify({
    zarr_format: 3, node_type: "group", attributes: {},
    consolidated_metadata: { kind: "inline", must_understand: false, metadata: { sharded, plain } },
  })));
  // A v2 hierarchy, consolidated as zarr-python 2 writes it (.zmetadata).
  const v2 = writeV2(files, "/v2/plain");
  files.set("/v2/.zgroup", encoder.encode(JSON.stringify({ zarr_format: 2 })));
  files.set("/v2/.zmetadata", encoder.encode(JSON.stringify({
    zarr_consolidated_format: 1,
    metadata: { ".zgroup": { zarr_format: 2 }, "plain/.zarray": v2 },
  })));
  server = await startNetworkServer(files);
});
afterAll(() => server?.close());

/** The values of rows [r0, r1) and columns [c0, c1), from the array as written. */
function expected(r0, r1, c0, c1) {
  const out = [];
  for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) out.push(values[r * side + c]);
  return out;
}

const selected = (selection) => expected(selection[0].start, selection[0].stop, selection[1].start, selection[1].stop);

// What a viewer does: one tile; a viewport over the 4 shards (16 chunks
// of the unsharded arrays); the same tile read twice (a pan back).
const SCENARIOS = [
  ["one tile", [[s(64, 128), s(64, 128)]]],
  ["a viewport over several shards", [[s(128, 384), s(128, 384)]]],
  ["the same read twice", [[s(64, 128), s(64, 128)], [s(64, 128), s(64, 128)]]],
];

const EXTENSIONS = [
  ["withRangeCoalescing", (store) => zarr.withRangeCoalescing(store)],
  ["withByteCaching", (store) => zarr.withByteCaching(store)],
  ["withConsolidatedMetadata", (store) => zarr.withConsolidatedMetadata(store)],
  [
    "all three (extendStore)",
    (store) => zarr.extendStore(store, (s1) => zarr.withConsolidatedMetadata(s1), (s2) => zarr.withByteCaching(s2), (s3) => zarr.withRangeCoalescing(s3)),
  ],
];

// [hierarchy, array]: a sharded v3 array, an unsharded v3 and v2 one.
const ARRAYS = [
  ["v3", "sharded"],
  ["v3", "plain"],
  ["v2", "plain"],
];

/**
 * The array opened through `wrap(FetchStore)` (its opening's requests
 * not counted), the scenario's reads by `how`, their values, and the
 * requests the server saw for them.
 */
async function run(hierarchy, path, wrap, reads, how = read, fetchOptions = {}) {
  const store = await wrap(new zarr.FetchStore(`${server.url}/${hierarchy}`, fetchOptions));
  const arr = await zarr.open(zarr.root(store).resolve(path), { kind: "array" });
  server.reset();
  const got = [];
  const perRead = [];
  for (const selection of reads) {
    const before = server.requests().length;
    got.push(Array.from((await how(arr, selection)).data));
    perRead.push(server.requests().length - before);
  }
  return { got, perRead, requests: server.requests() };
}

const plainStore = (store) => store;

describe.each(ARRAYS)("a %s %s array", (hierarchy, path) => {
  describe.each(EXTENSIONS)("over %s", (_name, wrap) => {
    test.each(SCENARIOS)("%s: read's values, and no more requests than over the plain FetchStore", async (_scenario, reads) => {
      const baseline = await run(hierarchy, path, plainStore, reads);
      const over = await run(hierarchy, path, wrap, reads);
      reads.forEach((selection, i) => {
        expect(baseline.got[i]).toEqual(selected(selection));
        expect(over.got[i]).toEqual(selected(selection));
      });
      expect(baseline.requests.length).toBeGreaterThan(0);
      expect(over.requests.length).toBeLessThanOrEqual(baseline.requests.length);
      expect(over.requests.every((r) => r.status === 200 || r.status === 206)).toBe(true);
    });

    test("zarr.get with the package registered reads the same values", async () => {
      for (const [, reads] of SCENARIOS) {
        const { got } = await run(hierarchy, path, wrap, reads, zarr.get);
        reads.forEach((selection, i) => expect(got[i]).toEqual(selected(selection)));
      }
    });
  });
});

describe("what each extension saves", () => {
  test("withByteCaching: a read again makes no request (its ranges cached; the index kept by read)", async () => {
    const reads = [[s(128, 384), s(128, 384)], [s(128, 384), s(128, 384)]];
    for (const [hierarchy, path] of ARRAYS) {
      const { perRead } = await run(hierarchy, path, (store) => zarr.withByteCaching(store), reads);
      expect(perRead[0]).toBeGreaterThan(0);
      expect(perRead[1]).toBe(0);
    }
  });

  test("withConsolidatedMetadata and withByteCaching: read's one reading of a sharded array's zarr.json is answered from memory", async () => {
    const reads = [[s(64, 128), s(64, 128)]];
    const plain = await run("v3", "sharded", plainStore, reads);
    expect(plain.requests.filter((r) => r.path.endsWith("zarr.json"))).toHaveLength(1);
    for (const wrap of [(store) => zarr.withConsolidatedMetadata(store), (store) => zarr.withByteCaching(store)]) {
      const over = await run("v3", "sharded", wrap, reads);
      expect(over.requests.filter((r) => r.path.endsWith("zarr.json"))).toEqual([]);
      expect(over.requests).toHaveLength(plain.requests.length - 1);
    }
  });

  test("withRangeCoalescing below read's own coalescing: the same requests, the same bytes", async () => {
    const reads = [[s(0, 512), s(0, 512)]];
    const plain = await run("v3", "sharded", plainStore, reads);
    const over = await run("v3", "sharded", (store) => zarr.withRangeCoalescing(store), reads);
    const asSeen = (log) => log.map((r) => `${r.method} ${r.path} ${r.range ?? ""} ${r.bytes}`).sort();
    expect(asSeen(over.requests)).toEqual(asSeen(plain.requests));
    expect(over.got[0]).toEqual(Array.from(values));
  });
});

// zarrita 0.5 and 0.6 have one store extension, withConsolidated (v2's
// .zmetadata); it passes getRange through.
describe.each(ZARRITAS.filter(([, z]) => typeof z.withConsolidated === "function"))("zarrita %s's withConsolidated", (_version, z) => {
  test.each(SCENARIOS)("a v2 array, %s: read's values, no more requests than over FetchStore alone", async (_scenario, reads) => {
    const counted = async (wrap) => {
      const arr = await z.open(z.root(await wrap(new z.FetchStore(`${server.url}/v2`))).resolve("plain"), { kind: "array" });
      server.reset();
      const got = [];
      for (const [rows, cols] of reads) got.push(Array.from((await read(arr, [z.slice(rows.start, rows.stop), z.slice(cols.start, cols.stop)])).data));
      return { got, requests: server.requests().length };
    };
    const baseline = await counted((store) => store);
    const over = await counted((store) => z.withConsolidated(store));
    expect(over.got).toEqual(reads.map(selected));
    expect(baseline.got).toEqual(reads.map(selected));
    expect(over.requests).toBeLessThanOrEqual(baseline.requests);
  });
});

test("a server that ignores Range (the whole shard, 200): read over each extension reads right, with no more requests", async () => {
  server.configure({ ranges: false });
  try {
    const reads = [[s(128, 384), s(128, 384)], [s(64, 128), s(64, 128)]];
    const baseline = await run("v3", "sharded", plainStore, reads);
    for (const [, wrap] of EXTENSIONS) {
      const over = await run("v3", "sharded", wrap, reads);
      expect(over.got).toEqual(reads.map(selected));
      expect(over.requests.length).toBeLessThanOrEqual(baseline.requests.length);
      // Each shard once, whole (withRangeCoalescing passes the index's
      // suffix through, so its own slicing never sees a whole answer).
      expect(over.requests.filter((r) => r.method === "GET" && /\/c\//.test(r.path)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    }
  } finally {
    server.configure({ ranges: true });
  }
});

test("the limit: the index at the shard's start, a server that ignores Range, withRangeCoalescing: inner chunks cut at the wrong place", async () => {
  // withRangeCoalescing cuts each range out of its merged request's
  // answer at (offset - the request's offset); a server that ignores
  // Range answers with the whole shard, which starts at 0. The index (at
  // offset 0) comes out right, so read cannot see that Range was ignored;
  // the inner chunks come out wrong, with the length asked for. An index
  // at the end is asked for as a suffix, which the extension passes
  // through: read sees the whole shard (the test above). docs/read.md says so.
  const files = new Map();
  const raw = { values, dataType: "uint16", shape, fillValue: 0, fillElement: Uint16Array.of(0), chunkShape: [256, 256], sharding: { chunkShape: [64, 64], indexLocation: "start" } };
  writeArray(files, "/start", raw);
  const noRange = await startNetworkServer(files, { ranges: false });
  try {
    const selection = [s(64, 192), s(64, 192)];
    const open = async (wrap) => zarr.open(zarr.root(wrap(new zarr.FetchStore(noRange.url))).resolve("start"), { kind: "array" });
    expect(Array.from((await read(await open(plainStore), selection)).data)).toEqual(selected(selection));
    expect(Array.from((await read(await open((store) => zarr.withByteCaching(store)), selection)).data)).toEqual(selected(selection));
    const got = Array.from((await read(await open((store) => zarr.withRangeCoalescing(store)), selection)).data);
    const want = selected(selection);
    expect(got.filter((v, i) => v !== want[i]).length).toBeGreaterThan(0);
  } finally {
    await noRange.close();
  }
});

describe("FetchStore's useSuffixRequest", () => {
  // An index: 16 entries of 16 bytes and a crc32c.
  const INDEX_BYTES = 16 * 16 + 4;
  const viewport = [[s(128, 384), s(128, 384)]];
  const shardRequests = (log) => log.filter((r) => /\/c\/\d\/\d$/.test(r.path));
  const indexRequests = (log) => shardRequests(log).filter((r) => r.method === "HEAD" || r.range === `bytes=-${INDEX_BYTES}` || r.bytes === INDEX_BYTES);

  afterAll(() => server.configure({ ranges: true, suffixRanges: true }));

  test("one request per shard index (bytes=-n), where FetchStore alone makes a HEAD and a range", async () => {
    server.configure({ ranges: true, suffixRanges: true });
    const two = await run("v3", "sharded", plainStore, viewport);
    expect(indexRequests(two.requests).map((r) => r.method).sort()).toEqual(["GET", "GET", "GET", "GET", "HEAD", "HEAD", "HEAD", "HEAD"]);
    const one = await run("v3", "sharded", plainStore, viewport, read, { useSuffixRequest: true });
    expect(one.got[0]).toEqual(selected(viewport[0]));
    expect(indexRequests(one.requests).map((r) => `${r.method} ${r.range} ${r.status}`)).toEqual(new Array(4).fill(`GET bytes=-${INDEX_BYTES} 206`));
    expect(one.requests).toHaveLength(two.requests.length - 4);
  });

  test("over every extension too: one request per index, read's values", async () => {
    server.configure({ ranges: true, suffixRanges: true });
    for (const [, wrap] of EXTENSIONS) {
      const { got, requests } = await run("v3", "sharded", wrap, viewport, read, { useSuffixRequest: true });
      expect(got[0]).toEqual(selected(viewport[0]));
      expect(requests.filter((r) => r.method === "HEAD")).toEqual([]);
      expect(requests.filter((r) => r.range === `bytes=-${INDEX_BYTES}`)).toHaveLength(4);
    }
  });

  test("a server that ignores suffix ranges (200, the whole shard): read takes each shard once and reads right", async () => {
    server.configure({ ranges: true, suffixRanges: false });
    const { got, requests } = await run("v3", "sharded", plainStore, [...viewport, ...viewport], read, { useSuffixRequest: true });
    expect(got).toEqual([selected(viewport[0]), selected(viewport[0])]);
    // Each shard once, whole; the second read none (the shards kept with their indexes).
    expect(shardRequests(requests).map((r) => `${r.method} ${r.range} ${r.status}`)).toEqual(new Array(4).fill(`GET bytes=-${INDEX_BYTES} 200`));
  });

  test("a server that refuses suffix ranges (416): read's error names them and useSuffixRequest; without it, right values", async () => {
    server.configure({ ranges: true, suffixRanges: "refuse" });
    const failure = await run("v3", "sharded", plainStore, viewport, read, { useSuffixRequest: true }).catch((error) => error);
    expect(failure).toMatchObject({ name: "ZarrCodecError", code: "INVALID_CONFIGURATION" });
    expect(failure.message).toMatch(/^read: shard \/sharded\/c\/\d\/\d: asked the store for its last 260 bytes \(its index\), and the server answered 416/);
    expect(failure.message).toContain("Range: bytes=-260");
    expect(failure.message).toContain("make the FetchStore without useSuffixRequest");
    expect(failure.cause?.message).toMatch(/416/); // FetchStore's own error
    // zarr.get alone: FetchStore's error as it is.
    await expect(run("v3", "sharded", plainStore, viewport, zarr.get, { useSuffixRequest: true })).rejects.toThrow(/Unexpected response status 416/);
    // The same server, FetchStore without useSuffixRequest (a HEAD, then bytes=a-b).
    const { got } = await run("v3", "sharded", plainStore, viewport);
    expect(got[0]).toEqual(selected(viewport[0]));
  });
});
