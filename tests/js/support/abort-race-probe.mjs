// Reads aborted at awkward moments, in a process of their own, where an
// unhandled rejection reaches `process.on("unhandledRejection")` (and
// would end a Node app run with the default --unhandled-rejections=throw):
//   - a read with `dtype` aborted right after it is called, while its plan
//     reads the array's zarr.json (a float32 array with a NaN fill): the
//     typed plan's promise (plan.js planOf: making.plan.then(typedPlanOf))
//     is given to untilAborted with a signal already aborted, which never
//     looks at it, and it rejects with the plan's AbortError;
//   - a sharded read aborted a few microtasks after its shard's index
//     arrives, between the index and the range coalescer: the coalescer's
//     promise for each inner chunk is given to untilAborted with a signal
//     already aborted, and rejects at the coalescer's flush.
// Prints one JSON line: { unhandled: { dtype: [name: message, ...],
// index: [...] }, reads, settled }.
//   node tests/js/support/abort-race-probe.mjs
import * as zarr from "zarrita";
import { read, ready, register } from "../../../js/index.js";
import { writeArray } from "./hand-store.js";
import { memoryStore } from "./memory-store.js";
import { startNetworkServer } from "./network-server.mjs";

const unhandled = { dtype: [], index: [] };
let phase = "dtype";
process.on("unhandledRejection", (e) => unhandled[phase].push(`${e?.name}: ${e?.message}`));
await ready();
register(zarr.registry);
const files = new Map();
const floats = Float32Array.from({ length: 64 * 64 }, (_, i) => i);
writeArray(files, "/nan", { values: floats, dataType: "float32", shape: [64, 64], chunkShape: [32, 32], fillValue: "NaN", fillElement: Float32Array.of(NaN) });
const ints = Uint16Array.from({ length: 128 * 128 }, (_, i) => i);
writeArray(files, "/sharded", { values: ints, dataType: "uint16", shape: [128, 128], chunkShape: [128, 128], fillValue: 0, fillElement: Uint16Array.of(0), sharding: { chunkShape: [32, 32] } });
const server = await startNetworkServer(files, { latencyMs: 5 });
let reads = 0;
let settled = 0;
async function settle(promise) {
  reads += 1;
  await promise.then(
    () => (settled += 1),
    () => (settled += 1),
  );
}
try {
  // A read with dtype, aborted as soon as it is called.
  for (let i = 0; i < 5; i++) {
    const arr = await zarr.open(zarr.root(new zarr.FetchStore(server.url)).resolve("nan"), { kind: "array" });
    const stop = new AbortController();
    const pending = read(arr, null, { dtype: "float64", signal: stop.signal });
    stop.abort();
    await settle(pending);
  }
  await new Promise((r) => setTimeout(r, 50));
  // A sharded read aborted n microtasks after its index arrives.
  phase = "index";
  const base = memoryStore([...files]);
  let onRange;
  const store = {
    get: (key, options) => base.get(key, options),
    getRange: async (key, range, options) => {
      const bytes = await base.getRange(key, range, options);
      onRange?.(range);
      return bytes;
    },
  };
  for (let n = 0; n < 12; n++) {
    const arr = await zarr.open(zarr.root(store).resolve("sharded"), { kind: "array" });
    await read(arr, [zarr.slice(0, 1), zarr.slice(0, 1)]);
    // A fresh array: its index not kept, its plan made anew (no request).
    const fresh = await zarr.open(zarr.root(store).resolve("sharded"), { kind: "array" });
    const stop = new AbortController();
    onRange = (range) => {
      if (range.suffixLength === undefined) return;
      let k = n;
      const tick = () => (k-- > 0 ? queueMicrotask(tick) : stop.abort());
      queueMicrotask(tick);
    };
    await settle(read(fresh, [zarr.slice(0, 64), zarr.slice(0, 64)], { signal: stop.signal }));
    onRange = undefined;
  }
  await new Promise((r) => setTimeout(r, 50));
} finally {
  await server.close();
}
console.log(JSON.stringify({ unhandled, reads, settled }));
process.exit(0);
