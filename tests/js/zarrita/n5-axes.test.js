// withN5's axis order, on hand-made N5 arrays: "reversed" (the default,
// numpy's order as zarr-python 2 has N5) and "n5" (attributes.json's
// order, as the n5_default page's metadata has it). Shape, chunk shape and
// dimension names, the zarr.json each presents, chunk keys mapped back to
// N5 block paths, and blocks whose header is larger than the chunk
// (cropped, the page's step 4) or smaller (padded), each worked by hand
// from the N5 layout: element (x, y) of a block of header shape [bx, by]
// is payload value x + bx * y, big-endian.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { gzipSync } from "node:zlib";
import { ready, register, withN5 } from "../../../js/index.js";
import { expectCodecError } from "../support/expect-error.js";
import { inCOrder } from "../support/presented.js";
import { ZARRITAS } from "../support/zarritas.js";

const VERSIONS = ZARRITAS.filter(([v]) => v !== "0.6.1");
const zarr7 = ZARRITAS.find(([v]) => v.startsWith("0.7"))[1];
const json = (o) => new TextEncoder().encode(JSON.stringify(o));
const parse = (bytes) => JSON.parse(new TextDecoder().decode(bytes));

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

/** A mode-0 block: header [mode, rank, dims...] then uint16 values, big-endian. */
function block(dims, values, compress = (b) => b) {
  const payload = new Uint8Array(2 * values.length);
  const v = new DataView(payload.buffer);
  values.forEach((x, i) => v.setUint16(2 * i, x));
  const body = compress(payload);
  const out = new Uint8Array(4 + 4 * dims.length + body.length);
  const h = new DataView(out.buffer);
  h.setUint16(2, dims.length);
  dims.forEach((d, i) => h.setUint32(4 + 4 * i, d));
  out.set(body, 4 + 4 * dims.length);
  return out;
}

describe("options", () => {
  test("axes other than reversed and n5, or options that are no object, are the package's error", () => {
    const store = new Map();
    expectCodecError(() => withN5(store, { axes: "xyz" }), "INVALID_CONFIGURATION", 'withN5: axes must be "reversed" or "n5", got "xyz"');
    expectCodecError(() => withN5(store, { axes: null }), "INVALID_CONFIGURATION", 'withN5: axes must be "reversed" or "n5", got null');
    expectCodecError(() => withN5(store, "n5"), "INVALID_CONFIGURATION", 'withN5: options must be an object ({ axes }), got "n5"');
    expect(typeof withN5(store, {}).get).toBe("function");
    expect(typeof withN5(store, { axes: undefined }).get).toBe("function");
  });
});

describe("what zarrita is given", () => {
  const attributes = {
    dimensions: [40, 30, 20],
    blockSize: [8, 6, 4],
    dataType: "uint16",
    compression: { type: "gzip", level: -1 },
    axes: ["x", "y", "z"],
  };
  const store = new Map([["/a/attributes.json", json(attributes)]]);

  test("axes reversed: numpy's order, and a chain without the transpose", async () => {
    const doc = parse(await withN5(store).get("/a/zarr.json"));
    expect(doc).toEqual({
      zarr_format: 3,
      node_type: "array",
      shape: [20, 30, 40],
      data_type: "uint16",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [4, 6, 8] } },
      chunk_key_encoding: { name: "v2", configuration: { separator: "/" } },
      fill_value: 0,
      codecs: [{ name: "n5_default", configuration: { codecs: [{ name: "bytes", configuration: { endian: "big" } }, { name: "gzip", configuration: { level: 6 } }] } }],
      dimension_names: ["z", "y", "x"],
      attributes,
    });
  });

  test("axes n5: the page's metadata, its transpose first", async () => {
    const doc = parse(await withN5(store, { axes: "n5" }).get("/a/zarr.json"));
    expect(doc.shape).toEqual([40, 30, 20]);
    expect(doc.chunk_grid.configuration.chunk_shape).toEqual([8, 6, 4]);
    expect(doc.dimension_names).toEqual(["x", "y", "z"]);
    expect(doc.codecs[0].configuration.codecs).toEqual([
      { name: "transpose", configuration: { order: [2, 1, 0] } },
      { name: "bytes", configuration: { endian: "big" } },
      { name: "gzip", configuration: { level: 6 } },
    ]);
  });

  test("axes that name no dimension each are left out (the attribute is kept)", async () => {
    for (const axes of [["x", "y"], ["x", 1, "z"], "xyz", null]) {
      const s = new Map([["/a/attributes.json", json({ ...attributes, axes })]]);
      const doc = parse(await withN5(s).get("/a/zarr.json"));
      expect(doc).not.toHaveProperty("dimension_names");
      expect(doc.attributes.axes).toEqual(axes);
    }
  });

  test("zarrita 0.7 shows the dimension names", async () => {
    const arr = await zarr7.open(zarr7.root(withN5(store)).resolve("a"), { kind: "array" });
    expect(arr.dimensionNames).toEqual(["z", "y", "x"]);
    expect(arr.shape).toEqual([20, 30, 40]);
  });
});

