// One read through a pool (read(arr, selection, { pool })): the calling
// thread fetches each chunk (as read does without a pool), copies its
// bytes and transfers the copy to a worker, which decodes it into its box
// (box.js) and then either writes the box into the output itself, where
// the output is on a SharedArrayBuffer, or transfers the box back for the
// calling thread to place with one copy. Missing chunks are filled by the
// workers the same way.
//
// Settling: the read resolves when every chunk is placed. It fails at the
// first error (a chunk's, a worker's death, an abort, a throwing
// onProgress): its queued jobs are dropped, its workers told, and with a
// shared output it first raises the read's abort flag and waits until no
// worker is writing (worker-side.js checks the flag after registering as
// a writer), so nothing is written into the output once the read rejected.
import { hasOwn, ZarrCodecError } from "../errors.js";
import { N5_BLOCK } from "../n5/n5-default-codec.js";
import { asBytes } from "../read/decode/chunk-decoder.js";
import { chunkWhere } from "../read/chunk-where.js";
import { abortReason, watchAbort } from "../read/abort-signal.js";
import { detached, outputStrides } from "../read/place/output.js";
import { countRead, decodedPath } from "../read/read-counts.js";
import { bandBoxOf, boxOf, copyRuns } from "./box.js";
import { chainIdOf, rebuiltError } from "./pool-messages.js";
import { workerChainOf } from "./chain.js";
import { wholeChunkDecoder } from "./pooled-whole-chunks.js";

const ABORTED = 0;
let nextRead = 1;

const isShared = (buffer) => typeof SharedArrayBuffer === "function" && buffer instanceof SharedArrayBuffer;

/**
 * The array's WorkerChain, or undefined where a worker cannot decode its
 * chunks (then the read runs on the calling thread). Worked out once per array.
 */
async function pooledChainOf(plan, dataType) {
  plan.pool ??= workerChainOf(plan, dataType);
  const described = await plan.pool;
  return described.unsupported ? undefined : described;
}

/**
 * The pool's side of a read, as read asks for it (read/pool-interface.js):
 * `internal` is the pool's scheduling (read-pool.js).
 * @returns {import("../read/pool-interface.js").PooledReads}
 */
export function pooledReads(internal) {
  return {
    checkOpen: () => internal.checkOpen(),
    get inThreadChunks() {
      return internal.inThreadChunks;
    },
    countInThread: () => internal.countInThread(),
    chainOf: pooledChainOf,
    place: (job) => placePooled({ ...job, internal }),
    wholeChunks: (job) => wholeChunkDecoder({ ...job, internal }),
  };
}

