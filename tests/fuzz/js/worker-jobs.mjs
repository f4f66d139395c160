// A JS fuzzer worker's side of its parent's protocol, shared by the read
// and compressed-chunk fuzzers' workers: { ready } once set up, then for
// each job { done: result }, where a throw from the job is a crash, and
// every result carries the checks of the whole worker: prototypes
// polluted since it was set up, wasm memory, and the rejections zarrita
// left unhandled.
import { parentPort } from "node:worker_threads";
import { diagnostics } from "../../../js/index.js";
import { classify, protoKeys } from "./outcomes.mjs";

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

/**
 * What a worker reports of an error: its class (outcomes.mjs), and the
 * package's code and message where the error or a cause is the package's.
 */
export function failureOf(error) {
  let code;
  let message;
  let name;
  try {
    for (let e = error, depth = 0; e && depth < 6; e = e.cause, depth++) {
      if (typeof e.code === "string" && e.name === "ZarrCodecError") {
        code = e.code;
        message = e.message;
        break;
      }
    }
    message ??= String(error?.message ?? error).slice(0, 400);
    name = error?.name;
  } catch {
    message = "(unreadable)";
  }
  return { error: classify(error), code, message, name, stack: String(error?.stack ?? "").split("\n").slice(0, 6).join("\n") };
}

/**
 * The array at `path` of `store`, opened by zarrita `z` as a fuzz job
 * names its format: { arr }, or { open: failureOf(error) } where the open
 * failed.
 */
export async function openJobArray(z, store, path, format) {
  const location = z.root(store).resolve(path);
  try {
    return { arr: await (format === "v2" ? z.open.v2(location, { kind: "array" }) : z.open(location, { kind: "array" })) };
  } catch (error) {
    return { open: failureOf(error) };
  }
}
