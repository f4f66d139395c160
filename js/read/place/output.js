// read's output: a fresh one as zarr.get makes it, or the caller's
// `into`, checked before anything is read, and the error for an `into`
// whose memory went away while the read (in-thread or pooled) filled it;
// and one element of it as zarrita fills a fresh output.
import { describe, tagOf, withArticle, ZarrCodecError } from "../../errors.js";
import { cOrderStrides } from "../../codecs/chunk.js";
import { outputShape } from "../selection/selection.js";

// A fresh output as zarr.get makes it (on a SharedArrayBuffer if asked).
export function newOutput(Container, size, shared) {
  if (!shared) return new Container(size);
  if (typeof SharedArrayBuffer !== "function") {
    throw new ZarrCodecError("INVALID_INPUT", "read: useSharedArrayBuffer needs SharedArrayBuffer (a cross-origin isolated page)");
  }
  const sample = new Container(0);
  if (typeof sample.BYTES_PER_ELEMENT !== "number") return new Container(size);
  return new Container(new SharedArrayBuffer(size * sample.BYTES_PER_ELEMENT), 0, size);
}

// `into` must be what zarr.get would return for this array: its container
// (zarrita's class for bool and strings, with the same width), exactly the
// selection's length.
export function checkInto(into, Container, size) {
  const sample = new Container(0);
  const expected = Array.isArray(sample) ? "an Array" : withArticle(sample.constructor?.name ?? tagOf(sample));
  let ok;
  try {
    ok = Array.isArray(sample)
      ? Array.isArray(into)
      : into instanceof Container && (sample.chars === undefined || into.chars === sample.chars);
  } catch {
    ok = false;
  }
  if (!ok) {
    const width = sample.chars !== undefined ? ` of ${sample.chars} characters` : "";
    throw new ZarrCodecError("INVALID_INPUT", `read: into must be ${expected}${width} (what zarr.get returns for this array), got ${describe(into)}`);
  }
  if (into.length !== size) {
    throw new ZarrCodecError("INVALID_INPUT", `read: into must hold exactly the selection's ${size} elements, got ${into.length}`);
  }
}

/** `into` lost its memory while read was filling it (transferred or detached). */
export function detached() {
  return new ZarrCodecError("INVALID_INPUT", "read: into was detached (its buffer transferred) while the read was filling it");
}

// One element of `Container` as zarrita fills it (`data.fill(fillValue)`),
// for the types whose fill the package does not parse (zarrita's own
// byte and string types): what zarr.get reads.
export function zarritaFill(Container, fillValue) {
  const one = new Container(1);
  if (fillValue !== null && fillValue !== undefined) one.fill(fillValue);
  return new Uint8Array(one.buffer, one.byteOffset, one.byteLength).slice();
}

/**
 * Per axis of the array, the output's stride in units of `unitBytes`
 * (the element's bytes for byte strides; 1 for element strides), 0 where
 * the selection dropped the axis: the output is in C order over the axes
 * kept.
 * @param {{dropped?: boolean, count: number}[]} axes  the resolved selection
 * @param {number} [unitBytes]
 * @returns {number[]}
 */
export function outputStrides(axes, unitBytes = 1) {
  const outStride = cOrderStrides(outputShape(axes));
  const strides = [];
  for (let i = 0, o = 0; i < axes.length; i++) strides.push(axes[i].dropped ? 0 : outStride[o++] * unitBytes);
  return strides;
}
