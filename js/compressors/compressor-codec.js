// The compressors as zarrita's bytes -> bytes codecs (zstd, blosc, gzip,
// zlib, lz4 and their numcodecs.* names): decoded in the package's wasm to
// the size the metadata gives (decoded-size.js), or within a bound where
// it gives none; encoded by the encoder module (encoder-module.js), which
// loads only when something is written. Each configuration is checked as
// its codec's page and numcodecs define it; members a writer adds that
// decoding does not need are ignored, so that no store becomes unreadable
// for them.
import { bytesOf } from "../codecs/chunk.js";
import { describe, hasOwn, isPlainObject, ZarrCodecError } from "../errors.js";
import { wasm } from "../wasm/load.js";
import { decodedSizeOf, elementBytesOf } from "./decoded-size.js";
import { compressWith } from "./encoder-module.js";
import { decompressBounded, decompressExact, MAX_UNKNOWN_BYTES } from "./wasm-decompress.js";

/** An internal: decode to a size the caller knows (an N5 block's header). */
export const DECODE_TO = Symbol("zarr-codecs-wasm.decodeTo");
/**
 * An internal: decode whatever the frame holds, at most `max` bytes, with
 * memory allocated as the frame's data needs it rather than `max` up front
 * (an N5 block whose header claims more than its chunk).
 */
export const DECODE_WITHIN = Symbol("zarr-codecs-wasm.decodeWithin");

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
  #typesize;

  /**
   * @param {{name: string, kind: number}} compression kinds.js
   * @param {unknown} configuration as zarrita passes it
   * @param {object | undefined} meta zarrita's chunk metadata
   * @param {object} options the encoder's options, checked by the subclass
   */
  constructor(compression, configuration, meta, options) {
    if (configuration !== undefined && configuration !== null && !isPlainObject(configuration)) {
      throw invalid(compression.name, `its configuration must be an object, got ${describe(configuration)}`);
    }
    this.#compression = compression;
    this.#names = [compression.name, `numcodecs.${compression.name}`];
    this.#options = options;
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
   * @returns {Uint8Array} its decoded bytes, a fresh array
   */
  decode(input) {
    return this[DECODE_TO](input, this.#decodedSize);
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
    return compressWith(this.#compression, this.#options, bytes, this.#typesize);
  }
}
