// A pool worker's side (js/pool/read-worker.js in browsers,
// js/pool/node-thread.js in Node): it loads the compiled module the pool
// posts (the slim side: no inlined copy), learns the chains of the arrays
// it decodes (chain.js), and decodes chunk after chunk: each into its box
// in wasm memory (box.js), then into the shared output, or back to the
// calling thread, its box's bytes transferred. Messages (all from the
// pool, js/pool/read-pool.js):
//
//   init    { module, slot }            the compiled module; the worker's slot
//   chain   { id, described }           an array's WorkerChain
//   forget  { id }                      a chain no longer needed
//   read    { id, out?, state? }        a read: its shared output bytes and
//                                       its state (Int32Array on a SAB:
//                                       [aborted, writing per slot...])
//   end     { id }                      the read settled: drop its jobs
//   job     { id, read, chain, bytes: ArrayBuffer | null, box, parts }
//           a box (one chunk's, or a band's: box.js) and the chunks in it,
//           each { at (its bytes in `bytes`; -1: missing), length, desc,
//           offset (in the box), where, n5Block? }
//
// and back: done { id, box?: ArrayBuffer (its first box.bytes), decodeMs,
// placeMs }, failed { id, error }, skipped { id }, fatal { message }; any
// of them may carry `spare`, a buffer handed back for reuse, and each but
// fatal `memory`: { bytes, fresh }, the worker's wasm memory now and just
// after it loaded (the pool ends an idle worker that grew: read-pool.js).
import createZarrCodecsModule from "../../dist/zarr-codecs-wasm.mjs";
import { ZarrCodecError } from "../errors.js";
import { N5_BLOCK } from "../n5/n5-default-codec.js";
import { withWhere } from "../read/chunk-where.js";
import { allocateBand, describe, fillInPlace, freeBand } from "../read/place/wasm-placement.js";
import { readyWith, wasm } from "../wasm/load.js";
import { disableRecycling } from "../wasm/recycle.js";
import { copyRuns, storageAxes } from "./box.js";
import { decoderInWorker } from "./chain.js";

const ABORTED = 0;

// An error as plain data: the package's by code and message, its cause by
// name and message; anything else by name and message.
function plainError(error) {
  const cause = error?.cause;
  const plainCause = cause === undefined ? undefined : { name: String(cause?.name ?? "Error"), message: String(cause?.message ?? cause) };
  if (error instanceof ZarrCodecError) return { code: error.code, message: error.message, cause: plainCause };
  return { name: String(error?.name ?? "Error"), message: String(error?.message ?? error), cause: plainCause };
}

/**
 * Serves the pool on `endpoint`: { post(message, transfer), listen(handler) }.
 */
