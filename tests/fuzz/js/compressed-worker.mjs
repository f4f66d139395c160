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
import { failureOf, openJobArray, serveJobs } from "./worker-jobs.mjs";
import { cOrderBytes } from "../../js/support/c-order-bytes.js";
import { copyingStore } from "./bytes.mjs";

await ready();
const ZARRITAS = { "0.7.5": zarr7, "0.6.2": zarr6, "0.5.4": zarr5 };
for (const z of Object.values(ZARRITAS)) register(z.registry);


async function run({ files, path, format, zarrita, selections }) {
  const z = ZARRITAS[zarrita];
  const map = new Map(files);
  // Copies: a store's bytes are never the fuzzer's own.
  const base = copyingStore(map);
  const store = format === "n5" ? withN5(base) : base;
  const opened = await openJobArray(z, store, path, format);
  if (!opened.arr) return opened;
  const { arr } = opened;
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
        out[how] = failureOf(error);
      }
    }
    results.push(out);
  }
  return { results };
}

serveJobs(run, failureOf);
