// Zarr v2 chunks in order "F" of a dtype withDataTypes presents with a
// trailing dimension (records, void, complex): the chunk's elements are
// stored with the first axis fastest, each element's bytes (or parts)
// together. zarrita's own order "F" transposes every axis, the trailing one
// included, which would scatter each element; so the presented metadata
// says "C", and this wrapper of the stored codec hands zarrita the decoded
// chunk with the strides of its storage order (the element axes reversed,
// the trailing dimension innermost), which zarr.get honours, and on write
// lays a C-ordered chunk out in that order before encoding it.
import { cOrderStrides } from "../codecs/chunk.js";

/** Strides of a chunk of `shape` (the trailing dimension last) stored in order "F". */
export function fortranStrides(shape) {
  const rank = shape.length;
  const stride = new Array(rank);
  stride[rank - 1] = 1;
  let step = shape[rank - 1];
  for (let i = 0; i < rank - 1; i++) {
    stride[i] = step;
    step *= shape[i];
  }
  return stride;
}

/** The storage order of such a chunk, as read's placement takes it: stored axis j is axis order[j]. */
export function fortranOrder(rank) {
  return [...Array.from({ length: rank - 1 }, (_, i) => rank - 2 - i), rank - 1];
}

// `data` (C order over `shape`) copied into order "F": element by element,
// each element's `trailing` values together.
function toFortran(data, shape) {
  const out = new data.constructor(data.length);
  const c = cOrderStrides(shape);
  const f = fortranStrides(shape);
  const rank = shape.length;
  const index = new Array(rank - 1).fill(0);
  const trailing = shape[rank - 1];
  const elements = data.length / trailing;
  for (let e = 0; e < elements; e++) {
    let from = 0;
    let to = 0;
    for (let i = 0; i < rank - 1; i++) {
      from += index[i] * c[i];
      to += index[i] * f[i];
    }
    for (let k = 0; k < trailing; k++) out[to + k] = data[from + k];
    for (let i = rank - 2; i >= 0 && ++index[i] === shape[i]; i--) index[i] = 0;
  }
  return out;
}

export class FortranChunks {
  kind = "array_to_bytes";
  #codec;
  #shape;

  /**
   * @param {object} codec the stored codec, of chunks in storage order
   * @param {number[]} shape the presented chunk shape (trailing dimension last)
   */
  constructor(codec, shape) {
    this.#codec = codec;
    this.#shape = shape.slice();
  }

  decode(bytes) {
    const chunk = this.#codec.decode(bytes);
    return { ...chunk, shape: this.#shape, stride: fortranStrides(this.#shape) };
  }

  encode(chunk) {
    const { data, shape } = chunk;
    return this.#codec.encode({ data: toFortran(data, shape ?? this.#shape), shape: this.#shape, stride: cOrderStrides(this.#shape) });
  }

  computeEncodedSize(size) {
    return this.#codec.computeEncodedSize?.(size) ?? size;
  }

  /** The codec underneath (read places its bytes in storage order itself). */
  get stored() {
    return this.#codec;
  }

  dispose() {
    this.#codec.dispose?.();
  }
}
