// zarr.get through withScheduler, aborted at several moments (before, during
// and after a shard's index arrives), on every zarrita, in a process of its
// own where unhandled rejections reach process.on("unhandledRejection").
// Prints one JSON line: { gets, settled, unhandled: [...] }.
//   node tests/js/support/with-scheduler-probe.mjs
import { createReadScheduler, ready, register, withScheduler } from "../../../js/index.js";
import { writeArray } from "./hand-store.js";
import { startNetworkServer } from "./network-server.mjs";
import { ZARRITAS } from "./zarritas.js";

const unhandled = [];
process.on("unhandledRejection", (e) => unhandled.push(`${e?.name ?? "?"}: ${e?.message ?? e}`));
await ready();
const side = 256;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 7 + 3) & 0xffff);
const files = new Map();
const common = { values, dataType: "uint16", shape: [side, side], fillValue: 0, fillElement: Uint16Array.of(0) };
writeArray(files, "/s", { ...common, chunkShape: [128, 128], sharding: { chunkShape: [32, 32] } });
writeArray(files, "/plain", { ...common, chunkShape: [64, 64] });
const server = await startNetworkServer(files, { latencyMs: 3 });
let gets = 0;
let settled = 0;
try {
  for (const [, zarr] of ZARRITAS) {
    register(zarr.registry);
    const scheduler = createReadScheduler({ maxRequests: 2 });
    for (const useSuffixRequest of [false, true]) {
      const store = withScheduler(new zarr.FetchStore(server.url, { useSuffixRequest }), scheduler);
      for (const path of ["s", "plain"]) {
        for (const abortAfterMs of [0, 8]) {
          const arr = await zarr.open(zarr.root(store).resolve(path), { kind: "array" });
          const controller = new AbortController();
          gets += 1;
          const get = zarr.get(arr, [zarr.slice(0, 160), null], { signal: controller.signal, opts: { signal: controller.signal } }).then(
            () => (settled += 1),
            () => (settled += 1),
          );
          setTimeout(() => controller.abort(), abortAfterMs);
          await Promise.race([get, new Promise((r) => setTimeout(r, 10_000))]);
        }
      }
    }
  }
  // Rejections are reported unhandled a turn later.
  await new Promise((r) => setTimeout(r, 200));
} finally {
  await server.close();
}
console.log(JSON.stringify({ gets, settled, unhandled }));
// Keep-alive sockets (fetch's) would hold the process a few seconds more.
process.exit(0);
