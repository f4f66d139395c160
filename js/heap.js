// Moving data through wasm memory. Codecs never ask for heap memory per call:
// each module owns one scratch region, allocated once, and chunks of any size
// stream through it in blocks small enough to stay in cache. So wasm memory
// does not grow with chunk size, and no heap view is held across a call that
// could grow memory (HEAPU8 is read afresh for every block).

/** Bytes on each side (in and out) of the scratch region. */
export const SCRATCH_BYTES = 64 * 1024;

export function allocateScratch(module) {
  const input = module._malloc(SCRATCH_BYTES);
  const output = module._malloc(SCRATCH_BYTES);
  return { input, output };
}

/**
 * How a codec moves chunks through wasm memory in one direction: built once
 * per codec, so that a call allocates nothing but the views it copies
 * through.
 *
 * A unit is the smallest piece that starts on a byte boundary on both sides
 * (a swap group for `bytes`, eight elements for `packbits`). `srcOffset(u)`
 * and `dstOffset(u)` give the byte offset of unit u (or the end, for u equal
 * to `units`) in the source and destination; `kernel` runs the wasm kernel
 * on `count` units starting at unit `start`.
 *
 * @typedef {{units: number, unitsPerBlock: number,
 *   srcOffset: (u: number) => number, dstOffset: (u: number) => number,
 *   kernel: (srcPtr: number, dstPtr: number, start: number, count: number) => void}} HeapStream
 */

/**
 * Runs `stream` over `src` into `dst`, block by block through the scratch
 * region.
 * @param {object} module the loaded wasm module
 * @param {HeapStream} stream
 * @param {Uint8Array} src
 * @param {Uint8Array} dst
 */
export function streamThroughHeap(module, stream, src, dst) {
  const { units, unitsPerBlock, srcOffset, dstOffset, kernel } = stream;
  const { input, output } = module.scratch;
  for (let start = 0; start < units; start += unitsPerBlock) {
    const count = Math.min(unitsPerBlock, units - start);
    const s0 = srcOffset(start);
    const d0 = dstOffset(start);
    const d1 = dstOffset(start + count);
    module.HEAPU8.set(src.subarray(s0, srcOffset(start + count)), input);
    kernel(input, output, start, count);
    dst.set(module.HEAPU8.subarray(output, output + (d1 - d0)), d0);
  }
}
