// reshape (the zarr-extensions page): a chunk of shape A stored as shape B,
// the elements in the same C order (`ravel(B) == ravel(A)`). `shape` lists
// B's sizes, each a positive integer, -1 (at most once: what makes the
// sizes multiply to A's), or a list of A's axes whose sizes multiply to it.
// Errors as the page requires: sizes that cannot multiply to A's, axis
// lists that are not increasing over the whole `shape`, or whose axes'
// position in A does not match their position in B (the products before
// and after must agree).
//
// zarrita's transpose keeps a chunk's logical shape and changes only its
// strides (the memory order is the transposed array's C order), and tells
// no codec after it of the permuted shape. So here A is the chunk shape
// zarrita gives, permuted by the transposes listed before this codec (the
// spec's A), for working out B; encode stores the chunk's memory order as
// it is (the spec's C order of A), and decode gives the chunk in zarrita's
// logical shape and C order (copying where a transpose after this codec
// left other strides).
import { describe, isPlainObject, ZarrCodecError } from "../errors.js";
import { cOrderStrides } from "../codecs/chunk.js";
import { chunkMetaOf, withEncoded } from "./filter-chunk.js";

const NAME = "reshape";
const product = (values) => values.reduce((a, b) => a * b, 1);

function invalid(message) {
  return new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: ${message}`);
}

/**
 * B's shape for the configuration's `shape` and the chunk shape A.
 * @param {unknown} spec
 * @param {number[]} input
 * @returns {number[]}
 */
export function reshapedShape(spec, input) {
  if (!Array.isArray(spec) || spec.length === 0) {
    throw invalid(`shape must be a non-empty list of sizes, -1 or lists of input axes, got ${describe(spec)}`);
  }
  const out = [];
  const groups = [];
  let inferred = -1;
  let lastAxis = -1;
  spec.forEach((entry, i) => {
    if (Number.isInteger(entry) && entry > 0) out.push(entry);
    else if (entry === -1) {
      if (inferred !== -1) throw invalid(`shape may hold -1 once, got it at ${inferred} and ${i}`);
      inferred = i;
      out.push(1);
    } else if (Array.isArray(entry) && entry.every((a) => Number.isInteger(a))) {
      for (const axis of entry) {
        if (axis < 0 || axis >= input.length) throw invalid(`shape[${i}] names input axis ${axis}, but the chunks have ${input.length} axes`);
        if (axis <= lastAxis) throw invalid(`the input axes in shape must increase strictly, got ${axis} after ${lastAxis} (shape[${i}])`);
        lastAxis = axis;
      }
      groups.push([i, entry]);
      out.push(product(entry.map((a) => input[a])));
    } else {
      throw invalid(`shape[${i}] must be a positive integer, -1 or a list of input axes, got ${describe(entry)}`);
    }
  });
  const total = product(input);
  if (inferred !== -1) {
    const known = product(out);
    if (known === 0 || total % known !== 0) throw invalid(`no size for shape[${inferred}] makes ${JSON.stringify(spec)} hold the ${total} elements of a [${input}] chunk`);
    out[inferred] = total / known;
  }
  if (product(out) !== total) throw invalid(`${JSON.stringify(spec)} gives [${out}] (${product(out)} elements) for a [${input}] chunk (${total})`);
  for (const [i, axes] of groups) {
    if (axes.length === 0) continue;
    const before = product(out.slice(0, i)) === product(input.slice(0, axes[0]));
    const after = product(out.slice(i + 1)) === product(input.slice(axes.at(-1) + 1));
    if (!before || !after) throw invalid(`shape[${i}] (input axes ${JSON.stringify(axes)}) does not sit where those axes are: the sizes before and after it must multiply as the input's do`);
  }
  return out;
}

function isCOrder(shape, stride) {
  const expected = cOrderStrides(shape);
  return Array.isArray(stride) && shape.every((n, i) => n <= 1 || stride[i] === expected[i]);
}

/** A chunk's elements in C order (a copy where its strides are others). */
export function inCOrder(chunk) {
  const { data, shape, stride } = chunk;
  if (isCOrder(shape, stride)) return data;
  const out = new data.constructor(data.length);
  const index = new Array(shape.length).fill(0);
  for (let i = 0; i < out.length; i++) {
    let at = 0;
    for (let d = 0; d < shape.length; d++) at += index[d] * stride[d];
    out[i] = data[at];
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++index[d] < shape[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

// The permutation a transpose configuration names for `rank` axes.
function permutationOf(order, rank) {
  if (order === "F") return Array.from({ length: rank }, (_, i) => rank - 1 - i);
  if (Array.isArray(order) && order.length === rank) return order;
  return Array.from({ length: rank }, (_, i) => i);
}

/**
 * The spec's input shape: zarrita's chunk shape permuted by the transposes
 * before this codec in the chain (zarrita 0.5, 0.6 and 0.7 give `codecs`
 * in the meta; this codec's entry is the one holding its configuration).
 */
function shapeAfterTransposes(shape, codecs, configuration) {
  if (!Array.isArray(codecs)) return shape;
  const at = codecs.findIndex((c) => c?.configuration === configuration);
  let current = shape;
  for (const entry of codecs.slice(0, Math.max(at, 0))) {
    if (entry?.name !== "transpose") continue;
    const permutation = permutationOf(entry.configuration?.order, current.length);
    current = permutation.map((axis) => current[axis]);
  }
  return current;
}

export class ReshapeCodec {
  kind = "array_to_array";
  #input;
  #output;

  constructor(configuration, meta) {
    const input = chunkMetaOf(meta).shape;
    if (!input) throw invalid(`the chunk shape is needed to reshape, got meta ${describe(meta)}`);
    if (!isPlainObject(configuration)) throw invalid(`expected a configuration object ({ shape }), got ${describe(configuration)}`);
    this.#input = input;
    this.#output = reshapedShape(configuration.shape, shapeAfterTransposes(input, meta?.codecs, configuration));
  }

  static fromConfig(configuration, meta) {
    return new ReshapeCodec(configuration, meta);
  }

  getEncodedMeta(meta) {
    return withEncoded(meta, chunkMetaOf(meta).dataType, this.#output);
  }

  /** The chunk's elements in memory order (a transpose before set it), as B. */
  encode(chunk) {
    return { data: chunk.data, shape: this.#output, stride: cOrderStrides(this.#output) };
  }

  decode(chunk) {
    return { data: inCOrder(chunk), shape: this.#input, stride: cOrderStrides(this.#input) };
  }
}
