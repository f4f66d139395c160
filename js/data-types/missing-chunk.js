// A missing chunk of an array withDataTypes presents, read as its fill
// value from the catalog's `fillElement` (one element's presented values,
// present-v3.js). Two shapes of the same chunk:
//
// - broadcast: the element once, with stride 0 on every dimension but the
//   trailing one (records, raw bytes, complex) — what zarr.get copies from,
//   honouring the stride, so a read costs memory and time in proportion
//   to the selection, whatever the chunk's size;
// - whole: every element written out, for callers that take the chunk's
//   data as C-ordered values (zarr.set changes a partly written chunk in
//   place, ignoring the stride): it costs the chunk, as any write to it
//   would.
import { allocate, cOrderStrides } from "../codecs/chunk.js";
import { containerFor } from "../codecs/containers.js";
import { ZarrCodecError } from "../errors.js";

/** The container of the presented values: an Array for strings. */
function containerOf(p) {
  return p.presented === "v2:object" ? Array : containerFor(p.presented);
}

/**
 * One element of the fill in its presented container (a TypedArray of
 * the trailing dimension's values, or of one value, made from the
 * element's bytes: a NaN's payload kept; an Array of one string).
 * @param {import("./present-v3.js").Presented} p
 */
export function fillElementOf(p) {
  const Container = containerOf(p);
  if (Container === Array) return Array.from(p.fillElement);
  const bytes = p.fillElement.slice();
  return new Container(bytes.buffer, 0, bytes.byteLength / Container.BYTES_PER_ELEMENT);
}

/**
 * The missing chunk as the fill broadcast over `shape` (the presented
 * chunk shape: an inner chunk's, in a sharded array).
 */
export function broadcastChunk(p, shape) {
  const stride = shape.map(() => 0);
  if (p.trailing) stride[stride.length - 1] = 1;
  return { data: fillElementOf(p), shape, stride };
}

/**
 * A missing chunk of variable-length bytes as the fill broadcast over
 * `shape`: zarr.get reads each element through the one index (stride 0),
 * and each read gets its own copy of the bytes, as each element of a
 * decoded chunk is its own view: no memory in proportion to the chunk.
 * @param {Uint8Array} bytes
 */
export function broadcastBytes(bytes, shape) {
  const data = new Proxy([bytes], {
    get(target, key, receiver) {
      return key === "0" ? bytes.slice() : Reflect.get(target, key, receiver);
    },
  });
  return { data, shape, stride: shape.map(() => 0) };
}

/**
 * The missing chunk written out whole (C order); a chunk too large to
 * allocate is the package's OUT_OF_MEMORY, not a RangeError.
 */
export function wholeChunk(where, p, shape) {
  const element = fillElementOf(p);
  const size = shape.reduce((a, b) => a * b, 1);
  const Container = containerOf(p);
  let data;
  if (Container === Array) {
    try {
      data = new Array(size).fill(element[0]);
    } catch (cause) {
      throw new ZarrCodecError("OUT_OF_MEMORY", `${where}: cannot allocate an Array of ${size} strings for a missing chunk`, { cause });
    }
  } else {
    data = allocate(where, Container, size * Container.BYTES_PER_ELEMENT);
    // The element, then copies doubling in length: a few calls, not one
    // per value.
    data.set(element.subarray(0, Math.min(element.length, size)));
    for (let filled = element.length; filled < size; filled *= 2) {
      data.copyWithin(filled, 0, Math.min(filled, size - filled));
    }
  }
  return { data, shape, stride: cOrderStrides(shape) };
}
