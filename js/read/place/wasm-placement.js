// The wasm side of read: bands of the output in wasm memory, where each
// chunk is placed by the core (bindings/read_placement.h), then copied out
// whole. A chunk's placement is described in a small float64 area of wasm
// memory (one per module instance, reused by every call), so a call passes
// only numbers and addresses.
import { ZarrCodecError } from "../../errors.js";
import { callWithIo } from "../../wasm/io.js";
import { frameIn } from "../../compressors/wasm-decompress.js";

const MAX_AXES = 64;
const DESCRIPTION_DOUBLES = 4 + 5 * MAX_AXES;
const description = new WeakMap(); // module -> address of its area

function areaOf(module) {
  let at = description.get(module);
  if (at === undefined) {
    at = module._zcw_alloc(8 * DESCRIPTION_DOUBLES);
    if (!at) throw outOfMemory(8 * DESCRIPTION_DOUBLES);
    description.set(module, at);
  }
  return at;
}

function outOfMemory(bytes) {
  return new ZarrCodecError("OUT_OF_MEMORY", `read: wasm memory cannot grow by ${bytes} bytes for a band of the output`);
}

/** A band of `bytes` bytes in wasm memory; throws OUT_OF_MEMORY. */
export function allocateBand(module, bytes) {
  const at = module._zcw_alloc(Math.max(bytes, 1));
  if (!at) throw outOfMemory(bytes);
  return at;
}

export function freeBand(module, at) {
  module._zcw_free(at);
}

/** Copies `bytes` bytes of the band at `at` to `out` (a Uint8Array) at `offset`. */
export function copyBandOut(module, at, bytes, out, offset) {
  out.set(module.HEAPU8.subarray(at, at + bytes), offset);
}

/**
 * Writes a placement description (read.js's placement of one chunk into
 * one band): element bytes, the first element's offset in the band, the
 * band's bytes, then per stored axis [extent, from, count, step, stride].
 * Returns its address.
 */
export function describe(module, elementBytes, base, bandBytes, axes) {
  const at = areaOf(module);
  // HEAPF64 is replaced when memory grows: take it now.
  const view = module.HEAPF64;
  let i = at / 8;
  view[i++] = elementBytes;
  view[i++] = base;
  view[i++] = bandBytes;
  view[i++] = axes.length;
  for (const a of axes) {
    view[i++] = a.extent;
    view[i++] = a.from;
    view[i++] = a.count;
    view[i++] = a.step;
    view[i++] = a.stride;
  }
  return at;
}

/**
 * The status of a failed read call, as the package's error. `where` (a
 * function: built only on failure) names the chunk.
 */
export function failure(module, where) {
  const { code, message } = module.readStatus();
  return new ZarrCodecError(code, `${where()}: ${message.replace(/^read: /, "")}`);
}

/** A codec of ours (a CoreCodec) decodes `input` straight into its place. */
export function decodeInPlace(core, input, desc, band, where) {
  void core.live;
  if (callWithIo(core.module, "_zcw_read_decode", input, null, core.handle, input.length, desc, band)) {
    throw failure(core.module, where);
  }
}

/**
 * A chunk's compressed frame decoded in wasm (`kind`: the core's number for
 * its compression) to exactly `decodedLength` bytes, then decoded into
 * place by a codec of ours (`handle`), or copied (handle 0). `token` names
 * the chunk: placed into a second band, it is not decoded again.
 */
export function chainInPlace(module, kind, frame, decodedLength, token, handle, desc, band, where) {
  const at = frameIn(module, frame, "read");
  if (module._zcw_read_chain(kind, at, frame.length, decodedLength, token, handle, desc, band)) throw failure(module, where);
}

// Each module's area for a value program (at most 4 steps of 5 words and
// a count: src/values/value_program.h).
const programAreas = new WeakMap();

function programArea(module) {
  let at = programAreas.get(module);
  if (at === undefined) {
    at = module._zcw_alloc(8 * 24);
    if (!at) throw outOfMemory(8 * 24);
    programAreas.set(module, at);
  }
  return at;
}

/**
 * A chunk's bytes, decompressed in wasm (`kind` >= 0, as chainInPlace) or
 * as they are (`kind` -1), run through the value program `words`
 * (read/decode/value-steps.js) and placed. `decodedLength`: the bytes the
 * program's input must be.
 */
export function valuesInPlace(module, kind, frame, decodedLength, token, words, desc, band, where) {
  const program = programArea(module);
  const at = frameIn(module, frame, "read");
  // HEAPF64 is replaced when memory grows (frameIn may grow it): take it now.
  module.HEAPF64.set(words, program / 8);
  if (module._zcw_read_values(kind, at, frame.length, decodedLength, token, program, desc, band)) throw failure(module, where);
}

/** A chunk's decoded bytes (storage order) placed as they are. */
export function copyInPlace(module, input, desc, band, where) {
  if (callWithIo(module, "_zcw_read_copy", input, null, input.length, desc, band)) throw failure(module, where);
}

/** Every selected element of a chunk set to `pattern` (its fill). */
export function fillInPlace(module, pattern, desc, band, where) {
  if (callWithIo(module, "_zcw_read_fill", pattern, null, pattern.length, desc, band)) throw failure(module, where);
}

export { MAX_AXES };
