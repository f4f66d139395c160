// The `n5_default` codec (zarr-extensions, codecs/n5_default): an N5
// block in "default" mode as a Zarr v3 chunk. A block is a header (mode,
// dimension count, the block's shape, all big-endian) and then its values
// in N5 order (the header's first dimension fastest), big-endian, through
// at most one bytes -> bytes codec. The codec's configuration spells the
// inner chain out: a full-reversal transpose, a big-endian bytes codec,
// and maybe that compressor, taken from the registry `register` was given
// (gzip, zlib, blosc, zstd as zarrita has them).
//
// The chain may also leave the transpose out: then the chunk's axes are
// the header's reversed (numpy's order, as zarr-python 2's N5Store presents
// N5, and what withN5 presents by default), so a block's F order is the
// chunk's C order and nothing is transposed. The codec page requires the
// transpose; a reader that follows it refuses such a chain rather than
// misreading it (docs/n5.md, "Axis order").
//
// Decoding parses the header (here), checks what the compressor's framing
// says against the size the header implies (compressed-frames.js), runs
// the compressor (its failures become this package's error, with the
// compressor's as the cause), then turns the block into the chunk in one
// pass in wasm: big-endian to native, transposed where the axes are N5's,
// padded with the fill value where the block is a truncated boundary block
// (Java N5 writes those; zarr-python 2 and TensorStore pad) and cropped
// where it is larger than the chunk (the page's step 4). Encoding writes a
// mode-0 block of the chunk's shape.
import { configurationOf, metaOf, shapeOf } from "../codecs/arguments.js";
import { bytesOf, chunkBytes, cOrderStrides, allocate } from "../codecs/chunk.js";
import { containerFor } from "../codecs/containers.js";
import { describe, hasOwn, isPlainObject, messageOf, ZarrCodecError } from "../errors.js";
import { metaDataType } from "../types/data-type.js";
import { callWithSlots } from "../wasm/io.js";
import { WasmInstance } from "../wasm/instance.js";
import { wasm } from "../wasm/load.js";
import { storedFill } from "../fills/stored-fill.js";
import { CompressorCodec, DECODE_REPLACED, DECODE_TO, DECODE_WITHIN } from "../compressors/compressor-codec.js";
import { frameIn } from "../compressors/wasm-decompress.js";
import { framingProblem } from "./compressed-frames.js";

/**
 * What withN5 attaches to each block it fetches (a Uint8Array property):
 * { key }, the block's key, for messages. Its presence also says the array
 * is withN5's, whose fill value is 0, for zarrita 0.5 and 0.6, which do not
 * give codecs the fill value.
 */
export const N5_BLOCK = Symbol.for("zarr-codecs-wasm.n5.block");

const MODES = new Map([[0, "default"], [1, "varlength"], [2, "object"]]);
// The most a block's header may say it holds (N5BlockCodec::kMaxChunkBytes):
// checked before a compressor is asked to produce that much.
const MAX_BLOCK_BYTES = 512 * 1024 * 1024;
// The fill where the array's is not known: a truncated block is then refused.
const UNKNOWN_FILL = new Uint8Array(0);
const decodeNow = Symbol("decode a block without a compressor, synchronously");

/**
 * Internal (read, js/read/): a block as read places it, in two steps. The
 * first, async, parses the header and runs the compressor; the second,
 * synchronous, decodes the payload straight into its place in a band of
 * the output (bindings/read_placement.h).
 */
export const OPEN_BLOCK = Symbol("n5_default: a block's header and payload");
export const PLACE_BLOCK = Symbol("n5_default: a block decoded into its place");
/**
 * read: an opened block whose frame PLACE_BLOCK refused as one the
 * package's decoders do not take (UNSUPPORTED_CODEC), decompressed by the
 * compressor register() replaced; PLACE_BLOCK then takes what it returns.
 */
export const REOPEN_BLOCK = Symbol("n5_default: a block's frame through the replaced compressor");

/** Internal (the benchmark): a block of a codec without compressor, decoded at once. */
export function decodeBlockNow(codec, block) {
  return codec[decodeNow](block);
}

