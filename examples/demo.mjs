// npm run demo: writes a big-endian Zarr v3 array with zarrita, reads it back
// through the wasm codecs, checks every value, and reports what happened.
import * as zarr from "zarrita";
import { register } from "../js/index.js";

const shape = [1024, 1024];
const chunkShape = [256, 256];
const values = Float32Array.from({ length: shape[0] * shape[1] }, (_, i) =>
  Math.sin(i / 977) * 1000,
);

async function writeAndRead(label) {
  const store = new Map();
  const location = zarr.root(store).resolve("image");
  const arr = await zarr.create(location, {
    shape,
    chunkShape,
    dtype: "float32",
    codecs: [{ name: "bytes", configuration: { endian: "big" } }],
    fillValue: 0,
  });
  await zarr.set(arr, null, { data: values, shape, stride: [shape[1], 1] });
  const reopened = await zarr.open(location, { kind: "array" });
  let best = Infinity;
  let result;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    result = await zarr.get(reopened);
    best = Math.min(best, performance.now() - t0);
  }
  let stored = 0;
  for (const [key, bytes] of store) if (key.includes("/c/")) stored += bytes.byteLength;
  return { label, best, result, stored, chunks: store.size - 1 };
}

const before = await writeAndRead("zarrita's JS bytes codec");
register(zarr.registry);
const after = await writeAndRead("zarr-codecs-wasm bytes codec");

const same = (a, b) =>
  Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength),
    Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
const verified = same(after.result.data, values) && same(before.result.data, values);

console.log(`zarr-codecs-wasm demo (Node ${process.version})`);
console.log(`array: float32 ${shape.join("x")}, chunks ${chunkShape.join("x")}, codecs [bytes endian=big]`);
console.log(`stored: ${after.chunks} chunks, ${(after.stored / 2 ** 20).toFixed(1)} MiB, big-endian`);
console.log(`values verified against the source array: ${verified ? "all" : "MISMATCH"} (${values.length} values)`);
for (const r of [before, after]) {
  console.log(`  read with ${r.label.padEnd(30)} ${r.best.toFixed(2)} ms (best of 5, whole array)`);
}
console.log(`  ratio: ${(before.best / after.best).toFixed(2)}x`);
if (!verified) process.exit(1);
