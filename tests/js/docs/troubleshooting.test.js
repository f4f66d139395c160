// The troubleshooting table (docs/troubleshooting.md) lists the messages users really get:
// each mistake is made on zarrita 0.5.4, 0.6.1, 0.6.2 and 0.7.5 (each in a
// process of its own, so that no registration of another case leaks in),
// and what that zarrita throws must be a message the table shows, in its
// "you see" column, for that version.
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals";
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { register } from "../../../js/index.js";
import { writeSampleStore } from "../../../examples/sample-store.mjs";
import { ROOT } from "../support/browser.js";

jest.setTimeout(120000);

const VERSIONS = [
  ["0.5.4", "zarrita-0.5"],
  ["0.6.1", "zarrita-0.6.1"],
  ["0.6.2", "zarrita-0.6"],
  ["0.7.5", "zarrita"],
];
const ZARRITA_07 = "0.7.5";

// The "you see" cells of the troubleshooting table, and the code spans in
// them.
function troubleshootingCells() {
  const page = readFileSync(join(ROOT, "docs/troubleshooting.md"), "utf8");
  const section = /^## What you see\n([\s\S]*?)^## /m.exec(page)[1];
  const rows = section.split("\n").filter((line) => line.startsWith("| ") && !/^\| (you see|---)/.test(line));
  return rows.map((row) => row.split(" | ")[0].slice(2));
}
const spansOf = (cell) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

// One process per zarrita: every mistake in turn, in the order that keeps
// each one's conditions (nothing registered first, then registered). Each
// prints what was thrown: { name, message, code, cause } or "ok".
const SCRIPT = `
import FileSystemStore from "@zarrita/storage/fs";
import { createReadPool, read, register, withDataTypes, PackBitsCodec } from "zarr-codecs-wasm";
const zarr = await import(process.env.ZARRITA);
const dir = process.env.SAMPLE;
const results = {};
async function attempt(name, run) {
  try {
    await run();
    results[name] = "ok";
  } catch (e) {
    results[name] = { name: e?.name, message: e?.message, code: e?.code, cause: e?.cause?.code };
  }
}
const at = (store, path) => zarr.root(store).resolve(path);
const json = (o) => new TextEncoder().encode(JSON.stringify(o));
const v3 = (over) => json({
  zarr_format: 3, node_type: "array", shape: [2], data_type: "uint8",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0, codecs: [{ name: "bytes" }], attributes: {}, ...over,
});

// Nothing registered, nothing loaded yet.
await attempt("a codec class before ready()", () => PackBitsCodec.fromConfig({}, { dataType: "int4", shape: [2] }));
await attempt("codec not registered: packbits", async () => zarr.get(await zarr.open(at(new FileSystemStore(dir), "image"), { kind: "array" })));
const n5 = new Map([
  ["/a/zarr.json", v3({ codecs: [{ name: "n5_default", configuration: { codecs: [{ name: "transpose", configuration: { order: [0] } }, { name: "bytes" }] } }] })],
  ["/a/c/0", new Uint8Array([0, 0, 0, 1, 0, 0, 0, 2, 5, 6])], // an N5 block: mode 0, 1 dimension, 2 values
]);
await attempt("codec not registered: n5_default", async () => zarr.get(await zarr.open(at(n5, "a"), { kind: "array" })));
await attempt("withDataTypes without register", () => zarr.open(at(withDataTypes(new FileSystemStore(dir)), "weights"), { kind: "array" }));
// Types zarrita lacks, without withDataTypes.
await attempt("int4, the store's first array", () => zarr.open(at(new FileSystemStore(dir), "weights"), { kind: "array" }));
const used = new FileSystemStore(dir);
await zarr.open(at(used, "image"), { kind: "array" });
await attempt("int4, once another array of the store was opened", () => zarr.open(at(used, "weights"), { kind: "array" }));
await attempt("float8_e4m3, opened as v3", () => zarr.open.v3(at(new FileSystemStore(dir), "activations"), { kind: "array" }));
await attempt("struct", () => zarr.open(at(new FileSystemStore(dir), "detections"), { kind: "array" }));
await attempt("fixed_length_utf32", () => zarr.open.v3(at(new FileSystemStore(dir), "labels"), { kind: "array" }));
const v2 = new FileSystemStore(process.env.V2);
await attempt("v2 complex", () => zarr.open(at(v2, "c8"), { kind: "array" }));
await attempt("v2 datetime64, opened as v2", () => zarr.open.v2(at(v2, "datetime"), { kind: "array" }));
// A typo in the path: with withDataTypes, and with zarrita alone.
await attempt("a typo in the path, through withDataTypes", () => zarr.open(at(withDataTypes(new FileSystemStore(dir)), "imgae"), { kind: "array" }));
await attempt("a typo in the path, zarrita alone", () => zarr.open(at(new FileSystemStore(dir), "imgae"), { kind: "array" }));
// A codec no registry has, read through read.
const lzma = new Map([["/l/zarr.json", v3({ codecs: [{ name: "bytes" }, { name: "lzma", configuration: {} }] })], ["/l/c/0", new Uint8Array(2)]]);
await attempt("an unknown codec, through read", async () => read(await zarr.open(at(lzma, "l"), { kind: "array" })));
// Registered from here on.
register(zarr.registry);
await attempt("a truncated chunk", async () => zarr.get(await zarr.open(at(new FileSystemStore(process.env.TRUNCATED), "image"), { kind: "array" }), [zarr.slice(0, 2), zarr.slice(0, 2)]));
const complex = new Map([["/z/zarr.json", v3({ data_type: "complex64", fill_value: [1, 2], codecs: [{ name: "bytes", configuration: { endian: "little" } }] })]]);
await attempt("a missing chunk, complex fill with different parts", async () => zarr.get(await zarr.open(at(withDataTypes(complex), "z"), { kind: "array" })));
const weights = await zarr.open(at(withDataTypes(new Map([["/w/zarr.json", v3({ data_type: "int4", codecs: [{ name: "packbits" }] })]])), "w"), { kind: "array" });
await attempt("zarr.set of int4 9", () => zarr.set(weights, null, 9));
// A page without cross-origin isolation has no SharedArrayBuffer.
delete globalThis.SharedArrayBuffer;
await attempt("new BoolArray([...]) without SharedArrayBuffer", () => new zarr.BoolArray([true, false]));
// A read with a pool that was closed.
const closed = createReadPool({ workers: 1 });
await closed.close();
await attempt("a read with a closed pool", async () => read(await zarr.open(at(new FileSystemStore(dir), "image"), { kind: "array" }), null, { pool: closed }));
process.stdout.write(JSON.stringify(results));
`;

