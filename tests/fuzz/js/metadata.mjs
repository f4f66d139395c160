// The metadata fuzzer: v2, v3 and consolidated documents of seed stores of
// every presented type (tests/fixtures), mutated at random (seeded), opened
// and read through withDataTypes with zarrita. Every outcome must be one
// of: a clean read equal to the seed's values (for neutral mutations:
// attributes, key order, whitespace), the package's ZarrCodecError with a
// code, or an error zarrita itself raises. Never a TypeError or RangeError
// from the package's code, a hang, a polluted prototype, or wasm memory
// that keeps growing.
//
// A third of the runs are cases built with their outcome worked out
// independently (reference-cases.mjs): astral and U+0000 strings, records
// written with leaves their types cannot hold, v2 void fills, shards with
// missing inner chunks, huge missing chunks. Each must meet the outcome
// its reference expects, value for value.
//
//   node tests/fuzz/js/metadata.mjs [seconds] [seed]     (npm run fuzz runs it long)
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as zarr from "zarrita";
import { diagnostics, read, ready, register, withDataTypes, ZarrCodecError } from "../../../js/index.js";
import { difference } from "../../js/support/read-compare.js";
import { parseLossless } from "../../../js/json/lossless.js";
import { stringify } from "../../../js/json/stringify.js";
import { Random } from "./random.mjs";
import { classify, OUTCOMES, protoKeys, withTimeout } from "./outcomes.mjs";
import { FAMILIES, memoryStore, referenceCase, Unexpected } from "./reference-cases.mjs";

const FIXTURES = fileURLToPath(new URL("../../fixtures/", import.meta.url));
const SEEDS = ["v3-data-types.zarr", "v3-records.zarr", "v2-data-types.zarr", "v2-records.zarr", "v2-big-endian.zarr", "v3-bytes.zarr", "v2-bytes.zarr"];

// Every file of a fixture store, in memory ("/a/zarr.json" -> bytes).
function loadStore(name) {
  const root = join(FIXTURES, name);
  const files = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      const p = join(dir, entry);
      if (statSync(p).isDirectory()) walk(p);
      // Plain Uint8Arrays, not Buffers: zarrita 0.7's bytes codec "copies"
      // big-endian input with .slice() before swapping, which for a Node
      // Buffer is a view, so a Buffer here would be swapped in place.
      else if (entry !== "expected.json") files.set(`/${relative(root, p)}`, new Uint8Array(readFileSync(p)));
    }
  };
  walk(root);
  return files;
}

// The arrays of a store: paths with a zarr.json of an array or a .zarray.
function arraysOf(files) {
  const out = [];
  for (const [key, bytes] of files) {
    if (key.endsWith("/.zarray")) out.push({ path: key.slice(0, -"/.zarray".length), meta: key });
    else if (key.endsWith("/zarr.json") && key !== "/zarr.json" && JSON.parse(Buffer.from(bytes)).node_type === "array") {
      out.push({ path: key.slice(0, -"/zarr.json".length), meta: key });
    }
  }
  return out;
}

// ---- mutations ----------------------------------------------------------------