function invalid(message) {
  return new ZarrCodecError("INVALID_CONFIGURATION", `n5_default: ${message}`);
}

/**
 * The inner chain: [transpose with order [n-1, ..., 0], bytes (endian
 * "big", or none for one-byte types), maybe one bytes -> bytes codec], as
 * the page has it (axes "n5"), or the same without the transpose (axes
 * "reversed": the chunk's axes are the block header's reversed).
 */
function innerChain(configuration, rank, elementBytes) {
  const config = configurationOf("n5_default", configuration, ["codecs"], '(expected "codecs")');
  const codecs = config.codecs;
  if (!Array.isArray(codecs) || codecs.length < 1 || codecs.length > 3) {
    throw invalid(`codecs must be [transpose, bytes] or [bytes] and at most one bytes -> bytes codec, got ${describe(codecs)}`);
  }
  const transposed = isPlainObject(codecs[0]) && codecs[0].name === "transpose";
  if (!transposed && codecs.length > 2) {
    throw invalid(`codecs must be [transpose, bytes] or [bytes] and at most one bytes -> bytes codec, got ${codecs.length} codecs, the first ${describe(codecs[0]?.name)}`);
  }
  const [transpose, bytes, compressor] = transposed ? codecs : [undefined, ...codecs];
  if (transposed) {
    const reversal = Array.from({ length: rank }, (_, i) => rank - 1 - i);
    const order = isPlainObject(transpose.configuration) ? transpose.configuration.order : undefined;
    if (!Array.isArray(order) || order.length !== rank || order.some((v, i) => v !== reversal[i])) {
      throw invalid(`the transpose must have order [${reversal.join(", ")}] (N5 blocks are in reversed axis order), got ${describe(order)}`);
    }
  }
  const endian = isPlainObject(bytes) && isPlainObject(bytes.configuration) ? bytes.configuration.endian : undefined;
  if (bytes?.name !== "bytes" || !(endian === "big" || (endian === undefined && elementBytes === 1))) {
    throw invalid(`the ${transposed ? "second" : "first"} codec must be bytes with endian "big" (N5 blocks are big-endian), got ${describe(bytes?.name)} with endian ${describe(endian)}`);
  }
  if (compressor !== undefined && !(isPlainObject(compressor) && typeof compressor.name === "string")) {
    throw invalid(`the last codec must be a bytes -> bytes codec { name, configuration }, got ${describe(compressor)}`);
  }
  return { axes: transposed ? "n5" : "reversed", compressor };
}

// Names each compressed block read opens: placed into a second band, it is
// not decompressed again (bindings/read_chain.h).
let tokens = 0;
const nextToken = () => (tokens = (tokens % 2 ** 52) + 1);

export class N5DefaultCodec {
  kind = "array_to_bytes";
  #core;
  #shape;
  #stride;
  #ArrayType;
  #chunkBytes;
  #fill;
  // The fill of a block withN5 tagged, whose array's fill is 0 by N5's
  // rule, where zarrita passes none.
  #zeroFill;
  #compressor;
  #registry;
  #inner;
  // "n5": the chunk's axes are the header's; "reversed": its reverse.
  #axes;

