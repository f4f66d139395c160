// npm run demo: writes the sample store (a 12-bit camera image and a bool
// mask with packbits, int4 weights and float8_e4m3 activations zarrita
// cannot open by itself) with zarrita and the wasm codecs, reads every
// array back (the last two through withDataTypes), verifies every value,
// and reports sizes and decode speed against tuned JavaScript.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { PackBitsCodec, register, storedDataType, widenToFloat32, withDataTypes } from "../js/index.js";
import { decodePeers, widenPeers } from "../bench/peers.mjs";
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

// Equal values, NaN included; -0 and 0 told apart.
const same = (a, b) => Object.is(a, b) || a === b && (a !== 0 || 1 / a === 1 / b);

const dir = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-demo-"));
const store = new FileSystemStore(dir);
const written = await writeSampleStore(store);
// Through withDataTypes zarrita opens every type; the types it reads
// itself (uint16, bool) pass through untouched.
const typed = withDataTypes(store);

console.log(`zarr-codecs-wasm demo (Node ${process.version})`);
console.log(`wrote ${dir}: four ${SHAPE.join("x")} arrays in ${CHUNKS.join("x")} chunks, Zarr v3`);

let allVerified = true;
for (const name of Object.keys(ARRAYS)) {
  const arr = await zarr.open.v3(zarr.root(typed).resolve(name), { kind: "array" });
  const { data } = await zarr.get(arr);
  const expected = written[name];
  const got = name === "mask" ? Uint8Array.from(data, Number) : data;
  const verified = got.length === expected.length && got.every((v, i) => same(v, expected[i]));
  allVerified &&= verified;
  const stored = storedDataType(arr) ?? arr.dtype;
  const type = stored === arr.dtype ? arr.dtype : `${stored} -> ${arr.dtype}`;
  const packed = bytesUnder(join(dir, name));
  const presented = data.byteLength ?? expected.length;
  const codec = ARRAYS[name].codecs[0];
  console.log(`  ${name.padEnd(11)} ${type.padEnd(22)} ${`${codec.name} ${JSON.stringify(codec.configuration)}`.padEnd(25)} ` +
    `${(packed / 1024).toFixed(0).padStart(4)} KiB stored vs ${(presented / 1024).toFixed(0).padStart(4)} KiB as ${arr.dtype} (${(packed / presented * 100).toFixed(1)}%), ` +
    `values verified: ${verified ? `all ${expected.length}` : "MISMATCH"}`);
}

// Decode speed on one chunk of each kind, against tuned JavaScript (lookup
// tables and 32-bit words: the benchmark's peers, checked there).
const pixels = CHUNKS[0] * CHUNKS[1];
const image12 = PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: CHUNKS });
const imageChunk = image12.encode({ data: written.image.slice(0, pixels) });
const maskCodec = PackBitsCodec.fromConfig({}, { dataType: "bool", shape: CHUNKS });
const maskChunk = maskCodec.encode({ data: written.mask.slice(0, pixels) });
const activationChunk = new Uint8Array(await store.get("/activations/c/0/0"));
for (const [label, wasmDecode, jsDecode, bytes] of [
  ["12-bit image chunk", () => image12.decode(imageChunk), () => decodePeers.tuned["uint16 12-bit"](imageChunk, pixels), pixels * 2],
  ["bool mask chunk", () => maskCodec.decode(maskChunk), () => decodePeers.tuned.bool(maskChunk, pixels), pixels],
  ["float8_e4m3 chunk to float32", () => widenToFloat32("float8_e4m3", activationChunk), () => widenPeers["float8_e4m3 (bytes)"].tuned(activationChunk), pixels * 4],
]) {
  const { wasm, js } = sideBySide({ wasm: wasmDecode, js: jsDecode });
  console.log(`  decode a ${CHUNKS.join("x")} ${label}: wasm ${(wasm / 1000).toFixed(1)} us (${(bytes / wasm).toFixed(2)} GB/s), ` +
    `tuned JS ${(js / 1000).toFixed(1)} us: ${(js / wasm).toFixed(1)}x`);
}
console.log("  (best of 15 interleaved rounds; `npm run bench` measures every case and size)");
console.log("viewer: `npm run viewer` serves examples/viewer/ and prints its URL (any array of the store, e.g. ?array=weights)");
rmSync(dir, { recursive: true, force: true });
if (!allVerified) process.exit(1);
