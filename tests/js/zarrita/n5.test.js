// N5 through zarrita: withN5 answers zarr.json from attributes.json, the
// n5_default codec reads each block. The N5 data was written by zarr-python
// 2's N5FSStore (tests/fixtures/n5-store.n5, scripts/make-n5-fixtures.py):
// every N5 data type, raw, gzip, zlib, blosc and zstd, shapes the blocks do
// not divide, truncated boundary blocks the way Java N5 writes them (and a
// mix with padded ones), nested and implicit groups. Values are compared
// with what zarr-python read: in its own axis order (numpy's, withN5's
// default, axes "reversed") and in attributes.json's (axes "n5").
// Writes go back through zarr-python 2 for an independent read.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";
import { ready, register, withDataTypes, withN5, ZarrCodecError } from "../../../js/index.js";
import { fixtureCopy, fixturePath } from "../support/fixtures.js";
import { inCOrder } from "../support/presented.js";
import { hex } from "../support/reference.js";
import { expectCodecRejection } from "../support/expect-error.js";
import { ZARRITAS } from "../support/zarritas.js";

const ROOT = fixturePath("n5-store.n5");
const EXPECTED = JSON.parse(readFileSync(`${ROOT}/expected.json`, "utf8"));
const ARRAYS = Object.keys(EXPECTED).filter((k) => !k.startsWith("_"));
const READABLE = ARRAYS.filter((k) => !EXPECTED[k].refused);
const VERSIONS = ZARRITAS.filter(([v]) => v !== "0.6.1");
const zarr7 = ZARRITAS.find(([v]) => v.startsWith("0.7"))[1];

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

async function readAll(zarr, arr) {
  const out = await zarr.get(arr);
  return { shape: out.shape, data: inCOrder(out) };
}

describe.each(VERSIONS)("zarrita %s", (_version, zarr) => {
  const store = withN5(new FileSystemStore(ROOT));
  const n5Order = withN5(new FileSystemStore(ROOT), { axes: "n5" });

  test.each(READABLE)("%s, axes reversed (the default): zarr-python 2's own view", async (path) => {
    const e = EXPECTED[path];
    const arr = await zarr.open(zarr.root(store).resolve(path), { kind: "array" });
    expect(arr.shape).toEqual(e.numpy_shape);
    expect(arr.shape).toEqual([...e.dimensions].reverse());
    expect(arr.chunks).toEqual([...e.blockSize].reverse());
    expect(arr.dtype).toBe(e.dataType);
    const { shape, data } = await readAll(zarr, arr);
    expect(shape).toEqual(e.numpy_shape);
    expect(hex(data)).toBe(e.numpy_le_hex);
    expect(arr.attrs.dimensions).toEqual(e.dimensions); // N5's attributes kept as written
  });

  test.each(READABLE)("%s, axes n5: attributes.json's order", async (path) => {
    const e = EXPECTED[path];
    const arr = await zarr.open(zarr.root(n5Order).resolve(path), { kind: "array" });
    expect(arr.shape).toEqual(e.dimensions);
    expect(arr.chunks).toEqual(e.blockSize);
    expect(arr.dtype).toBe(e.dataType);
    const { shape, data } = await readAll(zarr, arr);
    expect(shape).toEqual(e.dimensions);
    expect(hex(data)).toBe(e.le_hex);
    expect(arr.attrs.dataType).toBe(e.dataType); // N5's attributes kept
  });

  test.each(ARRAYS.filter((k) => EXPECTED[k].refused))("%s is refused for that array alone, naming its compression", async (path) => {
    const type = EXPECTED[path].compression.type;
    await expect(zarr.open(zarr.root(store).resolve(path), { kind: "array" })).rejects.toThrow(
      new RegExp(`^withN5: array /${path}: its N5 compression ${type}.* has no Zarr codec that reads it \\(N5 compressions read here: raw, gzip, blosc, zstd\\)$`),
    );
    const arr = await zarr.open(zarr.root(store).resolve("types/uint8"), { kind: "array" });
    expect(hex((await readAll(zarr, arr)).data)).toBe(EXPECTED["types/uint8"].numpy_le_hex);
  });

  test("groups: explicit ones with their attributes, implicit ones (no attributes.json)", async () => {
    for (const path of EXPECTED._groups) {
      const group = await zarr.open(zarr.root(store).resolve(path), { kind: "group" });
      expect(group.kind).toBe("group");
    }
    const root = await zarr.open(zarr.root(store), { kind: "group" });
    expect(root.attrs.n5).toBe("2.0.0");
    for (const path of EXPECTED._implicit_groups) {
      const group = await zarr.open(zarr.root(store).resolve(path), { kind: "group" });
      expect(group.attrs).toEqual({});
    }
  });

  test("a region of a 3-D array with truncated blocks, in either order", async () => {
    const e = EXPECTED["volumes/truncated/raw_3d"]; // float64, dimensions [5, 4, 3]
    // A copy of its own: a small Buffer lies inside a shared pool at some offset.
    const values = (h) => new Float64Array(Uint8Array.from(Buffer.from(h, "hex")).buffer);
    const arr = await zarr.open(zarr.root(n5Order).resolve("volumes/truncated/raw_3d"), { kind: "array" });
    const part = await zarr.get(arr, [zarr.slice(3, 5), 1, null]);
    const all = values(e.le_hex);
    const want = [];
    for (let i = 3; i < 5; i++) for (let k = 0; k < 3; k++) want.push(all[(i * 4 + 1) * 3 + k]);
    expect(Array.from(inCOrder(part))).toEqual(want);
    // The same elements in numpy's order (zarr-python's [:, 1, 3:5]).
    const numpy = await zarr.open(zarr.root(store).resolve("volumes/truncated/raw_3d"), { kind: "array" });
    const same = await zarr.get(numpy, [null, 1, zarr.slice(3, 5)]);
    expect(same.shape).toEqual([3, 2]);
    const byNumpy = values(e.numpy_le_hex); // shape [3, 4, 5]
    const wantNumpy = [];
    for (let k = 0; k < 3; k++) for (let i = 3; i < 5; i++) wantNumpy.push(byNumpy[(k * 4 + 1) * 5 + i]);
    expect(Array.from(inCOrder(same))).toEqual(wantNumpy);
  });
});

