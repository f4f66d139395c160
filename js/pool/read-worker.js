// The pool's module worker in browsers (any runtime with a global Worker): created by
// js/pool/spawn.js as `new Worker(new URL("./read-worker.js",
// import.meta.url), { type: "module" })`, the form Vite and webpack 5
// find and bundle. It imports the slim side only: the compiled module
// comes from the page (compiledWasm()), never the inlined copy.
import { serve } from "./worker-side.js";

serve({
  post: (message, transfer) => self.postMessage(message, transfer),
  listen: (handler) => {
    self.onmessage = (event) => handler(event.data);
  },
});
