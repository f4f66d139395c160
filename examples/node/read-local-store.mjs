// Reading a local Zarr store in a Node script: zarrita's filesystem store
// through withDataTypes, so that zarrita opens every data type (int4,
// float8, struct records, fixed-length strings), with the wasm codecs
// registered, each array read with read() (zarr.get's result, every chunk
// decoded straight into its place). One summary per array.
//
//   node examples/node/read-local-store.mjs [path/to/store.zarr | --sample] [array ...]
//
// Without a store (or with --sample) it writes the sample store to a
// temporary folder first and removes it at the end, also when a read
// fails. Without array names it reads every array in the store.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { isPresented, read, register, storedDataType, structFields, withDataTypes } from "zarr-codecs-wasm";
import { dataTypeName } from "../data-type-name.mjs";
import { writeSampleStore } from "../sample-store.mjs";

register(zarr.registry);

const FIRST = 3; // records shown of a struct array
const FIRST_STRINGS = 10;

/** Paths of the arrays under `dir` (Zarr v3 zarr.json or v2 .zarray), sorted. */
function arraysIn(dir) {
  const found = [];
  (function walk(at) {
    const entries = readdirSync(at, { withFileTypes: true });
    const doc = entries.find((e) => e.name === "zarr.json") && JSON.parse(readFileSync(join(at, "zarr.json"), "utf8"));
    if (doc?.node_type === "array" || entries.some((e) => e.name === ".zarray")) {
      found.push(relative(dir, at).split(sep).join("/"));
      return;
    }
    for (const e of entries) if (e.isDirectory()) walk(join(at, e.name));
  })(dir);
  return found.sort();
}

// Numbers as they are; strings quoted (a label may hold spaces).
const show = (v) => (typeof v === "string" ? JSON.stringify(v) : String(v));
// zarrita's BoolArray and string arrays index with get(i).
const at = (data, i) => (typeof data.get === "function" ? data.get(i) : data[i]);

function summarizeStruct(arr, result) {
  const fields = structFields(result, arr);
  // Nested structs come as nested objects: their leaves get dotted names.
  const leaves = [];
  (function walk(object, prefix) {
    for (const [name, value] of Object.entries(object)) {
      if (Array.isArray(value.shape)) leaves.push([prefix + name, value]);
      else walk(value, `${prefix}${name}.`);
    }
  })(fields, "");
  console.log(`  fields: ${leaves.map(([name, { data }]) => `${name} (${data.constructor.name})`).join(", ")}`);
  const records = result.shape.slice(0, -1).reduce((a, b) => a * b, 1);
  for (let i = 0; i < Math.min(FIRST, records); i++) {
    console.log(`  [${i}] ${leaves.map(([name, { data, shape }]) => {
      const per = shape.slice(result.shape.length - 1).reduce((a, b) => a * b, 1); // a field's own values per record
      const values = Array.from({ length: per }, (_, k) => show(at(data, i * per + k)));
      return `${name}=${per === 1 ? values[0] : `[${values.join(", ")}]`}`;
    }).join(" ")}`);
  }
}

function summarizeStrings(data) {
  const shown = Array.from({ length: Math.min(FIRST_STRINGS, data.length) }, (_, i) => show(at(data, i)));
  console.log(`  values: ${shown.join(", ")}${data.length > FIRST_STRINGS ? ", ..." : ""}`);
}

async function summarizeNumbers(arr, data) {
  // A region of a 2-D array: rows 100..109, columns 200..209.
  if (arr.shape.length === 2 && arr.shape[0] >= 110 && arr.shape[1] >= 210) {
    const region = await read(arr, [zarr.slice(100, 110), zarr.slice(200, 210)]);
    console.log(`  region [100:110, 200:210], first row: ${Array.from({ length: 10 }, (_, i) => Number(at(region.data, i))).join(" ")}`);
  }
  // Statistics of the finite values; NaN and infinities counted apart.
  let min = Infinity, max = -Infinity, sum = 0, finite = 0;
  for (let i = 0; i < data.length; i++) {
    const v = Number(at(data, i));
    if (!Number.isFinite(v)) continue;
    min = Math.min(min, v);
    max = Math.max(max, v);
    sum += v;
    finite++;
  }
  const others = data.length - finite;
  console.log(`  whole array: min ${min}, max ${max}, mean ${(sum / finite).toFixed(2)}${others ? ` (of the finite values; ${others} NaN or infinite)` : ""}`);
}

async function summarize(typed, name) {
  let arr;
  try {
    arr = await zarr.open(zarr.root(typed).resolve(name), { kind: "array" });
  } catch (error) {
    error.message = `array ${JSON.stringify(name)}: ${error.message}`;
    throw error;
  }
  const stored = storedDataType(arr); // as the metadata names it: "uint16", "int4", a struct's object form
  // struct, its alias structured, or a Zarr v2 structured dtype (a list of fields).
  const record = Array.isArray(stored) || stored?.name === "struct" || stored?.name === "structured";
  const shape = record ? arr.shape.slice(0, -1) : arr.shape; // a record's bytes are the last dimension
  const chunks = record ? arr.chunks.slice(0, -1) : arr.chunks;
  const readAs = !isPresented(arr) ? "" : record ? ` (read as uint8, ${arr.shape.at(-1)} bytes a record)` : ` (read as ${arr.dtype})`;
  console.log(`${name}: ${dataTypeName(stored)}${readAs} ${shape.join("x")}, chunks ${chunks.join("x")}`);
  const result = await read(arr);
  if (record) summarizeStruct(arr, result);
  else if (typeof at(result.data, 0) === "string") summarizeStrings(result.data);
  else await summarizeNumbers(arr, result.data);
}

const args = process.argv.slice(2);
const sample = args.length === 0 || args[0] === "--sample";
const names = args.slice(1);
const path = sample ? mkdtempSync(join(tmpdir(), "zarr-codecs-wasm-example-")) : args[0];
try {
  if (sample) {
    await writeSampleStore(new FileSystemStore(path));
    console.log("wrote the sample store to a temporary folder (removed at the end)");
  } else if (!existsSync(path)) {
    throw new Error(`no store at ${path}`);
  }
  const typed = withDataTypes(new FileSystemStore(path));
  for (const name of names.length ? names : arraysIn(path)) await summarize(typed, name);
} catch (error) {
  console.error(`read-local-store: ${error.code ? `${error.code}: ` : ""}${error.message}`);
  process.exitCode = 1;
} finally {
  if (sample) rmSync(path, { recursive: true, force: true });
}