export function serve(endpoint) {
  // An idle worker is ended by the pool rather than replace its instance.
  disableRecycling();
  let slot = 0;
  let loaded;
  let freshBytes = 0; // wasm memory just after loading
  const chains = new Map(); // id -> Promise<{ described, decoder }>
  const reads = new Map(); // id -> { out, state }
  const queue = [];
  let running = false;

  function aborted(read) {
    return !read || (read.state !== null && Atomics.load(read.state, ABORTED) !== 0);
  }

  async function run(job) {
    await loaded;
    const read = reads.get(job.read);
    if (aborted(read)) return { type: "skipped", id: job.id };
    const { described, decoder } = await job.chainEntry;
    const t0 = performance.now();
    // Each part (a chunk) opened (its compressor, where it runs in JS).
    const opened = [];
    for (const part of job.parts) {
      if (part.at < 0) {
        opened.push(undefined);
        continue;
      }
      const bytes = new Uint8Array(job.bytes, part.at, part.length);
      if (part.n5Block) Object.defineProperty(bytes, N5_BLOCK, { value: part.n5Block, configurable: true });
      try {
        opened.push(await decoder.open(bytes));
      } catch (error) {
        throw withWhere(error, part.where);
      }
      if (aborted(reads.get(job.read))) return { type: "skipped", id: job.id };
    }
    const module = wasm();
    const { box } = job;
    const eb = described.array.elementBytes;
    const at = allocateBand(module, box.bytes);
    try {
      job.parts.forEach((part, i) => {
        const where = () => part.where;
        try {
          if (part.at < 0) fillInPlace(module, described.fill, describe(module, eb, part.offset, box.bytes, storageAxes(part.desc, null)), at, where);
          else decoder.place(opened[i], describe(module, eb, part.offset, box.bytes, storageAxes(part.desc, described.order)), at, where);
        } catch (error) {
          throw withWhere(error, part.where);
        }
      });
      const t1 = performance.now();
      const decoded = module.HEAPU8.subarray(at, at + box.bytes);
      if (read.out) {
        // Registered as a writer, then the abort flag read: the calling
        // thread sets the flag, then waits for writers to leave, so nothing
        // is written into the output after a read has failed.
        const state = read.state;
        Atomics.store(state, 1 + slot, 1);
        try {
          if (Atomics.load(state, ABORTED) !== 0) return { type: "skipped", id: job.id };
          copyRuns(decoded, read.out, box);
        } finally {
          Atomics.store(state, 1 + slot, 0);
          Atomics.notify(state, 1 + slot);
        }
        return { type: "done", id: job.id, decodeMs: t1 - t0, placeMs: performance.now() - t1 };
      }
      const out = spareBuffer(box.bytes);
      new Uint8Array(out, 0, box.bytes).set(decoded);
      return { type: "done", id: job.id, box: out, decodeMs: t1 - t0, placeMs: performance.now() - t1 };
    } finally {
      freeBand(module, at);
    }
  }

  // Buffers the pool sent (spent chunk bytes), reused for boxes; the rest
  // go back with the next reply, for the pool to send chunks in.
  const spares = [];
  function spareBuffer(bytes) {
    const i = spares.findIndex((b) => b.byteLength >= bytes && b.byteLength <= 4 * bytes + 65536);
    return i < 0 ? new ArrayBuffer(bytes) : spares.splice(i, 1)[0];
  }

  async function drain() {
    if (running) return;
    running = true;
    while (queue.length) {
      const job = queue.shift();
      let reply;
      try {
        reply = await run(job);
      } catch (error) {
        reply = { type: "failed", id: job.id, error: plainError(error) };
      }
      if (job.bytes) spares.push(job.bytes);
      if (spares.length > 2) reply.spare = spares.shift();
      reply.memory = memoryNow();
      const transfer = [];
      if (reply.box) transfer.push(reply.box);
      if (reply.spare) transfer.push(reply.spare);
      endpoint.post(reply, transfer);
    }
    running = false;
  }

  function memoryNow() {
    try {
      return { bytes: wasm().HEAPU8.length, fresh: freshBytes };
    } catch {
      return undefined; // not loaded: the job failed for that
    }
  }

  endpoint.listen((message) => {
    switch (message.type) {
      case "init":
        slot = message.slot;
        loaded = readyWith({ wasm: message.module }, undefined, async () => createZarrCodecsModule).then(() => {
          freshBytes = wasm().HEAPU8.length;
        });
        loaded.catch((error) => endpoint.post({ type: "fatal", message: `${error?.code ?? error?.name}: ${error?.message ?? error}` }, []));
        break;
      case "chain": {
        const made = (async () => {
          await loaded;
          return { described: message.described, decoder: await decoderInWorker(message.described) };
        })();
        made.catch(() => {}); // reported by the jobs that use it
        chains.set(message.id, made);
        break;
      }
      case "forget":
        chains.delete(message.id);
        break;
      case "read":
        reads.set(message.id, {
          out: message.out ? new Uint8Array(message.out.buffer, message.out.byteOffset, message.out.byteLength) : null,
          state: message.state ? new Int32Array(message.state) : null,
        });
        break;
      case "end":
        reads.delete(message.id);
        break;
      case "job":
        // Its chain as it is now: a later "forget" does not reach it.
        message.chainEntry = chains.get(message.chain) ?? Promise.reject(new Error(`read pool: chain ${message.chain} was never sent`));
        message.chainEntry.catch(() => {});
        queue.push(message);
        drain();
        break;
      default:
        break;
    }
  });
}