describe("composition", () => {
  const check = async (zarr, store, path, axes = "reversed") => {
    const arr = await zarr.open(zarr.root(store).resolve(path), { kind: "array" });
    expect(hex((await readAll(zarr, arr)).data)).toBe(axes === "n5" ? EXPECTED[path].le_hex : EXPECTED[path].numpy_le_hex);
  };
  const SOME = ["types/int64", "volumes/raw/blosc", "volumes/truncated/gzip_mixed", "labels/segmentation/cells", "types/float32"];

  test.each(VERSIONS)("zarrita %s: withN5(withDataTypes(store)) and withDataTypes(withN5(store)), either axes", async (_v, zarr) => {
    for (const axes of ["reversed", "n5"]) {
      const stores = [
        withN5(withDataTypes(new FileSystemStore(ROOT)), { axes }),
        withDataTypes(withN5(new FileSystemStore(ROOT), { axes })),
      ];
      for (const store of stores) for (const path of SOME) await check(zarr, store, path, axes);
    }
  });

  test("zarrita 0.7: byte caching and (absent) consolidated metadata, either order", async () => {
    const stores = [
      zarr7.withByteCaching(withN5(new FileSystemStore(ROOT))),
      withN5(zarr7.withByteCaching(new FileSystemStore(ROOT))),
      await zarr7.withMaybeConsolidatedMetadata(withN5(new FileSystemStore(ROOT))),
      withN5(await zarr7.withMaybeConsolidatedMetadata(new FileSystemStore(ROOT))),
    ];
    for (const store of stores) for (const path of SOME) await check(zarr7, store, path);
  });
});

