// The compressors as zarrita's bytes -> bytes codecs (zstd, blosc, gzip,
// zlib, lz4 and their numcodecs.* names): decoded in the package's wasm to
// the size the metadata gives (decoded-size.js), or within a bound where
// it gives none; encoded by the encoder module (encoder-module.js), which
// loads only when something is written. A configuration matters only to
// the encoder (a frame says how it was compressed): it is checked as its
// codec's page and numcodecs define it at the first encode, and decoding
// takes any, so that no store becomes unreadable for what its writer put
// there. A frame the decoders do not take (UNSUPPORTED_CODEC: snappy
// inside blosc, a zstd dictionary) goes to the codec register() replaced
// (replaced-codecs.js); only where that one cannot read it either is it
// the package's UNSUPPORTED_CODEC.
import { bytesOf } from "../codecs/chunk.js";
import { chunkKeyOf } from "../codecs/chunk-origin.js";
import { describe, hasOwn, isPlainObject, ZarrCodecError } from "../errors.js";
import { wasm } from "../wasm/load.js";
import { decodedSizeOf, elementBytesOf } from "./decoded-size.js";
import { compressWith } from "./encoder-module.js";
import { handover } from "./handover.js";
import { decodeReplaced } from "./replaced-codecs.js";
import { decompressBounded, decompressExact, MAX_UNKNOWN_BYTES } from "./wasm-decompress.js";

/** An internal: decode to a size the caller knows (an N5 block's header). */
export const DECODE_TO = Symbol("zarr-codecs-wasm.decodeTo");
/**
 * An internal: decode whatever the frame holds, at most `max` bytes, with
 * memory allocated as the frame's data needs it rather than `max` up front
 * (an N5 block whose header claims more than its chunk).
 */
export const DECODE_WITHIN = Symbol("zarr-codecs-wasm.decodeWithin");
/**
 * An internal (read, whose chain in wasm refused a frame as
 * UNSUPPORTED_CODEC): the frame through the codec register() replaced.
 */
export const DECODE_REPLACED = Symbol("zarr-codecs-wasm.decodeReplaced");

const UNSUPPORTED = "UNSUPPORTED_CODEC";

function invalid(name, message) {
  return new ZarrCodecError("INVALID_CONFIGURATION", `${name}: ${message}`);
}

/** A configuration member: absent (the default), or what `ok` accepts. */
export function member(name, configuration, key, ok, expected, fallback) {
  if (!isPlainObject(configuration) || !hasOwn(configuration, key) || configuration[key] === undefined) return fallback;
  const value = configuration[key];
  if (!ok(value)) throw invalid(name, `${key} must be ${expected}, got ${describe(value)}`);
  return value;
}

export const integerIn = (lo, hi) => (v) => Number.isInteger(v) && v >= lo && v <= hi;

export class CompressorCodec {
  kind = "bytes_to_bytes";
  #compression;
  #names;
  #decodedSize;
  #options;
  #encoderOptions;
  #typesize;
  #configuration;
  #meta;

  /**
   * @param {{name: string, kind: number}} compression kinds.js
   * @param {unknown} configuration as zarrita passes it
   * @param {object | undefined} meta zarrita's chunk metadata
   * @param {() => object} encoderOptions the encoder's options, checked
   *   (by the subclass) at the first encode
   */
  constructor(compression, configuration, meta, encoderOptions) {
    this.#compression = compression;
    this.#names = [compression.name, `numcodecs.${compression.name}`];
    this.#encoderOptions = encoderOptions;
    this.#configuration = configuration;
    this.#meta = meta;
    // The size every frame must decode to, where the metadata tells it.
    this.#decodedSize = meta ? decodedSizeOf(this.#names, configuration, meta) : undefined;
    this.#typesize = meta ? elementBytesOf(meta) : undefined;
  }

  /** The size the metadata gives every decoded frame, or undefined. */
  get decodedSize() {
    return this.#decodedSize;
  }

