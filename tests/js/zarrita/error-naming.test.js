// What a message names. An array at the root of its store is named with
// the store's URL (FetchStore) or folder (FileSystemStore), not "array /"
// alone; a codec's error through zarr.get names the chunk where the store
// is wrapped by the package (withDataTypes, withN5 note each chunk's key:
// zarrita gives a codec the bytes alone), and on zarrita 0.7 withDataTypes'
// array extension gives zarrita's CodecPipelineError its chunk path. A
// plain store tells the codec nothing: there the message names no chunk
// (read names it always).
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import FetchStore from "@zarrita/storage/fetch";
import FileSystemStore from "@zarrita/storage/fs";
import { read, ready, register, withDataTypes, withN5, ZarrCodecError } from "../../../js/index.js";
import { hasArrayExtensions, ZARRITAS } from "../support/zarritas.js";
import { rejectionOf } from "../support/expect-error.js";

const json = (o) => new TextEncoder().encode(JSON.stringify(o));
const ZARRAY = { zarr_format: 2, shape: [4], chunks: [4], dtype: "<u2", compressor: { id: "zstd", level: 1 }, fill_value: 0, order: "C", filters: null };
// A zstd frame header (single segment, 8 bytes of content), then a block
// header that says 2 MiB: libzstd stops at it.
const DAMAGED = Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x08, 0xff, 0xff, 0xff, 1, 2, 3);
// What libzstd's failure says, after the names this test is about.
const TRUNCATED = /^zstd: the frames? (is|are) truncated/;
// [code, message]: the package's error, its message starting with `named`, then the decoder's words.
const named = (error, prefix) => [error.code, error.message.startsWith(prefix) && TRUNCATED.test(`zstd: ${error.message.slice(prefix.length)}`)];
// The same array at the root and at /a; a root v3 array withDataTypes refuses (an int4 fill of 9).
const FILES = new Map([
  ["/.zarray", json(ZARRAY)],
  ["/0", DAMAGED],
  ["/a/.zarray", json(ZARRAY)],
  ["/a/0", DAMAGED],
]);
const URL_ROOT = "http://127.0.0.1:9/data.zarr/";

// A FetchStore whose fetch answers from FILES: nothing leaves the process.
const fetchStore = (files = FILES) =>
  new FetchStore(URL_ROOT, {
    fetch: async (request) => {
      const bytes = files.get(new URL(request.url).pathname.replace(/^\/data\.zarr/, ""));
      return bytes ? new Response(bytes) : new Response(null, { status: 404 });
    },
  });

let dir;
beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
  dir = mkdtempSync(join(tmpdir(), "zcw-naming-"));
  for (const [key, bytes] of FILES) {
    mkdirSync(join(dir, key, ".."), { recursive: true });
    writeFileSync(join(dir, key), bytes);
  }
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});


describe.each(ZARRITAS)("zarrita %s", (_v, zarr) => {
  const open = (store, path) => zarr.open.v2(zarr.root(store).resolve(path), { kind: "array" });

  test("read names a root array with its store's URL or folder, and any other array by its path", async () => {
    for (const [store, place] of [[fetchStore(), URL_ROOT], [new FileSystemStore(dir), dir]]) {
      const root = await rejectionOf(read(await open(store, "/")));
      expect(root).toBeInstanceOf(ZarrCodecError);
      expect(named(root, `read: chunk 0 of array / of ${place}: zstd: `)).toEqual(["CORRUPT_DATA", true]);
      const nested = await rejectionOf(read(await open(store, "a")));
      expect(named(nested, "read: chunk 0 of array /a: zstd: ")).toEqual(["CORRUPT_DATA", true]);
    }
  });

  test("withDataTypes names a root array it refuses with its store's URL", async () => {
    const v3 = { zarr_format: 3, node_type: "array", shape: [4], data_type: "int4", chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } }, chunk_key_encoding: { name: "default" }, fill_value: 9, codecs: [{ name: "packbits" }] };
    const store = withDataTypes(fetchStore(new Map([["/zarr.json", json(v3)]])));
    const error = await rejectionOf(zarr.open.v3(zarr.root(store), { kind: "array" }));
    expect(error).toBeInstanceOf(ZarrCodecError);
    expect([error.code, error.message]).toEqual(["INVALID_METADATA", `withDataTypes: array / of ${URL_ROOT}: fill_value 9 is outside int4's range -8..7`]);
  });

  test("withN5 names a root array it refuses with its store's folder", async () => {
    const attributes = json({ dimensions: [4, -1], blockSize: [2, 2], dataType: "uint16" });
    const folder = new FileSystemStore(dir);
    // A store with FileSystemStore's root, answering an N5 root's attributes.
    const store = { root: folder.root, get: async (key) => (key === "/attributes.json" ? attributes : undefined) };
    const error = await rejectionOf(zarr.open(zarr.root(withN5(store)), { kind: "array" }));
    expect(error).toBeInstanceOf(ZarrCodecError);
    expect([error.code, error.message]).toEqual(["INVALID_METADATA", `withN5: array / of ${dir}: dimensions must be an array of non-negative integers, got an Array of length 2 [4, -1]`]);
  });

  test("zarr.get: the package's error names the chunk where withDataTypes returned it, and nothing where the store is plain", async () => {
    for (const [path, key] of [["/", "/0"], ["a", "/a/0"]]) {
      const wrapped = await rejectionOf(zarr.get(await open(withDataTypes(fetchStore()), path)));
      const plain = await rejectionOf(zarr.get(await open(fetchStore(), path)));
      if (hasArrayExtensions(zarr)) {
        // zarrita 0.7 wraps a codec's error in its CodecPipelineError.
        expect(wrapped.name).toBe("CodecPipelineError");
        expect(wrapped.message).toBe(`Failed to decode chunk via codec "numcodecs.zstd" at ${key}`);
        expect(wrapped.chunkPath).toBe(key);
        expect(plain.message).toBe('Failed to decode chunk via codec "numcodecs.zstd"');
      }
      const inner = hasArrayExtensions(zarr) ? wrapped.cause : wrapped;
      expect(inner).toBeInstanceOf(ZarrCodecError);
      expect(named(inner, `zstd: chunk ${key} of ${URL_ROOT}: `)).toEqual(["CORRUPT_DATA", true]);
      const plainInner = hasArrayExtensions(zarr) ? plain.cause : plain;
      expect(plainInner).toBeInstanceOf(ZarrCodecError);
      expect(named(plainInner, "zstd: ")).toEqual(["CORRUPT_DATA", true]);
    }
  });
});
