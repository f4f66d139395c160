// A pool's workers decoding whole chunks for a read with a chunk cache
// (read(arr, selection, { cache, pool }): js/read/cache/). Each miss is one
// job whose box is the whole chunk in C order (box.js: a box of every
// element), transferred back as the box of a read without a shared output
// is; its bytes are copied into a buffer of the cache's own (the box's
// buffer goes back to the pool for reuse). The calling thread then places
// the chunk from the cache as it places every cached chunk.
//
// A job is never dropped once submitted: another read may be waiting for
// the same cache entry. So the pool's task for the read ends only when the
// read has settled (end()) and every job it submitted has come back; a
// chunk that reaches decode() after that begins a task again.
import { hasOwn, ZarrCodecError } from "../errors.js";
import { N5_BLOCK } from "../n5/n5-default-codec.js";
import { asBytes } from "../read/decode/chunk-decoder.js";
import { chunkWhere } from "../read/chunk-where.js";
import { cOrderStrides } from "../codecs/chunk.js";
import { boxOf } from "./box.js";
import { chainIdOf, rebuiltError } from "./pool-messages.js";

let nextTask = 1;

/**
 * @param {object} r
 * @param {object} r.arr
 * @param {object} r.plan       read's plan (js/read/plan.js)
 * @param {object} r.described  the array's WorkerChain (chain.js)
 * @param {number | (() => number)} [r.priority]  the read's (read's option)
 * @param {object} r.internal   the pool's scheduling (read-pool.js)
 */
export async function wholeChunkDecoder({ arr, plan, described, priority, internal }) {
  await internal.ready();
  const { za } = plan;
  const shape = za.chunkShape;
  const eb = plan.elementBytes;
  // The whole chunk as a box: every axis kept, all of it selected.
  const axes = shape.map((count) => ({ dropped: false, count }));
  const strideBytes = cOrderStrides(shape).map((s) => s * eb);
  const outstanding = new Set(); // jobs submitted and not back
  let ended = false;

  // The pool's task for these jobs. A chunk whose bytes arrive after the
  // read settled (it failed early; another read waits for the chunk's
  // entry) is decoded all the same, under a task begun again for it.
  let task;
  function begin() {
    const current = {
      // Ids of reads and of these tasks share the worker's map of reads:
      // negative ones never meet a read's.
      id: -nextTask++,
      // The read's priority: its misses posted as a pooled read's jobs are.
      priority: priority ?? 0,
      chainId: chainIdOf(plan),
      described,
      shared: null,
      onReply(job, reply) {
        if (reply.type === "skipped") {
          // The worker took the read for ended: not while a job is out.
          job.reject(new ZarrCodecError("WORKER_FAILED", `${job.where}: the pool's worker skipped it`));
        } else if (reply.type === "failed") job.reject(rebuiltError(reply.error));
        else if (reply.type === "done") job.resolve({ data: new Uint8Array(reply.box, 0, job.box.bytes).slice(), shape: shape.slice(), stride: cOrderStrides(shape) });
        settled(job);
      },
      onWorkerFailed(job, reason) {
        job.reject(new ZarrCodecError("WORKER_FAILED", `${job.where}: the pool's worker decoding it failed (${reason}); the pool starts another for later reads`));
        settled(job);
      },
      onClosed() {
        for (const job of outstanding) job.reject(new ZarrCodecError("WORKER_FAILED", "read: the read pool was closed while this read used it"));
        outstanding.clear();
        finish();
      },
    };
    internal.begin(current);
    task = current;
  }

  function finish() {
    if (task) internal.end(task);
    task = undefined;
  }

  function settled(job) {
    outstanding.delete(job);
    if (ended && outstanding.size === 0) finish();
  }

  begin();

  return {
    /** The chunk at `coords` decoded whole by a worker. */
    decode(coords, bytes) {
      const where = chunkWhere(arr, plan, coords);
      const source = asBytes(bytes, "the store", " for a chunk");
      const n5Block = hasOwn(bytes, N5_BLOCK) ? { key: bytes[N5_BLOCK]?.key } : undefined;
      const chunk = { mapping: shape.map((count) => ({ from: 0, count, step: 1, out: 0 })) };
      const box = boxOf(chunk, axes, shape, strideBytes, eb);
      if (!task) begin();
      return new Promise((resolve, reject) => {
        const job = { box, parts: [{ source, length: source.byteLength, where, n5Block, desc: box.desc, offset: 0 }], where, resolve, reject };
        outstanding.add(job);
        internal.submit(task, job);
      });
    },
    /** The read settled: the task ends once its jobs are back. */
    end() {
      ended = true;
      if (outstanding.size === 0) finish();
    },
  };
}