describe("hostile N5: blocks and attributes, each refused with its message, the store usable", () => {
  const encode = (o) => new TextEncoder().encode(JSON.stringify(o));
  // A uint16 array of dimensions [4, 3] in blocks [2, 3], raw.
  const attributes = { dimensions: [4, 3], blockSize: [2, 3], dataType: "uint16", compression: { type: "raw" } };
  const block = (mode, dims, values) => {
    const out = new Uint8Array(4 + 4 * dims.length + 2 * values.length);
    const v = new DataView(out.buffer);
    v.setUint16(0, mode);
    v.setUint16(2, dims.length);
    dims.forEach((d, i) => v.setUint32(4 + 4 * i, d));
    values.forEach((x, i) => v.setUint16(4 + 4 * dims.length + 2 * i, x));
    return out;
  };
  const good = block(0, [2, 3], [1, 2, 3, 4, 5, 6]);
  // [name, block, code, message after "n5_default: block <key>: "], where
  // `chunk` names the chunk as each axis order presents it.
  const cases = [
    ["short_header", new Uint8Array([0, 0, 0]), "LENGTH_MISMATCH", () => "needs a header of at least 4 bytes, got 3"],
    ["varlength", block(1, [2, 3], [1, 2, 3, 4, 5, 6]), "INVALID_INPUT", () => "its header says mode 1 (varlength); only mode 0 (default) blocks can be read"],
    ["object", block(2, [2, 3], []), "INVALID_INPUT", () => "its header says mode 2 (object); only mode 0 (default) blocks can be read"],
    ["rank", block(0, [2, 3, 1], [1, 2, 3, 4, 5, 6]), "INVALID_INPUT", () => "its header has 3 dimensions, but the array has 2"],
    ["short_dims", good.subarray(0, 9), "LENGTH_MISMATCH", () => "needs a header of 12 bytes for 2 dimensions, got 9"],
    ["payload", good.subarray(0, good.length - 1), "LENGTH_MISMATCH", (chunk) => `uint16 chunk ${chunk}: a block of shape [2, 3] needs 12 bytes after its header, got 11`],
    ["larger_payload", block(0, [3, 3], [1, 2, 3, 4, 5, 6]), "LENGTH_MISMATCH", (chunk) => `uint16 chunk ${chunk}: a block of shape [3, 3] needs 18 bytes after its header, got 12`],
    ["huge_header", block(0, [65536, 65536], [1]), "SIZE_OVERFLOW", () => "its header's shape [65536, 65536] holds more than 536870912 bytes (512 MiB), the most a block may hold"],
  ];
  const store = new Map([["/attributes.json", encode({ n5: "2.0.0" })]]);
  for (const [name, bytes] of cases) {
    store.set(`/${name}/attributes.json`, encode(attributes));
    store.set(`/${name}/0/0`, bytes);
  }
  store.set("/good/attributes.json", encode(attributes));
  store.set("/good/0/0", good);
  store.set("/good/1/0", block(0, [2, 3], [7, 8, 9, 10, 11, 12]));
  const attrsCases = [
    ["negative", { ...attributes, dimensions: [4, -3] }, "dimensions must be an array of non-negative integers, got an Array of length 2 [4, -3]"],
    ["missing_dimension", { ...attributes, dimensions: [4, null] }, "dimensions must be an array of non-negative integers, got an Array of length 2 [4, null]"],
    ["block_rank", { ...attributes, blockSize: [2] }, "blockSize has 1 dimensions, but the array has 2"],
    ["unknown_type", { ...attributes, dataType: "float16" }, 'dataType must be one of N5\'s (uint8, uint16, uint32, uint64, int8, int16, int32, int64, float32, float64), got "float16"'],
    ["no_compression", { dimensions: [4, 3], blockSize: [2, 3], dataType: "uint16" }, "compression must be an object with a type, got undefined"],
    ["unknown_compression", { ...attributes, compression: { type: "snappy" } }, 'its N5 compression "snappy" is unknown (N5 compressions read here: raw, gzip, blosc, zstd)'],
  ];
  for (const [name, attrs] of attrsCases) store.set(`/${name}/attributes.json`, encode(attrs));
  // 2 GiB blocks, one of them stored truncated to a single byte.
  store.set("/huge/attributes.json", encode({ dimensions: [2048, 1024, 1024], blockSize: [2048, 1024, 1024], dataType: "uint8", compression: { type: "raw" } }));
  store.set("/huge/0/0/0", Uint8Array.of(0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 7));
  store.set("/huge_missing/attributes.json", encode({ dimensions: [5, 3, 2], blockSize: [2, 2 ** 31, 1], dataType: "uint32", compression: { type: "raw" } }));

  test.each(VERSIONS.flatMap(([v, zarr]) => [[v, "reversed", zarr], [v, "n5", zarr]]))("zarrita %s, axes %s", async (_v, axes, zarr) => {
    const n5 = withN5(store, { axes });
    const chunk = axes === "n5" ? "[2, 3]" : "[3, 2] (axes reversed)";
    for (const [name, , code, message] of cases) {
      const arr = await zarr.open(zarr.root(n5).resolve(name), { kind: "array" });
      let error;
      try {
        await zarr.get(arr);
      } catch (e) {
        error = e;
      }
      const cause = error?.cause ?? error;
      expect(cause).toBeInstanceOf(ZarrCodecError);
      expect([name, cause.code]).toEqual([name, code]);
      expect(cause.message).toBe(`n5_default: block /${name}/0/0: ${message(chunk)}`);
    }
    for (const [name, , message] of attrsCases) {
      await expect(zarr.open(zarr.root(n5).resolve(name), { kind: "array" })).rejects.toThrow(`withN5: array /${name}: ${message}`);
    }
    // Blocks of 2 GiB, more than the codec reads: refused at open, each
    // time, before zarrita could allocate a missing block's chunk whole
    // (uint32 blocks of 2 x 2^31 have none stored: zarrita would fill 16 GiB).
    for (let i = 0; i < 50; i++) {
      await expectCodecRejection(
        zarr.open(zarr.root(n5).resolve("huge"), { kind: "array" }),
        "INVALID_METADATA",
        "withN5: array /huge: blockSize [2048, 1024, 1024] of uint8 holds 2147483648 bytes; n5_default reads blocks of at most 536870912 (512 MiB)",
      );
    }
    await expectCodecRejection(
      zarr.open(zarr.root(n5).resolve("huge_missing"), { kind: "array" }),
      "INVALID_METADATA",
      "withN5: array /huge_missing: blockSize [2, 2147483648, 1] of uint32 holds 17179869184 bytes; n5_default reads blocks of at most 536870912 (512 MiB)",
    );
    const arr = await zarr.open(zarr.root(n5).resolve("good"), { kind: "array" });
    // N5 order: the block's first dimension fastest. Axes n5: [4, 3] in C
    // order, element (x, y) = block x / 2 at x % 2 + 2 * y; reversed: [3, 4].
    const { data } = await readAll(zarr, arr);
    expect(Array.from(data)).toEqual(axes === "n5" ? [1, 3, 5, 2, 4, 6, 7, 9, 11, 8, 10, 12] : [1, 2, 7, 8, 3, 4, 9, 10, 5, 6, 11, 12]);
  });
});