// Until no live worker is writing into the read's output.
async function writersGone(state, slots, live) {
  for (const slot of slots) {
    while (live(slot) && Atomics.load(state, 1 + slot.index) !== 0) {
      if (typeof Atomics.waitAsync === "function") {
        const waited = Atomics.waitAsync(state, 1 + slot.index, 1, 50);
        if (waited.async) await waited.value;
      } else {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
  }
}

/**
 * @param {object} r
 * @param {object} r.arr, r.plan, r.described, r.axes, r.chunks, r.out, r.queue, r.signal, r.fetch
 * @param {((chunk: object, worker: number | null) => void) | undefined} r.progress
 * @param {{absorb(c: object, error: unknown): boolean} | undefined} r.failures
 *   chunkErrors: "fill" (read/failed-chunks.js): a chunk a worker fails to
 *   decode is filled instead, and reported
 * @param {object} r.internal the pool's internals (read-pool.js)
 */
async function placePooled({ arr, plan, described, axes, chunks, out, queue, signal, fetch, progress, failures, priority, internal }) {
  await internal.ready();
  const { za } = plan;
  const eb = plan.elementBytes;
  const strideBytes = outputStrides(axes, eb);
  const outBytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  const outLength = outBytes.byteLength;
  const shared = isShared(out.buffer);
  const state = shared ? new Int32Array(new SharedArrayBuffer(4 * (1 + internal.size))) : null;

  let failed;
  let fail;
  let finish;
  const failure = new Promise((_, reject) => {
    fail = reject;
  });
  failure.catch(() => {});
  const finished = new Promise((resolve) => {
    finish = resolve;
  });
  let placed = 0;
  const total = chunks.length;

  const task = {
    id: nextRead++,
    // The read's priority (read's option): the pool posts the jobs of the
    // highest first, as a scheduler sends requests (read-pool.js).
    priority: priority ?? 0,
    chainId: chainIdOf(plan),
    described,
    shared: shared ? { out: { buffer: out.buffer, byteOffset: out.byteOffset, byteLength: out.byteLength }, state: state.buffer } : null,
    onReply(job, reply, worker) {
      if (failed) return;
      try {
        if (reply.type === "failed") {
          const error = rebuiltError(reply.error);
          // Under chunkErrors: "fill" each job holds one chunk (no bands):
          // the worker wrote nothing of it, and fills it now.
          const [part] = job.parts;
          if (job.parts.length !== 1 || part.path === "filled" || !failures?.absorb(part.chunk, error)) throw error;
          internal.submit(task, { ...job, parts: [{ ...part, source: null, at: undefined, length: 0, n5Block: undefined, path: "filled" }] });
          return;
        }
        if (reply.type !== "done") return;
        if (reply.box) {
          // A transferred `into` has no bytes left to write to.
          if (outBytes.byteLength !== outLength) throw detached();
          copyRuns(new Uint8Array(reply.box, 0, job.box.bytes), outBytes, job.box);
        } else {
          // Pairs with the worker's release of its writer flag: what it
          // wrote is visible here.
          Atomics.load(state, 1 + worker);
        }
        for (const part of job.parts) {
          countRead(part.path);
          if (part.path !== "filled" && described.inWasm) countRead("decompressed");
          progress?.(part.chunk, worker);
          if (++placed === total) finish();
        }
      } catch (error) {
        setFailed(error);
      }
    },
    onWorkerFailed(job, reason) {
      setFailed(new ZarrCodecError("WORKER_FAILED", `${job.where}: the pool's worker decoding it failed (${reason}); the pool starts another for later reads`));
    },
    onClosed() {
      setFailed(new ZarrCodecError("WORKER_FAILED", "read: the read pool was closed while this read used it"));
    },
  };

  function setFailed(error) {
    if (failed) return;
    failed = { error };
    if (state) Atomics.store(state, ABORTED, 1);
    internal.end(task);
    fail(error);
  }

  const stopWatching = watchAbort(signal, () => setFailed(abortReason(signal)));
  internal.begin(task);
  try {
    // Bands of whole output rows where there are enough of them to share
    // out: a band's chunks decode into one box, which lands with one copy;
    // else a box per chunk.
    const bands = failures ? undefined : bandsOf(chunks, axes, strideBytes, internal.size);
    const pending = new Map(); // band -> the parts still to arrive
    for (const c of chunks) {
      queue.add(async () => {
        try {
          if (failed) return;
          signal?.throwIfAborted();
          const bytes = await fetch(c.coords, c);
          if (failed) return;
          signal?.throwIfAborted();
          const t0 = performance.now();
          const where = chunkWhere(arr, plan, c.coords);
          const missing = bytes === undefined || bytes === null;
          const n5Block = !missing && hasOwn(bytes, N5_BLOCK) ? { key: bytes[N5_BLOCK]?.key } : undefined;
          const source = missing ? null : asBytes(bytes, "the store", " for a chunk");
          const path = missing ? "filled" : decodedPath(described.kind);
          const part = { source, length: source?.byteLength ?? 0, where, n5Block, chunk: c, path };
          if (bands) {
            const band = bands.of(c);
            const parts = pending.get(band) ?? [];
            pending.set(band, parts);
            parts.push(part);
            if (parts.length === band.chunks.length) {
              const { box, parts: layout } = bandBoxOf(parts.map((p) => p.chunk), bands.first, band.r0, band.r1, za.chunkShape, strideBytes, bands.rowBytes);
              parts.forEach((p, i) => Object.assign(p, layout[i]));
              const where = parts.length === 1 ? parts[0].where : `${parts[0].where} and the ${parts.length - 1} other chunks of its band`;
              internal.submit(task, { box, parts, where });
            }
          } else {
            const box = boxOf(c, axes, za.chunkShape, strideBytes, eb);
            internal.submit(task, { box, parts: [{ ...part, desc: box.desc, offset: 0 }], where });
          }
          internal.countCalling(performance.now() - t0);
        } catch (error) {
          setFailed(error);
        }
      });
    }
    await Promise.race([queue.onIdle(), failure]);
    if (total > 0) await Promise.race([finished, failure]);
    if (failed) throw failed.error;
    signal?.throwIfAborted();
  } catch (error) {
    setFailed(error);
    if (state) await writersGone(state, task.slots, internal.live);
    throw failed.error;
  } finally {
    stopWatching();
    internal.end(task);
  }
}

// Bands are no larger than this: a worker holds one in its wasm memory.
const MAX_BAND_BYTES = 32 << 20;

/**
 * The read's bands, where they are worth it: one per row of chunks along
 * the first kept axis, at least two for each worker (so that every worker
 * has work while the others' bands arrive), none larger than
 * MAX_BAND_BYTES; else undefined (a box per chunk).
 */
function bandsOf(chunks, axes, strideBytes, workers) {
  const first = axes.findIndex((a) => !a.dropped);
  if (first < 0) return undefined;
  const rowBytes = strideBytes[first];
  const rows = axes[first].chunks;
  if (rows.length < 2 * workers || rows.some((r) => r.count * rowBytes > MAX_BAND_BYTES)) return undefined;
  const byChunk = new Map(rows.map((r) => [r.chunk, { r0: r.out, r1: r.out + r.count, chunks: [] }]));
  for (const c of chunks) byChunk.get(c.mapping[first].chunk).chunks.push(c);
  return { first, rowBytes, of: (c) => byChunk.get(c.mapping[first].chunk) };
}
