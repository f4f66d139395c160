// What read works out once per array and keeps while the array lives: the
// zarrita parts it uses (zarrita-array.js), the container zarr.get fills
// and its element size, the fill (one presented element's bytes, parsed
// exactly from the metadata), how a chunk is decoded: by read itself
// (chunk-decoder.js), or through zarrita's getChunk, with the reason; and
// for sharded arrays, read's own shard layout, and its shard reader with
// the indexes it keeps (fetch/shards/shard-reader.js).
import { arrayName } from "../../errors.js";
import { nativeFill } from "../../data-types/fill-value.js";
import { fillElementOf } from "../../data-types/missing-chunk.js";
import { formatOf, nativeFillOf, openedDocumentOf, presentedOf } from "../../data-types/with-data-types.js";
import { N5_CONTAINER } from "../../n5/with-n5.js";
import { parseDataType } from "../../types/data-type.js";
import { parseV2Scalar } from "../../types/v2-dtype.js";
import { codecChain } from "./codec-chain.js";
import { chunkDecoder } from "../decode/chunk-decoder.js";
import { zarritaArray } from "./zarrita-array.js";
import { zarritaFill } from "../place/output.js";
import { typedPlanOf } from "./typed-plan.js";
import { joinableSignal } from "../shared-signal.js";
import { untilAborted } from "../abort-signal.js";

const plans = new WeakMap(); // arr -> { shared, plan }
// The types whose fill read parses itself when withDataTypes did not.
const NUMERIC = new Set(["bool", "signed", "unsigned", "float"]);

/**
 * @typedef {object} Plan
 * @property {import("./zarrita-array.js").ZarritaArray} za
 * @property {Function} Container     zarr.get's container for the data type
 * @property {number} elementBytes    bytes of one element in it (0: not
 *   made of bytes, e.g. zarrita's arrays of JavaScript values)
 * @property {Uint8Array | undefined} fill  the bytes of missing chunks'
 *   elements; where it is known, read fetches each chunk's bytes itself
 *   and fills the missing ones, also where zarrita decodes the others
 * @property {unknown[] | undefined} valuesFill  for containers of JavaScript
 *   values (strings, bytes): the fill, one value per element (bytes copied
 *   for each); undefined where zarrita fills them
 * @property {import("../decode/chunk-decoder.js").ChunkDecoder | undefined} decoder
 * @property {string | undefined} viaZarrita  why chunks go through getChunk
 * @property {number[] | null} order   the decoder's storage order
 * @property {import("./codec-chain.js").Sharding | undefined} sharding
 *   read fetches inner chunks of shards itself
 * @property {import("./codec-chain.js").Chain | undefined} chain  the chain
 *   the decoder was made from (a worker pool makes its own from it)
 * @property {{reader: object | undefined}} shardAccess  read's shard reader
 *   for the array, made on its first read (its indexes kept across reads),
 *   shared by the array's typed plans (typed-plan.js)
 * @property {((where: string) => Error) | undefined} fillRefusal  where the
 *   fill has no value of the plan's type (read's dtype): the error a
 *   missing chunk gets (`where` names it); `fill` is then a stand-in never placed
 * @property {(() => Promise<import("./codec-chain.js").Sharding | {unsupported: string}>) | undefined} confirmSharding
 *   where the shard index's layout was assumed: the layout the document
 *   says, read once
 * @property {string | undefined} outputType  read's dtype, where it casts
 *   the array's values to another type (typed-plan.js)
 * @property {((chunk: object) => object) | undefined} convert  for a typed
 *   plan, the cast of a chunk zarrita decoded
 * @property {Promise<object> | undefined} pool  what a worker pool needs
 *   to decode the array's chunks, made on its first pooled read (js/pool/chain.js)
 */

const bytesOfElement = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength).slice();


function containerFacts(Container) {
  const sample = new Container(1);
  const buffered = typeof sample.BYTES_PER_ELEMENT === "number" && typeof sample.buffer?.byteLength === "number";
  const bytes = buffered ? sample.BYTES_PER_ELEMENT : 0;
  return { elementBytes: bytes };
}

