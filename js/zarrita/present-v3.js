// A Zarr v3 array's metadata as withDataTypes presents it to zarrita: the
// presented data type, the trailing dimension appended everywhere zarrita
// reads a shape (shape, chunk shape, sharding's inner chunks, transpose
// orders, dimension_names), the fill value converted, and the array ->
// bytes codec replaced by the stored codec where the stored bytes need
// converting. Refusals are the package's errors, for this array alone.
import { describe, ZarrCodecError } from "../errors.js";
import { presentFill } from "./fill-value.js";
import { presentationOf } from "./presentation.js";
import { STORED_CODEC } from "./stored-type-codec.js";

const MAX_ELEMENTS = 2 ** 53 - 1;
const ARRAY_TO_BYTES = new Set(["bytes", "endian", "packbits"]);

function invalid(where, message) {
  return new ZarrCodecError("INVALID_METADATA", `${where}: ${message}`);
}

/** A shape: non-negative safe integers (positive for chunk shapes). */
export function checkShape(where, what, shape, { positive = false, rank } = {}) {
  const ok =
    Array.isArray(shape) &&
    shape.length <= 64 &&
    shape.every((d) => Number.isSafeInteger(d) && (positive ? d > 0 : d >= 0));
  if (!ok) {
    throw invalid(where, `${what} must be an array of ${positive ? "positive" : "non-negative"} integers, got ${describe(shape)}${Array.isArray(shape) ? ` ${JSON.stringify(shape.slice(0, 8))}` : ""}`);
  }
  if (rank !== undefined && shape.length !== rank) {
    throw invalid(where, `${what} has ${shape.length} dimensions, but the array has ${rank}`);
  }
  let elements = 1;
  for (const d of shape) elements *= d;
  if (elements > MAX_ELEMENTS) throw invalid(where, `${what} ${JSON.stringify(shape)} has more than 2^53 elements`);
  return elements;
}

/** The shape with the trailing dimension, still addressable. */
function withTrailing(where, what, shape, trailing) {
  if (!trailing) return shape;
  const out = [...shape, trailing];
  checkShape(where, `${what} with the trailing dimension`, out);
  return out;
}

function transposeOrder(where, order, rank, trailing) {
  const ok =
    Array.isArray(order) &&
    order.length === rank &&
    [...order].sort((a, b) => a - b).every((v, i) => v === i);
  if (!ok) throw invalid(where, `transpose order must be a permutation of 0..${rank - 1}, got ${describe(order)}`);
  return trailing ? [...order, rank] : order;
}

/**
 * The codec chain with the stored codec in place of the array -> bytes
 * codec (where the presentation needs it) and shapes extended.
 */
function presentChain(where, chain, p, rank, component) {
  if (!Array.isArray(chain)) throw invalid(where, `codecs must be an array, got ${describe(chain)}`);
  const out = [];
  let arrayToBytes = false;
  for (const entry of chain) {
    const name = entry?.name;
    if (typeof name !== "string") throw invalid(where, `a codec must have a name, got ${describe(entry)}`);
    if (arrayToBytes) {
      out.push(entry);
    } else if (name === "transpose") {
      const order = transposeOrder(where, entry.configuration?.order, rank, p.trailing);
      out.push({ ...entry, configuration: { ...entry.configuration, order } });
    } else if (ARRAY_TO_BYTES.has(name)) {
      arrayToBytes = true;
      out.push(
        p.codec
          ? {
              name: STORED_CODEC,
              configuration: { codec: entry, data_type: component, ...(p.widen && { floats: "float32" }) },
            }
          : entry,
      );
    } else if (name === "sharding_indexed") {
      arrayToBytes = true;
      const c = entry.configuration;
      checkShape(where, "sharding chunk_shape", c?.chunk_shape, { positive: true, rank });
      out.push({
        ...entry,
        configuration: {
          ...c,
          chunk_shape: withTrailing(where, "sharding chunk_shape", c.chunk_shape, p.trailing),
          codecs: presentChain(where, c.codecs, p, rank, component),
        },
      });
    } else {
      throw invalid(
        where,
        `codec ${describe(name)} comes before the array -> bytes codec, so it would run on the presented ${p.presented} values rather than the stored ones; withDataTypes cannot present this array`,
      );
    }
  }
  if (!arrayToBytes) {
    throw invalid(where, "its codecs have no array -> bytes codec (bytes, packbits or sharding_indexed)");
  }
  return out;
}

