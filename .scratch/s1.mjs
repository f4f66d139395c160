import * as zarr from "zarrita";
import { createReadScheduler, read, ready, register, diagnostics } from "../js/index.js";
import { writeArray } from "../tests/js/support/hand-store.js";
import { startNetworkServer } from "../tests/js/support/network-server.mjs";
await ready(); register(zarr.registry);
const side = 256;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 7 + 3) & 0xffff);
const files = new Map();
writeArray(files, "/s", { values, dataType: "uint16", shape: [side, side], chunkShape: [128, 128], fillValue: 0, fillElement: Uint16Array.of(0), sharding: { chunkShape: [32, 32] } });
const server = await startNetworkServer(files, { latencyMs: 20 });
const arr = await zarr.open(zarr.root(new zarr.FetchStore(server.url)).resolve("s"), { kind: "array" });
server.reset();
const scheduler = createReadScheduler({ maxRequests: 1 });
const s = zarr.slice;
const t0 = performance.now();
const order = [];
const reads = [
  ["low", -1, [s(0, 32), s(0, 32)]],
  ["high", 5, [s(32, 64), s(64, 96)]],
  ["mid", 1, [s(96, 128), s(96, 128)]],
].map(([name, priority, sel]) => read(arr, sel, { scheduler, priority, coalesce: {maxGapBytes: 0} }).then((r) => { order.push(name); return r; }));
const got = await Promise.all(reads);
console.log(order, (performance.now() - t0).toFixed(0), "ms");
console.log(server.requests().map((r) => `${r.method} ${r.range ?? ""}`));
console.log(scheduler.stats(), diagnostics().requests().scheduled);
await server.close();