/**
 * The fill of an array withDataTypes did not present, from the metadata
 * read again (exact past 2^53, hex floats and NaN payloads included): its
 * element's bytes, where the container is zarrita's for the type.
 */
function fillFromMetadata(arr, chain, elementBytes) {
  const where = `read: array ${arrayName(arr.path, arr.store)}`;
  const type = chain.format === 2 ? parseV2Scalar(where, chain.dataType)?.type : parseDataType(where, chain.dataType);
  if (!type || !NUMERIC.has(type.info.typeClass) || type.info.componentCount !== 1) return undefined;
  // null: Zarr v2's "no fill", and what zarrita's zarr.create writes for
  // v3 where none is given; zarrita fills it as zeros.
  const fill = nativeFill(where, type, chain.fillValue, { v2: chain.format === 2 || chain.fillValue === null });
  return fill.element?.byteLength === elementBytes ? fill.element : undefined;
}

async function makePlan(arr, signal) {
  const za = zarritaArray(arr);
  const Container = za.TypedArray;
  const plan = { za, Container, elementBytes: 0, fill: undefined, valuesFill: undefined, decoder: undefined, viaZarrita: undefined, order: null, sharding: undefined, chain: undefined, shardAccess: { reader: undefined }, fillRefusal: undefined, pool: undefined };
  if (typeof Container !== "function") {
    plan.viaZarrita = "zarrita's array context was not found";
    return plan;
  }
  plan.elementBytes = containerFacts(Container).elementBytes;
  const presented = presentedOf(arr);
  if (plan.elementBytes === 0) {
    // Values read fills itself where a chunk is missing (a chunk of them
    // would cost memory in proportion to the chunk, not the selection):
    // bytes copied for each element, or the one value zarrita fills with.
    plan.viaZarrita = "zarrita's container for this data type holds JavaScript values, not bytes";
    let fill;
    if (presented?.objectFill?.bytes) fill = { bytes: presented.objectFill.bytes };
    else if (Array.isArray(presented?.fillElement)) fill = { value: presented.fillElement[0] };
    else if (!presented) fill = { value: za.fillValue };
    if (!fill || !za.chunkBytes || !za.decode || za.getChunkOverridden) return plan;
    // Shards are read by read's own reader (zarrita's keeps the indexes it
    // read, checks and all, for its own later reads).
    if (za.sharded) {
      const chain = await chainOf(arr, za, signal);
      if (!chain.sharding || !readableSharding(arr, za, chain.sharding)) return plan;
      plan.sharding = chain.sharding;
      confirmable(plan, arr, za);
    }
    plan.valuesFill = fill;
    return plan;
  }
  if (presented?.objectFill && !presented.fillByteString) {
    plan.viaZarrita = "a fill of byte values, which withDataTypes fills itself";
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
  const chain = await chainOf(arr, za, signal);
  // Shards read fetches itself, and the exact fill, also where zarrita
  // decodes the chunks (read fills the missing ones).
  if (chain.sharding && readableSharding(arr, za, chain.sharding) && sameShape(chain.chunkShape, za.chunkShape)) plan.sharding = chain.sharding;
  confirmable(plan, arr, za);
  try {
    // withDataTypes' own reading of the fill where it read the metadata
    // (one element's bytes: -0 and NaN payloads kept), else the metadata's.
    if (presented?.fillByteString) plan.fill = presented.fillByteString.slice();
    else if (presented?.fillElement) plan.fill = bytesOfElement(fillElementOf(presented));
    else if (chain.dataType !== undefined) plan.fill = (nativeFillOf(arr)?.fillElement ?? fillFromMetadata(arr, chain, plan.elementBytes) ?? zarritaFill(Container, za.fillValue))?.slice();
  } catch {
    plan.fill = undefined;
  }
  if (plan.fill !== undefined && plan.fill.byteLength % plan.elementBytes !== 0) plan.fill = undefined;
  // zarrita fills a sharded array's missing inner chunks itself where read
  // does not fetch its shards.
  if (za.sharded && !plan.sharding) plan.fill = undefined;
  if (chain.unsupported) {
    plan.viaZarrita = chain.unsupported;
    return plan;
  }
  if (chain.dataType !== arr.dtype && chain.format === 3) {
    plan.viaZarrita = "the metadata read again names another data type";
    return plan;
  }
  if (!sameShape(chain.chunkShape, za.chunkShape)) {
    plan.viaZarrita = "the metadata read again has another chunk shape";
    plan.fill = undefined;
    return plan;
  }
  if (chain.sharding && !plan.sharding) {
    plan.viaZarrita = chain.sharding.unsupported ?? "a sharded array whose shards read cannot fetch itself";
    return plan;
  }
  if (plan.fill === undefined) {
    plan.viaZarrita = "the fill value is not one zarrita's container takes";
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
      plan.chain = chain;
    }
  } catch (error) {
    plan.viaZarrita = `its codecs (${error?.message ?? error})`;
  }
  return plan;
}

