// Registering never reads less: blosc of every cname numcodecs writes
// (blosclz, lz4, lz4hc, snappy, zlib, zstd), in Zarr v2 arrays Debian's
// zarr-python 2 and numcodecs write into a temporary folder
// (scripts/write-blosc-cname-stores.py), read through zarr.get and read,
// with zarrita 0.5, 0.6 and 0.7 alone and then with register(zarr.registry),
// value for value against numpy's. The cname matters only for writing:
// snappy's memcpyed chunks (where snappy did not shrink them) need no
// compressor, and its snappy frames go to the blosc codec register()
// replaced (numcodecs.js's), as the package's decoders have no snappy;
// read's chain in wasm hands them over chunk by chunk, and so do N5
// blocks of blosc with snappy inside (withN5).
// A frame neither can take (zstd that needs a dictionary, a zlib stream
// with a preset dictionary) is UNSUPPORTED_CODEC, naming the chunk and
// register's { compressors: false }.
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import FileSystemStore from "@zarrita/storage/fs";
import { createChunkCache, createReadPool, read, ready, register, withDataTypes, withN5, ZarrCodecError } from "../../../js/index.js";
import { BloscCodec } from "../../../js/compressors/codecs.js";
import { ROOT } from "../support/browser.js";
import { packageErrorOf } from "../support/compressed-fixtures.js";
import { ZARRITAS } from "../support/zarritas.js";
import { rejectionOf } from "../support/expect-error.js";

jest.setTimeout(180000);

const CNAMES = ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"];
const ARRAYS = CNAMES.flatMap((c) => [`blosc_${c}_u2`, `blosc_${c}_f8`]);
// c-blosc's format code of each cname in the header's flags (bits 5..7).
const FORMAT = { blosclz: 0, lz4: 1, lz4hc: 1, snappy: 2, zlib: 3, zstd: 4 };

let dir;
let expected;
let store;

