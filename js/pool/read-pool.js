// createReadPool({ workers }): workers that decode read's chunks
// (docs/read.md, "Reads on every core"). The pool owns the workers and the
// order jobs reach them; what a read does with its chunks is
// pooled-read.js's.
//
// - Workers start when a job finds none idle, up to `workers`, and stay
//   warm; each gets the compiled module (compiledWasm()) and its slot.
// - Jobs wait per read; the pool takes them from the reads in turn (round
//   robin), so a tile asked for during a whole-image read waits for one
//   job per read, not for the whole read. A worker holds at most two jobs
//   (one decoding, the next already posted).
// - A worker knows an array's chain and a read's output once told; the
//   pool tells it before the first job that needs them, and tells it to
//   forget chains it has not used for a while.
// - A worker that dies (throws outside a job, fails to load, is
//   terminated) fails the reads that had jobs on it; its slot starts a new
//   worker when a job next needs one.
// - In Node, a worker holds the process open only while it has jobs
//   (unref'd when idle), so a script that forgets close() still exits.
// - A worker's wasm memory only grows: one whose memory grew by more than
//   RECYCLE_GROWTH_BYTES and that then stays idle for `recycleIdleMs` is
//   ended, which gives all its memory back; the next job that needs a
//   worker starts a new one (from the compiled module: nothing to fetch
//   or compile). Workers that did not grow stay warm.
import { describe, ZarrCodecError } from "../errors.js";
import { priorityNow } from "../read/fetch/scheduling/priority.js";
import { compiledWasm } from "../wasm/load.js";
import { DEFAULT_RECYCLE_IDLE_MS, RECYCLE_GROWTH_BYTES } from "../wasm/recycle.js";
import { spawner } from "./spawn.js";
import { pooledReads } from "./pooled-read.js";
import { POOLED_READS } from "../read/pool-interface.js";

/** Internal: the pool's side that pooled-read.js uses. */
export const POOL = Symbol("read pool");

const JOBS_PER_WORKER = 2;
const CHAINS_PER_WORKER = 32;
const MAX_WORKERS = 256;

function cores() {
  const n = globalThis.navigator?.hardwareConcurrency ?? globalThis.process?.getBuiltinModule?.("node:os")?.availableParallelism?.();
  return Number.isInteger(n) && n > 0 ? n : 4;
}

function workersOf(options) {
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw new ZarrCodecError("INVALID_INPUT", `createReadPool: options must be an object, got ${describe(options)}`);
  }
  const n = options?.workers;
  if (n === undefined) return Math.max(1, cores() - 1);
  if (!Number.isInteger(n) || n < 1 || n > MAX_WORKERS) {
    throw new ZarrCodecError("INVALID_INPUT", `createReadPool: workers must be an integer in 1..${MAX_WORKERS}, got ${describe(n)}`);
  }
  return n;
}

// Reads that touch at most this many chunks decode on the calling thread
// by default: a viewer's tile (up to four chunks) is quicker there than a
// round trip to a worker, and holds the thread no longer than its decode.
const IN_THREAD_CHUNKS = 4;

function inThreadChunksOf(options) {
  const n = options?.inThreadChunks;
  if (n === undefined) return IN_THREAD_CHUNKS;
  if (!Number.isInteger(n) || n < 0) {
    throw new ZarrCodecError("INVALID_INPUT", `createReadPool: inThreadChunks must be a whole number of chunks, got ${describe(n)}`);
  }
  return n;
}

function recycleIdleMsOf(options) {
  const ms = options?.recycleIdleMs;
  if (ms === undefined) return DEFAULT_RECYCLE_IDLE_MS;
  if (ms !== Infinity && !(Number.isSafeInteger(ms) && ms >= 0)) {
    throw new ZarrCodecError("INVALID_INPUT", `createReadPool: recycleIdleMs must be a whole number of milliseconds or Infinity, got ${describe(ms)}`);
  }
  return ms;
}

/**
 * @typedef {object} ReadTask  one read's side (pooled-read.js)
 * @property {number} id
 * @property {number} chainId
 * @property {object} described   the array's WorkerChain (chain.js)
 * @property {{out: object, state: SharedArrayBuffer} | null} shared
 * @property {object[]} pending   jobs not yet posted
 * @property {Set<object>} slots  the workers it posted to
 * @property {number | (() => number)} [priority]  the read's: its jobs are posted before those of reads below it
 * @property {(job: object, reply: object, slot: number) => void} onReply
 * @property {(job: object, reason: string, slot: number) => void} onWorkerFailed
 */

