// read(arr, selection, { into, signal, ... }): zarr.get's result, with each
// chunk decoded straight into its place in the output (docs/read.md).
//
// The output is filled band by band (bands.js): a band of whole output rows
// lives in wasm memory, every chunk that reaches it is decoded into it by
// the core (chunk-decoder.js: the package's codecs, N5 blocks, little-endian
// bytes copied, missing chunks filled), and the band is copied out in one
// piece. Chunks are fetched all at once, as zarrita does (or through the
// caller's createQueue), and placed as they arrive. What read does not
// decode itself goes through zarrita's own getChunk and is placed the same
// way, so read reads every array zarr.get reads.
import { arrayName, describe, messageOf, ZarrCodecError } from "../errors.js";
import { FILLS_MISSING } from "../data-types/array-extension.js";
import { cOrderStrides } from "../codecs/chunk.js";
import { wasm } from "../wasm/load.js";
import { bandsOf, layBands, LIVE_BYTES } from "./bands.js";
import { planOf } from "./plan.js";
import { readSignals } from "./abort-signal.js";
import { checkInto, detached, newOutput } from "./output.js";
import { copyDirect, fillDirect, MIN_RUN_BYTES, runsOf } from "./direct-placement.js";
import { keyUnder, shardReader } from "./fetch/shard-reader.js";
import { chunkCall } from "./fetch/store-requests.js";
import { ReadAccount } from "./fetch/request-accounts.js";
import { fetchSettings } from "./fetch/fetch-options.js";
import { withCodecContext } from "../zarrita/unknown-codec.js";
import { countRead } from "./read-counts.js";
import { chunkWhere, withWhere } from "./chunk-where.js";
import { pooledReadsOf } from "./pool-interface.js";
import { outputShape, resolveSelection } from "./selection.js";
import { allocateBand, copyBandOut, copyInPlace, describe as describePlacement, fillInPlace, freeBand } from "./wasm-placement.js";
import { give, request, tryTake } from "./scratch-budget.js";
import { hold } from "../wasm/recycle.js";

const product = (values) => values.reduce((a, b) => a * b, 1);

function allQueue() {
  const promises = [];
  return { add: (fn) => promises.push(fn()), onIdle: () => Promise.all(promises) };
}

function checkOptions(options) {
  if (options === null || typeof options !== "object") {
    throw new ZarrCodecError("INVALID_INPUT", `read: options must be an object, got ${describe(options)}`);
  }
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
  return (c, worker) => {
    done += 1;
    try {
      onProgress({ done, total, chunk: c.coords.slice(), worker, bytes: account.bytes });
    } catch (cause) {
      throw new ZarrCodecError("CALLBACK_FAILED", `read: onProgress threw: ${messageOf(cause)}`, { cause });
    }
  };
}

// Storage order of a chunk zarrita decoded: its axes by decreasing stride
// (a transposed chunk's are permuted), checked to be dense.
function storageOrder(shape, stride) {
  const order = shape.map((_, i) => i).sort((a, b) => stride[b] - stride[a] || a - b);
  let step = 1;
  for (let j = order.length - 1; j >= 0; j--) {
    const axis = order[j];
    if (shape[axis] > 1 && stride[axis] !== step) return undefined;
    step *= shape[axis];
  }
  return order;
}


/**
 * @param {object} arr a zarrita Array
 * @param {unknown} [selection]
 * @param {{into?: unknown, signal?: AbortSignal, createQueue?: () => {add: Function, onIdle: Function},
 *   useSharedArrayBuffer?: boolean, opts?: object, pool?: object,
 *   onProgress?: (progress: {done: number, total: number, chunk: number[], worker: number | null}) => void}} [options]
 * @param {() => Promise<void>} ensureReady the entry's ready()
 */
