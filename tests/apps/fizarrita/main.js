// A page reading Zarr arrays through fizarrita's worker pool. The pool's
// workers run zarr-codecs-wasm/fizarrita-worker (fizarrita's codec worker
// with these codecs registered); the main thread registers too, because
// fizarrita decodes a first chunk there to check the chunk shape.
import { getWorker } from "@fideus-labs/fizarrita";
import { WorkerPool } from "@fideus-labs/worker-pool";
import workerUrl from "zarr-codecs-wasm/fizarrita-worker?worker&url";
import * as zarr from "zarrita";
import { register } from "zarr-codecs-wasm";

register(zarr.registry);
const pool = new WorkerPool(2);

window.app = {
  async read(name) {
    const store = new zarr.FetchStore(new URL("data.zarr", location.href).href);
    const arr = await zarr.open.v3(zarr.root(store).resolve(name), { kind: "array" });
    const { data, shape } = await getWorker(arr, null, { pool, workerUrl });
    return { shape, data: Array.from(data) };
  },
};
window.loaded = true;
