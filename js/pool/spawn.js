// Starting a pool worker on this platform, behind one endpoint shape:
//   { post(message, transfer), listen(onMessage, onFailure(reason)),
//     terminate(): Promise, ref(), unref(), handle }
// Browsers (any runtime with a global Worker): a module worker, written in the one form Vite
// (build and dev server) and webpack 5 find and bundle:
//   new Worker(new URL("./read-worker.js", import.meta.url), { type: "module" })
// Node: a worker_threads thread (node-spawn.js), imported through a
// specifier bundlers leave alone (webpackIgnore, a non-literal for Vite).
import { ZarrCodecError } from "../errors.js";

const NODE_SPAWN = "./node-spawn.js";

function webWorker() {
  const worker = new Worker(new URL("./read-worker.js", import.meta.url), { type: "module" });
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    listen(onMessage, onFailure) {
      worker.onmessage = (event) => onMessage(event.data);
      worker.onerror = (event) => {
        event.preventDefault?.();
        onFailure(event.message ? `it threw ${event.message}` : "it failed to load or threw");
      };
      worker.onmessageerror = () => onFailure("a message from it could not be read");
    },
    terminate: async () => worker.terminate(),
    ref() {},
    unref() {},
    handle: worker,
  };
}

/** () => endpoint, for this platform. */
export async function spawner() {
  if (typeof globalThis.Worker === "function") return webWorker;
  if (typeof globalThis.process?.versions?.node === "string") {
    const { spawnThread } = await import(/* webpackIgnore: true */ /* @vite-ignore */ NODE_SPAWN);
    return spawnThread;
  }
  throw new ZarrCodecError("WORKER_FAILED", "createReadPool: this platform has neither Web Workers nor Node's worker_threads");
}