  /**
   * @param {{codecs: object[]}} configuration
   * @param {{dataType: string, shape: number[], fillValue?: unknown}} meta
   * @param {{registry?: Map<string, () => Promise<unknown>>, module?: object}} [adapter]
   *   internal; the registry is where the compressor comes from
   */
  constructor(configuration, meta, adapter = {}) {
    const m = metaOf("n5_default", meta);
    const shape = shapeOf("n5_default", m.shape);
    const dataType = metaDataType("n5_default", m);
    // Everything checked in JS before the wasm instance is made.
    ({ axes: this.#axes, compressor: this.#compressor } = innerChain(configuration, shape.dims.length, dataType.bytes));
    this.#registry = adapter.registry;
    if (this.#compressor && !this.#registry) {
      throw invalid(`the compressor ${JSON.stringify(this.#compressor.name)} comes from a zarrita registry: create the codec through register(zarr.registry), or without a compressor`);
    }
    // zarrita 0.7 passes the array's fill value; 0.5 and 0.6 do not.
    if (m.fillValue !== undefined && m.fillValue !== null) {
      this.#fill = storedFill("n5_default", dataType, m.fillValue);
    }
    const module = adapter.module ?? wasm();
    this.#core = new WasmInstance(this, module, (into) => new into.N5BlockCodec(dataType.descriptor, shape.text, this.#axes), "n5_default");
    this.#shape = shape.dims;
    this.#stride = cOrderStrides(shape.dims);
    this.#ArrayType = containerFor(this.#core.live.valueType());
    this.#chunkBytes = this.#core.live.chunkBytes();
    this.#zeroFill = new Uint8Array(this.#ArrayType.BYTES_PER_ELEMENT);
  }

  /**
   * @param {{codecs: object[]}} configuration
   * @param {{dataType: string, shape: number[]}} meta
   */
  static fromConfig(configuration, meta) {
    return new N5DefaultCodec(configuration, meta);
  }

  // The compressor, from the registry, once.
  async #innerCodec() {
    if (!this.#compressor) return undefined;
    this.#inner ??= (async () => {
      const { name, configuration } = this.#compressor;
      const load = this.#registry.get(name);
      if (typeof load !== "function") {
        throw invalid(`the compressor ${JSON.stringify(name)} is not in the zarrita registry`);
      }
      let codec;
      try {
        const Codec = await load();
        codec = Codec.fromConfig(configuration ?? {}, { dataType: "uint8", data_type: "uint8", shape: [0] });
      } catch (cause) {
        throw new ZarrCodecError(
          "INVALID_CONFIGURATION",
          `n5_default: the compressor ${JSON.stringify(name)} could not be made from ${describe(configuration)}: ${messageOf(cause)}`,
          { cause },
        );
      }
      // numcodecs.js's codecs name no kind: zarrita takes them as bytes -> bytes too.
      if (codec.kind !== undefined && codec.kind !== "bytes_to_bytes") {
        throw invalid(`the last codec must be a bytes -> bytes codec, and ${JSON.stringify(name)} is ${describe(codec.kind)}`);
      }
      return codec;
    })().catch((error) => {
      this.#inner = undefined;
      throw error;
    });
    return this.#inner;
  }