describe("writes: blocks zarr-python 2's N5Store reads back", () => {
  const copy = fixtureCopy(ROOT, "n5");
  const readBack = (path) =>
    JSON.parse(execFileSync("/usr/bin/python3", ["scripts/n5-read-back.py", copy.dir, path], { encoding: "utf8" }));
  const PATHS = ["volumes/raw/raw", "volumes/raw/zstd_n5", "volumes/raw/blosc", "types/float64", "volumes/truncated/raw_3d", "types/int16"];

  test.each(PATHS.flatMap((p) => [[p, "reversed"], [p, "n5"]]))("%s, axes %s", async (path, axes) => {
    const store = withN5(new FileSystemStore(copy.dir), { axes });
    const arr = await zarr7.open(zarr7.root(store).resolve(path), { kind: "array" });
    const { data, shape } = await readAll(zarr7, arr);
    // Every value plus one (in its type), written whole, then read by zarr-python.
    const next = data.map((v) => (typeof v === "bigint" ? v + 1n : v + 1));
    await zarr7.set(arr, null, { data: next, shape, stride: shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1)) });
    const back = readBack(path);
    if (axes === "n5") {
      expect(back.shape).toEqual(EXPECTED[path].dimensions);
      expect(back.le_hex).toBe(hex(next));
    } else {
      expect(back.numpy_shape).toEqual(EXPECTED[path].numpy_shape);
      expect(back.numpy_le_hex).toBe(hex(next));
    }
  });

  test("zarr.json is not written through withN5", async () => {
    const store = withN5(new FileSystemStore(copy.dir));
    await expect(store.set("/new/zarr.json", new Uint8Array(2))).rejects.toThrow(
      /^withN5: writing \/new\/zarr.json is not supported: withN5 reads N5 attributes.json as Zarr metadata but does not write it/,
    );
  });
});