export async function readUsing(arr, selection = null, options = {}, ensureReady) {
  // The read's requests, bytes and retries (fetch/request-accounts.js:
  // diagnostics().requests()), settled however the read ends.
  const account = new ReadAccount(pathOf(arr));
  try {
    const result = await readAccounted(arr, selection, options, ensureReady, account);
    account.finish();
    return result;
  } catch (error) {
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

async function readAccounted(arr, selection, options, ensureReady, account) {
  checkOptions(options);
  const pool = options.pool === undefined ? undefined : pooledReadsOf(options.pool);
  const { signal, storeSignal } = readSignals(options);
  const requests = fetchSettings(options);
  signal?.throwIfAborted();
  await ensureReady();
  const plan = await planOf(arr, storeSignal);
  const { za } = plan;
  const axes = resolveSelection(selection, za.shape, za.chunkShape);
  const shape = outputShape(axes);
  const into = options.into;
  const storeOptions = { ...(options.opts ?? {}), signal: storeSignal, [FILLS_MISSING]: true };
  // One value (every axis an integer, or a 0-d array): read as a region of
  // one element through the same path, and returned as it is.
  const scalar = shape.length === 0;
  if (scalar && into !== undefined) {
    throw new ZarrCodecError("INVALID_INPUT", "read: a selection of integers only gives one value, which read returns as it is; into needs a region");
  }
  const region = scalar ? asRegion(axes) : axes;
  const size = product(shape);
  if (into !== undefined) checkInto(into, plan.Container, size);
  const out = into ?? newOutput(plan.Container, size, options.useSharedArrayBuffer === true && !scalar);
  const result = { data: out, shape, stride: cOrderStrides(shape) };
  if (size === 0) return result;
  const chunks = chunksOf(region);
  account.chunks = chunks.length;
  const queue = (options.createQueue ?? options.create_queue)?.() ?? allQueue();
  const fetch = chunkFetch(arr, plan, storeOptions, requests, account);
  const progress = progressOf(options.onProgress, chunks.length, account);
  // Through the pool where its workers decode the array's chain, and
  // where there is more to share out than a tile (the pool's
  // inThreadChunks): a few chunks decode here quicker than a round trip
  // to a worker, and hold this thread no longer than their decode. A
  // single value always decodes here.
  const described = pool && !scalar && chunks.length > pool.inThreadChunks && plan.elementBytes !== 0 ? await pool.chainOf(plan, arr.dtype) : undefined;
  if (pool && !described) pool.countInThread();
  if (described) await placePooledOrHere({ arr, plan, described, axes: region, chunks, out, queue, signal, fetch, progress, pool });
  else if (plan.elementBytes === 0) await placeValues(arr, plan, region, chunks, out, queue, signal, fetch, progress);
  else if (!(await placeDirectly(arr, plan, region, chunks, out, queue, signal, fetch, progress))) {
    await placeBands(arr, plan, region, chunks, out, queue, signal, fetch, progress);
  }
  if (!scalar) return result;
  return typeof out.get === "function" ? out.get(0) : out[0];
}

// A pooled read; where a worker meets a frame only the compressor
// register() replaced reads (snappy inside blosc: workers have the
// package's codecs alone), the read again on this thread, whose decoder
// hands such frames over (chunk-decoder.js), and this array's later pooled
// reads too. A chunk's progress is reported once.
async function placePooledOrHere(job) {
  const { pool, plan, progress } = job;
  const reported = new Set();
  const once = progress && ((c, worker) => {
    if (reported.has(c)) return;
    reported.add(c);
    progress(c, worker);
  });
  try {
    await pool.place({ ...job, progress: once });
  } catch (error) {
    if (error?.code !== "UNSUPPORTED_CODEC" || !plan.decoder?.reopen) throw error;
    plan.pool = Promise.resolve({ unsupported: "a frame only the compressor register() replaced reads" });
    const { arr, axes, chunks, out, queue, signal, fetch } = job;
    await placeBands(arr, plan, axes, chunks, out, queue, signal, fetch, once);
  }
}

// A scalar selection as a region: its last axis kept (of one element),
// or for a 0-d array one axis of one element that no chunk key shows.
function asRegion(axes) {
  if (axes.length === 0) {
    return [{ dropped: false, count: 1, virtual: true, chunks: [{ chunk: 0, from: 0, count: 1, step: 1, out: 0 }] }];
  }
  return axes.map((a, i) => (i === axes.length - 1 ? { ...a, dropped: false } : a));
}

// How read gets a chunk's stored bytes (undefined: missing): through
// read's own shard reader for sharded arrays (one per array, which keeps
// its indexes and coalesces ranges: fetch/), else zarrita's own fetch;
// both through the store-call gateway (fetch/store-requests.js: retried,
// counted for the read's `account`).
function chunkFetch(arr, plan, storeOptions, requests, account) {
  const fills = plan.elementBytes === 0 ? plan.valuesFill !== undefined : plan.fill !== undefined;
  if (!plan.decoder && !(fills && plan.za.decode)) return undefined;
  if (plan.sharding) {
    plan.shards ??= shardReader(arr, plan.za, plan.sharding);
    const reader = plan.shards;
    if (plan.decoder) return (coords) => reader.read(coords, storeOptions, requests, account);
    // Inner chunks fetched together are views of one request's bytes;
    // zarrita's codecs (vlen-utf8's, say) read a chunk's buffer from 0.
    return async (coords) => ownBuffer(await reader.read(coords, storeOptions, requests, account));
  }
  if (!plan.za.chunkBytes) return undefined;
  const keyOf = (coords) => (plan.za.chunkKey ? keyUnder(arr.path, plan.za.chunkKey(coords)) : `chunk [${coords.join(", ")}] of ${arr.path}`);
  return (coords) => chunkCall(keyOf(coords), account, requests.retry, storeOptions.signal, () => plan.za.chunkBytes(coords, storeOptions));
}

const ownBuffer = (bytes) => (bytes && (bytes.byteOffset !== 0 || bytes.byteLength !== bytes.buffer.byteLength) ? bytes.slice() : bytes);

// Every chunk the selection touches: its coordinates and, per axis, what
// it gives (selection.js).
function chunksOf(axes) {
  const out = [];
  const index = new Array(axes.length).fill(0);
  if (axes.some((a) => a.chunks.length === 0)) return out;
  while (true) {
    const coords = [];
    axes.forEach((a, i) => {
      if (!a.virtual) coords.push(a.chunks[index[i]].chunk);
    });
    out.push({ coords, mapping: axes.map((a, i) => a.chunks[index[i]]) });
    let i = axes.length - 1;
    while (i >= 0 && ++index[i] === axes[i].chunks.length) index[i--] = 0;
    if (i < 0) return out;
  }
}

// Outputs of JavaScript values (zarrita's Arrays: strings, bytes): each
// chunk decoded by zarrita, its values placed one by one. A missing chunk
// is filled here (each element its own copy of bytes), in proportion to
// what the selection takes of it.
async function placeValues(arr, plan, axes, chunks, out, queue, signal, fetch, progress) {
  const shape = axes.filter((a) => !a.dropped).map((a) => a.count);
  const outStride = cOrderStrides(shape);
  // Each kept axis's stride in the output (0 where dropped).
  const axisStride = [];
  for (let i = 0, o = 0; i < axes.length; i++) axisStride.push(axes[i].dropped ? 0 : outStride[o++]);
  const fill = plan.valuesFill;
  const fillValue = fill?.bytes ? () => fill.bytes.slice() : () => fill?.value;
  let error;
  let fail;
  const failure = new Promise((_, reject) => {
    fail = reject;
  });
  failure.catch(() => {});
  const decoded = async (c) => {
    if (fetch && fill && plan.za.decode) {
      const bytes = await fetch(c.coords);
      if (bytes === undefined || bytes === null) return undefined;
      countRead("viaZarrita");
      return plan.za.decode(bytes);
    }
    countRead("viaZarrita");
    try {
      return await plan.za.getChunk(c.coords, { signal });
    } catch (error) {
      throw withCodecContext(error, "read", arrayName(arr.path, arr.store));
    }
  };
  for (const c of chunks) {
    queue.add(async () => {
      try {
        if (error) return;
        signal?.throwIfAborted();
        const chunk = await decoded(c);
        if (error) return;
        signal?.throwIfAborted();
        let get;
        let stride;
        if (chunk === undefined) {
          countRead("filled");
          get = fillValue;
          stride = axes.map(() => 0);
        } else {
          const elements = product(plan.za.chunkShape);
          if (!Array.isArray(chunk.data) || chunk.data.length !== elements) {
            // zarr.get would copy such a chunk into the Array as if it were
            // values (bytes, a buffer and offsets): nothing a user could mean.
            throw new ZarrCodecError(
              "INVALID_METADATA",
              `${chunkWhere(arr, plan.za, c.coords)}: its codecs decoded it into ${describe(chunk.data)}, not the Array of ${elements} values its data type ${describe(arr.dtype)} needs`,
            );
          }
          get = (i) => chunk.data[i];
          stride = axes.map((a, i) => (a.virtual ? 0 : chunk.stride[i - (axes[0].virtual ? 1 : 0)]));
        }
        if (!Array.isArray(out)) throw detached();
        const walk = (axis, src, dst) => {
          if (axis === axes.length) {
            out[dst] = get(src);
            return;
          }
          const m = c.mapping[axis];
          for (let k = 0; k < m.count; k++) {
            walk(axis + 1, src + (m.from + k * m.step) * stride[axis], dst + (m.out + k) * axisStride[axis]);
          }
        };
        walk(0, 0, 0);
        progress?.(c, null);
      } catch (e) {
        if (!error) fail((error = e));
      }
    });
  }
  await Promise.race([queue.onIdle(), failure]);
  if (error) throw error;
  signal?.throwIfAborted();
}

/**
 * Chunks stored as the output holds them, placed from JavaScript with one
 * copy per contiguous run (direct-placement.js), where every run is long
 * enough; false (nothing done) where the bands do better.
 */
async function placeDirectly(arr, plan, axes, chunks, out, queue, signal, fetch, progress) {
  if (!plan.decoder?.direct || plan.order !== null || axes.some((a) => a.virtual)) return false;
  const eb = plan.elementBytes;
  const shape = axes.filter((a) => !a.dropped).map((a) => a.count);
  const outStride = cOrderStrides(shape);
  const strides = [];
  for (let i = 0, o = 0; i < axes.length; i++) strides.push(axes[i].dropped ? 0 : outStride[o++] * eb);
  const extents = plan.za.chunkShape;
  for (const c of chunks) {
    c.layout = runsOf(c.mapping, extents, strides, eb);
    if (c.layout.run < MIN_RUN_BYTES) return false;
  }
  const chunkBytes = product(extents) * eb;
  const outBytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  const outLength = outBytes.byteLength;
  let error;
  let fail;
  const failure = new Promise((_, reject) => {
    fail = reject;
  });
  failure.catch(() => {});
  for (const c of chunks) {
    queue.add(async () => {
      try {
        if (error) return;
        signal?.throwIfAborted();
        const bytes = await fetch(c.coords);
        if (error) return;
        signal?.throwIfAborted();
        if (outBytes.byteLength !== outLength) throw detached();
        if (bytes === undefined || bytes === null) {
          countRead("filled");
          fillDirect(plan.fill, c.layout, outBytes);
        } else {
          countRead("copied");
          copyDirect(bytes, chunkBytes, c.layout, outBytes, () => chunkWhere(arr, plan.za, c.coords));
        }
        progress?.(c, null);
      } catch (e) {
        if (!error) fail((error = e));
      }
    });
  }
  await Promise.race([queue.onIdle(), failure]);
  if (error) throw error;
  signal?.throwIfAborted();
  return true;
}

async function placeBands(arr, plan, axes, chunks, out, queue, signal, fetch, progress) {
  const module = wasm();
  const { za, decoder } = plan;
  const eb = plan.elementBytes;
  const rank = axes.length;
  const shape = axes.filter((a) => !a.dropped).map((a) => a.count);
  const outBytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  const outLength = outBytes.byteLength;
  // Byte strides of the output, per axis of the array (0 where dropped).
  const outStride = cOrderStrides(shape);
  const strideBytes = [];
  let first = -1;
  for (let i = 0, o = 0; i < rank; i++) {
    if (axes[i].dropped) strideBytes.push(0);
    else {
      if (first < 0) first = i;
      strideBytes.push(outStride[o++] * eb);
    }
  }
  const rowBytes = strideBytes[first];
  const bands = layBands(axes[first].chunks, rowBytes);
  for (const c of chunks) {
    const m = c.mapping[first];
    c.bands = bandsOf(bands, m.out, m.out + m.count);
    c.usesLeft = c.bands.length;
    for (const b of c.bands) bands[b].chunksLeft += 1;
  }

  let failed;
  // The first failure ends the read at once (as zarr.get's Promise.all
  // does); chunks still on their way find `failed` set and stop.
  let fail;
  const failure = new Promise((_, reject) => {
    fail = reject;
  });
  failure.catch(() => {});
  const setFailed = (error) => {
    if (failed) return;
    failed = { error };
    fail(error);
  };
  let alive = 0;
  let next = 0;
  let bandsLeft = bands.length;
  let allPlaced;
  const placedAll = new Promise((resolve) => {
    allPlaced = resolve;
  });
  if (bandsLeft === 0) allPlaced();
  // The band waiting for its bytes of the realm's budget (scratch-budget.js).
  let cancelWait;

  // The placement of chunk `c` into band `band`, written to wasm memory.
  function placement(c, band, order) {
    const descAxes = new Array(rank);
    let base = 0;
    for (let i = 0; i < rank; i++) {
      const m = c.mapping[i];
      let { from, count, out: at } = m;
      if (i === first) {
        const lo = Math.max(at, band.r0);
        const hi = Math.min(at + count, band.r1);
        from += (lo - at) * m.step;
        count = Math.max(0, hi - lo);
        at = lo - band.r0;
      }
      base += at * strideBytes[i];
      descAxes[i] = { extent: axes[i].virtual ? 1 : za.chunkShape[i], from, count, step: m.step, stride: strideBytes[i] };
    }
    return describePlacement(module, eb, base, band.bytes, order ? order.map((i) => descAxes[i]) : descAxes);
  }

  function place(c, band) {
    if (c.reopening) {
      c.reopening.push(band);
      return;
    }
    // Messages name the chunk; its key is made only for one.
    const where = () => chunkWhere(arr, za, c.coords);
    try {
      if (c.kind === "fill") {
        fillInPlace(module, plan.fill, placement(c, band, null), band.at, where);
      } else if (c.kind === "decoded") {
        decoder.place(c.opened, placement(c, band, plan.order), band.at, where);
      } else {
        const { data, shape: chunkShape, stride } = c.opened;
        const order = axes[0].virtual ? null : storageOrder(chunkShape, stride);
        const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
        if ((!order && !axes[0].virtual) || chunkShape.some((d, i) => d !== za.chunkShape[i])) {
          throw new ZarrCodecError("INVALID_INPUT", `${where()}: zarrita gave a chunk of shape ${JSON.stringify(chunkShape)} and strides ${JSON.stringify(stride)}, not a dense chunk of shape ${JSON.stringify(za.chunkShape)}`);
        }
        copyInPlace(module, bytes, placement(c, band, order && order.length ? order : null), band.at, where);
      }
    } catch (error) {
      if (c.kind === "decoded" && decoder.reopen && error?.code === "UNSUPPORTED_CODEC") {
        reopen(c, band, error);
        return;
      }
      throw withWhere(error, where());
    }
    band.chunksLeft -= 1;
    if (--c.usesLeft === 0) {
      c.opened = undefined;
      progress?.(c, null);
    }
  }

  // A frame the wasm chain refused as one it does not take (snappy inside
  // blosc) is decoded again, asynchronously, by the compressor register()
  // replaced (chunk-decoder.js), then placed into each band that reached
  // for it meanwhile. Nothing of it was placed: the chain decodes a frame
  // before it places any of it.
  const reopenings = new Set();
  function reopen(c, band, refusal) {
    c.reopening = [band];
    const task = (async () => {
      const opened = await decoder.reopen(c.opened, refusal);
      if (failed) return;
      signal?.throwIfAborted();
      const waiting = c.reopening;
      c.opened = opened;
      c.reopening = undefined;
      for (const b of waiting) place(c, b);
      pump();
    })()
      .catch((error) => setFailed(withWhere(error, chunkWhere(arr, za, c.coords))))
      .finally(() => reopenings.delete(task));
    reopenings.add(task);
  }

  // Bands that are complete are copied out and freed; then as many as
  // fit come alive, taking the chunks that were waiting for them.
  function pump() {
    let progress = true;
    while (progress) {
      progress = false;
      for (let i = 0; i < next; i++) {
        const band = bands[i];
        if (band.state !== "alive" || band.chunksLeft > 0) continue;
        // A transferred `into` has no bytes left to write to.
        if (outBytes.byteLength !== outLength) throw detached();
        copyBandOut(module, band.at, band.bytes, outBytes, band.r0 * rowBytes);
        retire(band);
        if (--bandsLeft === 0) allPlaced();
        progress = true;
      }
      while (!cancelWait && next < bands.length && (alive === 0 || alive + bands[next].bytes <= LIVE_BYTES)) {
        const band = bands[next];
        if (!tryTake(band.bytes)) {
          // Its turn in the budget: the band comes alive when granted.
          cancelWait = request(band.bytes, {
            signal,
            granted() {
              cancelWait = undefined;
              if (failed) {
                give(band.bytes);
                return;
              }
              try {
                next += 1;
                bringAlive(band);
                pump();
              } catch (error) {
                setFailed(error);
              }
            },
            aborted(reason) {
              cancelWait = undefined;
              setFailed(reason);
            },
          });
          // On to the bands completed meanwhile: freeing them is what
          // lets this one (or another read's) through.
          break;
        }
        next += 1;
        bringAlive(band);
        progress = true;
      }
    }
  }

  // A band whose bytes were taken from the budget: allocated, and the
  // chunks that arrived before it placed into it.
  function bringAlive(band) {
    try {
      band.at = allocateBand(module, band.bytes);
    } catch (error) {
      give(band.bytes);
      band.state = "done";
      throw error;
    }
    band.state = "alive";
    alive += band.bytes;
    const waiting = band.waiting;
    band.waiting = [];
    for (const c of waiting) place(c, band);
  }

  // A band freed and its bytes given back.
  function retire(band) {
    freeBand(module, band.at);
    band.state = "done";
    alive -= band.bytes;
    give(band.bytes);
  }

  function deliver(c) {
    countRead(c.kind === "fill" ? "filled" : c.kind === "decoded" ? (decoder.kind === "codec" ? "decoded" : decoder.kind === "n5" ? "n5" : "copied") : "viaZarrita");
    if (c.kind === "decoded" && (decoder.inWasm || c.opened?.compressed)) countRead("decompressed");
    for (const b of c.bands) {
      const band = bands[b];
      if (band.state === "alive") place(c, band);
      else band.waiting.push(c);
    }
    pump();
  }

  for (const c of chunks) {
    queue.add(async () => {
      try {
        if (failed) return;
        signal?.throwIfAborted();
        if (fetch) {
          // read's own fetch: missing chunks filled here, the others decoded
          // by read's decoder or else by zarrita's.
          const bytes = await fetch(c.coords);
          if (failed) return;
          signal?.throwIfAborted();
          if (bytes === undefined || bytes === null) c.kind = "fill";
          else if (decoder) {
            try {
              c.opened = await decoder.open(bytes);
            } catch (error) {
              throw withWhere(error, chunkWhere(arr, za, c.coords));
            }
            c.kind = "decoded";
          } else {
            try {
              c.opened = await za.decode(bytes);
            } catch (error) {
              throw withCodecContext(error, "read", arrayName(arr.path, arr.store));
            }
            c.kind = "zarrita";
          }
        } else {
          try {
            c.opened = await za.getChunk(c.coords, { signal });
          } catch (error) {
            throw withCodecContext(error, "read", arrayName(arr.path, arr.store));
          }
          c.kind = "zarrita";
        }
        if (failed) return;
        signal?.throwIfAborted();
        deliver(c);
      } catch (error) {
        setFailed(error);
      }
    });
  }
  // The instance is held (not replaced: wasm/recycle.js) while its memory
  // holds this read's bands: from here, with no await since `module`.
  const release = hold();
  try {
    pump(); // the first bands come alive before any chunk arrives
    await Promise.race([queue.onIdle(), failure]);
    while (reopenings.size > 0 && !failed) await Promise.race([Promise.all(reopenings), failure]);
    if (failed) throw failed.error;
    // Every chunk has arrived; bands still waiting for their bytes of the
    // budget are placed as they get them.
    await Promise.race([placedAll, failure]);
    if (failed) throw failed.error;
    signal?.throwIfAborted();
  } catch (error) {
    setFailed(error);
    throw failed.error;
  } finally {
    cancelWait?.();
    cancelWait = undefined;
    for (const band of bands) {
      if (band.state === "alive") retire(band);
      band.state = "done";
    }
    release();
  }
}