/**
 * What the store wrapper needs to know of a presented array.
 * @typedef {object} Presented
 * @property {unknown} stored          the data type as the metadata names it
 * @property {number} trailing         the appended dimension, or 0
 * @property {{name: string, separator: string}} encoding  chunk keys
 * @property {number} rank             the presented rank
 * @property {string} presented        the presented data type
 * @property {number[] | undefined} fillParts  an element's values where
 *   zarrita cannot fill with one number
 * @property {number[]} chunkShape     the presented chunk shape
 */

/**
 * @param {string} path the array's path ("/a/b"), for messages
 * @param {object} doc the array's zarr.json
 * @param {"float32" | "bits"} floats
 * @param {(name: string) => object} info the core's dataTypeInfo
 * @returns {{doc: object, presented: Presented} | null} null: zarrita reads
 *   it as it is
 */
export function presentV3(path, doc, floats, info) {
  const where = `withDataTypes: array ${path || "/"}`;
  const p = presentationOf(where, doc.data_type, floats, info);
  if (!p) return null;
  checkShape(where, "shape", doc.shape);
  const rank = doc.shape.length;
  if (doc.chunk_grid?.name !== "regular") {
    throw invalid(where, `chunk_grid must be "regular" (the grid zarrita reads), got ${describe(doc.chunk_grid?.name)}`);
  }
  const chunkShape = doc.chunk_grid.configuration?.chunk_shape;
  checkShape(where, "chunk_shape", chunkShape, { positive: true, rank });
  const encodingName = doc.chunk_key_encoding?.name ?? "default";
  if (encodingName !== "default" && encodingName !== "v2") {
    throw invalid(where, `chunk_key_encoding must be "default" or "v2", got ${describe(encodingName)}`);
  }
  const separator = doc.chunk_key_encoding?.configuration?.separator ?? (encodingName === "v2" ? "." : "/");
  if (separator !== "/" && separator !== ".") {
    throw invalid(where, `the chunk key separator must be "/" or ".", got ${describe(separator)}`);
  }
  const shape = withTrailing(where, "shape", doc.shape, p.trailing);
  const presentedChunks = withTrailing(where, "chunk_shape", chunkShape, p.trailing);
  const fill = presentFill(where, p, doc.fill_value);
  const codecs = presentChain(where, doc.codecs, p, rank, p.component);
  if (fill.parts && codecs.some((c) => c.name === "sharding_indexed")) {
    throw invalid(
      where,
      `its fill_value has parts that differ, and zarrita fills a shard's missing inner chunks with one number, which would read a wrong value`,
    );
  }
  const presentedDoc = {
    ...doc,
    data_type: p.presented,
    shape,
    chunk_grid: { ...doc.chunk_grid, configuration: { ...doc.chunk_grid.configuration, chunk_shape: presentedChunks } },
    fill_value: fill.value,
    codecs,
  };
  if (p.trailing && Array.isArray(doc.dimension_names)) {
    presentedDoc.dimension_names = [...doc.dimension_names, null];
  }
  return {
    doc: presentedDoc,
    presented: {
      stored: doc.data_type,
      trailing: p.trailing,
      encoding: { name: encodingName, separator },
      rank: rank + (p.trailing ? 1 : 0),
      presented: p.presented,
      fillParts: fill.parts,
      chunkShape: presentedDoc.chunk_grid.configuration.chunk_shape,
    },
  };
}
