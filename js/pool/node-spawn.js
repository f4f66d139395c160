// Node's side of starting a pool worker: a worker_threads thread running
// node-thread.js. Only Node loads this file (spawn.js imports it through
// a specifier bundlers leave alone), so browser bundles carry neither it
// nor the machine's paths that webpack writes for import.meta.url.
import { Worker } from "node:worker_threads";

// A worker inherits the process's flags, and Node drops the ones that are
// the process's alone, but not --input-type, with which (`node
// --input-type=module -e ...`) every worker would fail to start. Where it
// is left out the flags are given, and Node checks them: those it refuses
// for a worker (--expose-gc, ...) are left out too.
function startWorker(url) {
  const flags = process.execArgv.filter((flag) => !flag.startsWith("--input-type"));
  if (flags.length === process.execArgv.length) return new Worker(url);
  try {
    return new Worker(url, { execArgv: flags });
  } catch (error) {
    if (error?.code !== "ERR_WORKER_INVALID_EXEC_ARGV") throw error;
    const refused = new Set(String(error.message).replace(/^.*?flags: /, "").split(/,\s*/));
    return new Worker(url, { execArgv: flags.filter((flag) => !refused.has(flag)) });
  }
}

/** A worker thread, as spawn.js's endpoint. */
export function spawnThread() {
  const worker = startWorker(new URL("./node-thread.js", import.meta.url));
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    listen(onMessage, onFailure) {
      worker.on("message", onMessage);
      worker.on("error", (error) => onFailure(`it threw ${error?.name ?? "an error"}: ${error?.message ?? error}`));
      worker.on("messageerror", () => onFailure("a message from it could not be read"));
      worker.on("exit", (code) => onFailure(`it exited with code ${code}`));
    },
    terminate: () => worker.terminate().then(() => undefined),
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    handle: worker,
  };
}