  /** The core's number for this compression (read's chain in wasm). */
  get compressionKind() {
    return this.#compression.kind;
  }

  /**
   * @param {Uint8Array} input a frame
   * @returns {Uint8Array | Promise<Uint8Array>} its decoded bytes, a fresh
   *   array; a Promise of them for a frame the codec register() replaced
   *   decodes (zarrita awaits either)
   */
  decode(input) {
    try {
      return this[DECODE_TO](input, this.#decodedSize);
    } catch (error) {
      if (error?.code === UNSUPPORTED) return this[DECODE_REPLACED](input, error);
      throw this.#naming(error, input);
    }
  }

  /**
   * `input`, a frame our decoders refused (`refusal`, UNSUPPORTED_CODEC),
   * decoded by the codec register() replaced; where none can, the
   * package's UNSUPPORTED_CODEC, saying what was tried and what to do.
   * @returns {Promise<Uint8Array>}
   */
  async [DECODE_REPLACED](input, refusal) {
    const name = this.#compression.name;
    const bytes = bytesOf(name, "decode input", input);
    const { refused, size } = handover(name, bytes);
    if (refused) throw this.#naming(new ZarrCodecError(refused.code, `${refusal.message}; ${refused.message}`, { cause: refusal }), input);
    const expected = this.#decodedSize ?? size;
    const { bytes: decoded, tried } = await decodeReplaced(name, this.#configuration, this.#meta, bytes, expected);
    if (decoded) return decoded;
    const others = tried.length === 0
      ? `no ${name} codec that register() replaced is kept to try it (register() found none in the registry)`
      : `the ${name} codec register() replaced (zarrita's own) cannot read it either: ${tried.join("; ")}`;
    const message = `${refusal.message}; ${others}. register(zarr.registry, { compressors: false }) leaves the compressors to zarrita's own`;
    throw this.#naming(new ZarrCodecError(UNSUPPORTED, message, { cause: refusal }), input);
  }

  // The package's error with the chunk it came from named, where the
  // store wrapper that returned the bytes noted its key (chunk-origin.js).
  #naming(error, input) {
    const key = chunkKeyOf(input);
    if (!(error instanceof ZarrCodecError) || key === undefined) return error;
    const name = this.#compression.name;
    const rest = error.message.startsWith(`${name}: `) ? error.message.slice(name.length + 2) : error.message;
    return new ZarrCodecError(error.code, `${name}: chunk ${key}: ${rest}`, { cause: error.cause ?? error });
  }

  /** Decodes to exactly `size` bytes, or where undefined within the bound. */
  [DECODE_TO](input, size) {
    const name = this.#compression.name;
    const bytes = bytesOf(name, "decode input", input);
    const module = wasm();
    if (size === undefined) return decompressBounded(module, this.#compression.kind, bytes, MAX_UNKNOWN_BYTES, name);
    return decompressExact(module, this.#compression.kind, bytes, size, name);
  }

  /** Decodes at most `max` bytes, whatever the frame holds. */
  [DECODE_WITHIN](input, max) {
    const name = this.#compression.name;
    return decompressBounded(wasm(), this.#compression.kind, bytesOf(name, "decode input", input), max, name);
  }

  /**
   * @param {Uint8Array} input
   * @returns {Promise<Uint8Array>} one frame (the encoder module loads on first use)
   */
  async encode(input) {
    const bytes = bytesOf(this.#compression.name, "encode input", input);
    return compressWith(this.#compression, this.#checkedOptions(), bytes, this.#typesize);
  }

  // The encoder's options from the configuration, checked once.
  #checkedOptions() {
    if (this.#options) return this.#options;
    const configuration = this.#configuration;
    if (configuration !== undefined && configuration !== null && !isPlainObject(configuration)) {
      throw invalid(this.#compression.name, `its configuration must be an object, got ${describe(configuration)}`);
    }
    this.#options = this.#encoderOptions();
    return this.#options;
  }
}
