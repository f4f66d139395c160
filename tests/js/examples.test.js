// The demo and the Node examples run and say what they should; every value
// they print is recomputed here from the sample generator's formulas.
import { afterAll, beforeAll, expect, jest, test } from "@jest/globals";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { availableParallelism, tmpdir } from "node:os";
import {
  DETECTION_FIELDS, LABELS, makeActivations, makeDetections, makeImage, makeMask, makeWeights,
} from "../../examples/sample-store.mjs";
import { ROOT } from "./support/browser.js";

jest.setTimeout(60000);
// The children write their stores into a temporary folder of their own
// (TMPDIR): examples-temp-files.test.js, running alongside, checks that
// no demo or example folder reaches the shared one.
let temp;
beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), "examples-run-"));
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));
const childOptions = () => ({ cwd: ROOT, encoding: "utf8", env: { ...process.env, TMPDIR: temp } });
const run = (script, args = []) => execFileSync("node", [script, ...args], childOptions());

// createReadPool()'s size: the cores less one, where the package can count
// them (navigator from Node 21, process.getBuiltinModule from 20.16), else 4 less one.
const countable = globalThis.navigator !== undefined || typeof process.getBuiltinModule === "function";
const DEFAULT_WORKERS = countable ? Math.max(1, availableParallelism() - 1) : 3;

test("npm run demo's script verifies every value and reports sizes and speed", () => {
  const out = run("examples/demo.mjs");
  // sizes worked by hand: 512x512 values; 12 of 16 bits, 1 of 8, 4 of 8, 8 of 32
  expect(out).toMatch(/image +uint16 +packbits \{"last_bit":11\} +384 KiB stored vs {2}512 KiB as uint16 \(1\.33x smaller\), values verified: all 262144/);
  expect(out).toMatch(/mask +bool +packbits \{\} +32 KiB stored vs {2}256 KiB as bool \(8\.00x smaller\), values verified: all 262144/);
  expect(out).toMatch(/weights +int4 -> int8 +packbits \{\} +128 KiB stored vs {2}256 KiB as int8 \(2\.00x smaller\), values verified: all 262144/);
  expect(out).toMatch(/activations float8_e4m3 -> float32 +bytes \{\} +256 KiB stored vs 1024 KiB as float32 \(4\.00x smaller\), values verified: all 262144/);
  // 64 records of 4 + 4 + 2 + 32 bytes, stored and presented alike
  expect(out).toMatch(/detections +struct -> uint8 +bytes \{"endian":"little"\} +2688 B stored vs +2688 B as uint8 \(the same size\), values verified: all 64 records \(x, y, score, label\)/);
  // 8 strings of 32 bytes stored; presented as JavaScript strings: 50 UTF-16 units (🦠 takes two), 2 bytes each: 256 / 100
  expect(out).toMatch(/labels +fixed_length_utf32 -> v2:object +bytes \{"endian":"little"\} +256 B stored vs +100 B as v2:object \(2\.56x larger\), values verified: all 8; read [\d.]+ ms \(zarr\.get [\d.]+ ms\)\n/);
  expect(out).not.toMatch(/%/);
  // the compressed image: 2048x2048 uint16 is 8 MiB in (2048 / 256)^2 = 64 chunks
  expect(out).toMatch(/compressed: a 2048x2048 uint16 image in 256x256 chunks \(64\), zstd level 3, written by zarrita alone: [\d.]+ MiB stored vs 8\.0 MiB \([\d.]+x smaller\), values verified by each read below: all 4194304\n/);
  const times = "[\\d.]+ ms \\([\\d.]+x (?:faster|slower)\\)";
  expect(out).toMatch(new RegExp(`  zarrita alone \\(its own zstd, numcodecs\\.js\\) [\\d.]+ ms; registered: zarr\\.get ${times}, ` +
    "read [\\d.]+ ms \\([\\d.]+x (?:faster|slower); its 64 chunks decompressed in wasm\\)\n"));
  expect(out).toMatch(new RegExp(`  read on this thread [\\d.]+ ms; through a read pool of 1 worker ${times}, of 2 workers ${times}; ` +
    "this thread's longest pause during a read: [\\d.]+ ms on it, [\\d.]+ ms with 2 workers\n"));
  expect(out).toContain("a pool pays where a read has many chunks that each cost a decode (zstd, gzip), and it keeps this thread free;\n" +
    `  createReadPool() starts the cores less one (${DEFAULT_WORKERS} here): on 2 cores that is one worker, `);
  expect(out).toMatch(/decode a 128x128 12-bit image chunk: wasm [\d.]+ us .* tuned JS [\d.]+ us: [\d.]+x/);
  expect(out).toMatch(/decode a 128x128 float8_e4m3 chunk to float32: wasm [\d.]+ us .* tuned JS [\d.]+ us: [\d.]+x/);
  expect(out).toContain("npm run viewer");
  expect(out).not.toContain("MISMATCH");
  // the store's folder is gone by the end: the demo does not name it
  expect(out).toContain("to a temporary folder, removed when the demo ends");
  expect(out).not.toContain(temp);
});