// The array's codec chain, from the document zarrita opened.
function chainOf(arr, za, signal, fromDocument = false) {
  // v3's default chunk keys start with "c"; v2's do not (nor N5's, which
  // withN5 presents as v3, nor v3's rare "v2" encoding).
  const key = za.chunkKey?.(new Array(za.shape.length).fill(0)) ?? "c";
  const format = arr.store?.[N5_CONTAINER] === true ? 3 : formatOf(arr);
  return codecChain(arr, za, { format, v3Keys: String(key).startsWith("c"), opened: openedDocumentOf(arr), fromDocument }, signal);
}

// Where the shard index's layout was taken as the default rather than
// read (plan/shard-shape.js), how to read it from the document after all:
// once per array, when an index does not verify (fetch/chunk-source.js).
function confirmable(plan, arr, za) {
  if (!plan.sharding?.assumed) return;
  let confirmed;
  plan.confirmSharding = () => {
    if (!confirmed) {
      // Read with no read's signal: reads share it (each stops waiting on
      // its own abort: fetch/chunk-source.js). A failure is not kept: the
      // next read asks again.
      const reading = chainOf(arr, za, undefined, true).then((chain) => chain.sharding ?? { unsupported: chain.unsupported ?? "no sharding in the array's metadata" });
      reading.catch(() => {
        if (confirmed === reading) confirmed = undefined;
      });
      confirmed = reading;
    }
    return confirmed;
  };
}

// Whether read's own shard reader can fetch the array's shards.
function readableSharding(arr, za, sharding) {
  return !sharding.unsupported && typeof arr.store.getRange === "function" && Boolean(za.chunkKey) && sameShape(sharding.innerShape, za.chunkShape);
}

function sameShape(a, b) {
  return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * The plan of `arr`, made on its first read; with `dtype` (read's option),
 * the plan of its values cast to that type (typed-plan.js), made on the
 * first read that asks for it. The plan is made for every read that waits
 * on it, with no read's own signal: its requests (the array's zarr.json,
 * where read needs what zarrita does not show) stop only once every read
 * waiting on it has aborted, and each read stops waiting at its own abort
 * (shared-signal.js).
 */
export function planOf(arr, signal, dtype) {
  let making = plans.get(arr);
  if (!making || !making.shared.join(signal)) {
    const shared = joinableSignal();
    shared.join(signal);
    making = { shared, plan: makePlan(arr, shared.signal) };
    plans.set(arr, making);
    const current = making;
    making.plan.then(
      () => shared.release(),
      () => {
        shared.release();
        // A failed plan (a store error, every read waiting on it aborted) is not kept.
        if (plans.get(arr) === current) plans.delete(arr);
      },
    );
  }
  const plan = dtype === undefined || dtype === arr.dtype ? making.plan : making.plan.then((base) => typedPlanOf(arr, base, dtype));
  return untilAborted(plan, signal);
}
