// Chunks that need no decoding at all (little-endian or one-byte `bytes`,
// nothing compressed, C order) placed straight into the output from
// JavaScript, one TypedArray.set per contiguous run: a chunk that spans the
// output's rows lands with one copy, where the bands of read.js would copy
// it into wasm memory and out again. Missing chunks are filled the same
// way (TypedArray.fill of the element's bits). read takes this path only
// where every run is long enough for a call per run to cost less than the
// round trip through wasm (MIN_RUN_BYTES).
import { ZarrCodecError } from "../../errors.js";

/** Runs shorter than this go through wasm bands instead. */
export const MIN_RUN_BYTES = 256;

const UNSIGNED = new Map([
  [1, Uint8Array],
  [2, Uint16Array],
  [4, Uint32Array],
  [8, BigUint64Array],
]);

/**
 * The layout of one chunk's selected region: runs of contiguous bytes in
 * both the chunk (C order) and the output, after merging trailing axes
 * that are whole in both.
 * @param {{from: number, count: number, step: number, out: number}[]} mapping per axis
 * @param {number[]} extents the chunk's shape
 * @param {number[]} outStrides byte strides of the output per axis (0: dropped)
 * @param {number} eb element bytes
 * @returns {{run: number, outer: {count: number, src: number, dst: number}[], src: number, dst: number}}
 */
export function runsOf(mapping, extents, outStrides, eb) {
  const rank = mapping.length;
  const srcStrides = new Array(rank);
  for (let i = rank - 1, s = eb; i >= 0; i--) {
    srcStrides[i] = s;
    s *= extents[i];
  }
  let src = 0;
  let dst = 0;
  for (let i = 0; i < rank; i++) {
    src += mapping[i].from * srcStrides[i];
    dst += mapping[i].out * outStrides[i];
  }
  // The innermost run: the last axis (if its step is 1), widened by every
  // axis before it whose rows follow on in both the chunk and the output.
  let k = rank - 1;
  let run = eb;
  if (k >= 0 && mapping[k].step === 1 && (outStrides[k] === eb || mapping[k].count === 1)) {
    run = mapping[k].count * eb;
    k--;
    while (k >= 0 && mapping[k + 1].count === extents[k + 1] && mapping[k].step === 1 && outStrides[k] === run && srcStrides[k] === run) {
      run *= mapping[k].count;
      k--;
    }
  }
  const outer = [];
  for (let i = 0; i <= k; i++) {
    outer.push({ count: mapping[i].count, src: mapping[i].step * srcStrides[i], dst: outStrides[i] });
  }
  return { run, outer, src, dst };
}

function eachRun(layout, visit) {
  const { outer } = layout;
  if (outer.length === 0) {
    visit(layout.src, layout.dst);
    return;
  }
  const index = new Array(outer.length).fill(0);
  for (;;) {
    let src = layout.src;
    let dst = layout.dst;
    for (let i = 0; i < outer.length; i++) {
      src += index[i] * outer[i].src;
      dst += index[i] * outer[i].dst;
    }
    visit(src, dst);
    let i = outer.length - 1;
    while (i >= 0 && ++index[i] === outer[i].count) index[i--] = 0;
    if (i < 0) return;
  }
}

/**
 * Copies a chunk's selected elements (`bytes`: the whole chunk in C
 * order) into `outBytes`; its length is checked as the wasm copy checks it.
 */
export function copyDirect(bytes, chunkBytes, layout, outBytes, where) {
  if (bytes.byteLength !== chunkBytes) {
    throw new ZarrCodecError("LENGTH_MISMATCH", `${where()}: the chunk's decoded bytes should be ${chunkBytes}, got ${bytes.byteLength}`);
  }
  const n = layout.run;
  eachRun(layout, (src, dst) => outBytes.set(bytes.subarray(src, src + n), dst));
}

/** Sets a chunk's selected elements to `pattern` (one element's bytes). */
export function fillDirect(pattern, layout, outBytes) {
  const eb = pattern.byteLength;
  const Unsigned = UNSIGNED.get(eb);
  if (!Unsigned || outBytes.byteOffset % eb !== 0) {
    eachRun(layout, (_, dst) => {
      for (let at = dst; at < dst + layout.run; at += eb) outBytes.set(pattern, at);
    });
    return;
  }
  const view = new Unsigned(outBytes.buffer, outBytes.byteOffset, outBytes.byteLength / eb);
  const value = new Unsigned(pattern.slice().buffer)[0];
  eachRun(layout, (_, dst) => view.fill(value, dst / eb, (dst + layout.run) / eb));
}
