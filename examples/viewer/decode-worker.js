// The viewer's Web Worker: its own zarrita and wasm instance read the slice
// (the same read-slice.js the page runs) and send the values back,
// transferred. Module workers do not see the page's import map, so
// scripts/build-viewer-worker.mjs bundles this file (with zarrita) into
// build/decode-worker.js, which `npm run viewer` serves.
import { ready } from "zarr-codecs-wasm";
import { readSlice } from "./read-slice.js";

self.onmessage = async ({ data: job }) => {
  try {
    await ready();
    const result = await readSlice(job.storeUrl, job.arrayPath);
    self.postMessage({ id: job.id, ...result }, [result.values.buffer]);
  } catch (error) {
    self.postMessage({ id: job.id, error: `${error.code ?? error.name}: ${error.message}` });
  }
};