const HOSTILE_VALUES = (r) => [
  null, true, false, 0, -0, 1, -1, 2 ** 53, 2 ** 64, -(2 ** 63), 1e308, -1e-308, 0.5, NaN, Infinity,
  "", "NaN", "Infinity", "-Infinity", "NaT", "__proto__", "constructor", "toString", "hasOwnProperty",
  "0x7fc", "0x1ff", "0x7fc0", "AAAA", "AQID", "big", "little", "x".repeat(r.int(1 << 16)),
  "\u{1F600}", "x\u0000y", "\u{10FFFF}\u{10FFFF}", "\uD800", "a\u0000",
  [], [0], [1, 2], [[]], {}, { name: "struct" }, { name: "constructor" },
  { name: "bytes", configuration: { endian: "big" } }, { name: "packbits" }, { name: "transpose", configuration: { order: [0] } },
  "int4", "float8_e4m3", "r16", "r12", "string", "struct", "fixed_length_utf32",
  { name: "fixed_length_utf32", configuration: { length_bytes: r.int(64) } },
  { name: "raw_bytes", configuration: { length_bytes: r.int(64) - 8 } },
  { name: "null_terminated_bytes", configuration: { length_bytes: r.int(64) - 8 } },
  "variable_length_bytes", "bytes", { name: "vlen-bytes", configuration: {} }, "YWI=", [1, 2, 256],
  { name: "struct", configuration: { fields: [{ name: "a", data_type: "int4" }, { name: r.pick(["a", "b", ""]), data_type: r.pick(["uint8", "string", "float8_e4m3"]) }] } },
  { name: "numpy.datetime64", configuration: { unit: r.pick(["s", "fortnight", "generic"]), scale_factor: r.pick([1, 0, 2 ** 31]) } },
  deep(r.int(20000)),
];

function deep(n) {
  let v = 0;
  for (let i = 0; i < n; i++) v = [v];
  return v;
}

// All (parent, key) places in a document, breadth first, bounded.
function places(doc) {
  const out = [];
  const queue = [doc];
  while (queue.length && out.length < 400) {
    const node = queue.shift();
    if (node === null || typeof node !== "object") continue;
    for (const key of Object.keys(node)) {
      out.push([node, key]);
      queue.push(node[key]);
    }
  }
  return out;
}

/** A mutated copy of `doc`; `neutral` when no mutation changes its meaning. */
function mutate(r, doc) {
  const copy = structuredClone(doc);
  const steps = 1 + r.int(3);
  let neutral = true;
  for (let s = 0; s < steps; s++) {
    const kind = r.int(10);
    if (kind < 3) {
      // Attributes: anything goes (a neutral change).
      const attrs = copy.attributes ?? copy;
      if (copy.attributes !== undefined || copy.zarr_format === 3) {
        copy.attributes = { ...(copy.attributes ?? {}), [r.pick(["note", "__proto__", "deep", "x"])]: r.pick(HOSTILE_VALUES(r)) };
      } else void attrs;
    } else if (kind < 4) {
      // Key order (neutral).
      const keys = Object.keys(copy);
      for (let i = keys.length - 1; i > 0; i--) {
        const j = r.int(i + 1);
        [keys[i], keys[j]] = [keys[j], keys[i]];
      }
      const reordered = Object.fromEntries(keys.map((k) => [k, copy[k]]));
      for (const k of Object.keys(copy)) delete copy[k];
      Object.assign(copy, reordered);
    } else {
      neutral = false;
      const all = places(copy);
      if (!all.length) continue;
      const [parent, key] = r.pick(all);
      if (kind < 6) delete parent[key];
      else if (kind < 9) parent[key] = r.pick(HOSTILE_VALUES(r));
      else parent[r.pick(["extra", "__proto__", "configuration", "name"])] = r.pick(HOSTILE_VALUES(r));
    }
  }
  return { doc: copy, neutral };
}

// ---- the run ------------------------------------------------------------------

const UNREADABLE = Symbol("unreadable");

// read() of every store zarr.get reads, held against zarr.get's values
// (by index: read's results are C order), and of every store zarr.get
// refuses, which read may read (it fills what zarrita 0.5 cannot) or
// refuse, with the package's error or zarrita's.
const READ_OUTCOMES = [
  "read: as zarr.get", "read: refused as zarr.get", "read: read where zarr.get refused",
  "read: refused a chunk of the wrong size, which zarr.get read",
  "read: refused values decoded into another container, which zarr.get read",
];

