// One class per compressor, over CompressorCodec: each says how its
// configuration (the v3 codec pages' and numcodecs' forms) becomes the
// encoder's options.
//   zstd   { level, checksum }                 (numcodecs: { level })
//   gzip   { level }  0..9
//   zlib   { level }  0..9 (numcodecs: -1 for zlib's default)
//   lz4    { acceleration }                    (numcodecs' LZ4)
//   blosc  { cname, clevel, shuffle, typesize, blocksize }: shuffle
//          "noshuffle" | "shuffle" | "bitshuffle" (v3) or -1 | 0 | 1 | 2
//          (numcodecs; -1: bit for one-byte types, else byte)
// Every one of these members matters only to the encoder: a frame says
// how it was compressed. So they are checked when something is written,
// never when a chunk is read: a store whose metadata names a member the
// encoder does not take (blosc's cname "snappy", which numcodecs writes)
// reads as it does without this package (compressor-codec.js).
import { CompressorCodec, integerIn, member } from "./compressor-codec.js";
import { compressionNamed } from "./kinds.js";

const isBoolean = (v) => v === true || v === false;

export class ZstdCodec extends CompressorCodec {
  constructor(configuration, meta) {
    super(compressionNamed("zstd"), configuration, meta, () => ({
      level: member("zstd", configuration, "level", integerIn(-131072, 22), "an integer in -131072..22", 0),
      checksum: member("zstd", configuration, "checksum", isBoolean, "true or false", false),
    }));
  }

  static fromConfig(configuration, meta) {
    return new ZstdCodec(configuration, meta);
  }
}

export class GzipCodec extends CompressorCodec {
  constructor(configuration, meta) {
    super(compressionNamed("gzip"), configuration, meta, () => ({
      level: member("gzip", configuration, "level", integerIn(0, 9), "an integer in 0..9", 6),
    }));
  }

  static fromConfig(configuration, meta) {
    return new GzipCodec(configuration, meta);
  }
}

export class ZlibCodec extends CompressorCodec {
  constructor(configuration, meta) {
    super(compressionNamed("zlib"), configuration, meta, () => {
      const level = member("zlib", configuration, "level", integerIn(-1, 9), "an integer in -1..9", 6);
      return { level: level < 0 ? 6 : level };
    });
  }

  static fromConfig(configuration, meta) {
    return new ZlibCodec(configuration, meta);
  }
}

export class Lz4Codec extends CompressorCodec {
  constructor(configuration, meta) {
    super(compressionNamed("lz4"), configuration, meta, () => ({
      acceleration: member("lz4", configuration, "acceleration", Number.isInteger, "an integer", 1),
    }));
  }

  static fromConfig(configuration, meta) {
    return new Lz4Codec(configuration, meta);
  }
}

// The cnames the encoder module has (c-blosc's codes); numcodecs also
// writes "snappy", which only numcodecs' own builds with snappy encode.
const CNAMES = new Map([["blosclz", 0], ["lz4", 1], ["lz4hc", 2], ["zlib", 4], ["zstd", 5]]);
const SHUFFLES = new Map([["noshuffle", 0], ["shuffle", 1], ["bitshuffle", 2]]);

export class BloscCodec extends CompressorCodec {
  constructor(configuration, meta) {
    super(compressionNamed("blosc"), configuration, meta, () => {
      const cname = member("blosc", configuration, "cname", (v) => CNAMES.has(v), '"blosclz", "lz4", "lz4hc", "zlib" or "zstd" (the encoder has no snappy)', "lz4");
      const clevel = member("blosc", configuration, "clevel", integerIn(0, 9), "an integer in 0..9", 5);
      const shuffle = member("blosc", configuration, "shuffle", (v) => SHUFFLES.has(v) || integerIn(-1, 2)(v), '"noshuffle", "shuffle", "bitshuffle" or -1..2', -1);
      const typesize = member("blosc", configuration, "typesize", integerIn(1, 255), "an integer in 1..255", undefined);
      const blocksize = member("blosc", configuration, "blocksize", integerIn(0, 2 ** 31 - 1), "a whole number of bytes", 0);
      return { cname: CNAMES.get(cname), clevel, shuffle: typeof shuffle === "string" ? SHUFFLES.get(shuffle) : shuffle, typesize, blocksize };
    });
  }

  static fromConfig(configuration, meta) {
    return new BloscCodec(configuration, meta);
  }
}

/** The class of each registry name the compressors take. */
export const COMPRESSOR_CLASSES = new Map(
  [ZstdCodec, GzipCodec, ZlibCodec, Lz4Codec, BloscCodec].flatMap((Codec, i) => {
    const name = ["zstd", "gzip", "zlib", "lz4", "blosc"][i];
    return [[name, Codec], [`numcodecs.${name}`, Codec]];
  }),
);
