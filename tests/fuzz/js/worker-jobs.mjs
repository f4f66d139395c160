// A JS fuzzer worker's side of its parent's protocol, shared by the read
// and compressed-chunk fuzzers' workers: { ready } once set up, then for
// each job { done: result }, where a throw from the job is a crash, and
// every result carries the checks of the whole worker: prototypes
// polluted since it was set up, wasm memory, and the rejections zarrita
// left unhandled.
import { parentPort } from "node:worker_threads";
import { diagnostics } from "../../../js/index.js";
import { protoKeys } from "./outcomes.mjs";

// zarrita may leave a codec-loading promise unhandled when a read fails
// early (its own); counted from the worker's start, never fatal.
let unhandled = 0;
process.on("unhandledRejection", () => {
  unhandled++;
});

/**
 * Serves jobs; called once the worker has registered its zarritas, whose
 * prototypes are the baseline.
 * @param {(job: object) => Promise<object>} run
 * @param {(error: unknown) => object} failure what a crash reports
 */
export function serveJobs(run, failure) {
  const protoBefore = protoKeys();
  parentPort.on("message", async (job) => {
    let result;
    try {
      result = await run(job);
    } catch (error) {
      result = { crashed: failure(error) };
    }
    result.polluted = protoKeys() !== protoBefore;
    result.wasmMemoryBytes = diagnostics().wasmMemoryBytes();
    result.unhandled = unhandled;
    parentPort.postMessage({ done: result });
  });
  parentPort.postMessage({ ready: true });
}
