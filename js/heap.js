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
 * Runs `kernel` over a chunk in blocks of whole units.
 *
 * A unit is the smallest piece that starts on a byte boundary on both sides
 * (a swap group for `bytes`, eight elements for `packbits`). `srcOffset(u)`
 * and `dstOffset(u)` give the byte offset of unit u (or the end, for u equal
 * to `units`) in `src` and `dst`.
 *
 * @param {object} module the loaded wasm module
 * @param {{src: Uint8Array, dst: Uint8Array, units: number,
 *   unitsPerBlock: number, srcOffset: (u: number) => number,
 *   dstOffset: (u: number) => number,
 *   kernel: (srcPtr: number, dstPtr: number, start: number, units: number) => void}} job
 */
export function streamThroughHeap(module, job) {
  const { src, dst, units, unitsPerBlock, srcOffset, dstOffset, kernel } = job;
  const { input, output } = module.scratch;
  for (let start = 0; start < units; start += unitsPerBlock) {
    const count = Math.min(unitsPerBlock, units - start);
    const s0 = srcOffset(start);
    const s1 = srcOffset(start + count);
    const d0 = dstOffset(start);
    const d1 = dstOffset(start + count);
    module.HEAPU8.set(src.subarray(s0, s1), input);
    kernel(input, output, start, count);
    dst.set(module.HEAPU8.subarray(output, output + (d1 - d0)), d0);
  }
}
