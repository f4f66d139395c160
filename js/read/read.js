// read(arr, selection, { into, signal, ... }): zarr.get's result, with each
// chunk decoded straight into its place in the output (docs/read.md).
//
// A read goes through the stages in order, each in its own folder:
//   selection/  the selection resolved against the array: the output's
//               shape, and the chunks it touches with what each gives
//   plan/       what read works out once per opened array: the codec chain,
//               the fill, how a chunk is decoded, the shard layout
//   fetch/      each chunk's stored bytes: requests, shard indexes kept,
//               ranges coalesced, servers without Range
//   decode/     each chunk opened by read's own decoder (or zarrita's)
//   place/      each chunk written into its place: plain copies, bands of
//               wasm memory, or values one by one
//   cache/      with the `cache` option, chunks kept decoded across reads:
//               the fetch and decode stages of a chunk it does not have
// run-chunks.js drives every chunk through fetch, decode and place once;
// a pool (js/pool/, through pool-interface.js) decodes and places in its
// workers the chunks the fetch stage gives it.
import { describe, messageOf, ZarrCodecError } from "../errors.js";
import { FILLS_MISSING } from "../data-types/array-extension.js";
import { cOrderStrides } from "../codecs/chunk.js";
import { readSignals } from "./abort-signal.js";
import { failedChunks } from "./failed-chunks.js";
import { pooledReadsOf } from "./pool-interface.js";
import { allQueue, firstFailure, runChunks } from "./run-chunks.js";
import { resolveSelection, outputShape } from "./selection/selection.js";
import { asRegion, chunksOf } from "./selection/chunks.js";
import { planOf } from "./plan/plan.js";
import { checkDtype } from "./plan/typed-plan.js";
import { chunkSource } from "./fetch/chunk-source.js";
import { fetchSettings } from "./fetch/fetch-options.js";
import { SCHEDULED_BY } from "./fetch/scheduling/read-scheduler.js";
import { ReadAccount } from "./fetch/requests/request-accounts.js";
import { decodeStage } from "./decode/decode-stage.js";
import { checkInto, newOutput } from "./place/output.js";
import { bandPlacer } from "./place/band-placer.js";
import { directPlacer } from "./place/direct-placer.js";
import { valuePlacer } from "./place/value-placer.js";
import { chunkStoreOf } from "./cache/chunk-cache.js";
import { cachedChunks } from "./cache/cached-chunk.js";

const product = (values) => values.reduce((a, b) => a * b, 1);

function checkOptions(options, arr) {
  if (options === null || typeof options !== "object") {
    throw new ZarrCodecError("INVALID_INPUT", `read: options must be an object, got ${describe(options)}`);
  }
  checkDtype(options.dtype, arr);
  if (options.onProgress !== undefined && typeof options.onProgress !== "function") {
    throw new ZarrCodecError("INVALID_INPUT", `read: onProgress must be a function, got ${describe(options.onProgress)}`);
  }
}

// onProgress({ done, total, chunk, worker, bytes }) once per chunk placed
// (bytes: what the read's store calls returned so far): a call that throws
// fails the read (CALLBACK_FAILED, its error as the cause).
function progressOf(onProgress, total, account) {
  if (onProgress === undefined) return undefined;
  let done = 0;
  return (c, worker = null) => {
    done += 1;
    try {
      onProgress({ done, total, chunk: c.coords.slice(), worker, bytes: account.bytes });
    } catch (cause) {
      throw new ZarrCodecError("CALLBACK_FAILED", `read: onProgress threw: ${messageOf(cause)}`, { cause });
    }
  };
}

/**
 * @param {object} arr a zarrita Array
 * @param {unknown} [selection]
 * @param {{into?: unknown, signal?: AbortSignal, createQueue?: () => {add: Function, onIdle: Function},
 *   useSharedArrayBuffer?: boolean, opts?: object, pool?: object, chunkErrors?: "reject" | "fill", cache?: object,
 *   onProgress?: (progress: {done: number, total: number, chunk: number[], worker: number | null, bytes: number}) => void}} [options]
 * @param {() => Promise<void>} ensureReady the entry's ready()
 */
