// Reading a local Zarr store in a Node script: zarrita's filesystem store,
// with the wasm codecs registered.
//
//   node examples/node/read-local-store.mjs [path/to/store.zarr [array]]
//
// Without arguments it writes the sample store to a temporary folder first.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { register } from "zarr-codecs-wasm";
import { writeSampleStore } from "../sample-store.mjs";

register(zarr.registry);

let [path, name = "image"] = process.argv.slice(2);
if (!path) {
  path = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-example-"));
  await writeSampleStore(new FileSystemStore(path));
  console.log(`wrote the sample store to ${path}`);
}

const store = new FileSystemStore(path);
const arr = await zarr.open(zarr.root(store).resolve(name), { kind: "array" });
console.log(`${name}: ${arr.dtype} ${arr.shape.join("x")}, chunks ${arr.chunks.join("x")}`);

// A region: rows 100..109, columns 200..209.
const region = await zarr.get(arr, [zarr.slice(100, 110), zarr.slice(200, 210)]);
console.log(`region [100:110, 200:210], first row: ${Array.from({ length: 10 }, (_, i) => region.data.get?.(i) ?? region.data[i]).join(" ")}`);

// The whole array, and a summary of it.
const { data } = await zarr.get(arr);
let min = Infinity, max = -Infinity, sum = 0;
for (let i = 0; i < data.length; i++) {
  const v = Number(data.get?.(i) ?? data[i]);
  min = Math.min(min, v);
  max = Math.max(max, v);
  sum += v;
}
console.log(`whole array: min ${min}, max ${max}, mean ${(sum / data.length).toFixed(2)}`);