export function createReadPool(options) {
  const max = workersOf(options);
  const inThreadChunks = inThreadChunksOf(options);
  const recycleIdleMs = recycleIdleMsOf(options);
  const slots = new Array(max).fill(undefined);
  const ring = []; // reads with jobs to post, in turn
  let turn = 0;
  let nextJob = 1;
  let closed = false;
  let spawn;
  let spawning;
  const stats = { started: 0, failed: 0, recycled: 0, jobs: 0, chunks: 0, shared: 0, transferred: 0, reads: 0, inThread: 0, decodeMs: 0, placeMs: 0, callingMs: 0 };
  let idleTimer;

  function start(index) {
    const endpoint = spawn();
    const slot = { index, endpoint, inflight: new Map(), chains: new Map(), reads: new Set(), dead: false, chunks: 0, memory: 0, fresh: 0, idleSince: 0 };
    slots[index] = slot;
    stats.started += 1;
    endpoint.listen(
      (message) => reply(slot, message),
      (reason) => failed(slot, reason),
    );
    endpoint.unref();
    endpoint.post({ type: "init", module: compiledWasm(), slot: index }, []);
    return slot;
  }

  // A worker for the next job: an idle one, else a new one while there is
  // room, else the least busy one with room for another job.
  function slotForJob() {
    let best;
    for (const slot of slots) {
      if (!slot) continue;
      if (slot.inflight.size === 0) return slot;
      if (slot.inflight.size < JOBS_PER_WORKER && (!best || slot.inflight.size < best.inflight.size)) best = slot;
    }
    const free = slots.indexOf(undefined);
    if (free >= 0) return start(free);
    return best;
  }

  // The read whose job goes next: the highest priority now (each read's
  // `priority`, a number or a function asked again at each job, as a read
  // scheduler asks), in turn among equals.
  function nextRead() {
    let best;
    let bestPriority = -Infinity;
    let bestAt = -1;
    for (let k = 0; k < ring.length; k++) {
      const i = (turn + k) % ring.length;
      const task = ring[i];
      if (!task.pending.length) continue;
      let p;
      try {
        p = priorityNow(task.priority ?? 0);
      } catch {
        p = -Infinity; // the read fails at its own scheduler; its jobs go last
      }
      if (best === undefined || p > bestPriority) {
        best = task;
        bestPriority = p;
        bestAt = i;
      }
    }
    if (best) turn = (bestAt + 1) % ring.length;
    return best;
  }

  function pump() {
    while (!closed) {
      if (!ring.some((t) => t.pending.length)) return;
      const slot = slotForJob();
      if (!slot) return;
      const task = nextRead();
      post(slot, task, task.pending.shift());
    }
  }

  function post(slot, task, job) {
    const { endpoint } = slot;
    if (!slot.chains.has(task.chainId)) {
      endpoint.post({ type: "chain", id: task.chainId, described: task.described }, []);
      if (slot.chains.size >= CHAINS_PER_WORKER) {
        const [oldest] = slot.chains.keys();
        slot.chains.delete(oldest);
        endpoint.post({ type: "forget", id: oldest }, []);
      }
    } else {
      slot.chains.delete(task.chainId); // most recently used last
    }
    slot.chains.set(task.chainId, true);
    if (!slot.reads.has(task.id)) {
      slot.reads.add(task.id);
      task.slots.add(slot);
      endpoint.post({ type: "read", id: task.id, out: task.shared?.out, state: task.shared?.state }, []);
    }
    const id = nextJob++;
    if (slot.inflight.size === 0) endpoint.ref();
    slot.inflight.set(id, { task, job });
    stats.jobs += 1;
    stats.chunks += job.parts.length;
    // The chunk's bytes copied now, as the job leaves (the store may keep
    // the bytes it gave, so they are never transferred themselves), into
    // a buffer that came back from a worker where one fits.
    // A job is one chunk, or a band's chunks (parts): their bytes packed
    // one after another into the one buffer.
    const total = job.parts.reduce((n, part) => n + (part.source ? part.source.byteLength : 0), 0);
    let bytes = null;
    if (total > 0 || job.parts.some((part) => part.source)) {
      bytes = spareBuffer(total);
      const view = new Uint8Array(bytes);
      let at = 0;
      for (const part of job.parts) {
        if (!part.source) continue;
        view.set(part.source, at);
        part.at = at;
        at += part.source.byteLength;
        part.source = undefined;
      }
    }
    const parts = job.parts.map((part) => ({ at: part.at ?? -1, length: part.length, desc: part.desc, offset: part.offset, where: part.where, n5Block: part.n5Block }));
    endpoint.post({ type: "job", id, read: task.id, chain: task.chainId, bytes, box: job.box, parts }, bytes ? [bytes] : []);
  }

  // Buffers go back and forth (chunk bytes out, boxes and spent chunk
  // buffers back), so a read allocates almost none once the pool is warm:
  // fresh ones for every chunk made the collector run during reads.
  const spares = [];
  function spareBuffer(bytes) {
    let best = -1;
    for (let i = 0; i < spares.length; i++) {
      const n = spares[i].byteLength;
      if (n >= bytes && n <= 4 * bytes + 65536 && (best < 0 || n < spares[best].byteLength)) best = i;
    }
    if (best < 0) return new ArrayBuffer(bytes);
    const [buffer] = spares.splice(best, 1);
    return buffer;
  }
  function keep(buffer) {
    if (!buffer || buffer.byteLength === 0) return;
    spares.push(buffer);
    if (spares.length > 4 * max + 4) spares.shift();
  }

  function reply(slot, message) {
    if (message.type === "fatal") {
      failed(slot, `its wasm module did not load (${message.message})`);
      return;
    }
    const entry = slot.inflight.get(message.id);
    if (!entry) return;
    slot.inflight.delete(message.id);
    slot.chunks += entry.job.parts.length;
    if (message.memory) {
      slot.memory = message.memory.bytes;
      slot.fresh = message.memory.fresh;
    }
    if (slot.inflight.size === 0) {
      slot.endpoint.unref();
      slot.idleSince = performance.now();
      armIdle(recycleIdleMs);
    }
    if (message.type === "done") {
      stats[message.box ? "transferred" : "shared"] += 1;
      stats.decodeMs += message.decodeMs;
      stats.placeMs += message.placeMs;
    }
    if (typeof globalThis.setImmediate !== "function") {
      land(entry, message, slot);
      pump();
      return;
    }
    landing.push({ entry, message, slot });
    landSoon();
    pumpSoon();
  }

  function land({ task, job }, message, slot) {
    const t0 = performance.now();
    task.onReply(job, message, slot.index);
    keep(message.box);
    keep(message.spare);
    stats.callingMs += performance.now() - t0;
  }

  // Replies land one per turn of the event loop in Node: its port hands
  // over every message that has arrived in one loop, and placing each
  // box there (a band's box is whole output rows, megabytes into a fresh
  // output) kept the calling thread, its timers waiting, for 17 to 21 ms.
  // An immediate queued from an immediate runs at the next turn, after
  // the timers. Browsers run each message as a task of its own.
  const landing = [];
  let landingSoon = false;
  function landSoon() {
    if (landingSoon || landing.length === 0) return;
    landingSoon = true;
    globalThis.setImmediate(() => {
      landingSoon = false;
      const { entry, message, slot } = landing.shift();
      land(entry, message, slot);
      landSoon();
    });
  }

  // The next jobs are posted after the event loop's turn, not from the
  // reply's handler: Node hands a port's messages over in one loop that
  // takes the ones arriving meanwhile too, so a worker fed from within it
  // kept the calling thread there, its timers waiting, for a whole read.
  // (A worker still has its second job meanwhile.) Browsers run each
  // message as a task of its own: there the next jobs go at once.
  let pumping = false;
  function pumpSoon() {
    if (typeof globalThis.setImmediate !== "function") {
      pump();
      return;
    }
    if (pumping) return;
    pumping = true;
    globalThis.setImmediate(() => {
      pumping = false;
      pump();
    });
  }

  const grown = (slot) => slot.memory > slot.fresh + RECYCLE_GROWTH_BYTES;

  function armIdle(ms) {
    if (idleTimer !== undefined || closed || !(recycleIdleMs < Infinity)) return;
    idleTimer = setTimeout(endIdle, ms);
    idleTimer?.unref?.(); // Node: never keeps the process alive
  }

  // Ends the grown workers idle for recycleIdleMs; waits for the others
  // that grew.
  function endIdle() {
    idleTimer = undefined;
    if (closed) return;
    const now = performance.now();
    let wait = Infinity;
    for (const slot of slots) {
      if (!slot || slot.dead || slot.inflight.size > 0 || !grown(slot)) continue;
      const idle = now - slot.idleSince;
      if (idle < recycleIdleMs) {
        wait = Math.min(wait, recycleIdleMs - idle);
        continue;
      }
      // Dead first: its exit is not a failure.
      slot.dead = true;
      slots[slot.index] = undefined;
      stats.recycled += 1;
      slot.endpoint.terminate().catch(() => {});
    }
    if (wait < Infinity) armIdle(wait);
  }

  function failed(slot, reason) {
    if (slot.dead) return;
    slot.dead = true;
    if (slots[slot.index] === slot) slots[slot.index] = undefined;
    if (closed) return;
    stats.failed += 1;
    const lost = [...slot.inflight.values()];
    slot.inflight.clear();
    slot.endpoint.terminate().catch(() => {});
    for (const { task, job } of lost) task.onWorkerFailed(job, reason, slot.index);
    pump();
  }

  const internal = {
    /** Resolves once workers can start on this platform. */
    async ready() {
      if (closed) throw poolClosed();
      if (!spawn) {
        spawning ??= spawner();
        spawn = await spawning;
      }
    },
    /** A read joins the pool. */
    begin(task) {
      if (closed) throw poolClosed();
      task.slots = new Set();
      task.pending = [];
      ring.push(task);
      stats.reads += 1;
    },
    /**
     * A job: { box, parts: [{ source (a chunk's bytes, or null: missing),
     * length, desc, offset, where, n5Block, ... }] }: one chunk, or the
     * chunks of a band.
     */
    submit(task, job) {
      task.pending.push(job);
      pump();
    },
    /** The read settled: its queued jobs are dropped, its workers told. */
    end(task) {
      if (task.ended) return;
      task.ended = true;
      task.pending.length = 0;
      const i = ring.indexOf(task);
      if (i >= 0) {
        ring.splice(i, 1);
        if (turn > i) turn -= 1;
        if (turn >= ring.length) turn = 0;
      }
      for (const slot of task.slots) {
        slot.reads.delete(task.id);
        if (!slot.dead) slot.endpoint.post({ type: "end", id: task.id }, []);
      }
    },
    /** The workers writing for a read may be these (dead ones cannot). */
    live(slot) {
      return !slot.dead;
    },
    /** A read given the pool that its workers will not see (a tile, a chain they cannot decode). */
    countInThread() {
      stats.reads += 1;
      stats.inThread += 1;
    },
    /** Refuses reads once the pool is closed, whatever path they would take. */
    checkOpen() {
      if (closed) throw poolClosed();
    },
    /** Milliseconds the calling thread spent on a chunk (its copy, its job). */
    countCalling(ms) {
      stats.callingMs += ms;
    },
    slots: () => slots.filter(Boolean),
    size: max,
    inThreadChunks,
  };

  // Closing is for good: the message says what reads again.
  function poolClosed() {
    return new ZarrCodecError(
      "WORKER_FAILED",
      "read: the read pool was closed: make a new one with createReadPool() for later reads, " +
        "or leave out the pool option to read on the calling thread",
    );
  }

  return {
    /** The most workers it runs. */
    workers: max,
    /**
     * What the pool has done: workers started and failed, jobs run
     * (chunks decoded by workers: written into a shared output, or
     * transferred back), reads given it and of them reads it left to
     * the calling thread (small reads, chains a worker cannot decode),
     * workers ended for being idle after their memory grew (recycled),
     * milliseconds spent
     * decoding into boxes and placing boxes (in workers) and on the
     * calling thread (copying chunks out, placing transferred boxes), and
     * per worker alive the chunks it decoded and its wasm memory as of its
     * last reply (memoryBytes: their sum).
     */
    stats() {
      const live = slots.filter(Boolean);
      return {
        ...stats,
        alive: live.length,
        perWorker: slots.map((slot) => (slot ? slot.chunks : null)),
        memoryBytes: live.reduce((sum, slot) => sum + slot.memory, 0),
        perWorkerMemory: slots.map((slot) => (slot ? slot.memory : null)),
      };
    },
    /** Ends every worker; reads under way fail with WORKER_FAILED. */
    async close() {
      if (closed) return;
      closed = true;
      if (idleTimer !== undefined) clearTimeout(idleTimer);
      idleTimer = undefined;
      const live = slots.filter(Boolean);
      for (const slot of live) slot.inflight.clear();
      for (const task of [...ring]) task.onClosed();
      slots.fill(undefined);
      await Promise.all(live.map((slot) => {
        slot.dead = true;
        return slot.endpoint.terminate().catch(() => {});
      }));
    },
    [POOL]: internal,
    [POOLED_READS]: pooledReads(internal),
  };
}