export async function readUsing(arr, selection = null, options = {}, ensureReady) {
  // The read's requests, bytes and retries (fetch/requests/request-accounts.js:
  // diagnostics().requests()), settled however the read ends.
  const account = new ReadAccount(pathOf(arr));
  // Aborted when the read fails: the requests it alone waits on stop (a
  // retry's backoff, a range not yet sent); those other reads wait on too
  // go on for them (shared-signal.js).
  const failed = typeof AbortController === "function" ? new AbortController() : undefined;
  try {
    const result = await readAccounted(arr, selection, options, ensureReady, account, failed?.signal);
    account.finish();
    return result;
  } catch (error) {
    failed?.abort(error);
    account.finish(error);
    throw error;
  }
}

function pathOf(arr) {
  try {
    return typeof arr?.path === "string" ? arr.path : "";
  } catch {
    return "";
  }
}

async function readAccounted(arr, selection, options, ensureReady, account, failed) {
  checkOptions(options, arr);
  const pool = options.pool === undefined ? undefined : pooledReadsOf(options.pool);
  const cache = options.cache === undefined ? undefined : chunkStoreOf(options.cache);
  const { signal, storeSignal } = readSignals(options, failed);
  const requests = fetchSettings(options);
  const failures = failedChunks(options.chunkErrors, signal);
  signal?.throwIfAborted();
  await ensureReady();
  // plan: once per opened array.
  const plan = await planOf(arr, signal, options.dtype);
  const { za } = plan;
  if (failures && plan.fillRefusal) failures.fillRefused = true;
  // selection: the output's shape and the chunks it touches.
  const axes = resolveSelection(selection, za.shape, za.chunkShape);
  const shape = outputShape(axes);
  const into = options.into;
  // One value (every axis an integer, or a 0-d array): read as a region of
  // one element through the same path, and returned as it is. Its chunk's
  // failure is the read's: there is no viewport to keep.
  const scalar = shape.length === 0;
  if (scalar && into !== undefined) {
    throw new ZarrCodecError("INVALID_INPUT", "read: a selection of integers only gives one value, which read returns as it is; into needs a region");
  }
  const region = scalar ? asRegion(axes) : axes;
  const size = product(shape);
  if (into !== undefined) checkInto(into, plan.Container, size);
  const out = into ?? newOutput(plan.Container, size, options.useSharedArrayBuffer === true && !scalar);
  const result = { data: out, shape, stride: cOrderStrides(shape) };
  if (failures && !scalar) result.failedChunks = failures.list;
  if (size === 0) return result;
  const chunks = chunksOf(region);
  account.chunks = chunks.length;
  const queue = (options.createQueue ?? options.create_queue)?.() ?? allQueue();
  const progress = progressOf(options.onProgress, chunks.length, account);
  const placed = progress ?? (() => {});
  // fetch: where each chunk's stored bytes come from.
  const storeOptions = { ...(options.opts ?? {}), signal: storeSignal, [FILLS_MISSING]: true };
  // Each store call of the read holds a slot of its scheduler already.
  if (requests.scheduler) storeOptions[SCHEDULED_BY] = requests.scheduler;
  const source = chunkSource(arr, plan, storeOptions, requests, signal, account);
  const chunkFailures = scalar ? undefined : failures;
  // Through the pool where its workers decode the array's chain, and
  // where there is more to share out than a tile (the pool's
  // inThreadChunks): a few chunks decode here quicker than a round trip
  // to a worker, and hold this thread no longer than their decode. A
  // single value always decodes here.
  const described = pool && source.fetchBytes && !scalar && chunks.length > pool.inThreadChunks && plan.elementBytes !== 0 ? await pool.chainOf(plan, arr.dtype) : undefined;
  if (pool && !described) pool.countInThread();
  const job = { arr, plan, axes: region, chunks, out, queue, signal, source, placed, failures: chunkFailures, priority: requests.priority };
  if (cache) await placeCached({ ...job, cache, described, pool });
  else if (described) await placePooledOrHere({ ...job, described, pool });
  else await placeHere(job);
  if (!scalar) return result;
  return typeof out.get === "function" ? out.get(0) : out[0];
}