test("examples/node/direct-codecs.mjs", () => {
  const out = run("examples/node/direct-codecs.mjs");
  expect(out).toContain("uint16 12-bit: 8192 bytes -> 6144 packed");
  expect(out).toContain("exact: true");
  expect(out).toContain("int4 weights from bytes 8F 10 7E: [-1, -8, 0, 1, -2, 7]");
  expect(out).toContain("float4_e2m1fn from bytes 21 F7: [0.5, 1, 6, -6]");
  expect(out).toContain("float64 big-endian 40 09 21 FB 54 44 2D 18: 3.141592653589793");
  expect(out).toContain("LENGTH_MISMATCH: packbits: uint16 bits 0..11 shape [64, 64] needs 6144 bytes, got 6143");
});

// The summary lines of a numeric array, from its values.
function numericSummary(values) {
  let min = Infinity, max = -Infinity, sum = 0;
  for (const v of values) {
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
  }
  const row = Array.from({ length: 10 }, (_, i) => values[100 * 512 + 200 + i]).join(" ");
  return `  region [100:110, 200:210], first row: ${row}\n  whole array: min ${min}, max ${max}, mean ${(sum / values.length).toFixed(2)}\n`;
}

test("examples/node/read-local-store.mjs reads every array of the sample store through withDataTypes", () => {
  const out = run("examples/node/read-local-store.mjs");
  const image = makeImage();
  expect(out).toContain(`image: uint16 512x512, chunks 128x128\n${numericSummary(image)}`);
  expect(out).toContain(`mask: bool 512x512, chunks 128x128\n${numericSummary(makeMask(image))}`);
  expect(out).toContain(`weights: int4 (read as int8) 512x512, chunks 128x128\n${numericSummary(makeWeights())}`);
  expect(out).toContain(`activations: float8_e4m3 (read as float32) 512x512, chunks 128x128\n${numericSummary(makeActivations())}`);

  const type = `struct {${DETECTION_FIELDS.map((f) => `${f.name}: ${typeof f.data_type === "string" ? f.data_type : `${f.data_type.name} (${f.data_type.configuration.length_bytes} B)`}`).join(", ")}}`;
  const rows = makeDetections().slice(0, 3).map((d, i) =>
    // float32 and float16 hold the sample's values exactly
    `  [${i}] x=${Math.fround(d.x)} y=${Math.fround(d.y)} score=${d.score} label=${JSON.stringify(d.label)}\n`).join("");
  // Node 20 has no Float16Array: float16 fields come as Float32Array
  const score = typeof globalThis.Float16Array === "function" ? "Float16Array" : "Float32Array";
  expect(out).toContain(`detections: ${type} (read as uint8, 42 bytes a record) 64, chunks 16\n` +
    `  fields: x (Float32Array), y (Float32Array), score (${score}), label (Array)\n${rows}`);
  expect(out).toContain(`labels: fixed_length_utf32 (32 B) (read as v2:object) 8, chunks 4\n  values: ${LABELS.map((l) => JSON.stringify(l)).join(", ")}\n`);
});

test("examples/node/read-local-store.mjs names a missing array and fails", () => {
  const { status, stdout, stderr } = spawnSync("node", ["examples/node/read-local-store.mjs", "--sample", "nowhere"], childOptions());
  expect(status).toBe(1);
  expect(stdout).toBe("wrote the sample store to a temporary folder (removed at the end)\n");
  expect(stderr).toMatch(/^read-local-store: NOT_FOUND: array "nowhere": withDataTypes: no Zarr array or group at \/nowhere \(.*\/nowhere\/\): /);
});