// What each mistake gives, by zarrita version: the code span the table
// shows ("Name: message", the message alone, or the package's code; for
// zarrita's wrapping of the package's error, its message and the cause's
// code), or "ok" where that zarrita makes no mistake of it. [span, [a, b]]:
// the span with a replaced by b, where the table says "likewise".
const ERRORS = {
  "codec not registered: packbits": (v) => (v === ZARRITA_07 ? "UnknownCodecError: Unknown codec: packbits" : "Unknown codec: packbits"),
  "codec not registered: n5_default": () => "Unknown codec: n5_default",
  "withDataTypes without register": () => "NOT_REGISTERED",
  "a codec class before ready()": () => "NOT_READY",
  "int4, the store's first array": (v) => (v === ZARRITA_07 ? "Unknown or unsupported dataType: int4" : "Unknown or unsupported data_type: int4"),
  "int4, once another array of the store was opened": (v) =>
    v === ZARRITA_07 ? "NotFoundError: Not found: v2 array" : "Unknown or unsupported data_type: int4",
  "float8_e4m3, opened as v3": (v) =>
    [v === ZARRITA_07 ? "Unknown or unsupported dataType: int4" : "Unknown or unsupported data_type: int4", ["int4", "float8_e4m3"]],
  struct: (v) => (v === ZARRITA_07 ? "TypeError: dataType.match is not a function" : "TypeError: data_type.match is not a function"),
  fixed_length_utf32: (v) => (v === ZARRITA_07 ? "TypeError: dataType.match is not a function" : "TypeError: data_type.match is not a function"),
  "v2 complex": (v) => (v === ZARRITA_07 ? "NotFoundError: Not found: v3 array or group" : "Unsupported or unknown dtype: <c8"),
  "v2 datetime64, opened as v2": () => ["Unsupported or unknown dtype: <c8", ["<c8", "<M8[ns]"]],
  "a truncated chunk": (v) => (v === ZARRITA_07 ? 'Failed to decode chunk via codec "packbits"' : "LENGTH_MISMATCH"),
  "a missing chunk, complex fill with different parts": (v) => (v === ZARRITA_07 ? "ok" : "UNFILLABLE_CHUNK"),
  "zarr.set of int4 9": () => "VALUE_OUT_OF_RANGE",
  "a typo in the path, through withDataTypes": () => "NOT_FOUND",
  "a typo in the path, zarrita alone": (v) => (v === ZARRITA_07 ? "NotFoundError: Not found: v3 array or group" : "NodeNotFoundError: Node not found: v3 array or group"),
  "an unknown codec, through read": () => "UNKNOWN_CODEC",
  "new BoolArray([...]) without SharedArrayBuffer": (v) => (v === ZARRITA_07 ? "SharedArrayBuffer is not defined" : "ok"),
  "a read with a closed pool": () => "WORKER_FAILED",
};

