// Node's side of starting a pool worker: a worker_threads thread running
// node-thread.js. Only Node loads this file (spawn.js imports it through
// a specifier bundlers leave alone), so browser bundles carry neither it
// nor the machine's paths that webpack writes for import.meta.url.
import { Worker } from "node:worker_threads";

/** A worker thread, as spawn.js's endpoint. */
export function spawnThread() {
  // The process's flags, less those a worker refuses: `node
  // --input-type=module -e ...` would make every worker fail to start.
  const execArgv = process.execArgv.filter((flag) => !flag.startsWith("--input-type"));
  const worker = new Worker(new URL("./node-thread.js", import.meta.url), { execArgv });
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
