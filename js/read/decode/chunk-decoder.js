// How read turns one chunk's stored bytes into its place in the output,
// for an array whose codec chain it decodes itself (codec-chain.js): the
// bytes -> bytes codecs first (gzip, zstd, blosc, crc32c, ... from the
// registry register() extended, as zarrita runs them), then, placed
// straight into a band of the output in wasm:
//   "codec": the package's array -> bytes codecs (big-endian bytes,
//            packbits, withDataTypes' stored codec) decode into place;
//   "n5":    an n5_default block, its header parsed, decoded into place;
//   "copy":  bytes already as zarrita would present them (little-endian
//            bytes, one-byte types) are copied into place.
// Two steps per chunk: `open` (async: the bytes -> bytes codecs, an N5
// block's compressor) when the bytes arrive, and `place` (synchronous)
// into each band the chunk reaches.
import { BytesCodec } from "../../codecs/bytes.js";
import { PackBitsCodec } from "../../codecs/packbits.js";
import { coreOf } from "../../codecs/wasm-codec.js";
import { ZarrCodecError, describe as describeValue } from "../../errors.js";
import { N5DefaultCodec, OPEN_BLOCK, PLACE_BLOCK, REOPEN_BLOCK } from "../../n5/n5-default-codec.js";
import { ByteStringCodec } from "../../data-types/byte-string-codec.js";
import { FortranChunks } from "../../data-types/fortran-chunks.js";
import { STORED_CODEC, storedCodec } from "../../data-types/stored-codec.js";
import { coreDataType } from "../../zarrita/core-data-type.js";
import { registeredRegistries } from "../../zarrita/registration.js";
import { chainInPlace, copyInPlace, decodeInPlace } from "../place/wasm-placement.js";
import { CompressorCodec, DECODE_REPLACED } from "../../compressors/compressor-codec.js";
import { Crc32cCodec } from "../../codecs/crc32c.js";
import { wasm } from "../../wasm/load.js";
import { nextToken } from "./frame-tokens.js";
import { valuesDecoder } from "./values-decoder.js";

/**
 * @typedef {object} ChunkDecoder
 * @property {"codec" | "n5" | "copy" | "values"} kind  ("values": values-decoder.js)
 * @property {boolean} [direct]  "copy" with nothing to decompress: the
 *   stored bytes are the output's (direct-placement.js)
 * @property {(bytes: Uint8Array) => Promise<unknown>} open
 * @property {(opened: unknown, desc: number, band: number, where: () => string) => void} place
 * @property {(opened: unknown, refusal: Error) => Promise<unknown>} [reopen]  where
 *   the chain runs in wasm: a frame `place` refused as UNSUPPORTED_CODEC
 *   (snappy inside blosc, a zstd dictionary), decoded again through the
 *   compressor register() replaced; `place` then takes what it returns
 * @property {{name: string, codec: object}[]} bytesCodecs  the bytes -> bytes
 *   codecs it runs, in the chain's order, as the registries gave them (the worker
 *   pool takes only chains whose codecs it has itself: js/pool/chain.js)
 */

async function loadCodec(registries, names, configuration, meta) {
  for (const registry of registries) {
    for (const name of names) {
      const load = registry.get(name);
      if (typeof load !== "function") continue;
      const Codec = await load();
      // As zarrita builds it (a codec that refuses its configuration
      // leaves the array to zarrita, which then says so).
      let codec;
      try {
        codec = Codec.fromConfig(configuration, meta);
      } catch {
        return undefined;
      }
      // numcodecs.js's codecs name no kind: zarrita takes them as bytes ->
      // bytes. Another kind in that place is zarrita's to make sense of.
      return codec?.kind === undefined || codec.kind === "bytes_to_bytes" ? { name, codec } : undefined;
    }
  }
  return undefined;
}

/**
 * What a codec or the store gave as bytes: a Uint8Array, or a view of
 * another kind over the same bytes; anything else is refused, naming
 * `what` gave it (and `forWhat`, what it was asked for).
 */
