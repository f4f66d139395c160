// Reads with a signal in a process of their own, where Node's warnings
// reach `process.on("warning")` (a Jest test's `process` is not the one
// Node warns on): a sharded read of 64 inner chunks, a cached read of 16
// chunks, and 100 reads sharing one signal, over a loopback server. Prints
// one JSON line: { warnings: [name: message, ...], checked: n } where
// `checked` counts the reads whose values matched the array as written.
//   node tests/js/support/abort-listeners-probe.mjs
import * as zarr from "zarrita";
import { createChunkCache, read, ready, register } from "../../../js/index.js";
import { writeArray } from "./hand-store.js";
import { startNetworkServer } from "./network-server.mjs";

const warnings = [];
process.on("warning", (w) => warnings.push(`${w.name}: ${w.message}`));
await ready();
register(zarr.registry);
const side = 128;
const values = Uint16Array.from({ length: side * side }, (_, i) => (i * 13 + 5) & 0xffff);
const files = new Map();
const common = { values, dataType: "uint16", shape: [side, side], fillValue: 0, fillElement: Uint16Array.of(0) };
writeArray(files, "/plain", { ...common, chunkShape: [32, 32] });
writeArray(files, "/sharded", { ...common, chunkShape: [128, 128], sharding: { chunkShape: [16, 16] } });
const server = await startNetworkServer(files);
let checked = 0;
const rows = (r0, r1) => values.subarray(r0 * side, r1 * side);
const same = (got, want) => got.length === want.length && got.every((v, i) => v === want[i]);
try {
  const open = (path) => zarr.open(zarr.root(new zarr.FetchStore(server.url)).resolve(path), { kind: "array" });
  const sharded = await open("sharded");
  const plain = await open("plain");
  const one = new AbortController();
  if (same((await read(sharded, null, { signal: one.signal })).data, values)) checked += 1;
  const shared = new AbortController();
  const cache = createChunkCache();
  if (same((await read(plain, null, { signal: shared.signal, cache })).data, values)) checked += 1;
  const many = await Promise.all(
    Array.from({ length: 100 }, (_, i) => read(i % 2 ? plain : sharded, [zarr.slice((i % 8) * 16, (i % 8) * 16 + 16), null], { signal: shared.signal })),
  );
  many.forEach((got, i) => {
    if (same(got.data, rows((i % 8) * 16, (i % 8) * 16 + 16))) checked += 1;
  });
  // Warnings are emitted on a later tick.
  await new Promise((r) => setTimeout(r, 50));
} finally {
  await server.close();
}
console.log(JSON.stringify({ warnings, checked }));