/** Whether what was thrown is what `span` shows. */
function shows(span, thrown) {
  if (thrown === "ok") return span === "ok";
  if (/^[A-Z][A-Z_]+$/.test(span)) return thrown.code === span || (thrown.code === undefined && thrown.cause === span);
  return span === `${thrown.name}: ${thrown.message}` || span === thrown.message;
}

let scratch;
let runDir;
const observed = new Map();

beforeAll(async () => {
  register(zarr.registry);
  scratch = mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-troubleshooting-"));
  const sample = join(scratch, "sample.zarr");
  await writeSampleStore(new FileSystemStore(sample));
  const truncated = join(scratch, "truncated.zarr");
  await writeSampleStore(new FileSystemStore(truncated));
  const chunk = join(truncated, "image/c/0/0");
  writeFileSync(chunk, readFileSync(chunk).subarray(1));
  // Inside the package, so "zarr-codecs-wasm" and the zarrita aliases resolve.
  runDir = join(ROOT, `.troubleshooting-run-${process.pid}`);
  mkdirSync(runDir);
  const script = join(runDir, "mistakes.mjs");
  writeFileSync(script, SCRIPT);
  const run = promisify(execFile);
  const env = { ...process.env, SAMPLE: sample, TRUNCATED: truncated, V2: join(ROOT, "tests/fixtures/v2-data-types.zarr") };
  await Promise.all(VERSIONS.map(async ([version, alias]) => {
    const { stdout } = await run("node", [script], { cwd: runDir, env: { ...env, ZARRITA: alias }, encoding: "utf8", timeout: 60000 });
    observed.set(version, JSON.parse(stdout));
  }));
});

afterAll(() => {
  if (runDir) rmSync(runDir, { recursive: true, force: true });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

// The span the table shows for a mistake, and the text it stands for.
function expectedOf(mistake, version) {
  const entry = ERRORS[mistake](version);
  const [span, [a, b] = ["", ""]] = Array.isArray(entry) ? entry : [entry];
  return { span, text: a ? span.replace(a, b) : span };
}

describe.each(VERSIONS.map(([v]) => v))("zarrita %s", (version) => {
  test.each(Object.keys(ERRORS))("%s", (mistake) => {
    const thrown = observed.get(version)[mistake];
    const { span, text } = expectedOf(mistake, version);
    expect({ mistake, thrown, shows: shows(text, thrown) }).toEqual({ mistake, thrown, shows: true });
    if (span !== "ok") {
      // The table shows it.
      expect(troubleshootingCells().flatMap(spansOf)).toContain(span);
    }
  });
});

test("every message the table shows as zarrita's is one some zarrita gives", () => {
  const given = new Set(VERSIONS.flatMap(([v]) => Object.keys(ERRORS).map((m) => expectedOf(m, v).span)));
  const zarritaRows = troubleshootingCells().filter((cell) => /from zarrita/.test(cell));
  const messages = zarritaRows.flatMap(spansOf).filter((span) => /[a-z]: |Unknown|not defined|Failed/.test(span));
  expect(messages.length).toBeGreaterThan(5);
  expect(messages.filter((m) => !given.has(m))).toEqual([]);
});
