// diagnostics(): what the module instance can tell about itself, and the
// implementation switch simdutf-style libraries offer: force the scalar
// reference or the portable kernels to rule the SIMD ones in or out of a
// suspected bug (the test suite runs every implementation this way), count
// live codec instances (a leak shows as a count that only grows), read the
// size of wasm memory, time a codec's kernel alone (the benchmark), and
// tell which zarrita copies read's arrays came from. Documented in
// docs/reliability.md. Callable at any time: what a read counts (reads,
// requests, the scratch budget, the zarrita copies) before anything loaded
// too; what the module instance tells, once it is loaded. It sits beside the
// entries and gathers what each layer counts of itself (the wasm instance,
// the codecs' cores, read's paths); no layer reaches up to it.
import { coreOf } from "./codecs/wasm-codec.js";
import { describe, ZarrCodecError } from "./errors.js";
import { isLoaded, wasm } from "./wasm/load.js";
import { readCounts } from "./read/read-counts.js";
import { scratchState } from "./read/place/scratch-budget.js";
import { requestState } from "./read/fetch/requests/request-accounts.js";
import { schedulerState } from "./read/fetch/scheduling/read-scheduler.js";
import { recycleCount } from "./wasm/recycle.js";
import { zarritaCopies } from "./zarrita/copies.js";

const IMPLEMENTATIONS = new Set(["reference", "portable", "simd"]);

// The instance in use now (it is replaced when idle: recycle.js), or
// NOT_READY naming what was asked of it.
function module(what) {
  if (!isLoaded()) {
    throw new ZarrCodecError(
      "NOT_READY",
      `diagnostics().${what}: the wasm module is not loaded yet (it loads on the first read through the package, or with await ready())`,
    );
  }
  return wasm();
}

export function diagnostics() {
  return {
    /** "simd" (the default), "portable" or "reference". */
    implementation: () => module("implementation()").implementation(),
    /** Every kernel call of this module instance uses `name` from now on. */
    setImplementation(name) {
      if (!IMPLEMENTATIONS.has(name)) {
        throw new ZarrCodecError("INVALID_INPUT", `diagnostics: implementation must be "reference", "portable" or "simd", got ${describe(name)}`);
      }
      // The module refuses an implementation it was built without (SIMD in
      // a no-SIMD build): say so rather than keep the old one silently.
      if (!module("setImplementation()").setImplementation(name)) {
        throw new ZarrCodecError("INVALID_INPUT", `diagnostics: this module was built without the ${name} implementation`);
      }
    },
    /** C++ codec instances alive (codecs not yet collected or disposed). */
    liveInstances: () => module("liveInstances()").liveInstances(),
    /**
     * How many chunks read() has placed by each path in this realm:
     * decoded in place by the package's codecs, N5 blocks, copied
     * (little-endian bytes), filled (missing chunks), and through
     * zarrita's getChunk (what read does not decode itself).
     */
    reads: () => readCounts(),
    /**
     * Bytes of wasm memory of the instance in use (an instance's memory
     * only grows; a grown, idle one is replaced by a fresh one: recycle.js).
     */
    wasmMemoryBytes: () => module("wasmMemoryBytes()").HEAPU8.length,
    /**
     * The read budget's account (read/place/scratch-budget.js): bytes of bands
     * held now, the most held at once (since the last call with
     * `resetPeak`), requests waiting, and the budget.
     */
    readScratch: (resetPeak = false) => scratchState(resetPeak === true),
    /**
     * What read's store calls cost (read/fetch/requests/request-accounts.js):
     * `totals` since the last reset (reads, failedReads, requests,
     * retries, failedRequests, bytes, overReadBytes) and `recent`, the last
     * 32 reads' own figures, oldest first ({ path, requests,
     * sharedRequests, retries, bytes, overReadBytes, chunks, ms, failed,
     * error? }), and `scheduled`, what the realm's read schedulers did
     * (createReadScheduler: waiting and inFlight now; sent,
     * droppedBeforeSending, abortedInFlight and bytes since the last reset).
     * `reset`: all start afresh after this call.
     */
    requests: (reset = false) => ({ ...requestState(reset === true), scheduled: schedulerState(reset === true) }),
    /** How many times the instance was replaced by a fresh one. */
    recycles: () => recycleCount(),
    /**
     * The zarrita copies whose arrays read has read, one entry each
     * (zarrita/copies.js): whether register() extended the copy's codec
     * registry (asked of the copy when called), which zarrita it is, how
     * many of its arrays, the first one's path. A library's own zarrita
     * that register() never saw shows as `registered: false`.
     */
    zarritaCopies: () => zarritaCopies(),
    /**
     * Runs `codec`'s kernel on one scratch block `repetitions` times, with
     * nothing copied in or out (a bytes, packbits or numcodecs.packbits
     * codec of this instance).
     */
    runKernel(codec, direction, repetitions) {
      const core = codec?.[coreOf];
      if (!core || core.module !== module("runKernel()")) {
        throw new ZarrCodecError("INVALID_INPUT", `diagnostics: runKernel needs a codec of this package, got ${describe(codec)}`);
      }
      if ((direction !== "decode" && direction !== "encode") || !Number.isSafeInteger(repetitions) || repetitions < 0) {
        throw new ZarrCodecError("INVALID_INPUT", 'diagnostics: runKernel(codec, "decode" | "encode", repetitions >= 0)');
      }
      core.live.runKernel(direction === "decode", repetitions);
    },
  };
}
