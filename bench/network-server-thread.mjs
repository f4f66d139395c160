// The loopback network server (tests/js/support/network-server.mjs) run
// in a worker thread, for the network benchmarks: its round trips and its
// link keep their own event loop, so a reader decoding on the main thread
// does not hold up the server's timers, as it would not hold up a real
// network (in the same thread, every millisecond of decoding delays the
// round trips and answers due meanwhile). The same methods, made async;
// the log's times are moved onto the main thread's performance.now()
// clock, so they lie on the reads' timeline as before.
//
//   const server = await startNetworkServerThread(files, { latencyMs: 25, maxConcurrent: 6, rateBytesPerSec: 6.25e6 });
//   await server.reset(); ... await server.requests(); await server.close();
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

if (!isMainThread && workerData?.networkServerThread) {
  const { startNetworkServer } = await import("../tests/js/support/network-server.mjs");
  const server = await startNetworkServer(workerData.files, workerData.options);
  // Added to a time on this thread's clock, it is one on the main thread's.
  const shift = performance.timeOrigin - workerData.mainOrigin;
  const moved = (e) => ({
    ...e,
    startMs: e.startMs + shift,
    turnMs: e.turnMs === undefined ? undefined : e.turnMs + shift,
    firstByteMs: e.firstByteMs === undefined ? undefined : e.firstByteMs + shift,
    endMs: e.endMs + shift,
  });
  const ops = {
    requests: () => server.requests().map(moved),
    totals: () => server.totals(),
    busy: () => server.busy(),
    reset: () => server.reset(),
    configure: (changes) => server.configure(changes),
    close: () => server.close(),
  };
  parentPort.on("message", async ({ id, op, arg }) => {
    try {
      parentPort.postMessage({ id, result: await ops[op](arg) });
    } catch (error) {
      parentPort.postMessage({ id, error: String(error?.stack ?? error) });
    }
    if (op === "close") parentPort.close();
  });
  parentPort.postMessage({ url: server.url });
}

/**
 * startNetworkServer's server, in a worker thread.
 * @param {Map<string, Uint8Array>} files  copied to the thread
 * @param {Parameters<typeof import("../tests/js/support/network-server.mjs").startNetworkServer>[1]} [options]
 */
export async function startNetworkServerThread(files, options = {}) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { networkServerThread: true, files, options, mainOrigin: performance.timeOrigin } });
  const url = await new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", (m) => resolve(m.url));
  });
  let next = 0;
  const waiting = new Map();
  worker.on("message", ({ id, result, error }) => {
    const w = waiting.get(id);
    if (!w) return;
    waiting.delete(id);
    if (error) w.reject(new Error(`network server thread: ${error}`));
    else w.resolve(result);
  });
  worker.on("error", (error) => {
    for (const w of waiting.values()) w.reject(error);
    waiting.clear();
  });
  const call = (op, arg) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, op, arg });
    });
  return {
    url,
    requests: () => call("requests"),
    totals: () => call("totals"),
    busy: () => call("busy"),
    reset: () => call("reset"),
    configure: (changes) => call("configure", changes),
    close: async () => {
      await call("close");
      await worker.terminate();
    },
  };
}
