// Where one chunk of a pooled read lands: its "box", the chunk's selected
// elements as a dense C-order block in output coordinates (each array
// axis's count of selected elements, 1 where an integer dropped it). A
// worker decodes the chunk into its box in its own wasm memory, with the
// placement machinery read uses for bands (the box is a band of its own),
// then the box's contiguous runs are copied into the output: by the worker
// where the output is shared, by the calling thread otherwise. Trailing
// axes the box spans whole are merged into one run, so a chunk that covers
// whole output rows is one copy.

const product = (values) => values.reduce((a, b) => a * b, 1);

/**
 * @typedef {object} Box
 * @property {number} bytes   bytes of the box
 * @property {number[]} desc  the chunk's placement into the box, per array
 *   axis [extent, from, count, step, strideInBox] (wasm-placement.js's
 *   description, before any storage order is applied)
 * @property {number} base    the byte offset of the box's first element in the output
 * @property {number} runBytes bytes of one contiguous run
 * @property {number[]} outer [count, outputStride] of each axis outside the
 *   run, outermost first (count > 1 only)
 */

/**
 * @param {{mapping: {from: number, count: number, step: number, out: number}[]}} chunk
 * @param {{dropped: boolean, count: number}[]} axes the read's axes
 * @param {number[]} chunkShape
 * @param {number[]} strideBytes the output's byte strides per array axis (0 where dropped)
 * @param {number} eb bytes of one element
 * @returns {Box}
 */
export function boxOf(chunk, axes, chunkShape, strideBytes, eb) {
  const rank = axes.length;
  const counts = chunk.mapping.map((m) => m.count);
  const desc = new Array(5 * rank);
  let step = eb;
  for (let i = rank - 1; i >= 0; i--) {
    const m = chunk.mapping[i];
    desc.splice(5 * i, 5, chunkShape[i], m.from, m.count, m.step, step);
    step *= counts[i];
  }
  let base = 0;
  for (let i = 0; i < rank; i++) base += chunk.mapping[i].out * strideBytes[i];
  // The run: the innermost kept axes, merged outwards while the box spans
  // the output's whole extent along the axes inside (an axis of one
  // selected element where the output has more ends the run too).
  let runBytes = eb;
  let i = rank - 1;
  for (; i >= 0; i--) {
    if (axes[i].dropped) continue;
    runBytes *= counts[i];
    if (counts[i] !== axes[i].count) {
      i--;
      break;
    }
  }
  const outer = [];
  for (; i >= 0; i--) {
    if (!axes[i].dropped && counts[i] > 1) outer.unshift(counts[i], strideBytes[i]);
  }
  return { bytes: product(counts) * eb, desc, base, runBytes, outer };
}

/**
 * A band's box: output rows [r0, r1) of the first kept axis, every other
 * axis whole, so the box is one contiguous run of the output (one copy,
 * whatever the chunks in it), and where each chunk of the band lands in
 * it (a part: its placement description, with the output's strides, and
 * the byte offset of its first element in the box).
 * @param {{mapping: object[]}[]} chunks the band's chunks
 * @param {number} first the first kept axis
 * @param {number} r0
 * @param {number} r1
 * @param {number[]} chunkShape
 * @param {number[]} strideBytes the output's byte strides per array axis (0 where dropped)
 * @param {number} rowBytes bytes of one output row of `first`
 * @returns {{box: Box, parts: {desc: number[], offset: number}[]}}
 */
export function bandBoxOf(chunks, first, r0, r1, chunkShape, strideBytes, rowBytes) {
  const bytes = (r1 - r0) * rowBytes;
  const box = { bytes, desc: [], base: r0 * rowBytes, runBytes: bytes, outer: [] };
  const parts = chunks.map((c) => {
    const desc = [];
    let offset = -r0 * rowBytes;
    c.mapping.forEach((m, i) => {
      desc.push(chunkShape[i], m.from, m.count, m.step, strideBytes[i]);
      offset += m.out * strideBytes[i];
    });
    return { desc, offset };
  });
  return { box, parts };
}

/**
 * Copies a decoded box (`box`, a Uint8Array of box.bytes) into the output
 * bytes `out`, run by run.
 * @param {Uint8Array} box
 * @param {Uint8Array} out
 * @param {{base: number, runBytes: number, outer: number[]}} layout
 */
export function copyRuns(box, out, { base, runBytes, outer }) {
  if (outer.length === 0) {
    out.set(box.subarray(0, runBytes), base);
    return;
  }
  const depth = outer.length / 2;
  const index = new Array(depth).fill(0);
  let at = 0;
  let dst = base;
  for (;;) {
    out.set(box.subarray(at, at + runBytes), dst);
    at += runBytes;
    let k = depth - 1;
    for (; k >= 0; k--) {
      dst += outer[2 * k + 1];
      if (++index[k] < outer[2 * k]) break;
      dst -= outer[2 * k] * outer[2 * k + 1];
      index[k] = 0;
    }
    if (k < 0) return;
  }
}

/**
 * The placement description's axes (for wasm-placement.js's describe) in
 * storage order: `order` (stored axis j is array axis order[j]) or C order.
 */
export function storageAxes(desc, order) {
  const rank = desc.length / 5;
  const axis = (i) => ({ extent: desc[5 * i], from: desc[5 * i + 1], count: desc[5 * i + 2], step: desc[5 * i + 3], stride: desc[5 * i + 4] });
  return order ? order.map(axis) : Array.from({ length: rank }, (_, i) => axis(i));
}
