// The output of a read in bands: runs of whole rows of its first axis, so
// that each band is one contiguous piece of the C-order output. A band
// lives in wasm memory while its chunks are placed into it, then is copied
// out in one piece and freed. Bands follow the chunk grid (a band never
// splits a chunk's rows unless one row of chunks is larger than MAX_BYTES),
// small rows of chunks are merged up to TARGET_BYTES, and at most
// LIVE_BYTES of bands (or one larger band) are alive at once, so wasm memory
// stays bounded whatever the read's size.
export const TARGET_BYTES = 1 << 20;
export const MAX_BYTES = 32 << 20;
export const LIVE_BYTES = 16 << 20;

/**
 * @typedef {object} Band
 * @property {number} r0  first output row (of the first output axis)
 * @property {number} r1  one past the last
 * @property {number} bytes
 * @property {number} chunksLeft  chunks still to be placed into it
 * @property {object[]} waiting   chunks that arrived before it was alive
 * @property {number} at          its address in wasm memory, while alive
 * @property {"waiting" | "alive" | "done"} state
 */

/**
 * The bands of an output whose first axis has `rows` rows of `rowBytes`
 * bytes, given the row ranges each chunk index along that axis covers
 * (ascending, tiling 0..rows).
 * @param {{out: number, count: number}[]} groups
 * @returns {Band[]}
 */
export function layBands(groups, rowBytes) {
  const bands = [];
  const push = (r0, r1) => bands.push({ r0, r1, bytes: (r1 - r0) * rowBytes, chunksLeft: 0, waiting: [], at: 0, state: "waiting" });
  let open; // [r0, r1] of the band being grown
  for (const { out, count } of groups) {
    const bytes = count * rowBytes;
    if (bytes > MAX_BYTES) {
      if (open) push(...open);
      open = undefined;
      const rows = Math.max(1, Math.floor(MAX_BYTES / rowBytes));
      for (let r = out; r < out + count; r += rows) push(r, Math.min(out + count, r + rows));
    } else if (open && (open[1] - open[0] + count) * rowBytes <= TARGET_BYTES) {
      open[1] = out + count;
    } else {
      if (open) push(...open);
      open = [out, out + count];
    }
  }
  if (open) push(...open);
  return bands;
}

/** The bands rows [r0, r1) touch (their indices), by binary search. */
export function bandsOf(bands, r0, r1) {
  let lo = 0;
  let hi = bands.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bands[mid].r1 <= r0) lo = mid + 1;
    else hi = mid;
  }
  const out = [];
  for (let i = lo; i < bands.length && bands[i].r0 < r1; i++) out.push(i);
  return out;
}
