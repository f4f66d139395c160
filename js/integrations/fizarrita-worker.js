// zarr-codecs-wasm/fizarrita-worker: @fideus-labs/fizarrita's codec worker
// with this package's codecs registered in the worker's zarrita, for
// getWorker/setWorker's `workerUrl`. fizarrita's workers import their own
// zarrita, which a register() on the main thread never reaches.
import * as fizarritaCodecWorker from "@fideus-labs/fizarrita/codec-worker";
import { registry } from "zarrita";
import { register } from "../index.js";

register(registry);

// fizarrita's package.json says "sideEffects": false, so production
// bundlers drop a bare `import "@fideus-labs/fizarrita/codec-worker"`,
// and with it the worker's message handler: the pool then waits forever.
// Reading the module's namespace keeps it in the bundle.
if (typeof fizarritaCodecWorker !== "object") throw new Error("unreachable");
