// The demo and the Node examples run and say what they should.
import { expect, jest, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { makeImage } from "../../examples/sample-store.mjs";
import { ROOT } from "./support/browser.js";

jest.setTimeout(60000);
const run = (script, args = []) => execFileSync("node", [script, ...args], { cwd: ROOT, encoding: "utf8" });

test("npm run demo's script verifies every value and reports sizes and speed", () => {
  const out = run("examples/demo.mjs");
  // sizes worked by hand: 512x512 values; 12 of 16 bits, 1 of 8, 4 of 8, 8 of 32
  expect(out).toMatch(/image +uint16 +packbits \{"last_bit":11\} +384 KiB stored vs {2}512 KiB as uint16 \(75\.0%\), values verified: all 262144/);
  expect(out).toMatch(/mask +bool +packbits \{\} +32 KiB stored vs {2}256 KiB as bool \(12\.5%\), values verified: all 262144/);
  expect(out).toMatch(/weights +int4 -> int8 +packbits \{\} +128 KiB stored vs {2}256 KiB as int8 \(50\.0%\), values verified: all 262144/);
  expect(out).toMatch(/activations float8_e4m3 -> float32 bytes \{\} +256 KiB stored vs 1024 KiB as float32 \(25\.0%\), values verified: all 262144/);
  expect(out).toMatch(/decode a 128x128 12-bit image chunk: wasm [\d.]+ us .* tuned JS [\d.]+ us: [\d.]+x/);
  expect(out).toMatch(/decode a 128x128 float8_e4m3 chunk to float32: wasm [\d.]+ us .* tuned JS [\d.]+ us: [\d.]+x/);
  expect(out).toContain("npm run viewer");
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

test("examples/node/read-local-store.mjs reads the sample store from disk", () => {
  const out = run("examples/node/read-local-store.mjs");
  expect(out).toContain("image: uint16 512x512, chunks 128x128");
  const image = makeImage();
  const mean = image.reduce((a, b) => a + b, 0) / image.length;
  const min = image.reduce((a, b) => Math.min(a, b));
  const max = image.reduce((a, b) => Math.max(a, b));
  expect(out).toContain(`whole array: min ${min}, max ${max}, mean ${mean.toFixed(2)}`);
  const row = Array.from({ length: 10 }, (_, i) => image[100 * 512 + 200 + i]).join(" ");
  expect(out).toContain(`region [100:110, 200:210], first row: ${row}`);
});
