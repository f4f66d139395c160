// The pool's worker in Node: a worker_threads thread (js/pool/node-spawn.js
// starts it), serving the pool on its parentPort.
import { parentPort } from "node:worker_threads";
import { serve } from "./worker-side.js";

serve({
  post: (message, transfer) => parentPort.postMessage(message, transfer),
  listen: (handler) => parentPort.on("message", handler),
});
