// What the array -> array filters share: the chunk meta zarrita hands
// fromConfig (0.7: { dataType, shape, ... }; 0.5 and 0.6: { data_type,
// shape, ... }) read as one shape, the meta they hand on with their
// encoded type or shape, and a chunk's elements as the TypedArray of the
// type a filter computes in.
import { describe, tagOf, ZarrCodecError } from "../errors.js";

/**
 * The data type (zarrita's name) and shape of the chunks a codec receives.
 * @returns {{dataType: unknown, shape: number[] | undefined}}
 */
export function chunkMetaOf(meta) {
  return {
    dataType: meta?.dataType ?? meta?.data_type,
    shape: Array.isArray(meta?.shape) ? meta.shape : undefined,
  };
}

/** `meta` (either zarrita's shape) with another data type and shape. */
export function withEncoded(meta, dataType, shape) {
  const key = meta?.dataType === undefined && meta?.data_type !== undefined ? "data_type" : "dataType";
  return { ...meta, [key]: dataType, shape };
}

/**
 * The type a filter's configuration names for its decoded side (numcodecs'
 * `dtype`), checked against the type the chain gives it: numpy would
 * reinterpret the bytes, which no one writes on purpose.
 */
export function checkInputType(codec, field, type, meta) {
  const given = chunkMetaOf(meta).dataType;
  if (given === undefined || given === type.name) return;
  throw new ZarrCodecError(
    "INVALID_CONFIGURATION",
    `${codec}: ${field} ${type.name} does not match the chunks it receives, which are ${describe(given)}`,
  );
}

/**
 * A chunk's elements as a TypedArray of `type` (the array itself where it
 * is one; a view or copy of its bytes where it is another TypedArray of
 * as many bytes, as numpy's `.view(dtype)`).
 */
export function elementsOf(codec, chunk, type) {
  const data = chunk?.data;
  if (data instanceof type.Array) return data;
  if (ArrayBuffer.isView(data) && data.byteLength % type.size === 0) {
    if (data.byteOffset % type.size === 0) return new type.Array(data.buffer, data.byteOffset, data.byteLength / type.size);
    return new type.Array(new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice().buffer);
  }
  throw new ZarrCodecError(
    "INVALID_INPUT",
    `${codec}: expected a chunk of ${type.name} (a ${type.Array.name}), got ${data === undefined ? describe(chunk) : tagOf(data)}`,
  );
}

/** A chunk with other data, the same shape and strides. */
export function chunkWith(chunk, data) {
  return { data, shape: chunk.shape, stride: chunk.stride };
}
