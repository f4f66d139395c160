// The compressed-chunk fuzzer's reader (tests/fuzz/js/compressed.mjs): a
// worker thread that opens each case's array with zarrita (0.7.5, 0.6.2 or
// 0.5.4, register(zarr.registry) on each; withN5 for N5) and reads each
// selection with zarr.get and with read, so that the main thread can stop
// a read that never ends (a deadline, then a new worker) and judge the
// results against the reference's.
import { parentPort } from "node:worker_threads";
import * as zarr7 from "zarrita";
import * as zarr6 from "zarrita-0.6";
import * as zarr5 from "zarrita-0.5";
import { read, ready, register, withN5 } from "../../../js/index.js";
import { classify } from "./outcomes.mjs";
import { serveJobs } from "./worker-jobs.mjs";
import { cOrderBytes } from "../../js/support/c-order-bytes.js";
import { copyingStore } from "./bytes.mjs";

await ready();
const ZARRITAS = { "0.7.5": zarr7, "0.6.2": zarr6, "0.5.4": zarr5 };
for (const z of Object.values(ZARRITAS)) register(z.registry);

function failure(error) {
  let code;
  let message;
  let name;
  try {
    for (let e = error, depth = 0; e && depth < 6; e = e.cause, depth++) {
      if (typeof e.code === "string" && e.name === "ZarrCodecError") {
        code = e.code;
        message = e.message;
        break;
      }
    }
    message ??= String(error?.message ?? error).slice(0, 400);
    name = error?.name;
  } catch {
    message = "(unreadable)";
  }
  return { error: classify(error), code, message, name, stack: String(error?.stack ?? "").split("\n").slice(0, 6).join("\n") };
}

async function run({ files, path, format, zarrita, selections }) {
  const z = ZARRITAS[zarrita];
  const map = new Map(files);
  // Copies: a store's bytes are never the fuzzer's own.
  const base = copyingStore(map);
  const store = format === "n5" ? withN5(base) : base;
  const location = z.root(store).resolve(path);
  let arr;
  try {
    arr = await (format === "v2" ? z.open.v2(location, { kind: "array" }) : z.open(location, { kind: "array" }));
  } catch (error) {
    return { open: failure(error) };
  }
  const results = [];
  for (const [i, box] of selections.entries()) {
    parentPort.postMessage({ progress: i });
    const selection = box && box.map(([start, stop]) => z.slice(start, stop));
    const out = {};
    for (const [how, get] of [["get", () => z.get(arr, selection)], ["read", () => read(arr, selection)]]) {
      try {
        const result = await get();
        out[how] = { bytes: cOrderBytes(result), shape: result.shape };
      } catch (error) {
        out[how] = failure(error);
      }
    }
    results.push(out);
  }
  return { results };
}

serveJobs(run, failure);