export function asBytes(value, what, forWhat = "") {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  throw new ZarrCodecError("INVALID_INPUT", `read: ${what} returned ${describeValue(value)}${forWhat}, not bytes`);
}

/**
 * The bytes -> bytes codecs of a chain, loaded; undefined where one is in
 * no registry register() extended (then zarrita reads the array).
 */
async function bytesCodecs(chain, meta, registries) {
  const out = [];
  for (const { names, configuration } of chain.bytesToBytes) {
    const loaded = await loadCodec(registries, names, configuration, meta);
    if (!loaded) return undefined;
    out.push(loaded);
  }
  return out;
}

// The array -> bytes step for the package's streaming codecs.
function arrayToBytesCodec(chain, meta) {
  const { name, configuration } = chain.arrayToBytes;
  if (name === STORED_CODEC) {
    // read places the bytes in their storage order itself (chain.order).
    const codec = storedCodec({}).fromConfig(configuration, meta);
    return codec instanceof FortranChunks ? codec.stored : codec;
  }
  const dataType = coreDataType(meta.dataType);
  if (dataType === undefined) return undefined;
  if (name === "packbits") return new PackBitsCodec(configuration, { ...meta, dataType });
  // bytes (and its legacy name endian): little-endian data needs no codec.
  const endian = configuration?.endian;
  const codec = endian === "big" ? new BytesCodec(configuration, { ...meta, dataType }) : undefined;
  if (codec && codec[coreOf].decodeIsCopy) {
    codec.dispose();
    return undefined;
  }
  return codec;
}


// The same bytes, in a view of read's own: read names the chunk in its
// messages itself (chunk-where.js), so a codec does not name it again
// from a store wrapper's note (codecs/chunk-origin.js).
const unnoted = (bytes) => (bytes instanceof Uint8Array ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : bytes);

/**
 * Where a chain's bytes -> bytes codecs are one compressor of the package's
 * own, with at most a crc32c after it (checked here, as zarrita does not):
 * the chain runs in wasm (bindings/read_chain.h), the frame copied in once.
 * `open` checks and strips the checksum and names the frame. A frame the
 * chain refuses as UNSUPPORTED_CODEC is decoded again by `reopen`, through
 * the compressor register() replaced (compressor-codec.js), into
 * `{ decoded }`: bytes that `place` then takes as the chain's output.
 */
function wasmChainOf(compressors) {
  const [first, second, ...rest] = compressors;
  if (!(first?.codec instanceof CompressorCodec) || rest.length) return undefined;
  if (second !== undefined && second.name !== "crc32c") return undefined;
  const checksum = second !== undefined ? new Crc32cCodec() : undefined;
  return {
    kind: first.codec.compressionKind,
    open: async (bytes) => ({ bytes: unnoted(checksum ? checksum.decode(bytes) : bytes), token: nextToken() }),
    reopen: async (frame, refusal) => {
      if (refusal?.code !== "UNSUPPORTED_CODEC" || frame.decoded) throw refusal;
      return { decoded: asBytes(await first.codec[DECODE_REPLACED](frame.bytes, refusal), first.name) };
    },
  };
}


/**
 * @param {import("../plan/codec-chain.js").Chain} chain
 * @param {{dataType: string, chunkShape: number[], elementBytes: number, fillValue: unknown}} array
 * @param {Map<string, () => Promise<unknown>>[]} [registries] where the
 *   bytes -> bytes codecs come from: the registries register() extended,
 *   or in a pool's worker the package's own (js/pool/chain.js)
 * @returns {Promise<ChunkDecoder | {unsupported: string}>}
 */
