// A compressor's configuration matters only to its encoder: a frame says
// how it was compressed. So a configuration the encoder refuses (a level
// out of range, blosc's cname "snappy" or a typo, a shuffle of another
// form, a configuration that is no object) makes a codec that decodes
// frames numcodecs wrote (tests/fixtures/compressed/, manifest.tsv) to
// their bytes, and refuses at the first encode, with INVALID_CONFIGURATION
// naming the member. With zarrita 0.5 and 0.7, through the registry
// register() extended.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ready, register, ZarrCodecError } from "../../../js/index.js";
import { ROOT } from "../support/browser.js";
import { ZARRITAS } from "../support/zarritas.js";

const FIXTURES = join(ROOT, "tests/fixtures/compressed");
const fixture = (name) => new Uint8Array(readFileSync(join(FIXTURES, name)));
// Every frame below decodes to u16-32x64.raw (manifest.tsv).
const RAW = "u16-32x64.raw";

// [codec name, frame, configuration, the encoder's complaint]
const CASES = [
  ["zstd", "zstd-l3.zst", { level: 99 }, "zstd: level must be an integer in -131072..22, got 99"],
  ["zstd", "zstd-l3.zst", { level: 3, checksum: "yes" }, 'zstd: checksum must be true or false, got "yes"'],
  ["gzip", "gzip-l1.gz", { level: -1 }, "gzip: level must be an integer in 0..9, got -1"],
  ["zlib", "zlib-l1.zz", { level: 10 }, "zlib: level must be an integer in -1..9, got 10"],
  ["lz4", "lz4-a1.lz4", { acceleration: 1.5 }, "lz4: acceleration must be an integer, got 1.5"],
  ["blosc", "blosc-lz4-shuffle-t2.blosc", { cname: "snappy", clevel: 5, shuffle: 1, blocksize: 0 }, 'blosc: cname must be "blosclz", "lz4", "lz4hc", "zlib" or "zstd" (the encoder has no snappy), got "snappy"'],
  ["blosc", "blosc-lz4-shuffle-t2.blosc", { cname: "LZ4" }, 'blosc: cname must be "blosclz", "lz4", "lz4hc", "zlib" or "zstd" (the encoder has no snappy), got "LZ4"'],
  ["blosc", "blosc-lz4-shuffle-t2.blosc", { clevel: 12 }, "blosc: clevel must be an integer in 0..9, got 12"],
  ["blosc", "blosc-lz4-shuffle-t2.blosc", { shuffle: "byte" }, 'blosc: shuffle must be "noshuffle", "shuffle", "bitshuffle" or -1..2, got "byte"'],
  ["blosc", "blosc-lz4-shuffle-t2.blosc", { typesize: 0 }, "blosc: typesize must be an integer in 1..255, got 0"],
  ["blosc", "blosc-lz4-shuffle-t2.blosc", { blocksize: -1 }, "blosc: blocksize must be a whole number of bytes, got -1"],
  ["blosc", "blosc-lz4-shuffle-t2.blosc", "lz4", 'blosc: its configuration must be an object, got "lz4"'],
];

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

describe.each(ZARRITAS.filter(([v]) => v === "0.5.4" || v === "0.7.5"))("zarrita %s", (_v, zarr) => {
  test.each(CASES)("%s %s %j: decodes numcodecs' frame, refuses to encode", async (name, frame, configuration, complaint) => {
    const raw = fixture(RAW);
    const Codec = await zarr.registry.get(name)();
    // As zarrita makes it for a v3 array of uint16 (32, 64): no error here.
    const meta = { dataType: "uint16", shape: [32, 64], codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name, configuration }] };
    const codec = Codec.fromConfig(configuration, meta);
    expect(Buffer.from(await codec.decode(fixture(frame))).equals(Buffer.from(raw))).toBe(true);
    let error;
    try {
      await codec.encode(raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ZarrCodecError);
    expect([error.code, error.message]).toEqual(["INVALID_CONFIGURATION", complaint]);
  });
});
