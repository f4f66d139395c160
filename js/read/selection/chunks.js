// The chunks a resolved selection touches (selection.js gives, per axis,
// the chunks and what each gives the output): each chunk's coordinates and
// its mapping, in C order of the chunk grid, the order zarr.get visits them.

/**
 * @typedef {object} ChunkTask
 * @property {number[]} coords   the chunk's coordinates in the chunk grid
 * @property {{chunk: number, from: number, count: number, step: number, out: number}[]} mapping
 *   per axis: which of the chunk's elements the selection takes, and where
 *   they land in the output
 */

/** @returns {ChunkTask[]} */
export function chunksOf(axes) {
  const out = [];
  const index = new Array(axes.length).fill(0);
  if (axes.some((a) => a.chunks.length === 0)) return out;
  while (true) {
    const coords = [];
    axes.forEach((a, i) => {
      if (!a.virtual) coords.push(a.chunks[index[i]].chunk);
    });
    out.push({ coords, mapping: axes.map((a, i) => a.chunks[index[i]]) });
    let i = axes.length - 1;
    while (i >= 0 && ++index[i] === axes[i].chunks.length) index[i--] = 0;
    if (i < 0) return out;
  }
}

// A scalar selection as a region: its last axis kept (of one element),
// or for a 0-d array one axis of one element that no chunk key shows.
export function asRegion(axes) {
  if (axes.length === 0) {
    return [{ dropped: false, count: 1, virtual: true, chunks: [{ chunk: 0, from: 0, count: 1, step: 1, out: 0 }] }];
  }
  return axes.map((a, i) => (i === axes.length - 1 ? { ...a, dropped: false } : a));
}