export async function chunkDecoder(chain, array, registries = registeredRegistries()) {
  const meta = {
    dataType: array.dataType,
    data_type: array.dataType,
    shape: array.chunkShape,
    codecs: undefined,
    fillValue: array.fillValue,
  };
  const compressors = await bytesCodecs(chain, meta, registries);
  if (!compressors) return { unsupported: "a bytes -> bytes codec in no registry register() extended" };
  const decompress = async (stored) => {
    let bytes = stored;
    for (let i = compressors.length - 1; i >= 0; i--) {
      const { name, codec } = compressors[i];
      try {
        bytes = asBytes(await codec.decode(i === compressors.length - 1 ? unnoted(bytes) : bytes), name);
      } catch (cause) {
        if (cause instanceof ZarrCodecError) throw cause;
        throw new ZarrCodecError("CODEC_FAILED", `read: the ${name} codec failed: ${cause?.message ?? describeValue(cause)}`, { cause });
      }
    }
    return bytes;
  };
  const chunkBytes = array.chunkShape.reduce((a, b) => a * b, 1) * array.elementBytes;
  const { name } = chain.arrayToBytes;
  const inWasm = wasmChainOf(compressors);
  // Values changed after the array -> bytes codec: array -> array codecs,
  // or read's dtype.
  if (chain.arrayToArray?.length || (array.outputType !== undefined && array.outputType !== array.dataType)) {
    return valuesDecoder({ chain, array, compressors, decompress, inWasm });
  }
  if (name === "n5_default") {
    const n5 = new N5DefaultCodec(chain.arrayToBytes.configuration, meta, { registry: registries[0] });
    return {
      kind: "n5",
      bytesCodecs: compressors,
      open: async (bytes) => n5[OPEN_BLOCK](await decompress(bytes)),
      reopen: (block, refusal) => n5[REOPEN_BLOCK](block, refusal),
      place: (block, desc, band) => n5[PLACE_BLOCK](block, desc, band),
    };
  }
  const codec = arrayToBytesCodec(chain, meta);
  if (codec instanceof ByteStringCodec) {
    // Byte strings' bytes are the presented bytes: copied into place (the
    // copy checks the chunk's length, as the codec does).
    return { kind: "copy", direct: compressors.length === 0, bytesCodecs: compressors, open: decompress, place: (bytes, desc, band, where) => copyInPlace(wasm(), bytes, desc, band, where) };
  }
  if (codec) {
    const core = codec[coreOf];
    if (core.decodedBytes !== chunkBytes) {
      codec.dispose();
      return { unsupported: `the ${name} codec decodes ${core.decodedBytes} bytes where zarrita's container holds ${chunkBytes}` };
    }
    if (inWasm) {
      return {
        kind: "codec",
        inWasm: true,
        bytesCodecs: compressors,
        open: inWasm.open,
        reopen: inWasm.reopen,
        // `codec` itself, not only its core: its collection frees the
        // core's instance (js/wasm/instance.js).
        place: (frame, desc, band, where) => {
          void codec;
          if (frame.decoded) decodeInPlace(core, frame.decoded, desc, band, where);
          else chainInPlace(core.module, inWasm.kind, frame.bytes, core.encodedBytes, frame.token, core.handle, desc, band, where);
        },
      };
    }
    // The codec object itself is kept (not only its core): its collection
    // frees the wasm instance (js/wasm/instance.js).
    return { kind: "codec", bytesCodecs: compressors, open: decompress, place: (bytes, desc, band, where) => decodeInPlace(codec[coreOf], bytes, desc, band, where) };
  }
  if (name !== "bytes" && name !== "endian") return { unsupported: `the ${name} codec for ${array.dataType}` };
  // The module at each call (wasm() is cheap): the realm's instance is
  // replaced when idle (wasm/recycle.js), and plans outlive it.
  if (inWasm) {
    return {
      kind: "copy",
      inWasm: true,
      bytesCodecs: compressors,
      open: inWasm.open,
      reopen: inWasm.reopen,
      place: (frame, desc, band, where) => {
        if (frame.decoded) copyInPlace(wasm(), frame.decoded, desc, band, where);
        else chainInPlace(wasm(), inWasm.kind, frame.bytes, chunkBytes, frame.token, 0, desc, band, where);
      },
    };
  }
  return { kind: "copy", direct: compressors.length === 0, bytesCodecs: compressors, open: decompress, place: (bytes, desc, band, where) => copyInPlace(wasm(), bytes, desc, band, where) };
}
