// N5 compressors through withN5 (issue 21, item 6): every failure of the
// compressor a block goes through reaches the user as the package's
// ZarrCodecError, with a stable code, the block's key in the message and
// the compressor's own error as the cause; what blosc and zstd frames say
// of their size is checked against the block's header before numcodecs.js
// runs (it trusts them: a hostile size is a 2 GiB allocation, a frame
// followed by a cut-short one loops forever, some truncated frames trap and
// leave its zstd module failing every later call); and compression members
// numcodecs.js would refuse at the first read are refused at open, for
// that array alone. Blocks are the fixture's (zarr-python 2 wrote them),
// damaged here, or frames built by hand from the format's spec (RFC 8878
// for zstd, the blosc header layout).
import { beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { deflateSync, gunzipSync, gzipSync } from "node:zlib";
import FileSystemStore from "@zarrita/storage/fs";
import { diagnostics, read, ready, register, withN5, ZarrCodecError } from "../../../js/index.js";
import { fixturePath } from "../support/fixtures.js";
import { hex } from "../support/reference.js";
import { ZARRITAS } from "../support/zarritas.js";

const ROOT = fixturePath("n5-store.n5");
const EXPECTED = JSON.parse(readFileSync(`${ROOT}/expected.json`, "utf8"));
const VERSIONS = ZARRITAS.filter(([v]) => v !== "0.6.1");
const zarr7 = ZARRITAS.find(([v]) => v.startsWith("0.7"))[1];
const json = (o) => new TextEncoder().encode(JSON.stringify(o));

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

/** The package's error in `error` or its causes (zarrita wraps codec errors). */
function packageError(error) {
  for (let e = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (e instanceof ZarrCodecError) return e;
  }
  return undefined;
}

async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return undefined;
}

const fixtureBlock = (path) => new Uint8Array(readFileSync(`${ROOT}/${path}`));
const attributesOf = (path) => JSON.parse(readFileSync(`${ROOT}/${path}/attributes.json`, "utf8"));
const HEADER = 12; // every fixture block here is 2-D: mode, rank, two dimensions

/** A 2-D block header [3, 2] (12 bytes, 6 uint16 values) before `payload`. */
function withHeader(payload) {
  const out = new Uint8Array(HEADER + payload.length);
  out.set([0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 2]);
  out.set(payload, HEADER);
  return out;
}

// A zstd frame by hand: magic, a descriptor, then blocks.
const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const zstdBlockHeader = (last, type, size) => {
  const h = last | (type << 1) | (size << 3);
  return [h & 0xff, (h >> 8) & 0xff, (h >> 16) & 0xff];
};

