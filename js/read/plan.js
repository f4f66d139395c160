// What read works out once per array and keeps while the array lives: the
// zarrita parts it uses (zarrita-array.js), the container zarr.get fills
// and its element size, the fill (as one element's bytes, or an element's
// parts along a trailing dimension where withDataTypes presented one), and
// how a chunk is decoded: by read itself (chunk-decoder.js), or through
// zarrita's getChunk, with the reason.
import { fillElementOf } from "../data-types/missing-chunk.js";
import { presentedOf } from "../data-types/with-data-types.js";
import { N5_CONTAINER } from "../n5/with-n5.js";
import { codecChain } from "./codec-chain.js";
import { chunkDecoder } from "./chunk-decoder.js";
import { zarritaArray } from "./zarrita-array.js";

const plans = new WeakMap();

/**
 * @typedef {object} Plan
 * @property {import("./zarrita-array.js").ZarritaArray} za
 * @property {Function} Container     zarr.get's container for the data type
 * @property {number} elementBytes    bytes of one element in it (0: not
 *   made of bytes, e.g. zarrita's arrays of JS values)
 * @property {Uint8Array | undefined} fill  the bytes of missing chunks' elements
 * @property {import("./chunk-decoder.js").ChunkDecoder | undefined} decoder
 * @property {string | undefined} viaZarrita  why chunks go through getChunk
 * @property {number[] | null} order   the decoder's storage order
 */

function sameShape(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => v === b[i]);
}

const bytesOfElement = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength).slice();

// One element of `Container` holding the fill, as zarrita fills missing
// chunks (`data.fill(fillValue)`), where it can be had as bytes. BigInt
// containers take an integral number too (zarrita 0.5 keeps a metadata
// number as it is, and its own fill would throw); null is zero, as in
// every other container.
function fillBytes(Container, fillValue) {
  const one = new Container(1);
  let value = fillValue;
  if ((one instanceof BigInt64Array || one instanceof BigUint64Array) && Number.isInteger(value)) value = BigInt(value);
  if (value !== null && value !== undefined) one.fill(value);
  return bytesOfElement(one);
}

function containerFacts(Container) {
  const sample = new Container(1);
  const buffered = typeof sample.BYTES_PER_ELEMENT === "number" && typeof sample.buffer?.byteLength === "number";
  const bytes = buffered ? sample.BYTES_PER_ELEMENT : 0;
  return { elementBytes: bytes };
}

async function makePlan(arr, signal) {
  const za = zarritaArray(arr);
  const Container = za.TypedArray;
  const plan = { za, Container, elementBytes: 0, fill: undefined, decoder: undefined, viaZarrita: undefined, order: null };
  if (typeof Container !== "function") {
    plan.viaZarrita = "zarrita's array context was not found";
    return plan;
  }
  plan.elementBytes = containerFacts(Container).elementBytes;
  if (plan.elementBytes === 0) {
    plan.viaZarrita = "zarrita's container for this data type holds JavaScript values, not bytes";
    return plan;
  }
  const presented = presentedOf(arr);
  if (presented?.objectFill) {
    // Byte values no JSON fill gives zarrita: withDataTypes fills (or
    // refuses) those missing chunks itself.
    plan.viaZarrita = "a fill of byte values, which withDataTypes fills itself";
    return plan;
  }
  try {
    // withDataTypes' own reading of the fill where it presented the array
    // (one element's values: -0 and NaN payloads kept, which zarrita's
    // consolidated layer rounds away), else zarrita's.
    plan.fill = presented?.fillElement ? bytesOfElement(fillElementOf(presented)) : fillBytes(Container, za.fillValue);
  } catch {
    plan.viaZarrita = "the fill value is not one zarrita's container takes";
    return plan;
  }
  if (!za.chunkBytes) {
    plan.viaZarrita = "zarrita's chunk fetch was not found";
    return plan;
  }
  if (za.getChunkOverridden) {
    plan.viaZarrita = "an array extension overrides getChunk";
    return plan;
  }
  if (presented?.fillParts && za.sharded) {
    // withDataTypes checks such shards as zarrita reads their index.
    plan.viaZarrita = "a sharded array whose fill zarrita cannot express";
    return plan;
  }
  const rank = za.shape.length;
  // v3's default chunk keys start with "c"; v2's do not (nor N5's, which
  // withN5 presents as v3, nor v3's rare "v2" encoding): there .zarray is
  // asked for first, unless the store is an N5 container. One request,
  // and no 404 a browser would log, for the common cases.
  const key = za.chunkKey?.(new Array(rank).fill(0)) ?? "c";
  const v2First = !String(key).startsWith("c") && arr.store?.[N5_CONTAINER] !== true;
  const chain = await codecChain(arr, rank, v2First, signal);
  if (chain.unsupported) {
    plan.viaZarrita = chain.unsupported;
    return plan;
  }
  if (chain.dataType !== arr.dtype && !chain.v2) {
    plan.viaZarrita = "the metadata read again names another data type";
    return plan;
  }
  if (!sameShape(chain.chunkShape, za.chunkShape)) {
    plan.viaZarrita = "the metadata read again has another chunk shape";
    return plan;
  }
  try {
    const decoder = await chunkDecoder(chain, {
      dataType: arr.dtype,
      chunkShape: za.chunkShape,
      elementBytes: plan.elementBytes,
      fillValue: za.fillValue,
    });
    if (decoder.unsupported) plan.viaZarrita = decoder.unsupported;
    else {
      plan.decoder = decoder;
      plan.order = chain.order;
    }
  } catch (error) {
    plan.viaZarrita = `its codecs (${error?.message ?? error})`;
  }
  return plan;
}

/** The plan of `arr`, made on its first read. */
export function planOf(arr, signal) {
  let plan = plans.get(arr);
  if (!plan) {
    plan = makePlan(arr, signal);
    plans.set(arr, plan);
    // A failed plan (a store error) is not kept.
    plan.catch(() => plans.delete(arr));
  }
  return plan;
}
