// Decompression through the read module's exports (bindings/
// compress_exports.h): the frame copied into wasm memory once, decoded
// there to exactly the size the metadata gives (or, where it does not, to
// at most a bound), and the result copied out into a fresh array, so no
// view of wasm memory is ever handed out. The two buffers in wasm memory
// are kept per module and grown as chunks need, not allocated per chunk.
import { ZarrCodecError } from "../errors.js";
import { touch } from "../wasm/recycle.js";

/** Where a size is not known: a frame decodes to at most this many bytes. */
export const MAX_UNKNOWN_BYTES = 1024 * 1024 * 1024;

const buffers = new WeakMap(); // module -> { in: {at, bytes}, out: {at, bytes} }

function outOfMemory(what, bytes) {
  return new ZarrCodecError("OUT_OF_MEMORY", `${what}: wasm memory cannot grow by ${bytes} bytes`);
}

/**
 * The module's buffer `which` ("in", "out"), at least `bytes` long; its
 * address. Grown (never shrunk below the largest chunk seen) as needed.
 */
export function wasmBuffer(module, which, bytes, what) {
  let own = buffers.get(module);
  if (!own) {
    own = { in: { at: 0, bytes: 0 }, out: { at: 0, bytes: 0 } };
    buffers.set(module, own);
  }
  const b = own[which];
  if (b.at === 0 || b.bytes < bytes) {
    const size = Math.max(bytes, 1, Math.floor(b.bytes * 1.5));
    if (b.at) module._zcw_free(b.at);
    b.at = module._zcw_alloc(size);
    b.bytes = b.at ? size : 0;
    if (!b.at) throw outOfMemory(what, size);
  }
  return b.at;
}

/** The frame's bytes in the module's input buffer; its address. */
export function frameIn(module, input, what) {
  touch(); // every decompression passes here: the idle time starts again
  const at = wasmBuffer(module, "in", input.byteLength, what);
  module.HEAPU8.set(input, at);
  return at;
}

/** The last decompression's failure, as the package's error. */
export function decompressFailure(module, what) {
  const { code, message } = module.decompressStatus();
  return new ZarrCodecError(code, `${what}: ${String(message).replace(/^[a-z0-9_]+: /, "")}`);
}

/**
 * Decodes `input` (a frame of compression `kind`) into exactly `size`
 * bytes, returned in a fresh Uint8Array.
 */
export function decompressExact(module, kind, input, size, what) {
  const inAt = frameIn(module, input, what);
  const outAt = wasmBuffer(module, "out", size, what);
  if (module._zcw_decompress(kind, inAt, input.byteLength, outAt, size)) throw decompressFailure(module, what);
  return module.HEAPU8.slice(outAt, outAt + size);
}

/**
 * Decodes `input` whatever its size, at most `max` bytes (a frame that
 * claims or yields more is refused before anything is allocated).
 */
export function decompressBounded(module, kind, input, max, what) {
  const inAt = frameIn(module, input, what);
  const length = module._zcw_decompress_bounded(kind, inAt, input.byteLength, max);
  if (length < 0) throw decompressFailure(module, what);
  const at = module._zcw_decompressed_take();
  if (!at) return new Uint8Array(0);
  try {
    return module.HEAPU8.slice(at, at + length);
  } finally {
    module._zcw_free(at);
  }
}
