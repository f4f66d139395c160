// A selection as zarr.get takes it (null, or per axis an integer, null or
// zarr.slice(start, stop, step) with step >= 1), resolved against an
// array's shape and chunk shape: the output's shape, and for each axis the
// chunks it touches with what each gives the output. The same arithmetic as
// zarrita's BasicIndexer (slices as Python's, integers wrapping once), so
// read and zarr.get agree on every selection, and on what they refuse.
import { describe, ZarrCodecError } from "../../errors.js";

function refused(message) {
  return new ZarrCodecError("INVALID_SELECTION", `read: ${message}`);
}

// Python's slice.indices for a positive step (what zarrita accepts).
function sliceIndices(where, { start, stop, step }, length) {
  const s = step ?? 1;
  if (!Number.isInteger(s)) throw refused(`${where}: a slice's step must be an integer, got ${describe(step)}`);
  if (s === 0) throw refused(`${where}: slice step cannot be zero`);
  if (s < 0) throw refused(`${where}: only slices with step >= 1 are supported, got ${s}`);
  const bound = (v, fallback) => {
    if (v === null || v === undefined) return fallback;
    if (!Number.isInteger(v)) throw refused(`${where}: slice bounds must be integers or null, got ${describe(v)}`);
    if (v < 0) return Math.max(v + length, 0);
    return Math.min(v, length);
  };
  return [bound(start, 0), bound(stop, length), s];
}

// zarr.slice(...)'s result: an object with start, stop and step of its
// own (a list of indices, or an object without them, is no slice).
function isSlice(value) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const own = (key) => Object.prototype.hasOwnProperty.call(value, key);
  return own("start") && own("stop") && own("step");
}

/**
 * One axis: the output index range each chunk along it gives.
 * @typedef {object} AxisSelection
 * @property {boolean} dropped   an integer: the axis is not in the output
 * @property {number} count      output elements along it (1 where dropped)
 * @property {{chunk: number, from: number, count: number, step: number, out: number}[]} chunks
 *   per chunk index touched: the chunk-local first index, how many, the
 *   step, and the output index of the first
 */

/**
 * @param {unknown} selection
 * @param {number[]} shape
 * @param {number[]} chunkShape
 * @returns {AxisSelection[]}
 */
export function resolveSelection(selection, shape, chunkShape) {
  let perAxis;
  if (selection === null || selection === undefined) perAxis = shape.map(() => null);
  else if (Array.isArray(selection)) perAxis = selection;
  else throw refused(`a selection is null or an array with one entry per axis, got ${describe(selection)}`);
  if (perAxis.length > shape.length) {
    throw refused(`too many indices for array; expected ${shape.length}, got ${perAxis.length}`);
  }
  return shape.map((length, axis) => {
    const sel = axis < perAxis.length ? perAxis[axis] : null;
    const chunk = chunkShape[axis];
    const where = `axis ${axis}`;
    if (typeof sel === "number") {
      // numpy refuses what is no integer (1.5, NaN); zarrita would
      // truncate it.
      if (!Number.isInteger(sel)) throw refused(`${where}: an index must be an integer, got ${describe(sel)}`);
      let index = sel;
      if (index < 0) index += length;
      if (index < 0 || index >= length) throw refused(`${where}: index ${sel} is out of bounds for dimension with length ${length}`);
      const c = Math.floor(index / chunk);
      return { dropped: true, count: 1, chunks: [{ chunk: c, from: index - c * chunk, count: 1, step: 1, out: 0 }] };
    }
    const s = sel ?? { start: null, stop: null, step: null };
    if (!isSlice(s)) {
      throw refused(`${where}: expected an integer, null or zarr.slice(start, stop, step), got ${describe(sel)} (lists of indices are not supported)`);
    }
    const [start, stop, step] = sliceIndices(where, s, length);
    const count = Math.max(0, Math.ceil((stop - start) / step));
    const chunks = [];
    if (count > 0) {
      const last = start + (count - 1) * step;
      for (let c = Math.floor(start / chunk); c * chunk <= last; c++) {
        const offset = c * chunk;
        // The first selected index at or after the chunk's start.
        const first = start >= offset ? start : start + Math.ceil((offset - start) / step) * step;
        if (first >= offset + chunk || first > last) continue;
        const n = Math.floor((Math.min(last, offset + chunk - 1) - first) / step) + 1;
        chunks.push({ chunk: c, from: first - offset, count: n, step, out: (first - start) / step });
      }
    }
    return { dropped: false, count, chunks };
  });
}

/** The output's shape: the count of each axis not dropped. */
export function outputShape(axes) {
  return axes.filter((a) => !a.dropped).map((a) => a.count);
}