  #blockError(bytes, code, message, cause) {
    const key = hasOwn(bytes, N5_BLOCK) ? bytes[N5_BLOCK].key : undefined;
    return new ZarrCodecError(code, `n5_default: block${key ? ` ${key}` : ""}: ${message}`, cause === undefined ? undefined : { cause });
  }

  /**
   * @param {Uint8Array} input a whole N5 block
   * @returns {Promise<{data: ArrayLike<unknown>, shape: number[], stride: number[]}>}
   */
  async decode(input) {
    const { shape, payload } = await this.#open(input);
    return this.#values(input, shape, payload);
  }

  // The header, then the compressor: the block's shape and its payload as
  // the inner bytes codec reads it. The package's own compressors check
  // every frame themselves, so a damaged block is the same error here as
  // through read; another registry's (numcodecs.js, where register was
  // told { compressors: false }) gets framing it would misread refused
  // first. A compressor's failure is CODEC_FAILED.
  async #open(input) {
    const { shape, payload, payloadBytes } = this.#header(input);
    const inner = await this.#innerCodec();
    if (!inner) return { shape, payload };
    const name = this.#compressor.name;
    const ours = inner instanceof CompressorCodec;
    const problem = ours ? undefined : framingProblem(name, payload, payloadBytes);
    if (problem) throw this.#blockError(input, problem.code, problem.message);
    let decompressed;
    try {
      // The package's own compressors decode to exactly the size the
      // header gives; another registry's decodes to what the frame says,
      // which the block decoder checks. A header that says more than the
      // chunk (a block cropped to it, or a header that lies) is not
      // allocated up front: wasm memory never shrinks, and a block of a
      // few bytes could otherwise grow it to 512 MiB. Its frame is decoded
      // as far as its data goes, within what the header says, and the
      // block decoder checks the length.
      try {
        decompressed = !ours ? await inner.decode(payload)
          : payloadBytes > this.#chunkBytes ? inner[DECODE_WITHIN](payload, payloadBytes)
            : inner[DECODE_TO](payload, payloadBytes);
      } catch (refusal) {
        // A frame ours do not take (snappy inside blosc): to the compressor register() replaced.
        if (!ours || refusal?.code !== "UNSUPPORTED_CODEC") throw refusal;
        decompressed = await inner[DECODE_REPLACED](payload, refusal);
      }
    } catch (cause) {
      // The package's own decoders say it all: their error, with the block.
      if (ours && cause instanceof ZarrCodecError) throw this.#blockError(input, cause.code, cause.message);
      throw this.#blockError(input, "CODEC_FAILED", `its ${name} compressor failed: ${messageOf(cause)}`, cause);
    }
    return { shape, payload: bytesOf("n5_default", "the decompressed block", decompressed) };
  }


  // The header, checked: the block's shape and the bytes after it.
  #header(input) {
    const block = bytesOf("n5_default", "decode input", input);
    const rank = this.#shape.length;
    if (block.byteLength < 4) {
      throw this.#blockError(input, "LENGTH_MISMATCH", `needs a header of at least 4 bytes, got ${block.byteLength}`);
    }
    const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
    const mode = view.getUint16(0);
    if (mode !== 0) {
      const name = MODES.get(mode);
      throw this.#blockError(input, "INVALID_INPUT", `its header says mode ${mode}${name ? ` (${name})` : ""}; only mode 0 (default) blocks can be read`);
    }
    const dims = view.getUint16(2);
    if (dims !== rank) {
      throw this.#blockError(input, "INVALID_INPUT", `its header has ${dims} dimensions, but the array has ${rank}`);
    }
    const header = 4 + 4 * rank;
    if (block.byteLength < header) {
      throw this.#blockError(input, "LENGTH_MISMATCH", `needs a header of ${header} bytes for ${rank} dimensions, got ${block.byteLength}`);
    }
    const shape = new Uint32Array(rank);
    // The payload's size as the header says it: bounded before any
    // compressor is asked to produce it (the wasm side checks it again).
    for (let i = 0; i < rank; i++) shape[i] = view.getUint32(4 + 4 * i);
    let payloadBytes = shape.includes(0) ? 0 : this.#ArrayType.BYTES_PER_ELEMENT;
    for (let i = 0; i < rank && payloadBytes <= MAX_BLOCK_BYTES; i++) payloadBytes *= shape[i];
    if (payloadBytes > MAX_BLOCK_BYTES) {
      throw this.#blockError(
        input,
        "SIZE_OVERFLOW",
        `its header's shape [${Array.from(shape.subarray(0, 8)).join(", ")}${rank > 8 ? ", ..." : ""}] holds more than ${MAX_BLOCK_BYTES} bytes (512 MiB), the most a block may hold`,
      );
    }
    return { shape, payload: block.subarray(header), payloadBytes };
  }

  // The block's values (after the compressor) into the chunk, in wasm.
  #values(input, shape, payload) {
    const rank = this.#shape.length;
    const fill = this.#fill ?? (hasOwn(input, N5_BLOCK) ? this.#zeroFill : UNKNOWN_FILL);
    const core = this.#core;
    void core.live;
    const n = this.#chunkBytes;
    const data = allocate("n5_default", this.#ArrayType, n);
    const failed = callWithSlots(
      core.module,
      "_zcw_n5_decode",
      [payload, new Uint8Array(shape.buffer), fill],
      [new Uint8Array(data.buffer)],
      [core.handle, payload.length, rank, fill.length, n],
    );
    if (failed) {
      const { code, message } = core.live.lastStatus();
      throw this.#blockError(input, code, message.replace(/^n5_default: /, ""));
    }
    return { data, shape: this.#shape, stride: this.#stride };
  }

  /**
   * read: the block's shape and payload: decompressed, or where the
   * compressor is the package's own, its frame, decoded in wasm when the
   * block is placed.
   */
  async [OPEN_BLOCK](input) {
    const inner = await this.#innerCodec();
    if (inner instanceof CompressorCodec) {
      const { shape, payload, payloadBytes } = this.#header(input);
      // In wasm, decoded into the chain buffer, which keeps its size: only
      // blocks of at most the chunk's size (the rest as #open decodes them).
      if (payloadBytes <= this.#chunkBytes) {
        return { input, shape, payload, compressed: { kind: inner.compressionKind, bytes: payloadBytes, token: nextToken() } };
      }
    }
    return { input, ...(await this.#open(input)) };
  }

  /** read: see REOPEN_BLOCK; `refusal` is PLACE_BLOCK's error. */
  async [REOPEN_BLOCK](block, refusal) {
    if (!block.compressed || refusal?.code !== "UNSUPPORTED_CODEC") throw refusal;
    const inner = await this.#innerCodec();
    const payload = bytesOf("n5_default", "the decompressed block", await inner[DECODE_REPLACED](block.payload, refusal));
    return { input: block.input, shape: block.shape, payload };
  }

  /** read: an opened block decoded into its place (`desc`, `band`). */
  [PLACE_BLOCK](block, desc, band) {
    const { input, shape, payload, compressed } = block;
    const fill = this.#fill ?? (hasOwn(input, N5_BLOCK) ? this.#zeroFill : UNKNOWN_FILL);
    const core = this.#core;
    void core.live;
    const failed = compressed
      ? callWithSlots(core.module, "_zcw_read_n5_chain", [new Uint8Array(0), new Uint8Array(shape.buffer), fill], [], [
          compressed.kind,
          frameIn(core.module, payload, "n5_default"),
          payload.length,
          compressed.bytes,
          compressed.token,
          core.handle,
          shape.length,
          fill.length,
          desc,
          band,
        ])
      : callWithSlots(
          core.module,
          "_zcw_read_n5",
          [payload, new Uint8Array(shape.buffer), fill],
          [],
          [core.handle, payload.length, shape.length, fill.length, desc, band],
        );
    if (failed) {
      const { code, message } = core.module.readStatus();
      throw this.#blockError(input, code, message.replace(/^(read: )?n5_default: /, ""));
    }
  }

  /** A block without a compressor, decoded synchronously (the benchmark). */
  [decodeNow](input) {
    if (this.#compressor) throw invalid("decoding at once needs a block without a compressor");
    const { shape, payload } = this.#header(input);
    return this.#values(input, shape, payload);
  }

  /**
   * @param {{data: ArrayBufferView}} chunk
   * @returns {Promise<Uint8Array>} a mode-0 block of the chunk's shape
   */
  async encode(chunk) {
    const core = this.#core;
    const values = chunkBytes("n5_default", chunk, this.#ArrayType);
    void core.live;
    const n = this.#chunkBytes;
    let payload = allocate("n5_default", Uint8Array, n);
    if (callWithSlots(core.module, "_zcw_n5_encode", [values], [payload], [core.handle, values.length, n])) core.fail();
    const inner = await this.#innerCodec();
    if (inner) {
      let compressed;
      try {
        compressed = await inner.encode(payload);
      } catch (cause) {
        throw new ZarrCodecError("CODEC_FAILED", `n5_default: its ${this.#compressor.name} compressor failed to encode a block: ${messageOf(cause)}`, { cause });
      }
      payload = bytesOf("n5_default", "the compressed block", compressed);
    }
    const rank = this.#shape.length;
    const out = new Uint8Array(4 + 4 * rank + payload.byteLength);
    const view = new DataView(out.buffer);
    view.setUint16(0, 0);
    view.setUint16(2, rank);
    // The header lists N5's axes: the chunk's, or the chunk's reversed.
    const header = this.#axes === "n5" ? this.#shape : [...this.#shape].reverse();
    header.forEach((d, i) => view.setUint32(4 + 4 * i, d));
    out.set(payload, 4 + 4 * rank);
    return out;
  }

  /** Frees the wasm side now (it is freed when collected otherwise). */
  dispose() {
    this.#core.dispose();
  }
}
if (typeof Symbol.dispose === "symbol") N5DefaultCodec.prototype[Symbol.dispose] = N5DefaultCodec.prototype.dispose;