// Where zarr.get refuses and read may read: zarrita 0.5 and 0.6 cannot fill
// a chunk whose fill has parts (read fills it), nor an int64 chunk whose
// fill is null (read fills zeros, as for every other type), and zarrita
// throws on empty selections (read gives an empty output). Any other
// refusal read must share, or it would be reading what no reader should.
const ZARRITA_LIMITS = /Input contains an empty iterator|Cannot convert null to a BigInt/;
function readMayRead(refusal) {
  for (let e = refusal, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (e.code === "UNFILLABLE_CHUNK" || ZARRITA_LIMITS.test(e.message)) return true;
  }
  return false;
}

/** read's outcome beside zarr.get's result (`theirs`) or error (`refused`). */
async function readBeside(arr, selection, theirs, refused) {
  let ours;
  try {
    ours = await read(arr, selection);
  } catch (error) {
    const kind = classify(error);
    // zarrita's own bytes codec takes a chunk of any size (the rest of
    // its container is whatever the bytes say): read refuses it.
    if (!refused && kind === "package error" && error.code === "LENGTH_MISMATCH") return READ_OUTCOMES[3];
    // A data type of JavaScript values (string) with a codec that decodes
    // bytes: zarr.get copies the bytes in as values; read refuses it.
    if (!refused && kind === "package error" && error.code === "INVALID_METADATA" && Array.isArray(theirs?.data)) return READ_OUTCOMES[4];
    if (!refused || kind === "package TypeError or RangeError" || kind === "hang") {
      throw new Error(`read: ${kind}${refused ? "" : " where zarr.get read"}: ${error?.stack ?? error}`);
    }
    return "read: refused as zarr.get";
  }
  if (!refused && arr.shape.length === 0) {
    // A 0-d array: zarrita 0.5 and 0.6's zarr.get returns 0 without
    // reading; its one chunk is the reference.
    const { data } = await arr.getChunk([]);
    theirs = typeof data.get === "function" ? data.get(0) : data[0];
  }
  if (refused) {
    if (!readMayRead(refused)) throw new Error(`read: read where zarr.get refused with ${refused?.cause?.message ?? refused?.message}`);
    return "read: read where zarr.get refused";
  }
  const diff = difference(ours, theirs);
  if (diff) throw new Error(`read: differs from zarr.get: ${diff}`);
  return "read: as zarr.get";
}

// The bytes of a TypedArray (or of zarrita's containers), as text.
const hexOf = (d) => Buffer.from(d?.buffer ?? new Uint8Array(0), d?.byteOffset ?? 0, d?.byteLength ?? 0).toString("hex");

/**
 * How much of an opened array a read may take. zarrita opens the arrays
 * this package leaves to it (int16, v2 ">i2") without checking their grid,
 * and walking a shape of -2^63 or chunks of 1e-308 allocates until the
 * process dies; a valid grid of 10^15 chunks takes as long. Neither is the
 * package's (its presented arrays refuse such grids at open, which the runs
 * check), so such an array is opened but not read ("unreadable"), and a
 * large valid one is read in a corner ("huge").
 */
function extentOf(arr) {
  const whole = (dims, least) => Array.isArray(dims) && dims.every((d) => Number.isSafeInteger(d) && d >= least);
  if (!whole(arr.shape, 0) || !whole(arr.chunks, 1) || arr.chunks.length !== arr.shape.length) return "unreadable";
  let elements = 1;
  let chunks = 1;
  arr.shape.forEach((d, i) => {
    elements *= d;
    chunks *= Math.ceil(d / arr.chunks[i]);
  });
  return elements > 2 ** 22 || chunks > 2 ** 14 ? "huge" : "whole";
}

/**
 * What a read gave, comparable across runs: the bytes; for an Array
 * (v2:object), its strings, and each Uint8Array item's bytes.
 */
function valuesOf(data) {
  if (Array.isArray(data)) return JSON.stringify(data.map((v) => (ArrayBuffer.isView(v) ? hexOf(v) : v)));
  return hexOf(data);
}