describe("chunk keys: each presented chunk is read and written at its N5 block path", () => {
  // dimensions [5, 3] (x, y) in blocks [2, 3]: blocks 0/0, 1/0, 2/0 along x.
  const attributes = { dimensions: [5, 3], blockSize: [2, 3], dataType: "uint16", compression: { type: "raw" } };

  test.each(VERSIONS)("zarrita %s: reads ask for N5 paths only", async (_v, zarr) => {
    const values = (base) => Array.from({ length: 6 }, (_, i) => base + i);
    const files = new Map([
      ["/a/attributes.json", json(attributes)],
      ["/a/0/0", block([2, 3], values(0))],
      ["/a/1/0", block([2, 3], values(10))],
      ["/a/2/0", block([1, 3], values(20).slice(0, 3))], // truncated, as Java writes it
    ]);
    const asked = [];
    const store = withN5({ get: async (key) => (asked.push(key), files.get(key)) });
    const arr = await zarr.open(zarr.root(store).resolve("a"), { kind: "array" });
    expect(arr.shape).toEqual([3, 5]);
    asked.length = 0;
    // numpy's [1, 2:5]: rows y, columns x; x 2..4 lie in blocks 1/0 and 2/0.
    const part = await zarr.get(arr, [1, zarr.slice(2, 5)]);
    expect([...asked].sort()).toEqual(["/a/1/0", "/a/2/0"]);
    // Element (x, y) of block 1/0 is 10 + (x - 2) + 2y; of block 2/0, 20 + y.
    expect(Array.from(inCOrder(part))).toEqual([12, 13, 21]);
  });

  test("zarrita 0.7: a write goes to the N5 paths, with N5-order headers", async () => {
    const files = new Map([["/a/attributes.json", json(attributes)]]);
    const store = withN5(files);
    const arr = await zarr7.open(zarr7.root(store).resolve("a"), { kind: "array" });
    // numpy's view [3, 5]: element [y, x] = 10 * y + x.
    const data = Uint16Array.from({ length: 15 }, (_, i) => 10 * Math.floor(i / 5) + (i % 5));
    await zarr7.set(arr, null, { data, shape: [3, 5], stride: [5, 1] });
    expect([...files.keys()].sort()).toEqual(["/a/0/0", "/a/1/0", "/a/2/0", "/a/attributes.json"]);
    // Block 1/0: x 2..3, y 0..2, x fastest: 2 3 12 13 22 23, header [2, 3].
    expect(Array.from(files.get("/a/1/0"))).toEqual([0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 3, 0, 2, 0, 3, 0, 12, 0, 13, 0, 22, 0, 23]);
    // The boundary block 2/0 is written whole (x 4..5), padded with 0.
    expect(Array.from(files.get("/a/2/0").subarray(12))).toEqual([0, 4, 0, 0, 0, 14, 0, 0, 0, 24, 0, 0]);
  });
});

describe("a block's header larger or smaller than the chunk: cropped or padded (the n5_default page, step 4)", () => {
  // dimensions [4, 3] (x, y) in blocks [2, 3].
  const attributes = (compression) => ({ dimensions: [4, 3], blockSize: [2, 3], dataType: "uint16", compression });
  const arrays = (name, compression, compress) => [
    // Header [3, 3]: one more x than the chunk. Values 1..9, (x, y) = 1 + x + 3y.
    [`/${name}_wider/attributes.json`, json(attributes(compression))],
    [`/${name}_wider/0/0`, block([3, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9], compress)],
    [`/${name}_wider/1/0`, block([2, 3], [10, 11, 12, 13, 14, 15], compress)],
    // Header [1, 5]: one x (the other padded), five y (two cropped); (0, y) = 21 + y.
    [`/${name}_mixed/attributes.json`, json(attributes(compression))],
    [`/${name}_mixed/0/0`, block([1, 5], [21, 22, 23, 24, 25], compress)],
    [`/${name}_mixed/1/0`, block([2, 3], [10, 11, 12, 13, 14, 15], compress)],
  ];
  const files = new Map([...arrays("raw", { type: "raw" }), ...arrays("gzip", { type: "gzip" }, (b) => gzipSync(b))]);
  // N5 order a[x][y]: wider: a[0] = [1, 4, 7], a[1] = [2, 5, 8] (x = 2 of the
  // block cropped), a[2] = [10, 12, 14], a[3] = [11, 13, 15]. mixed:
  // a[0] = [21, 22, 23], a[1] = [0, 0, 0] (padded).
  const WANT = {
    wider: { n5: [1, 4, 7, 2, 5, 8, 10, 12, 14, 11, 13, 15], reversed: [1, 2, 10, 11, 4, 5, 12, 13, 7, 8, 14, 15] },
    mixed: { n5: [21, 22, 23, 0, 0, 0, 10, 12, 14, 11, 13, 15], reversed: [21, 0, 10, 11, 22, 0, 12, 13, 23, 0, 14, 15] },
  };

  test.each(VERSIONS.flatMap(([v, zarr]) => [[v, "reversed", zarr], [v, "n5", zarr]]))("zarrita %s, axes %s", async (_v, axes, zarr) => {
    const store = withN5(files, { axes });
    for (const compression of ["raw", "gzip"]) {
      for (const kind of ["wider", "mixed"]) {
        const arr = await zarr.open(zarr.root(store).resolve(`${compression}_${kind}`), { kind: "array" });
        const out = await zarr.get(arr);
        expect(out.shape).toEqual(axes === "n5" ? [4, 3] : [3, 4]);
        expect([compression, kind, Array.from(inCOrder(out))]).toEqual([compression, kind, WANT[kind][axes]]);
      }
    }
  });
});
