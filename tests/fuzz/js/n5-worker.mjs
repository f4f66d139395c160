// The N5 fuzzer's reader (tests/fuzz/js/n5.mjs): a worker thread that
// opens each case's array through withN5 with zarrita and reads a box of
// it, so that the main thread can stop it at a deadline when a read never
// ends (numcodecs.js's zstd can loop forever) and start another.
import { parentPort } from "node:worker_threads";
import * as zarr7 from "zarrita";
import * as zarr5 from "zarrita-0.5";
import { diagnostics, ready, register, withN5 } from "../../../js/index.js";
import { classify, protoKeys } from "./outcomes.mjs";
import { cOrderBytes } from "../../js/support/c-order-bytes.js";

await ready();
const ZARRITAS = [zarr7, zarr5];
for (const z of ZARRITAS) register(z.registry);
const protoBefore = protoKeys();
// zarrita 0.5 may leave a codec-loading promise unhandled when a read
// fails early (its own); counted, never fatal.
let unhandled = 0;
process.on("unhandledRejection", () => {
  unhandled++;
});

async function run({ files, path, axes, zarrita, extent }) {
  const z = ZARRITAS[zarrita];
  const map = new Map(files);
  // Copies: a store's bytes are never the fuzzer's own.
  const store = withN5({ get: async (key) => map.get(key)?.slice() }, { axes });
  let phase = "open";
  try {
    const arr = await z.open(z.root(store).resolve(path), { kind: "array" });
    phase = "read";
    const box = axes === "reversed" ? [...extent].reverse() : extent;
    const out = await z.get(arr, box.map((e) => z.slice(0, e)));
    return { phase, values: cOrderBytes(out), shape: out.shape };
  } catch (error) {
    let code;
    let message;
    try {
      for (let e = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
        if (typeof e.code === "string" && e.name === "ZarrCodecError") {
          code = e.code;
          message = e.message;
          break;
        }
      }
      message ??= String(error?.message ?? error).slice(0, 300);
    } catch {
      message = "(unreadable)";
    }
    return { phase, outcome: classify(error), code, message, stack: String(error?.stack ?? "").split("\n").slice(0, 4).join("\n") };
  }
}

parentPort.on("message", async (job) => {
  const result = await run(job);
  result.polluted = protoKeys() !== protoBefore;
  result.wasmMemoryBytes = diagnostics().wasmMemoryBytes();
  result.unhandled = unhandled;
  parentPort.postMessage(result);
});
parentPort.postMessage({ ready: true });
