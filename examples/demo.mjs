// npm run demo: writes the sample store (a 12-bit camera image and a bool
// mask, both packbits) with zarrita and the wasm codecs, reads it back,
// verifies every value, and reports sizes and decode speed.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { PackBitsCodec, register } from "../js/index.js";
import { sideBySide } from "../bench/timing.mjs";
import { ARRAYS, CHUNKS, SHAPE, writeSampleStore } from "./sample-store.mjs";

register(zarr.registry);

function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(p);
    else if (entry.name !== "zarr.json") total += statSync(p).size;
  }
  return total;
}

const dir = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-demo-"));
const store = new FileSystemStore(dir);
const { image, mask } = await writeSampleStore(store);

console.log(`zarr-codecs-wasm demo (Node ${process.version})`);
console.log(`wrote ${dir}: two ${SHAPE.join("x")} arrays in ${CHUNKS.join("x")} chunks, Zarr v3, codec packbits`);

let allVerified = true;
for (const [name, expected] of [["image", image], ["mask", mask]]) {
  const arr = await zarr.open(zarr.root(store).resolve(name), { kind: "array" });
  const { data } = await zarr.get(arr);
  const got = name === "mask" ? Uint8Array.from(data, Number) : data;
  const verified = got.length === expected.length && got.every((v, i) => v === expected[i]);
  allVerified &&= verified;
  const packed = bytesUnder(join(dir, name));
  const unpacked = expected.length * (name === "image" ? 2 : 1);
  const config = JSON.stringify(ARRAYS[name].codecs[0].configuration);
  console.log(`  ${name.padEnd(5)} ${arr.dtype.padEnd(6)} packbits ${config.padEnd(15)} ` +
    `${(packed / 1024).toFixed(0).padStart(4)} KiB stored vs ${(unpacked / 1024).toFixed(0).padStart(4)} KiB unpacked (${(packed / unpacked * 100).toFixed(1)}%), ` +
    `values verified: ${verified ? `all ${expected.length}` : "MISMATCH"}`);
}

// Decode speed on one chunk of each, against a straightforward JS loop.
const chunkPixels = CHUNKS[0] * CHUNKS[1];
const image12 = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: CHUNKS });
const imageChunk = image12.encode({ data: image.slice(0, chunkPixels) });
const maskCodec = PackBitsCodec.fromConfig({}, { dataType: "bool", shape: CHUNKS });
const maskChunk = maskCodec.encode({ data: mask.slice(0, chunkPixels) });
const js12 = (p) => {
  const out = new Uint16Array(chunkPixels);
  for (let i = 0, j = 0; i < chunkPixels; i += 2, j += 3) {
    out[i] = p[j] | ((p[j + 1] & 15) << 8);
    out[i + 1] = (p[j + 1] >> 4) | (p[j + 2] << 4);
  }
  return out;
};
const jsBool = (p) => {
  const out = new Uint8Array(chunkPixels);
  for (let i = 0; i < chunkPixels; i++) out[i] = (p[i >> 3] >> (i & 7)) & 1;
  return out;
};
for (const [label, wasmDecode, jsDecode, bytes] of [
  ["12-bit image chunk", () => image12.decode(imageChunk), () => js12(imageChunk), chunkPixels * 2],
  ["bool mask chunk", () => maskCodec.decode(maskChunk), () => jsBool(maskChunk), chunkPixels],
]) {
  const { wasm, js } = sideBySide({ wasm: wasmDecode, js: jsDecode });
  console.log(`  decode a ${CHUNKS.join("x")} ${label}: wasm ${(wasm / 1000).toFixed(1)} us (${(bytes / wasm).toFixed(2)} GB/s), ` +
    `plain JS ${(js / 1000).toFixed(1)} us: ${(js / wasm).toFixed(1)}x`);
}
console.log("  (best of 7 interleaved rounds; `npm run bench` measures every case and size)");
console.log("viewer: `npm run viewer` serves examples/viewer/ and prints its URL (12-bit image with the mask overlaid)");
rmSync(dir, { recursive: true, force: true });
if (!allVerified) process.exit(1);