// The place stage of a read on this thread: values one by one, plain
// copies where every run is long enough, else the bands; with the read's
// first failure, which the placer and the driver share.
function placeStage({ arr, plan, axes, chunks, out, signal, placed, failures }, directOptions) {
  const ending = firstFailure();
  const context = { arr, plan, axes, chunks, out, signal, placed, failures, ending };
  const placer = plan.elementBytes === 0 ? valuePlacer(context) : directPlacer(context, directOptions) ?? bandPlacer(context);
  return { placer, ending };
}

/** A read's chunks through the stages on this thread. */
function placeHere(job) {
  const { arr, plan, chunks, queue, signal, source, failures } = job;
  const { placer, ending } = placeStage(job);
  const decode = decodeStage(arr, plan, { direct: placer.direct === true });
  return runChunks({ chunks, queue, signal, source, decode, placer, failures, ending });
}

// With a chunk cache (cache/): the fetch and decode stages are the cache's
// (a chunk it does not have fetched once for the reads that want it,
// decoded whole and kept), and every chunk is placed from it on this
// thread, as zarrita's decoded chunks are. Where the read would go to the
// pool, its workers decode the misses.
async function placeCached({ cache, described, pool, ...job }) {
  const { arr, plan, chunks, queue, signal, source, failures } = job;
  const misses = described ? await pool.wholeChunks({ arr, plan, described, priority: job.priority }) : undefined;
  const cachedChunk = cachedChunks({ store: cache, arr, plan, fetch: source.fetchBytes, signal, priority: job.priority, decodeMiss: misses?.decode });
  // Chunks read's decoder decoded whole are in C order: copied straight
  // into place where the runs are long enough.
  const { placer, ending } = placeStage(job, { wholeChunks: true });
  // fromCache: counted by the cache (diagnostics().reads()), and values
  // that are the cache's (bytes placed as copies).
  const fromCache = { get: (c) => cachedChunk(c.coords) };
  const decode = async (c, chunk) => {
    if (chunk === undefined) return { kind: "fill", fromCache: true };
    return placer.direct ? { kind: "copied", bytes: chunk.data, fromCache: true } : { kind: "zarrita", chunk, fromCache: true };
  };
  try {
    await runChunks({ chunks, queue, signal, source: fromCache, decode, placer, failures, ending });
  } finally {
    misses?.end();
  }
}

// A pooled read: the fetch stage here, decode and place in the workers.
// Where a worker meets a frame only the compressor register() replaced
// reads (snappy inside blosc: workers have the package's codecs alone),
// the read again on this thread, whose decoder hands such frames over
// (chunk-decoder.js), and this array's later pooled reads too. A chunk's
// progress is reported once.
async function placePooledOrHere(job) {
  const { pool, plan, placed, source, failures } = job;
  const reported = new Set();
  const once = (c, worker = null) => {
    if (reported.has(c)) return;
    reported.add(c);
    placed(c, worker);
  };
  // A chunk whose fetch fails under chunkErrors: "fill" goes to the
  // workers as a missing one.
  const fetch = async (coords, c) => {
    try {
      return await source.fetchBytes(coords);
    } catch (error) {
      if (!failures?.absorb(c, error)) throw error;
      return undefined;
    }
  };
  try {
    await pool.place({ ...job, fetch, progress: once });
  } catch (error) {
    if (error?.code !== "UNSUPPORTED_CODEC" || !plan.decoder?.reopen) throw error;
    plan.pool = Promise.resolve({ unsupported: "a frame only the compressor register() replaced reads" });
    await placeHere({ ...job, placed: once });
  }
}

