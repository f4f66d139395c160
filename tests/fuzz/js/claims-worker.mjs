// The hostile-claims fuzzer's reader (tests/fuzz/js/claims.mjs): a worker
// thread that opens each case's array (zarrita 0.7.5 or 0.6.2, the package
// registered; withDataTypes for v3 variable_length_bytes, withN5 for N5)
// and reads each selection with zarr.get and with read, noting how much
// wasm memory each read grew this thread's instance by: that instance is
// the one that decoded.
import { parentPort } from "node:worker_threads";
import * as zarr7 from "zarrita";
import * as zarr6 from "zarrita-0.6";
import { diagnostics, read, ready, register, withDataTypes, withN5 } from "../../../js/index.js";
import { failureOf, openJobArray, serveJobs } from "./worker-jobs.mjs";
import { cOrderBytes } from "../../js/support/c-order-bytes.js";
import { copyingStore } from "./bytes.mjs";

await ready();
const ZARRITAS = { "0.7.5": zarr7, "0.6.2": zarr6 };
for (const z of Object.values(ZARRITAS)) register(z.registry);


const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");

/** A result's values, comparable: strings, bytes as hex, numbers as their little-endian bytes. */
function valuesOf(result) {
  if (Array.isArray(result.data)) {
    return result.data.map((v) => (typeof v === "string" ? `s:${v}` : v instanceof Uint8Array ? `b:${hex(v)}` : `?:${String(v)}`));
  }
  return [`n:${hex(cOrderBytes(result))}`];
}

async function run({ files, path, format, dataTypes, zarrita, selections }) {
  const z = ZARRITAS[zarrita];
  const map = new Map(files);
  let store = copyingStore(map);
  if (format === "n5") store = withN5(store);
  if (dataTypes) store = withDataTypes(store);
  const opened = await openJobArray(z, store, path, format);
  if (!opened.arr) return opened;
  const { arr } = opened;
  const results = [];
  for (const [i, [start, stop]] of selections.entries()) {
    parentPort.postMessage({ progress: i });
    const out = {};
    for (const [how, get] of [["get", () => z.get(arr, [z.slice(start, stop)])], ["read", () => read(arr, [z.slice(start, stop)])]]) {
      const before = diagnostics().wasmMemoryBytes();
      try {
        out[how] = { values: valuesOf(await get()) };
      } catch (error) {
        out[how] = failureOf(error);
      }
      out[how].grew = diagnostics().wasmMemoryBytes() - before;
    }
    results.push(out);
  }
  return { results };
}

serveJobs(run, failureOf);