describe("damaged compressed blocks: the package's error, the block's key, the compressor's error as cause", () => {
  const damaged = new Map();
  const add = (name, source, bytes) => {
    damaged.set(`/${name}/attributes.json`, json(attributesOf(source)));
    damaged.set(`/${name}/0/0`, bytes);
  };
  const flip = (bytes, at) => {
    const out = bytes.slice();
    out[at] ^= 0xff;
    return out;
  };
  const gzip = fixtureBlock("volumes/raw/gzip/0/0");
  const zlib = fixtureBlock("volumes/raw/zlib/0/0");
  const zstd = fixtureBlock("volumes/raw/zstd/0/0");
  const blosc = fixtureBlock("volumes/raw/blosc/0/0");
  const set = (bytes, at, values) => {
    const out = bytes.slice();
    out.set(values, at);
    return out;
  };
  const u32 = (value) => [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, value >>> 24];
  // [name, source array, block, code, message after "n5_default: block /<name>/0/0: ", cause's message]
  const CASES = [
    // Decoded in the package's wasm (libdeflate): the checksums and the
    // trailer checked there, the CRC-32 and Adler-32 worked out by hand from
    // the fixture's bytes with one byte flipped.
    ["gzip_crc", "volumes/raw/gzip", flip(gzip, gzip.length - 6), "CHECKSUM_MISMATCH", "gzip: member 1's CRC-32 is 0xbf180b74, its data's is 0xbfe70b74"],
    ["gzip_cut", "volumes/raw/gzip", gzip.subarray(0, gzip.length - 3), "CORRUPT_DATA", "gzip: the stream is truncated (no trailer)"],
    ["zlib_adler", "volumes/raw/zlib", flip(zlib, zlib.length - 1), "CHECKSUM_MISMATCH", "zlib: the stream's Adler-32 is 0x263506b1, its data's is 0x2635064e"],
    // A compressed zstd block whose content is no literals section: the
    // framing is whole, zstd itself refuses it.
    [
      "zstd_corrupt",
      "volumes/raw/zstd",
      withHeader([...ZSTD_MAGIC, 0x20, 12, ...zstdBlockHeader(1, 2, 3), 0xff, 0xff, 0xff]),
      "CORRUPT_DATA",
      "zstd: the frame is corrupt (zstd error 30)",
    ],
    // A second frame cut short after its magic number: numcodecs.js's zstd
    // loops forever on it.
    ["zstd_trailing", "volumes/raw/zstd", new Uint8Array([...zstd, ...ZSTD_MAGIC]), "CORRUPT_DATA", "zstd: the frames are truncated or followed by bytes that are not a frame (25 bytes)"],
    ["zstd_trailing_descriptor", "volumes/raw/zstd", new Uint8Array([...zstd, ...ZSTD_MAGIC, 0x20]), "CORRUPT_DATA", "zstd: the frames are truncated or followed by bytes that are not a frame (26 bytes)"],
    // One byte of the raw block gone: numcodecs.js's zstd module traps on
    // such frames and fails every later call.
    ["zstd_cut", "volumes/raw/zstd", new Uint8Array([...zstd.subarray(0, 20), ...zstd.subarray(21)]), "CORRUPT_DATA", "zstd: the frames are truncated or followed by bytes that are not a frame (20 bytes)"],
    // A content size of 2 GiB - 1, and 64 RLE blocks of 128 KiB from 256 bytes.
    [
      "zstd_content_size",
      "volumes/raw/zstd",
      withHeader([...ZSTD_MAGIC, 0xa0, ...u32(0x7fffffff), ...zstdBlockHeader(1, 0, 12), ...new Array(12).fill(7)]),
      "LENGTH_MISMATCH",
      "zstd: the frame says it decodes to 2147483647 bytes (its content size), the chunk's decoded size is 12 bytes",
    ],
    [
      "zstd_rle",
      "volumes/raw/zstd",
      withHeader([...ZSTD_MAGIC, 0x00, 0x38, ...Array.from({ length: 64 }, (_, i) => [...zstdBlockHeader(i === 63 ? 1 : 0, 1, 131072), 9]).flat()]),
      "LENGTH_MISMATCH",
      "zstd: the frame decodes to more than the chunk's decoded size of 12 bytes",
    ],
    ["zstd_not_a_frame", "volumes/raw/zstd", withHeader([1, 2, 3, 4, 5, 6, 7, 8]), "CORRUPT_DATA", "zstd: the chunk does not start with a zstd frame header (8 bytes)"],
    // blosc's nbytes (bytes 4..7 of its header) at 2 GiB - 1: numcodecs.js
    // allocates that much before it decompresses anything.
    ["blosc_nbytes", "volumes/raw/blosc", (() => {
      const b = blosc.slice();
      b.set(u32(0x7fffffff), HEADER + 4);
      return b;
    })(), "LENGTH_MISMATCH", "blosc: the header says it decodes to 2147483647 bytes (nbytes), the chunk's decoded size is 12 bytes"],
    // One byte short of the cbytes its header says: numcodecs.js would read past the block.
    ["blosc_cut", "volumes/raw/blosc", blosc.subarray(0, blosc.length - 1), "CORRUPT_DATA", "blosc: the header says the frame has 28 bytes (cbytes), the chunk has 27 (truncated)"],
    ["blosc_header", "volumes/raw/blosc", blosc.subarray(0, HEADER + 10), "CORRUPT_DATA", "blosc: the chunk has 10 bytes, a blosc frame at least 16 (its header)"],
    // Headers c-blosc refuses, on which numcodecs.js hands back its output
    // buffer unwritten (whatever that memory held); the package's blosc
    // walker names what is wrong.
    ["blosc_codec", "volumes/raw/blosc", set(blosc, HEADER + 2, [0xe1]), "CORRUPT_DATA", "blosc: unknown compressor code 7 in the header's flags"],
    ["blosc_version", "volumes/raw/blosc", set(blosc, HEADER, [3]), "UNSUPPORTED_CODEC", "blosc: format version 3 (a c-blosc2 chunk); only version 2, c-blosc 1.x's (numcodecs' Blosc), is supported; c-blosc 1, which the blosc codec register() replaced runs, does not read it either"],
    ["blosc_blocksize", "volumes/raw/blosc", set(blosc, HEADER + 8, u32(0)), "CORRUPT_DATA", "blosc: the header's blocksize 0 is not within 1..12 (nbytes)"],
    ["blosc_typesize", "volumes/raw/blosc", set(blosc, HEADER + 3, [0]), "CORRUPT_DATA", "blosc: the header's typesize is 0"],
    // Stored uncompressed, flagged as compressed: its first bytes are no block offset.
    ["blosc_offsets", "volumes/raw/blosc", set(blosc, HEADER + 2, [0x31]), "CORRUPT_DATA", "blosc: block 0's stream 0 starts at byte -65536, outside the frame's data (20..24)"],
    // A header that says 4 GiB: refused before gzip is asked for it.
    ["gzip_huge_header", "volumes/raw/gzip", (() => {
      const b = gzip.slice();
      b.set([0, 1, 0, 0, 0, 0, 0x80, 0], 4);
      return b;
    })(), "SIZE_OVERFLOW", "its header's shape [65536, 32768] holds more than 536870912 bytes (512 MiB), the most a block may hold"],
  ];
  for (const [name, source, bytes] of CASES) add(name, source, bytes);

  test.each(VERSIONS)("zarrita %s: each refused, then every compression still reads", async (_v, zarr) => {
    const files = {
      get: async (key) => damaged.get(key) ?? (await new FileSystemStore(ROOT).get(key)),
    };
    const store = withN5(files);
    for (const [name, , , code, message, cause] of CASES) {
      const arr = await zarr.open(zarr.root(store).resolve(name), { kind: "array" });
      const error = packageError(await failure(zarr.get(arr, [zarr.slice(0, 1), zarr.slice(0, 1)])));
      expect([name, error?.code]).toEqual([name, code]);
      if (typeof message === "string") expect(error.message).toBe(`n5_default: block /${name}/0/0: ${message}`);
      else expect(error.message.replace(`n5_default: block /${name}/0/0: `, "")).toMatch(message);
      if (cause) {
        expect(error.cause).toBeInstanceOf(Error);
        expect(error.cause).not.toBeInstanceOf(ZarrCodecError);
        expect(error.cause.message).toMatch(cause);
      } else {
        expect(error.cause).toBeUndefined();
      }
    }
    // The compressors' modules are whole: every compression reads as zarr-python wrote it.
    for (const path of ["volumes/raw/gzip", "volumes/raw/zlib", "volumes/raw/zstd", "volumes/raw/blosc"]) {
      const arr = await zarr.open(zarr.root(store).resolve(path), { kind: "array" });
      expect(hex((await zarr.get(arr)).data)).toBe(EXPECTED[path].numpy_le_hex);
    }
  });
});

