// The viewer's Web Worker: its own zarrita and wasm instance read the slice
// (the same read-slice.js the page runs) and send the result back, its
// buffers transferred. Module workers do not see the page's import map, so
// scripts/build-viewer-worker.mjs bundles this file (with zarrita) into
// build/decode-worker.js, which `npm run viewer` serves.
import { ready } from "zarr-codecs-wasm";
import { buffersOf, readSlice } from "./read-slice.js";

self.onmessage = async ({ data: job }) => {
  try {
    await ready();
    const result = await readSlice(job.storeUrl, job.arrayPath, job.options);
    self.postMessage({ id: job.id, result }, buffersOf(result));
  } catch (error) {
    // The parts of the error, for the page to build the same one (an
    // Error does not survive postMessage with its name and code).
    self.postMessage({ id: job.id, error: { name: error.name, code: error.code, message: error.message } });
  }
};