export async function fuzzMetadata({ seconds = 10, seed = 1, log = () => {} } = {}) {
  await ready();
  const zarritas = [zarr, await import("zarrita-0.5")];
  for (const z of zarritas) register(z.registry);
  const r = new Random(seed);
  const stores = SEEDS.map((name) => ({ name, files: loadStore(name) }));
  const counts = Object.fromEntries([...OUTCOMES, ...READ_OUTCOMES, "zarrita unhandled rejection"].map((o) => [o, 0]));
  for (const family of Object.keys(FAMILIES)) counts[`${family}: matched the reference`] = 0;
  // Legacy-structured warnings would flood the output.
  const warn = console.warn;
  console.warn = () => {};
  const protoBefore = protoKeys();
  const memory = [];
  // The seed's values of each array, read once unmutated.
  const seedValues = new Map();
  const readValues = async (z, files, path) => {
    const store = withDataTypes(memoryStore(files));
    const arr = await z.open(z.root(store).resolve(path), { kind: "array" });
    return valuesOf((await z.get(arr)).data);
  };
  // zarrita 0.5 loads a chain's codecs eagerly and may leave that promise
  // unhandled when the read fails before it: its own error, counted; one
  // from the package's code fails the run.
  let unhandled;
  const onUnhandled = (error) => {
    if (classify(error) === "package TypeError or RangeError") unhandled = error;
    else counts["zarrita unhandled rejection"]++;
  };
  process.on("unhandledRejection", onUnhandled);
  const end = Date.now() + seconds * 1000;
  let runs = 0;
  while (Date.now() < end) {
    if (r.int(3) === 0) {
      // A case with its reference (zarrita 0.7's array extension, or 0.5's refusals).
      const z = r.pick(zarritas);
      let outcome;
      try {
        const [family, met] = await withTimeout(referenceCase(r, z, { withDataTypes }, typeof z.extendStore === "function"), 20000);
        outcome = `${family}: ${met}`;
      } catch (error) {
        if (error instanceof Unexpected) throw new Error(`metadata fuzzer: a reference case differed at run ${runs + 1} (seed ${seed}, zarrita ${z === zarr ? "0.7" : "0.5"}): ${error.message.slice(0, 4000)}`);
        throw new Error(`metadata fuzzer: a reference case failed (${classify(error)}) at run ${runs + 1} (seed ${seed}): ${error?.stack}`);
      }
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      runs++;
      if (unhandled) throw unhandled;
      continue;
    }
    const { name, files } = r.pick(stores);
    const arrays = arraysOf(files);
    const { path, meta } = r.pick(arrays);
    const z = r.pick(zarritas);
    const key = `${name}${path}:${zarritas.indexOf(z)}`;
    if (!seedValues.has(key)) {
      seedValues.set(key, await readValues(z, files, path).catch((e) => `error ${e?.code ?? e?.name}`));
    }
    // Mutate the array's own document, or its entry in a consolidated one.
    const mutated = new Map(files);
    const consolidatedKey = files.has("/.zmetadata") && r.int(3) === 0 ? "/.zmetadata" : files.has("/zarr.json") && r.int(3) === 0 ? "/zarr.json" : undefined;
    let neutral;
    let text;
    if (consolidatedKey) {
      // Lossless, so a neutral mutation keeps every number as written.
      const doc = parseLossless(Buffer.from(files.get(consolidatedKey)).toString());
      const entries = consolidatedKey === "/.zmetadata" ? doc.metadata : doc.consolidated_metadata?.metadata;
      const entryKey = consolidatedKey === "/.zmetadata" ? `${path.slice(1)}/.zarray` : path.slice(1);
      if (entries && entries[entryKey]) {
        const m = mutate(r, entries[entryKey]);
        entries[entryKey] = m.doc;
        neutral = m.neutral;
      } else neutral = true;
      text = stringify(doc);
      mutated.set(consolidatedKey, new TextEncoder().encode(text));
    } else {
      const m = mutate(r, parseLossless(Buffer.from(files.get(meta)).toString()));
      neutral = m.neutral;
      text = stringify(m.doc);
      mutated.set(meta, new TextEncoder().encode(text));
    }
    let outcome;
    let opened;
    try {
      const store = consolidatedKey === "/zarr.json" && z.withConsolidatedMetadata
        ? await z.withConsolidatedMetadata(withDataTypes(memoryStore(mutated)), { format: "v3" })
        : withDataTypes(memoryStore(mutated));
      const values = await withTimeout(
        (async () => {
          const arr = await z.open(z.root(store).resolve(path), { kind: "array" });
          const extent = extentOf(arr);
          if (extent === "unreadable") return UNREADABLE;
          const selection = extent === "huge" ? arr.shape.map((d) => z.slice(0, Math.min(d, 2))) : null;
          opened = { arr, selection };
          const out = await z.get(arr, selection);
          opened.theirs = out;
          return valuesOf(out.data);
        })(),
        5000,
      );
      outcome = values === UNREADABLE ? "opened, not read (a grid zarrita cannot walk)"
        : neutral && !consolidatedKey && values !== seedValues.get(key) ? "wrong value" : neutral ? "read as the seed" : "read";
      if (outcome === "wrong value") text += `\nread ${values}\nseed ${seedValues.get(key)}`;
    } catch (error) {
      outcome = classify(error);
      if (opened) opened.refused = error;
    }
    counts[outcome]++;
    if (opened && outcome !== "hang") {
      try {
        counts[await withTimeout(readBeside(opened.arr, opened.selection, opened.theirs, opened.refused), 5000)]++;
      } catch (error) {
        throw new Error(`metadata fuzzer: ${error.message === "fuzz: timed out" ? "read hangs" : error.message.slice(0, 4000)} at run ${runs + 1} (seed ${seed}), ${key}, document:\n${text.slice(0, 2000)}`);
      }
    }
    runs++;
    if (unhandled) throw unhandled;
    const protoAfter = protoKeys();
    if (protoAfter !== protoBefore) outcome = "prototype polluted";
    if (["package TypeError or RangeError", "hang", "wrong value", "prototype polluted"].includes(outcome)) {
      throw new Error(`metadata fuzzer: ${outcome} at run ${runs} (seed ${seed}), ${key}, document:\n${text.slice(0, 2000)}`);
    }
    if (runs % 500 === 0) {
      memory.push(diagnostics().wasmMemoryBytes());
      log(`${runs} runs`);
    }
  }
  // The last runs' abandoned codec loads (and a read cut off by the
  // timeout) may still reject after the loop: let them settle while the
  // handler counts them, or the first would end the process.
  await new Promise((resolve) => setTimeout(resolve, 50));
  if (unhandled) throw unhandled;
  process.off("unhandledRejection", onUnhandled);
  console.warn = warn;
  const wasmMemoryBytes = diagnostics().wasmMemoryBytes();
  // Bounded: wasm memory stays within a few scratch blocks of where it began.
  if (wasmMemoryBytes > 64 * 1024 * 1024) throw new Error(`metadata fuzzer: wasm memory grew to ${wasmMemoryBytes} bytes`);
  return { runs, counts, wasmMemoryBytes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [seconds = "60", seed = String(Date.now() % 100000), format] = process.argv.slice(2);
  const json = format === "--json";
  const result = await fuzzMetadata({ seconds: Number(seconds), seed: Number(seed), log: json ? () => {} : (m) => process.stderr.write(`\r${m}`) });
  if (json) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`\nmetadata fuzzer: ${result.runs} runs in ${seconds} s (seed ${seed}); wasm memory ${result.wasmMemoryBytes} bytes`);
    for (const [outcome, n] of Object.entries(result.counts)) console.log(`  ${outcome}: ${n}`);
  }
}


