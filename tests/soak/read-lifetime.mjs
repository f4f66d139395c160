// read()'s codecs live as long as the array they read (tests/js/read/
// read-lifetime.test.js runs this with --expose-gc): collections between
// reads must not free a codec read still uses (a freed codec would decode
// with whatever the heap holds), and once the arrays are dropped their
// codecs are freed. Prints one JSON line: { wrong, liveBefore, liveWhileHeld,
// liveAfterDrop }.
import * as zarr from "zarrita";
import { diagnostics, read, ready, register, withDataTypes } from "../../js/index.js";
import { writeArray } from "../js/support/hand-store.js";
import { memoryStore } from "../js/support/memory-store.js";
import { randomBytes } from "../js/support/reference.js";

const rounds = Number(process.argv[2] ?? 50);
await ready();
register(zarr.registry);
const collect = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 0));
  }
};

const values = new Int8Array(randomBytes(24 * 20, 1).buffer).map((v) => (v << 28) >> 28);
const store = memoryStore();
writeArray(store, "/int4", { values, shape: [24, 20], chunkShape: [8, 8], dataType: "int4", fillValue: 0, fillElement: Int8Array.of(0), arrayToBytes: { name: "packbits", bits: 4 } });
const big = new Uint16Array(randomBytes(2 * 24 * 20, 2).buffer);
writeArray(store, "/be", { values: big, shape: [24, 20], chunkShape: [8, 8], dataType: "uint16", fillValue: 0, fillElement: Uint16Array.of(0), arrayToBytes: { name: "bytes", endian: "big" } });

await collect();
const liveBefore = diagnostics().liveInstances();
let wrong = 0;
let liveWhileHeld = 0;
// In a function of its own, so that no frame of this module holds an array
// once it returns.
async function readRounds() {
  const held = [];
  for (let r = 0; r < rounds; r++) {
    const wrapped = withDataTypes(store);
    const a = await zarr.open(zarr.root(wrapped).resolve("int4"), { kind: "array" });
    const b = await zarr.open(zarr.root(store).resolve("be"), { kind: "array" });
    held.push(a, b);
    for (let k = 0; k < 3; k++) {
      const [x, y] = [await read(a), await read(b)];
      if (x.data.some((v, i) => v !== values[i]) || y.data.some((v, i) => v !== big[i])) wrong += 1;
      await collect(); // plans, and their codecs, are held by the arrays alone
    }
  }
  liveWhileHeld = diagnostics().liveInstances();
}
await readRounds();
await collect();
await collect();
console.log(JSON.stringify({ wrong, liveBefore, liveWhileHeld, liveAfterDrop: diagnostics().liveInstances() }));