beforeAll(async () => {
  await ready();
  dir = mkdtempSync(join(tmpdir(), "zcw-blosc-cnames-"));
  execFileSync("/usr/bin/python3", [join(ROOT, "scripts/write-blosc-cname-stores.py"), dir]);
  expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8"));
  store = new FileSystemStore(join(dir, "cnames.zarr"));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const hex = (data) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("hex");

async function openArray(zarr, from, name) {
  return zarr.open.v2(zarr.root(from).resolve(name), { kind: "array" });
}

// [name, zarr.get's values, read's values] of every array, in hex.
async function readAll(zarr, from) {
  const out = [];
  for (const name of ARRAYS) {
    const arr = await openArray(zarr, from, name);
    out.push([name, hex((await zarr.get(arr)).data), hex((await read(arr)).data)]);
  }
  return out;
}

const numpys = () => ARRAYS.map((name) => [name, expected[name].hex, expected[name].hex]);


// The chunks of zstd_u2 as frames that need dictionary 7 (RFC 8878: the
// frame header descriptor's Dictionary_ID_flag 1, then one byte of ID
// after the window descriptor, which a single-segment frame has not).
function dictionaryStore() {
  const folder = join(dir, "cnames.zarr", "zstd_u2");
  const files = new Map([["/.zgroup", readFileSync(join(dir, "cnames.zarr", ".zgroup"))]]);
  for (const file of readdirSync(folder)) {
    let bytes = new Uint8Array(readFileSync(join(folder, file)));
    if (!file.startsWith(".")) {
      expect(bytes[4] & 0x03).toBe(0); // no dictionary ID yet
      const at = 5 + (bytes[4] & 0x20 ? 0 : 1);
      const frame = new Uint8Array(bytes.length + 1);
      frame.set(bytes.subarray(0, at));
      frame[4] |= 0x01;
      frame[at] = 7;
      frame.set(bytes.subarray(at), at + 1);
      bytes = frame;
    }
    files.set(`/zstd_u2/${file}`, bytes);
  }
  return { get: async (key) => files.get(key) };
}

// A v2 array of one chunk, uint16 (8), whose zlib stream (node's zlib)
// needs the preset dictionary "abcdefgh" (RFC 1950: FDICT set).
function presetDictionaryStore() {
  const values = Uint16Array.from({ length: 8 }, (_, i) => 1000 + i);
  const stream = new Uint8Array(deflateSync(new Uint8Array(values.buffer), { dictionary: Buffer.from("abcdefgh") }));
  expect(stream[1] & 0x20).toBe(0x20);
  const zarray = { zarr_format: 2, shape: [8], chunks: [8], dtype: "<u2", compressor: { id: "zlib", level: 1 }, fill_value: 0, order: "C", filters: null };
  const files = new Map([["/z/.zarray", new TextEncoder().encode(JSON.stringify(zarray))], ["/z/0", stream]]);
  return { get: async (key) => files.get(key) };
}

describe("what Debian's numcodecs wrote", () => {
  test("each cname's chunks say that cname in their blosc header, snappy's included (snappy frames, and memcpyed ones)", () => {
    for (const name of ARRAYS) {
      const cname = name.split("_")[1];
      for (const [key, flags] of Object.entries(expected[name].flags)) {
        if (flags & 0x02) continue; // memcpyed: stored as they are
        expect([name, key, flags >> 5]).toEqual([name, key, FORMAT[cname]]);
      }
    }
    const snappy = Object.values(expected.blosc_snappy_u2.flags);
    expect(snappy.some((f) => f >> 5 === 2 && !(f & 0x02))).toBe(true);
    expect(snappy.some((f) => f & 0x02)).toBe(true);
  });
});

describe("zarrita alone (nothing registered)", () => {
  test.each(ZARRITAS)("zarrita %s: zarr.get and read of every cname equal numpy's", async (_v, zarr) => {
    expect(await readAll(zarr, store)).toEqual(numpys());
  });
});

describe("with nothing register() replaced to hand a frame to", () => {
  test("a snappy frame is UNSUPPORTED_CODEC, saying so and naming register's { compressors: false }", async () => {
    // A registry without zarrita's codecs: register() replaces no blosc.
    const registry = register(new Map());
    const Codec = await registry.get("blosc")();
    expect(Codec).toBe(BloscCodec);
    const snappyKey = Object.entries(expected.blosc_snappy_u2.flags).find(([, f]) => !(f & 0x02))[0];
    const frame = new Uint8Array(readFileSync(join(dir, "cnames.zarr", "blosc_snappy_u2", snappyKey)));
    const codec = Codec.fromConfig({ cname: "snappy", clevel: 5, shuffle: 1, blocksize: 0 }, { dataType: "uint16", shape: [12, 24] });
    const error = await rejectionOf(Promise.resolve().then(() => codec.decode(frame)));
    expect(error).toBeInstanceOf(ZarrCodecError);
    expect(error.code).toBe("UNSUPPORTED_CODEC");
    expect(error.message).toBe(
      "blosc: the frame is compressed with snappy, which is not built in (blosclz, lz4, lz4hc, zlib and zstd are); " +
        "no blosc codec that register() replaced is kept to try it (register() found none in the registry). " +
        "register(zarr.registry, { compressors: false }) leaves the compressors to zarrita's own",
    );
    // A memcpyed frame of the same array needs no compressor: it reads.
    const memcpyed = Object.entries(expected.blosc_snappy_u2.flags).find(([, f]) => f & 0x02)[0];
    const stored = new Uint8Array(readFileSync(join(dir, "cnames.zarr", "blosc_snappy_u2", memcpyed)));
    expect(hex(await codec.decode(stored))).toBe(hex(stored.subarray(16)));
  });
});

describe.each(ZARRITAS)("zarrita %s with register(zarr.registry)", (_v, zarr) => {
  beforeAll(() => {
    register(zarr.registry);
  });

  test("the blosc codec zarrita runs is the package's", async () => {
    expect(await zarr.registry.get("blosc")()).toBe(BloscCodec);
  });

  test("zarr.get and read of every cname equal numpy's; snappy's frames go to numcodecs.js", async () => {
    expect(await readAll(zarr, store)).toEqual(numpys());
  });

  test("through withDataTypes as well", async () => {
    expect(await readAll(zarr, withDataTypes(store))).toEqual(numpys());
  });

  test("read with a pool: workers have no snappy, so the read runs again on the calling thread, each chunk's progress reported once", async () => {
    const pool = createReadPool({ workers: 1, inThreadChunks: 0 });
    try {
      for (const name of ["blosc_snappy_u2", "blosc_snappy_f8", "blosc_zstd_u2"]) {
        const arr = await openArray(zarr, store, name);
        const done = [];
        const got = await read(arr, null, { pool, onProgress: ({ chunk }) => done.push(chunk.join(".")) });
        expect([name, hex(got.data)]).toEqual([name, expected[name].hex]);
        expect([name, done.sort()]).toEqual([name, ["0.0", "0.1", "1.0", "1.1"]]);
      }
    } finally {
      await pool.close();
    }
  });

  test("with a chunk cache, pooled and not: snappy frames the workers refuse are decoded on the calling thread and kept; a second read asks the store for nothing", async () => {
    const pool = createReadPool({ workers: 1, inThreadChunks: 0 });
    try {
      for (const options of [{ pool }, {}]) {
        const cache = createChunkCache();
        const asked = [];
        const counting = { get: (key, opts) => (asked.push(key), store.get(key, opts)) };
        for (const name of ["blosc_snappy_u2", "blosc_zstd_u2"]) {
          const arr = await openArray(zarr, counting, name);
          asked.length = 0;
          expect([name, hex((await read(arr, null, { ...options, cache })).data)]).toEqual([name, expected[name].hex]);
          expect(asked).toHaveLength(4);
          asked.length = 0;
          expect([name, hex((await read(arr, null, { ...options, cache })).data)]).toEqual([name, expected[name].hex]);
          expect(asked).toEqual([]);
        }
      }
    } finally {
      await pool.close();
    }
  });

  test("N5 blocks of blosc with snappy inside (zarr-python 2's N5Store): zarr.get and read through withN5 equal numpy's", async () => {
    const folder = join(dir, "cnames.n5", "blosc_snappy_u2");
    // After N5's block header (4 + 4 * 2 bytes), blosc's: snappy inside.
    expect(readdirSync(join(folder, "0")).some((b) => readFileSync(join(folder, "0", b))[12 + 2] >> 5 === 2)).toBe(true);
    const arr = await zarr.open(zarr.root(withN5(new FileSystemStore(join(dir, "cnames.n5")))).resolve("blosc_snappy_u2"), { kind: "array" });
    expect([hex((await zarr.get(arr)).data), hex((await read(arr)).data)]).toEqual([expected.blosc_snappy_u2.hex, expected.blosc_snappy_u2.hex]);
  });

  test("a zlib stream with a preset dictionary, which zarrita's zlib (DecompressionStream) cannot read either: UNSUPPORTED_CODEC", async () => {
    const arr = await openArray(zarr, presetDictionaryStore(), "z");
    const viaGet = packageErrorOf(await rejectionOf(zarr.get(arr)));
    const viaRead = await rejectionOf(read(arr));
    const because = "zlib: the stream needs a preset dictionary; those are not supported; the zlib codec register() replaced (zarrita's own) cannot read it either: ";
    expect([viaGet.code, viaGet.message.startsWith(because)]).toEqual(["UNSUPPORTED_CODEC", true]);
    expect([viaRead.code, viaRead.message.startsWith(`read: chunk 0 of array /z: ${because}`)]).toEqual(["UNSUPPORTED_CODEC", true]);
    expect(viaRead.message.endsWith("register(zarr.registry, { compressors: false }) leaves the compressors to zarrita's own")).toBe(true);
  });

  test("a zstd frame that needs a dictionary, which numcodecs.js cannot read either: UNSUPPORTED_CODEC naming the chunk and { compressors: false }", async () => {
    const from = dictionaryStore();
    const first = [zarr.slice(0, 12), zarr.slice(0, 24)]; // chunk 0.0 alone
    const because =
      "the frame needs dictionary 7; frames compressed with a dictionary are not supported; " +
      "the zstd codec register() replaced (zarrita's own) cannot read it either: ";
    const advice = ". register(zarr.registry, { compressors: false }) leaves the compressors to zarrita's own";
    const plain = packageErrorOf(await rejectionOf(zarr.get(await openArray(zarr, from, "zstd_u2"), first)));
    expect(plain.code).toBe("UNSUPPORTED_CODEC");
    expect(plain.message.startsWith(`zstd: ${because}`)).toBe(true);
    expect(plain.message.endsWith(advice)).toBe(true);
    // A store wrapper of the package knows the chunk's key: the codec names it.
    const wrapped = await rejectionOf(zarr.get(await openArray(zarr, withDataTypes(from), "zstd_u2"), first));
    const named = packageErrorOf(wrapped);
    expect(named.code).toBe("UNSUPPORTED_CODEC");
    expect(named.message.startsWith(`zstd: chunk /zstd_u2/0.0: ${because}`)).toBe(true);
    expect(named.message.endsWith(advice)).toBe(true);
    // read names the chunk and the array itself.
    const viaRead = await rejectionOf(read(await openArray(zarr, from, "zstd_u2"), first));
    expect(viaRead).toBeInstanceOf(ZarrCodecError);
    expect(viaRead.code).toBe("UNSUPPORTED_CODEC");
    expect(viaRead.message.startsWith(`read: chunk 0.0 of array /zstd_u2: zstd: ${because}`)).toBe(true);
    expect(viaRead.message.endsWith(advice)).toBe(true);
  });
});