describe("compressors at open: what numcodecs.js would refuse at the first read is refused at open, for that array alone", () => {
  const base = { dimensions: [4, 3], blockSize: [2, 3], dataType: "uint16" };
  // [name, compression, message after "withN5: array /<name>: "]
  const REFUSED = [
    ["blosc_cname", { type: "blosc", cname: "LZ4", clevel: 5, shuffle: 1 }, 'its blosc compression\'s cname must be one of blosclz, lz4, lz4hc, snappy, zlib, zstd, got "LZ4"'],
    ["blosc_clevel", { type: "blosc", cname: "lz4", clevel: 12 }, "its blosc compression's clevel must be an integer from 0 to 9, got 12"],
    ["blosc_shuffle", { type: "blosc", shuffle: 3 }, "its blosc compression's shuffle must be 0 (none), 1 (byte) or 2 (bit), got 3"],
    ["blosc_blocksize", { type: "blosc", blocksize: -1 }, "its blosc compression's blocksize must be a non-negative integer, got -1"],
    ["gzip_level", { type: "gzip", level: 10 }, "its gzip compression's level must be an integer from -1 to 9, got 10"],
    ["gzip_zlib", { type: "gzip", useZlib: "yes" }, 'its gzip compression\'s useZlib must be true or false, got "yes"'],
    ["zstd_level", { type: "zstd", level: 2.5 }, "its zstd compression's level must be an integer from -131072 to 22, got 2.5"],
  ];
  const files = new Map([["/good/attributes.json", json({ ...base, compression: { type: "blosc", cname: "zstd", clevel: 9, shuffle: 2 } })]]);
  for (const [name, compression] of REFUSED) files.set(`/${name}/attributes.json`, json({ ...base, compression }));

  test.each(VERSIONS)("zarrita %s", async (_v, zarr) => {
    const store = withN5(files);
    for (const [name, , message] of REFUSED) {
      const error = await failure(zarr.open(zarr.root(store).resolve(name), { kind: "array" }));
      expect(error).toBeInstanceOf(ZarrCodecError);
      expect([name, error.code, error.message]).toEqual([name, "INVALID_METADATA", `withN5: array /${name}: ${message}`]);
    }
    // Members absent take N5's defaults; valid ones open (a missing block reads as 0).
    const arr = await zarr.open(zarr.root(store).resolve("good"), { kind: "array" });
    expect(Array.from((await zarr.get(arr)).data)).toEqual(new Array(12).fill(0));
  });

  test("a codec made directly with a compressor configuration the encoder refuses reads blocks (the cname matters only for writing), and refuses to write", async () => {
    const Codec = await zarr7.registry.get("n5_default")();
    const meta = { dataType: "uint16", shape: [2, 3] };
    const made = (cname) => Codec.fromConfig({ codecs: [{ name: "bytes", configuration: { endian: "big" } }, { name: "blosc", configuration: { cname, clevel: 5, shuffle: "shuffle" } }] }, meta);
    const block = fixtureBlock("volumes/raw/blosc/0/0");
    // The block as the fixture's own configuration reads it (held against numpy above).
    const reference = await made("lz4").decode(block);
    const decoded = await made("LZ4").decode(block);
    expect(Array.from(decoded.data)).toEqual(Array.from(reference.data));
    const error = await failure(made("LZ4").encode(reference));
    expect(error).toBeInstanceOf(ZarrCodecError);
    // The block codec says which compressor failed; the compressor's own error is the cause.
    expect(error.code).toBe("CODEC_FAILED");
    expect(error.cause).toBeInstanceOf(ZarrCodecError);
    expect(error.cause.code).toBe("INVALID_CONFIGURATION");
    expect(error.cause.message).toBe('blosc: cname must be "blosclz", "lz4", "lz4hc", "zlib" or "zstd" (the encoder has no snappy), got "LZ4"');
  });
});

