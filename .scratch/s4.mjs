import { ZARRITAS } from "../tests/js/support/zarritas.js";
import { createReadScheduler, ready, register, withScheduler } from "../js/index.js";
import { writeArray } from "../tests/js/support/hand-store.js";
import { startNetworkServer } from "../tests/js/support/network-server.mjs";
const unhandled = []; process.on("unhandledRejection", (e) => unhandled.push(String(e?.name ?? e)));
await ready();
const side = 256;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 7 + 3) & 0xffff);
const files = new Map();
writeArray(files, "/s", { values, dataType: "uint16", shape: [side, side], chunkShape: [128, 128], fillValue: 0, fillElement: Uint16Array.of(0), sharding: { chunkShape: [32, 32] } });
const server = await startNetworkServer(files, { latencyMs: 20 });
for (const [version, zarr] of ZARRITAS) {
  for (const wrap of [false, true]) {
    const scheduler = createReadScheduler({ maxRequests: 2 });
    const store = wrap ? withScheduler(new zarr.FetchStore(server.url), scheduler) : new zarr.FetchStore(server.url);
    const arr = await zarr.open(zarr.root(store).resolve("s"), { kind: "array" });
    const before = unhandled.length;
    const c = new AbortController();
    const p = zarr.get(arr, null, { signal: c.signal, opts: { signal: c.signal } }).then(() => "resolved", (e) => e.name);
    setTimeout(() => c.abort(), Number(process.argv[2] ?? 15));
    const out = await p;
    await new Promise((r) => setTimeout(r, 300));
    console.log(version, wrap ? "wrapped" : "alone  ", out, "unhandled:", unhandled.length - before, wrap ? JSON.stringify(scheduler.stats()) : "");
  }
}
await server.close();