describe("writes through a compressor that cannot encode", () => {
  test("gzip blocks are written through the package's encoder: the block is N5's header, then gzip of the big-endian values", async () => {
    const files = new Map([["/a/attributes.json", json({ dimensions: [2], blockSize: [2], dataType: "uint16", compression: { type: "gzip" } })]]);
    const arr = await zarr7.open(zarr7.root(withN5(files)).resolve("a"), { kind: "array" });
    await zarr7.set(arr, null, { data: Uint16Array.of(0x0102, 0x0304), shape: [2], stride: [1] });
    const block = files.get("/a/0");
    // Mode 0, one dimension, 2 values; then gzip (node's zlib reads it back).
    expect(Array.from(block.subarray(0, 8))).toEqual([0, 0, 0, 1, 0, 0, 0, 2]);
    expect(Array.from(gunzipSync(block.subarray(8)))).toEqual([1, 2, 3, 4]);
    expect(Array.from((await zarr7.get(arr)).data)).toEqual([0x0102, 0x0304]);
  });
});

describe("a block whose header claims far more than its chunk, with a frame of a few bytes", () => {
  // N5 allows a block larger than its chunk (cropped to it), up to 512 MiB.
  // The block's own header is a claim: decoding to it up front grew wasm
  // memory (which never shrinks) to 300 MB for a block of 32 bytes, through
  // zarr.get and again through read. It is decoded as far as its frame's
  // data goes instead, and refused.
  const header = new Uint8Array(8);
  new DataView(header.buffer).setUint16(2, 1);
  new DataView(header.buffer).setUint32(4, 300_000_000);
  const four = new Uint8Array(4);
  // A zstd frame without a content size (a streaming writer's): one raw block of 4 bytes.
  const streamedZstd = new Uint8Array([...ZSTD_MAGIC, 0x00, 0x00, ...zstdBlockHeader(1, 0, 4), 0, 0, 0, 0]);
  const CASES = [
    ["gzip", { type: "gzip" }, new Uint8Array(gzipSync(four))],
    ["zlib", { type: "gzip", useZlib: true }, new Uint8Array(deflateSync(four))],
    ["zstd", { type: "zstd" }, streamedZstd],
  ];

  test.each(VERSIONS)("zarrita %s: LENGTH_MISMATCH through zarr.get and read, and wasm memory does not grow", async (_v, zarr) => {
    const files = new Map();
    for (const [name, compression, frame] of CASES) {
      files.set(`/${name}/attributes.json`, json({ dimensions: [4], blockSize: [4], dataType: "uint8", compression }));
      files.set(`/${name}/0`, new Uint8Array([...header, ...frame]));
    }
    const store = withN5({ get: async (key) => files.get(key) });
    const before = diagnostics().wasmMemoryBytes();
    for (const [name] of CASES) {
      const arr = await zarr.open(zarr.root(store).resolve(name), { kind: "array" });
      for (const [how, get] of [["zarr.get", () => zarr.get(arr)], ["read", () => read(arr)]]) {
        const error = packageError(await failure(get()));
        expect([name, how, error?.code]).toEqual([name, how, "LENGTH_MISMATCH"]);
        // (zstd's frames are walked first: "its zstd data decompresses to 4 bytes, but its shape holds 300000000")
        expect(error.message).toMatch(/(a block of shape \[300000000\] needs 300000000 bytes after its header|its shape holds 300000000), got 4$|holds 300000000$/);
      }
    }
    expect(diagnostics().wasmMemoryBytes()).toBeLessThanOrEqual(before + 1024 * 1024);
  });
});
