// The differential fuzz of `read` (issue 28): random small stores, random
// selections, and `read`'s values held bit for bit against numpy's.
//
// Each run (seeded; run n of seed s is the same case on every machine)
// describes a store: Zarr v2 or v3, 0-d to 4-d, small shapes and chunk
// shapes (partial edge chunks), every dtype and byte order zarr-python 2
// writes (bool, int8..int64, uint8..uint64, float16/32/64 and complex with
// NaN payloads, -0 and infinities, datetime64/timedelta64 in several units,
// |S, <U/>U, |V, structured dtypes with nested and shaped fields, object
// arrays with vlen-utf8 and vlen-bytes), C and F order, every compressor
// (zlib, gzip, zstd, blosc with each cname and shuffle, lz4; v3: gzip, zstd,
// blosc, crc32c), shuffle and delta filters, fills (zero, the extremes of
// the integers past 2^53, NaN payloads in hex, complex fills whose parts
// differ, null in v2), chunks left missing, and for v3: sharding with the
// index at the end or the start (inner chunks in any order, some missing),
// transpose, both chunk key encodings, and stale sibling documents (a
// .zarray beside zarr.json that describes something else). The Python
// reference process (read-reference.py) writes the store (zarr-python 2
// for v2; zarr-python 3's format for v3) and answers numpy's value for each
// selection; the reader thread (read-worker.mjs) opens the store with
// zarrita 0.7.5 (sometimes 0.6.2 or 0.5.4), register(zarr.registry),
// withDataTypes where the dtype needs it (or at random), and reads each
// selection with read (sometimes into a preallocated container) and with
// zarr.get.
//
// Outcomes, counted by name:
//   - read as the reference (values, container, shape, C-order strides);
//   - refused, as the reference refuses (numpy refuses the selection);
//   - refused where docs/ say so (DOCUMENTED_REFUSALS, each with its page);
//   - zarrita's own errors (counted apart, by message);
//   - the reference could not write the store, or crashed (not judged);
//   - failures, which stop the run with the seed, the run and a minimized
//     repro: a wrong value, a refusal of what numpy reads, a read of what
//     numpy refuses, a refusal at open, a TypeError or RangeError from the
//     package's code, a hang (30 s), wasm memory past 64 MiB, a polluted
//     prototype, `into` not filled in place.
// KNOWN_DEFECTS lists the defects found (issue 28's, and new ones), each
// with its signature and a minimal repro. It is a temporary switch, off by
// default, so that once they are fixed the fuzzer checks them: with
// READ_FUZZ_KNOWN_DEFECTS=1 (or --known-defects) a failure that matches a
// family is counted as "known defect: <family>" and the run goes on.
//
//   node tests/fuzz/js/read-differential.mjs <seconds> <seed> [--json] [--known-defects] [--run N] [--no-shrink]
//   (--run N: only run N of the seed, printed in full; npm run fuzz runs it long)
//   node tests/fuzz/js/read-differential.mjs --case '<the "case:" line of a repro>'   (one case, printed)
import { fileURLToPath } from "node:url";
import { fuzzArguments } from "./fuzz-cli.mjs";
import { Random } from "./random.mjs";
import { ReferenceProcess, Reader } from "./read-reference.mjs";

const MAX_WASM_BYTES = 64 * 1024 * 1024;

export const RD_OUTCOMES = [
  "read as the reference",
  "read into as the reference",
  "scalar as the reference",
  "refused, as the reference refuses",
  "refused where docs/ say so",
  "zarrita error",
  "zarrita error at open",
  "zarr.get differs from the reference where read does not",
  "the reference could not write the store",
  "the reference crashed",
  // failures
  "wrong value",
  "refused, the reference read",
  "read, the reference refused",
  "refused at open",
  "package TypeError or RangeError",
  "hang",
  "wasm memory grew",
  "prototype polluted",
];
const FAILURES = new Set(RD_OUTCOMES.slice(RD_OUTCOMES.indexOf("wrong value")));

// ---- describing a store --------------------------------------------------------------

export const weighted = (r, pairs) => {
  const total = pairs.reduce((s, [, w]) => s + w, 0);
  let x = r.int(total);
  for (const [v, w] of pairs) {
    if ((x -= w) < 0) return v;
  }
  return pairs[0][0];
};
const endianOf = (r) => (r.int(2) ? "<" : ">");
const UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"];

/** A numpy descr of a field or array type (byte order `e`: "<", ">", or "" for v3, where the bytes codec has it). */
function scalarDescr(r, kind, v3) {
  const e = v3 ? "<" : endianOf(r);
  switch (kind) {
    case "bool":
      return "|b1";
    case "int":
      return r.pick(["|i1", "|u1", `${e}i2`, `${e}u2`, `${e}i4`, `${e}u4`, `${e}i8`, `${e}u8`, `${e}i8`, `${e}u8`]);
    case "float":
      return r.pick([`${e}f2`, `${e}f4`, `${e}f8`]);
    case "complex":
      return r.pick([`${e}c8`, `${e}c16`]);
    case "datetime": {
      const scale = r.int(4) === 0 ? String(r.pick([2, 10, 25])) : "";
      return `${e}${r.pick(["M8", "m8"])}[${scale}${r.pick(UNITS)}]`;
    }
    case "S":
      return `|S${1 + r.int(6)}`;
    case "U":
      return `${e}U${1 + r.int(4)}`;
    case "V":
      return `|V${1 + r.int(6)}`;
    default:
      throw new Error(kind);
  }
}

function structDescr(r, v3, depth) {
  const n = 1 + r.int(3);
  const fields = [];
  for (let i = 0; i < n; i++) {
    const name = r.pick(["x", "y", "t", "id", "pos", "flag", "name", "n"]) + (fields.some((f) => f[0].startsWith("x")) ? i : "");
    if (fields.some((f) => f[0] === name)) continue;
    if (depth < 1 && r.int(5) === 0) {
      fields.push([name, structDescr(r, v3, depth + 1)]);
      continue;
    }
    const descr = scalarDescr(r, weighted(r, [["bool", 1], ["int", 3], ["float", 3], ["complex", 1], ["datetime", 1], ["S", 1], ["U", 1], ["V", 1]]), v3);
    // Shaped fields: zarr-python 2 only (zarr-python 3's struct has none).
    if (!v3 && r.int(5) === 0) fields.push([name, descr, r.pick([[2], [3], [2, 2]])]);
    else fields.push([name, descr]);
  }
  return fields;
}

/** The family of a descr (for choices and for the known-defect signatures). */
export function familyOf(spec) {
  if (spec.object) return spec.object;
  const d = spec.dtype;
  if (Array.isArray(d)) return "struct";
  const m = /^[<>|]([a-zA-Z])(\d*)/.exec(d);
  const letter = m[1];
  return { b: "bool", i: "int", u: "int", f: d.endsWith("f2") ? "float16" : "float", c: "complex", M: "datetime", m: "datetime", S: "S", U: "U", V: "V" }[letter];
}

const itemsizeOf = (d) => {
  if (Array.isArray(d)) return d.reduce((s, f) => s + itemsizeOf(f[1]) * (f[2] ?? [1]).reduce((a, b) => a * b, 1), 0);
  const m = /^[<>|]([a-zA-Z])(\d+)/.exec(d);
  if (m[1] === "U") return 4 * Number(m[2]);
  if (m[1] === "M" || m[1] === "m") return 8;
  return Number(m[2]);
};

/** Types zarrita opens by itself (no withDataTypes), per format. */
function zarritaReads(spec) {
  const fam = familyOf(spec);
  if (spec.format === 2) return ["bool", "int", "float", "S", "U", "vlen-utf8", "vlen-bytes"].includes(fam);
  return ["bool", "int", "float", "vlen-utf8"].includes(fam);
}

export function makeCase(r) {
  const format = r.int(100) < 55 ? 2 : 3;
  const v3 = format === 3;
  const rank = weighted(r, [[0, 8], [1, 28], [2, 30], [3, 20], [4, 14]]);
  const maxDim = rank >= 3 ? 4 : 7;
  const shape = Array.from({ length: rank }, () => (r.int(30) === 0 ? 0 : 1 + r.int(maxDim)));
  let chunks = shape.map((d) => 1 + r.int(Math.max(1, Math.min(d + 1, 4))));
  const kind = weighted(r, [
    ["bool", 4], ["int", 16], ["float", 14], ["complex", 8], ["datetime", 5], ["S", 6], ["U", 7], ["V", 3], ["struct", 12], ["object", 9],
  ]);
  const spec = { format, seed: r.next(), path: r.pick(["arr", "g/arr"]), shape, chunks };
  if (kind === "struct") spec.dtype = structDescr(r, v3, 0);
  else if (kind === "object") {
    spec.object = r.pick(["vlen-utf8", "vlen-bytes"]);
    spec.dtype = "|O";
  } else spec.dtype = scalarDescr(r, kind, v3);
  const fam = familyOf(spec);
  const floaty = fam === "float" || fam === "float16" || fam === "complex";
  spec.fill = v3
    ? weighted(r, [["zero", 3], ["special", 4], ["random", 3], ["hex", floaty ? 4 : 0], ["special-string", floaty ? 2 : 0]])
    : weighted(r, [["zero", 3], ["special", 4], ["random", 3], ["null", 2]]);
  spec.missing = r.int(5) < 2 ? 0 : [0.15, 0.3, 0.5, 0.8][r.int(4)];
  if (format === 2) {
    spec.order = r.int(3) === 0 ? "F" : "C";
    spec.separator = r.int(4) === 0 ? "/" : ".";
    spec.compressor = weighted(r, [
      [null, 4],
      [{ id: "zlib", level: r.int(10) }, 1],
      [{ id: "gzip", level: r.int(10) }, 1],
      [{ id: "zstd", level: r.int(6) }, 1],
      [{ id: "blosc", cname: r.pick(["lz4", "zstd", "blosclz", "zlib", "lz4hc"]), clevel: r.int(10), shuffle: r.int(3), blocksize: 0 }, 3],
      [{ id: "lz4", acceleration: 1 }, 1],
    ]);
    const size = spec.object ? 0 : itemsizeOf(spec.dtype);
    if (!spec.object && r.int(8) === 0) spec.filters = [{ id: "shuffle", elementsize: size }];
    else if (fam === "int" && r.int(8) === 0) spec.filters = [{ id: "delta", dtype: spec.dtype }];
  } else {
    spec.endian = r.int(2) ? "little" : "big";
    spec.chunk_key_encoding = weighted(r, [
      [{ name: "default", configuration: { separator: "/" } }, 6],
      [{ name: "default", configuration: { separator: "." } }, 1],
      [{ name: "v2", configuration: { separator: "." } }, 3],
      [{ name: "v2", configuration: { separator: "/" } }, 1],
    ]);
    const typesize = spec.object ? 1 : itemsizeOf(spec.dtype);
    spec.compressors = weighted(r, [
      [[], 4],
      [[{ name: "gzip", configuration: { level: r.int(10) } }], 1],
      [[{ name: "zstd", configuration: { level: r.int(6), checksum: false } }], 1],
      [[{ name: "blosc", configuration: { typesize, cname: r.pick(["lz4", "zstd", "blosclz", "zlib", "lz4hc"]), clevel: r.int(10), shuffle: r.pick(["noshuffle", "shuffle", "bitshuffle"]), blocksize: 0 } }], 2],
      [[{ name: "crc32c" }], 1],
      [[{ name: "gzip", configuration: { level: 1 } }, { name: "crc32c" }], 1],
    ]);
    if (rank >= 2 && r.int(5) === 0) {
      const order = Array.from({ length: rank }, (_, i) => i);
      for (let i = rank - 1; i > 0; i--) {
        const j = r.int(i + 1);
        [order[i], order[j]] = [order[j], order[i]];
      }
      spec.transpose = order;
    }
    if (rank >= 1 && r.int(10) < 3) {
      const inner = shape.map(() => 1 + r.int(3));
      chunks = inner.map((n) => n * (1 + r.int(3)));
      spec.chunks = chunks;
      spec.sharding = {
        chunk_shape: inner,
        index_location: r.int(2) ? "end" : "start",
        order: r.pick(["lexicographic", "morton", "random"]),
        missing_inner: r.pick([0, 0.2, 0.4]),
        index_crc: r.int(10) !== 0,
      };
    }
    if (r.int(5) === 0) spec.dimension_names = true;
    if (spec.chunk_key_encoding.name === "v2" && r.int(3) === 0) {
      // A stale sibling: a Zarr v2 document left beside zarr.json.
      const d = spec.object || Array.isArray(spec.dtype) ? ">u2" : spec.dtype;
      const stale = /^[<>]/.test(d) && itemsizeOf(d) > 1 ? (d[0] === "<" ? ">" : "<") + d.slice(1) : r.pick(["<u2", ">i4", "|u1"]);
      spec.stale_sibling = {
        zarr_format: 2, shape, chunks, dtype: stale, compressor: r.pick([null, { id: "zlib", level: 1 }]),
        fill_value: 0, filters: null, order: "C", dimension_separator: spec.chunk_key_encoding.configuration.separator,
      };
    }
  }
  // How it is opened.
  const needsTypes = !zarritaReads(spec) || fam === "float16";
  const wrap = needsTypes || r.int(10) < 5 ? (r.int(5) === 0 ? "bits" : "types") : "plain";
  if (wrap === "plain" && (fam === "S" || fam === "U")) {
    // zarrita's own byte and unicode strings fill missing chunks with the
    // base64 text and with units cut at surrogates (docs/data-types.md):
    // its flaws, not read's; plain strings are read with every chunk present.
    spec.missing = 0;
  }
  const ctx = {
    zarrita: weighted(r, [["0.7.5", 7], ["0.6.2", 1.5 * 2], ["0.5.4", 1.5 * 2]]),
    wrap,
    openAs: spec.stale_sibling ? "v3" : r.int(3) === 0 ? (v3 ? "v3" : "v2") : "auto",
  };
  // Presented arrays with a trailing dimension (complex, records, raw bytes):
  // an index past the stored rank would select inside it.
  const trailing = ["complex", "struct", "V"].includes(fam);
  const selections = Array.from({ length: 2 + r.int(3) }, () => ({
    sel: makeSelection(r, shape, trailing),
    into: r.int(100) < 35,
    pad: r.int(10) < 7,
  }));
  return { spec, ctx, selections };
}

// ---- selections ------------------------------------------------------------------------

function randomInt(r, n) {
  if (n === 0) return r.int(3) - 1;
  const i = r.int(n);
  return r.int(5) < 2 ? i - n : i;
}

function randomSlice(r, n) {
  const bound = () => (r.int(3) === 0 ? null : r.int(2 * n + 5) - n - 2);
  const step = weighted(r, [[null, 4], [1, 2], [2, 2], [3, 1], [4, 1], [7, 1]]);
  return { s: [bound(), bound(), step] };
}

const INVALID = [
  () => ({ i: 1.5 }),
  () => ({ i: -0.5 }),
  () => ({ list: [0, 1] }),
  () => ({ obj: {} }),
  () => ({ str: "1" }),
  () => ({ s: [null, null, 0] }),
  () => ({ s: [null, null, -1] }),
  () => ({ s: [0.5, null, null] }),
];

export function makeSelection(r, shape, trailing) {
  const rank = shape.length;
  const k = r.int(100);
  if (k < 10) return null;
  let sel;
  if (k < 22) sel = shape.map((n) => ({ i: randomInt(r, n) }));
  else if (k < 34 && rank >= 3) sel = shape.map((n, i) => (i === 0 ? { i: randomInt(r, n) } : r.int(4) === 0 ? null : randomSlice(r, n)));
  else sel = shape.map((n) => weighted(r, [[{ i: randomInt(r, n) }, 2], [null, 2], [randomSlice(r, n), 6]]));
  if (sel.length && r.int(10) === 0) sel = sel.slice(0, r.int(sel.length));
  if (r.int(10) === 0) {
    if (sel.length && r.int(4)) sel[r.int(sel.length)] = r.pick(INVALID)();
    else if (!trailing) sel.push({ i: 0 }); // one index too many
  }
  return sel;
}

/** A selection as zarr-python users write it (for repros). */
export function selectionText(sel) {
  if (sel === null) return "null";
  return `[${sel
    .map((s) => {
      if (s === null) return "null";
      if ("i" in s) return String(s.i);
      if ("s" in s) return `zarr.slice(${s.s.map((v) => (v === null ? "null" : v)).join(", ")})`;
      if ("list" in s) return JSON.stringify(s.list);
      if ("obj" in s) return JSON.stringify(s.obj);
      return JSON.stringify(s.str);
    })
    .join(", ")}]`;
}

// ---- judging ----------------------------------------------------------------------------

export const fromB64 = (s) => new Uint8Array(Buffer.from(s, "base64"));
export const hex = (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("hex");
const product = (v) => v.reduce((a, b) => a * b, 1);
export const cStrides = (shape) => shape.map((_, i) => product(shape.slice(i + 1)));
const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

/** The metadata text of the array in the reference's files (zarr.json first). */
function metadataText(files, spec) {
  const want = spec.format === 3 ? `${spec.path}/zarr.json` : `${spec.path}/.zarray`;
  const entry = files.find(([k]) => k === want);
  return entry ? Buffer.from(entry[1], "base64").toString() : "";
}

/** The fill_value member's raw JSON text (numbers kept exact). */
function fillText(meta) {
  const at = meta.indexOf('"fill_value":');
  if (at < 0) return "";
  let i = at + '"fill_value":'.length;
  while (meta[i] === " ") i++;
  let depth = 0;
  let j = i;
  let inString = false;
  for (; j < meta.length; j++) {
    const c = meta[j];
    if (inString) {
      if (c === "\\") j++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    if (depth < 0 || (depth === 0 && c === ",") || (depth === 0 && c === "\n")) break;
  }
  return meta.slice(i, j).trim();
}

/** What the package should present for the reference's answer, given the opened array's dtype and wrap. */
export function expectedOf(ref, info, c) {
  if (ref.kind === "float16") {
    const bits = info.dtype === "uint16" || info.dtype === "float16";
    return { shape: ref.shape, bytes: fromB64(bits ? ref.bits : ref.b64), width: bits ? 2 : 4 };
  }
  if (ref.kind === "bytes" || ref.kind === "bytestrings") {
    const bytes = fromB64(ref.b64);
    const n = product(ref.shape);
    return { shape: ref.shape, bytes, width: n ? bytes.length / n : 0 };
  }
  if (ref.kind === "strings") {
    if (String(info.dtype).startsWith("v2:U")) {
      // zarrita's own UnicodeStringArray (plain zarrita): UTF-32 code units.
      const chars = ref.chars;
      const units = new Int32Array(ref.values.length * chars);
      ref.units.forEach((u, i) => u.forEach((p, k) => (units[i * chars + k] = p)));
      return { shape: ref.shape, bytes: new Uint8Array(units.buffer), width: 4 * chars, unicodeUnits: true, strings: ref.values };
    }
    return { shape: ref.shape, values: ref.values };
  }
  // Object values: bytes tagged {b}; through withDataTypes a v2 vlen-bytes
  // fill of 0 or null reads as empty bytes (docs/data-types.md, "Fill values").
  const values = ref.values.map((v, i) => {
    if (v !== null && typeof v === "object" && "b" in v) return { bytes: fromB64(v.b) };
    if (c.spec.object === "vlen-bytes" && c.ctx.wrap !== "plain" && (v === 0 || v === null) && ref.filled.includes(i)) return { bytes: new Uint8Array(0) };
    return v;
  });
  return { shape: ref.shape, values };
}

export const show = (v) => (v?.bytes ? `bytes ${hex(v.bytes)}` : v?.hole ? "<hole>" : typeof v === "string" ? JSON.stringify(v) : typeof v === "bigint" ? `${v}n` : String(v));

function sameValue(a, b) {
  if (a?.bytes || b?.bytes) return !!(a?.bytes && b?.bytes) && same(a.bytes, b.bytes);
  return Object.is(a, b);
}

/** The scalar `value` (what read returned for an all-integer selection) as bytes of `width`, by the dtype it was read as. */
function scalarBytes(value, dtype) {
  const one = {
    int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
    float32: Float32Array, float64: Float64Array, int64: BigInt64Array, uint64: BigUint64Array,
  }[dtype];
  if (dtype === "bool") return typeof value === "boolean" ? Uint8Array.of(value ? 1 : 0) : undefined;
  if (!one) return undefined;
  try {
    const a = new one(1);
    a[0] = value;
    if (typeof value !== (one === BigInt64Array || one === BigUint64Array ? "bigint" : "number")) return undefined;
    return new Uint8Array(a.buffer);
  } catch {
    return undefined;
  }
}

/**
 * "" where `ours` (read's comparable result) is the reference's `expected`,
 * else where and how they differ: { why, at, onlyFilled }.
 */
export function differenceFrom(ours, expected, ref, info) {
  const filled = new Set(ref.filled);
  if ("scalar" in ours) {
    if (expected.shape.length !== 0) return { why: `a scalar (${show(ours.scalar)}) where numpy gives shape ${JSON.stringify(expected.shape)}` };
    const v = ours.scalar;
    if (expected.values) {
      const want = expected.values[0];
      return sameValue(v, want) ? "" : { why: `scalar ${show(v)}, numpy ${show(want)}`, onlyFilled: filled.has(0) };
    }
    if (String(info.dtype).startsWith("v2:S")) {
      // zarrita's ByteStringArray.get: the bytes as UTF-8 text, every NUL removed.
      const want = new TextDecoder().decode(expected.bytes).replace(/\0/g, "");
      return v === want ? "" : { why: `scalar ${show(v)}, numpy's bytes ${hex(expected.bytes)} as zarrita's text ${show(want)}`, onlyFilled: filled.has(0) };
    }
    if (expected.unicodeUnits) {
      const want = expected.strings[0].replace(/\0/g, "");
      return v === want ? "" : { why: `scalar ${show(v)}, numpy ${show(want)}`, onlyFilled: filled.has(0) };
    }
    const got = scalarBytes(v, info.dtype);
    if (!got) return { why: `scalar ${show(v)} (${typeof v}) for dtype ${info.dtype}` };
    const want = expected.bytes;
    if ((info.dtype === "float32" || info.dtype === "float64") && Number.isNaN(v)) {
      // A scalar is a JS number: V8 does not keep a NaN's payload through
      // one (a float32 NaN comes out canonical), so any NaN is numpy's NaN.
      const f = info.dtype === "float32" ? new Float32Array(want.buffer.slice(want.byteOffset, want.byteOffset + 4))[0] : new Float64Array(want.buffer.slice(want.byteOffset, want.byteOffset + 8))[0];
      return Number.isNaN(f) ? "" : { why: `scalar NaN, numpy ${hex(want)}`, onlyFilled: filled.has(0) };
    }
    return same(got, want) ? "" : { why: `scalar ${show(v)} (${hex(got)}), numpy ${hex(want)}`, onlyFilled: filled.has(0) };
  }
  if (!same(ours.shape, expected.shape)) return { why: `shape ${JSON.stringify(ours.shape)}, numpy ${JSON.stringify(expected.shape)}` };
  if (!same(ours.stride, cStrides(ours.shape))) return { why: `strides ${JSON.stringify(ours.stride)}, not C order` };
  const n = product(expected.shape);
  // Presented elements per stored one (the trailing dimension of complex,
  // records and raw bytes): `filled` counts stored elements.
  const tail = ref.tail ?? 1;
  if (expected.values) {
    if (!ours.values) return { why: `a ${ours.container} where numpy gives values` };
    for (let k = 0; k < n; k++) {
      if (!sameValue(ours.values[k], expected.values[k])) {
        const all = [];
        for (let j = 0; j < n; j++) if (!sameValue(ours.values[j], expected.values[j])) all.push(j);
        return {
          why: `element ${k}: ${show(ours.values[k])}, numpy ${show(expected.values[k])}`,
          at: k, count: all.length, holes: ours.values.some((v) => v?.hole), onlyFilled: all.every((j) => filled.has(j)),
        };
      }
    }
    return "";
  }
  if (!ours.bytes) return { why: `values in an ${ours.container} where numpy gives bytes` };
  if (ours.bytes.length !== expected.bytes.length) return { why: `${ours.bytes.length} bytes, numpy ${expected.bytes.length} (element widths ${n ? ours.bytes.length / n : 0} vs ${expected.width})` };
  const w = expected.width || 1;
  const bad = [];
  for (let k = 0; k < n; k++) {
    for (let b = 0; b < w; b++) {
      if (ours.bytes[k * w + b] !== expected.bytes[k * w + b]) {
        bad.push(k);
        break;
      }
    }
  }
  if (!bad.length) return "";
  const k = bad[0];
  return {
    why: `element ${k} of ${n}: ${hex(ours.bytes.subarray(k * w, k * w + w))}, numpy ${hex(expected.bytes.subarray(k * w, k * w + w))} (${bad.length} elements differ)`,
    at: k, count: bad.length, onlyFilled: bad.every((j) => filled.has(Math.floor(j / tail))),
  };
}

// Refusals docs/ promise, each with where it says so. `e`: read's error
// ({ error, code, message }); `c`: the case; `sel`: the selection.
const DOCUMENTED_REFUSALS = [
  {
    // docs/read.md: per axis "zarr.slice(start, stop, step) with a step of 1
    // or more"; numpy reads negative steps.
    name: "a slice step below 1",
    matches: (e, c, sel) => e.code === "INVALID_SELECTION" && Array.isArray(sel) && sel.some((s) => s?.s && s.s[2] !== null && s.s[2] < 1),
  },
  {
    // docs/read.md: per axis "an integer, null or zarr.slice(...)": no
    // integer arrays (numpy reads [0, 1] as fancy indexing).
    name: "an integer array as an index",
    matches: (e, c, sel) => e.code === "INVALID_SELECTION" && Array.isArray(sel) && sel.some((s) => s?.list),
  },
  {
    // docs/data-types.md, "Byte strings and variable-length bytes": a
    // missing vlen-bytes chunk is "refused (UNFILLABLE_CHUNK) on zarrita 0.5
    // and 0.6 and for a shard that misses an inner chunk".
    name: "a missing variable-length bytes chunk on zarrita 0.5/0.6 or in a shard",
    matches: (e, c) => e.code === "UNFILLABLE_CHUNK" && c.spec.object === "vlen-bytes" && (c.ctx.zarrita !== "0.7.5" || !!c.spec.sharding),
  },
  {
    // docs/data-types.md, null_terminated_bytes / |S fills: "A fill whose
    // bytes are not UTF-8 can be no such string: a missing chunk of that
    // array is refused (UNFILLABLE_CHUNK)".
    name: "a missing |S chunk whose fill is not UTF-8",
    matches: (e, c) => e.code === "UNFILLABLE_CHUNK" && familyOf(c.spec) === "S",
  },
];

function hasComplex(d) {
  if (Array.isArray(d)) return d.some((f) => hasComplex(f[1]));
  return /^[<>|]c/.test(d);
}

const sel0 = (sel) => (Array.isArray(sel) ? sel : []);
const isInt = (s) => s && "i" in s;
const invalidEntry = (s) => s && (("i" in s && !Number.isInteger(s.i)) || "obj" in s || "list" in s || "str" in s);

/**
 * The defects found, by family: issue 28's (issue: "28.<item>") and new
 * ones (issue: "new"), each with the signature that recognizes it. A
 * temporary switch (READ_FUZZ_KNOWN_DEFECTS=1 or --known-defects, off by
 * default): on, a failure a family matches is counted under the family and
 * the run goes on; off, every failure stops the run, so once the fixes land
 * the fuzzer checks them. `f`: { outcome, diff, e, c, sel, ref, fill }.
 */
export const KNOWN_DEFECTS = [
  {
    family: "holes in object-valued reads",
    issue: "28.1",
    // read.js placeValues: outAxis[i] = outAxis.length on a sparse array.
    matches: (f) => f.outcome === "wrong value" && f.diff?.holes && (f.sel === null ? [] : f.sel).some((s, i, a) => isInt(s) && a.slice(i + 1).filter((x) => !isInt(x)).length + f.c.spec.shape.length - a.length >= 2),
  },
  {
    family: "64-bit fills past 2^53",
    issue: "28.2",
    matches: (f) => f.outcome === "wrong value" && f.diff?.onlyFilled && bigIntFill(f.fill),
  },
  {
    family: "hex float fills, and NaN payloads of float16 and complex fills",
    issue: "28.3, 28.4",
    matches: (f) => f.outcome === "wrong value" && f.diff?.onlyFilled && f.c.spec.format === 3 && f.fill.includes('"0x'),
  },
  {
    family: "a stale .zarray beside zarr.json",
    issue: "28.5",
    matches: (f) => !!f.c.spec.stale_sibling && ["wrong value", "refused, the reference read"].includes(f.outcome),
  },
  {
    family: "shard index at the start",
    issue: "28.6",
    matches: (f) => f.c.spec.sharding?.index_location === "start" && ["wrong value", "refused, the reference read"].includes(f.outcome),
  },
  {
    family: "selections read instead of refused",
    issue: "28.9",
    matches: (f) => ["read, the reference refused", "wrong value"].includes(f.outcome) && sel0(f.sel).some(invalidEntry) && !f.diff?.onlyFilled,
  },
  {
    family: "all-integer selections through zarrita's getChunk",
    issue: "28.11",
    matches: (f) => ["refused, the reference read", "package TypeError or RangeError", "zarrita error"].includes(f.outcome) && Array.isArray(f.sel) && f.sel.length === f.c.spec.shape.length && f.sel.every(isInt) && f.ref?.filled?.length > 0,
  },
  {
    family: "two-part fills of sharded inner chunks on zarrita 0.5/0.6",
    issue: "28 (docs)",
    matches: (f) => f.outcome === "refused, the reference read" && f.e?.code === "UNFILLABLE_CHUNK" && !!f.c.spec.sharding && f.c.ctx.zarrita !== "0.7.5",
  },
  {
    family: "v2 complex in order F refused at rank 0 and 1",
    issue: "28 (docs)",
    matches: (f) => f.outcome === "refused at open" && f.c.spec.format === 2 && f.c.spec.order === "F" && hasComplex(f.c.spec.dtype) && f.c.spec.shape.length < 2,
  },
  {
    family: "v2 presented dtypes with a filter refused at open",
    issue: "28 (docs: float16 and complex with shuffle); new: records, <U/>U and |V too",
    // js/data-types/present-v2.js refuses every filter of a presented v2
    // dtype but datetimes, |S and vlen-bytes; zarr-python 2 reads them.
    matches: (f) => f.outcome === "refused at open" && f.c.spec.format === 2 && (f.c.spec.filters ?? []).length > 0 && f.e?.code === "INVALID_METADATA" && /filters .* would run on the presented/.test(f.e.message),
  },
  {
    family: "base64 fills of struct byte-string fields refused at open",
    issue: "new",
    // zarr-python 3 writes a struct's fill as { field: that field's fill },
    // base64 for null_terminated_bytes and raw_bytes (the struct page: "Each
    // field's value MUST be a valid fill value for that field's data type");
    // withDataTypes takes only an array of byte values there.
    matches: (f) => f.outcome === "refused at open" && f.c.spec.format === 3 && familyOf(f.c.spec) === "struct" && /field .*fill_value "[^"]*" must be an array of \d+ byte values/.test(f.e?.message ?? ""),
  },
  {
    family: "a shard index without crc32c on zarrita 0.5/0.6",
    issue: "new (zarrita 0.5 and 0.6 read the index with 4 checksum bytes whatever index_codecs say; read hands shards to their reader)",
    matches: (f) => f.outcome === "refused, the reference read" && f.c.spec.sharding?.index_crc === false && f.c.ctx.zarrita !== "0.7.5" && f.e?.code === "LENGTH_MISMATCH",
  },
  {
    family: "numcodecs.js zstd broken after about 1,900 failed decodes in one process",
    issue: "new (numcodecs.js 0.3.2, the zstd zarrita registers: outside the package)",
    // Each zstd frame numcodecs.js refuses leaves its wasm a little worse;
    // after about 1,900 every decode, valid frames too, throws "a.getArg is
    // not a function" (its error path expects a WebAssembly.Exception). The
    // fuzz meets it through misread shards and stale siblings; the reader
    // is replaced when it does (a new module).
    matches: (f) => ["refused, the reference read", "zarrita error"].includes(f.outcome) && /getArg is not a function/.test(f.e?.message ?? ""),
    restart: true,
  },
  {
    family: "v2 records and |V in order F refused at open",
    issue: "new (docs/data-types.md lists v2 complex in Fortran order only)",
    matches: (f) => f.outcome === "refused at open" && f.c.spec.format === 2 && f.c.spec.order === "F" && ["struct", "V"].includes(familyOf(f.c.spec)) && !hasComplex(f.c.spec.dtype),
  },
];

function bigIntFill(text) {
  const m = /-?\d+/.exec(text.replace(/"[^"]*"/g, ""));
  if (!m || /[.eE]/.test(text)) return false;
  const v = BigInt(m[0]);
  return v > 2n ** 53n || v < -(2n ** 53n);
}

/** Classifies one selection's result; returns [outcome, detail, failureInfo?]. */
function judgeSelection(c, info, ref, ours, selection, fill) {
  const { sel } = selection;
  const r = ours.read;
  const failureOf = (outcome, diff, e) => ({ outcome, diff, e, c, sel, ref, fill });
  // A selection numpy refuses, or one docs/read.md says read refuses
  // (anything but integers, null and zarr.slice with integer bounds and a
  // step of 1 or more): read must not read it. Refused with the package's
  // INVALID_SELECTION as docs/read.md says, or otherwise (details count it).
  const docsInvalid = Array.isArray(sel) && sel.some((x) => invalidEntry(x) || (x?.s && (x.s.slice(0, 2).some((v) => v !== null && !Number.isInteger(v)) || (x.s[2] !== null && !(Number.isInteger(x.s[2]) && x.s[2] >= 1)))));
  if (ref.error || docsInvalid) {
    const why = ref.error ? `numpy: ${ref.error}` : "numpy reads it; docs/read.md refuses it";
    if (!r.error) return ["read, the reference refused", why, failureOf("read, the reference refused")];
    if (r.error === "package error" || r.error === "zarrita error") {
      const how = r.error === "package error" ? r.code : `zarrita's ${r.name}: ${r.message}`;
      if (ref.error) return ["refused, as the reference refuses", how];
      const doc = DOCUMENTED_REFUSALS.find((d) => d.phase !== "open" && d.matches(r, c, sel));
      return ["refused where docs/ say so", doc ? doc.name : `an invalid selection, refused with ${how}`];
    }
    return [r.error, r.message, failureOf(r.error, undefined, r)];
  }
  if (r.error) {
    if (r.error === "package error") {
      // The zarrita in use has no such codec (0.5 and 0.6 lack delta and
      // shuffle): zarrita's limit, which read names (UNKNOWN_CODEC).
      if (r.code === "UNKNOWN_CODEC") return ["zarrita error", `its registry lacks a codec: ${r.message}`.slice(0, 140)];
      const doc = DOCUMENTED_REFUSALS.find((d) => d.phase !== "open" && d.matches(r, c, sel));
      if (doc) return ["refused where docs/ say so", doc.name];
      return ["refused, the reference read", `${r.code}: ${r.message}`, failureOf("refused, the reference read", undefined, r)];
    }
    if (r.error === "zarrita error") {
      // zarrita 0.7.5 reads a shard's index from its end only: read must read
      // an index at the start, or refuse it clearly (issue 28), not hand
      // the shard to zarrita.
      if (c.spec.sharding?.index_location === "start") return ["refused, the reference read", `zarrita's ${r.name}: ${r.message}`, failureOf("refused, the reference read", undefined, r)];
      // An all-integer selection of a missing chunk: zarrita's getChunk
      // fails where read's own path fills (issue 28, item 11).
      if (Array.isArray(sel) && sel.length === c.spec.shape.length && sel.every(isInt) && ref.filled.length) return ["refused, the reference read", `zarrita's ${r.name}: ${r.message}`, failureOf("refused, the reference read", undefined, r)];
      return ["zarrita error", `${r.name}: ${r.message}`];
    }
    return [r.error, `${r.message}\n${r.stack}`, failureOf(r.error, undefined, r)];
  }
  const expected = expectedOf(ref, info, c);
  const diff = differenceFrom(r, expected, ref, info);
  if (diff) return ["wrong value", diff.why, failureOf("wrong value", diff)];
  // The container zarr.get gives, where it reads.
  if (ours.get && !ours.get.error && !("scalar" in r) && !("scalar" in ours.get) && ours.get.container !== r.container) {
    return ["wrong value", `container ${r.container}, zarr.get's ${ours.get.container}`, failureOf("wrong value", { why: "container" })];
  }
  if (ours.into) {
    if (ours.into.error) {
      if (ours.into.error === "package error") return ["refused, the reference read", `into: ${ours.into.code}: ${ours.into.message}`, failureOf("refused, the reference read", undefined, ours.into)];
      return [ours.into.error, `into: ${ours.into.message}`, failureOf(ours.into.error, undefined, ours.into)];
    }
    const d2 = differenceFrom(ours.into, expected, ref, info);
    if (d2) return ["wrong value", `into: ${d2.why}`, failureOf("wrong value", d2)];
    if (!ours.into.same) return ["wrong value", "into: the result's data is not the container given", failureOf("wrong value", { why: "into not returned" })];
    return ["read into as the reference", ""];
  }
  return ["scalar" in r ? "scalar as the reference" : "read as the reference", ""];
}

/** Every outcome of one case: [{ outcome, detail, failure? }]. */
function judgeCase(c, answer, result) {
  if (answer.crashed) return [{ outcome: "the reference crashed", detail: answer.crashed.slice(0, 120) }];
  if (answer.failed) return [{ outcome: "the reference crashed", detail: `its own error: ${answer.failed.split("\n").slice(-2).join(" ").slice(0, 160)}` }];
  if (answer.unwritable) return [{ outcome: "the reference could not write the store", detail: answer.unwritable.replace(/\d+/g, "N").slice(0, 120) }];
  const fill = fillText(metadataText(answer.files, c.spec));
  if (result.hang) {
    const selection = c.selections[Math.max(0, result.selection)];
    return [{ outcome: "hang", detail: "", failure: { outcome: "hang", c, sel: selection?.sel, ref: answer.selections[Math.max(0, result.selection)], fill } }];
  }
  const common = [];
  if (result.polluted) common.push({ outcome: "prototype polluted", detail: "", failure: { outcome: "prototype polluted", c, fill } });
  if (result.wasmMemoryBytes > MAX_WASM_BYTES) common.push({ outcome: "wasm memory grew", detail: `${result.wasmMemoryBytes}`, failure: { outcome: "wasm memory grew", c, fill } });
  if (result.crashed) return [...common, { outcome: result.crashed.error, detail: result.crashed.message, failure: { outcome: result.crashed.error, e: result.crashed, c, fill } }];
  if (result.open) {
    const e = result.open;
    if (e.error === "zarrita error") return [...common, { outcome: "zarrita error at open", detail: `${e.name}: ${e.message}`.replace(/\d+/g, "N").slice(0, 140) }];
    const doc = DOCUMENTED_REFUSALS.find((d) => d.phase === "open" && d.matches(e, c));
    if (doc) return [...common, { outcome: "refused where docs/ say so", detail: doc.name }];
    const outcome = e.error === "package error" ? "refused at open" : e.error;
    return [...common, { outcome, detail: `${e.code}: ${e.message}`, failure: { outcome, e, c, fill } }];
  }
  const info = { dtype: result.dtype, shape: result.shape };
  const out = [...common];
  c.selections.forEach((selection, i) => {
    const ours = result.results[i];
    const ref = answer.selections[i];
    const [outcome, detail, failure] = judgeSelection(c, info, ref, ours, selection, fill);
    out.push({ outcome, detail, failure, index: i });
    // zarr.get beside the reference, where read agrees with it: a zarrita
    // difference (counted, never read's failure).
    if (!failure && !ref.error && ours.get && !ours.get.error && !(c.spec.shape.length === 0 && c.ctx.zarrita !== "0.7.5")) {
      const d = differenceFrom(ours.get.scalar !== undefined || "scalar" in ours.get ? ours.get : { ...ours.get, stride: cStrides(ours.get.shape) }, expectedOf(ref, info, c), ref, info);
      if (d) out.push({ outcome: "zarr.get differs from the reference where read does not", detail: `zarrita ${c.ctx.zarrita}, v${c.spec.format} order ${c.spec.order ?? "C"}, ${familyOf(c.spec)}${c.spec.transpose ? ", transposed" : ""}` });
    }
  });
  return out;
}

/** The known family a failure belongs to, or undefined. */
function knownFamily(failure) {
  return KNOWN_DEFECTS.find((k) => k.matches(failure));
}

// ---- running a case ---------------------------------------------------------------------

async function runCase(c, python, reader) {
  const answer = await python.request({ spec: c.spec, selections: c.selections.map((s) => s.sel) });
  if (answer.crashed || answer.failed || answer.unwritable) return { answer, outcomes: judgeCase(c, answer, {}) };
  const files = answer.files.map(([k, v]) => [`/${k}`, fromB64(v)]);
  const result = await reader.run({ files, path: `/${c.spec.path}`, zarrita: c.ctx.zarrita, wrap: c.ctx.wrap, openAs: c.ctx.openAs, selections: c.selections });
  return { answer, result, outcomes: judgeCase(c, answer, result) };
}

/** The first failure of a case's outcomes that is not a known family (or every failure, with known families off). */
function firstFailure(outcomes, skipKnown) {
  for (const o of outcomes) {
    if (!o.failure) continue;
    if (skipKnown && knownFamily(o.failure)) continue;
    return o;
  }
  return undefined;
}

// ---- minimizing a failure --------------------------------------------------------------

const clone = (x) => structuredClone(x);

/** Simpler variants of a case (one change each). */
function* simpler(c, selIndex) {
  const s = c.spec;
  const only = (f) => {
    const d = clone(c);
    d.selections = [d.selections[selIndex]];
    f(d);
    return d;
  };
  yield only(() => {});
  const sel = c.selections[selIndex];
  if (sel.into) yield only((d) => (d.selections[0].into = false));
  if (!sel.pad) yield only((d) => (d.selections[0].pad = true));
  if (c.ctx.zarrita !== "0.7.5") yield only((d) => (d.ctx.zarrita = "0.7.5"));
  if (c.ctx.openAs !== "auto" && !s.stale_sibling) yield only((d) => (d.ctx.openAs = "auto"));
  if (s.compressor) yield only((d) => (d.spec.compressor = null));
  if (s.compressors?.length) yield only((d) => (d.spec.compressors = []));
  if (s.filters) yield only((d) => delete d.spec.filters);
  if (s.transpose) yield only((d) => delete d.spec.transpose);
  if (s.dimension_names) yield only((d) => delete d.spec.dimension_names);
  if (s.order === "F") yield only((d) => (d.spec.order = "C"));
  if (s.separator === "/") yield only((d) => (d.spec.separator = "."));
  if (s.endian === "big") yield only((d) => (d.spec.endian = "little"));
  if (s.chunk_key_encoding && !s.stale_sibling && !(s.chunk_key_encoding.name === "default" && s.chunk_key_encoding.configuration.separator === "/")) {
    yield only((d) => (d.spec.chunk_key_encoding = { name: "default", configuration: { separator: "/" } }));
  }
  if (s.sharding) {
    yield only((d) => {
      delete d.spec.sharding;
    });
    if (s.sharding.order !== "lexicographic") yield only((d) => (d.spec.sharding.order = "lexicographic"));
    if (s.sharding.missing_inner) yield only((d) => (d.spec.sharding.missing_inner = 0));
    if (!s.sharding.index_crc) yield only((d) => (d.spec.sharding.index_crc = true));
  }
  if (s.missing) yield only((d) => (d.spec.missing = 0));
  if (s.missing && s.missing < 1) yield only((d) => (d.spec.missing = 1));
  if (s.fill !== "zero") yield only((d) => (d.spec.fill = "zero"));
  if (Array.isArray(s.dtype) && s.dtype.length > 1) {
    for (let i = 0; i < s.dtype.length; i++) yield only((d) => d.spec.dtype.splice(i, 1));
  }
  if (Array.isArray(s.dtype)) {
    for (let i = 0; i < s.dtype.length; i++) if (s.dtype[i][2]) yield only((d) => d.spec.dtype[i].splice(2, 1));
  }
  if (sel.sel !== null) {
    if (sel.sel.length) yield only((d) => d.selections[0].sel.pop());
    for (let i = 0; i < sel.sel.length; i++) {
      if (sel.sel[i] !== null) yield only((d) => (d.selections[0].sel[i] = null));
      if (sel.sel[i]?.s) {
        const [a, b, st] = sel.sel[i].s;
        if (st !== null) yield only((d) => (d.selections[0].sel[i].s[2] = null));
        if (a !== null) yield only((d) => (d.selections[0].sel[i].s[0] = null));
        if (b !== null) yield only((d) => (d.selections[0].sel[i].s[1] = null));
      }
    }
  }
  // Fewer axes: an axis dropped everywhere it appears.
  for (let k = 0; k < s.shape.length; k++) {
    yield only((d) => {
      for (const key of ["shape", "chunks"]) d.spec[key].splice(k, 1);
      if (d.spec.sharding) d.spec.sharding.chunk_shape.splice(k, 1);
      if (d.spec.transpose) d.spec.transpose = d.spec.transpose.filter((a) => a !== k).map((a) => (a > k ? a - 1 : a));
      if (d.spec.transpose && d.spec.transpose.length < 2) delete d.spec.transpose;
      if (d.spec.stale_sibling) {
        d.spec.stale_sibling.shape = d.spec.shape;
        d.spec.stale_sibling.chunks = d.spec.chunks;
      }
      if (Array.isArray(d.selections[0].sel)) d.selections[0].sel.splice(k, 1);
    });
  }
  // Smaller dimensions and chunks.
  for (let k = 0; k < s.shape.length; k++) {
    if (s.shape[k] > 1) {
      yield only((d) => (d.spec.shape[k] -= 1));
      yield only((d) => (d.spec.shape[k] = Math.ceil(d.spec.shape[k] / 2)));
    }
    if (!s.sharding && s.chunks[k] > 1) yield only((d) => (d.spec.chunks[k] -= 1));
  }
}

function signature(o) {
  return `${o.outcome}|${knownFamily(o.failure)?.family ?? ""}`;
}

async function minimize(c, failing, python, reader, budget = 150) {
  let best = c;
  let bestIndex = failing.index ?? 0;
  const want = signature(failing);
  let tries = 0;
  let improved = true;
  let bestRun;
  while (improved && tries < budget) {
    improved = false;
    for (const candidate of simpler(best, bestIndex)) {
      if (tries++ >= budget) break;
      if (candidate.spec.stale_sibling) {
        candidate.spec.stale_sibling.shape = candidate.spec.shape;
        candidate.spec.stale_sibling.chunks = candidate.spec.chunks;
      }
      const run = await runCase(candidate, python, reader);
      const again = run.outcomes.find((o) => o.failure && signature(o) === want);
      if (again) {
        const changed = JSON.stringify([candidate.spec, candidate.ctx, candidate.selections]) !== JSON.stringify([best.spec, best.ctx, best.selections]);
        best = candidate;
        bestIndex = 0;
        bestRun = { ...run, failing: again };
        if (changed) {
          improved = true;
          break;
        }
      }
    }
  }
  return { c: best, run: bestRun };
}

/** JSON text without the whitespace between tokens (numbers kept as written, unlike JSON.parse). */
export function compact(text) {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === "\\") out += text[++i];
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (!/\s/.test(ch)) out += ch;
  }
  return out;
}

/** A repro a person can read: the store's documents and chunks, the selection, expected and got. */
function reproText(c, run, failing) {
  const lines = [];
  const { spec, ctx } = c;
  const sel = failing?.failure?.sel ?? c.selections[failing?.index ?? 0]?.sel;
  const selection = c.selections.find((s) => s.sel === sel) ?? c.selections[0];
  lines.push(`case: ${JSON.stringify({ spec, ctx, selections: [selection] })}`);
  lines.push(`opened with zarrita ${ctx.zarrita}, register(zarr.registry), ${ctx.wrap === "plain" ? "no withDataTypes" : ctx.wrap === "bits" ? 'withDataTypes(store, { floats: "bits" })' : "withDataTypes(store)"}, ${ctx.openAs === "auto" ? "zarr.open" : `zarr.open.${ctx.openAs}`}`);
  if (run?.answer?.files) {
    for (const [key, b64] of run.answer.files) {
      const bytes = fromB64(b64);
      if (/(zarr\.json|\.zarray)$/.test(key)) lines.push(`  ${key}: ${compact(Buffer.from(bytes).toString())}`);
      else if (!key.endsWith(".zgroup")) lines.push(`  ${key}: ${bytes.length} bytes${bytes.length <= 96 ? ` ${hex(bytes)}` : ""}`);
    }
    if (run.answer.missing?.length) lines.push(`  missing chunks: ${run.answer.missing.join(" ")}`);
  }
  lines.push(`selection: ${selectionText(selection.sel)}${selection.into ? " (then again with { into })" : ""}${selection.pad ? "" : " (read given it without the trailing axes)"}`);
  const i = c.selections.indexOf(selection);
  const ref = run?.answer?.selections?.[i];
  if (ref) {
    const values = ref.error ?? (ref.values ? JSON.stringify(ref.values).slice(0, 400) : `${ref.kind} ${hex(fromB64(ref.b64 ?? "")).slice(0, 400)}`);
    lines.push(`numpy: shape ${JSON.stringify(ref.shape)}: ${values}${ref.filled?.length ? ` (filled elements ${ref.filled.slice(0, 20).join(",")})` : ""}`);
  }
  const ours = run?.result?.results?.[i];
  if (ours) {
    const r = ours.read;
    const text = r.error ? `${r.error}: ${r.code ?? ""} ${r.message}` : "scalar" in r ? show(r.scalar) : r.values ? JSON.stringify(r.values.map((v) => (v?.bytes ? hex(v.bytes) : v))).slice(0, 400) : `${r.container} shape ${JSON.stringify(r.shape)}: ${hex(r.bytes).slice(0, 400)}`;
    lines.push(`read: ${text}`);
    const g = ours.get;
    const gt = g.error ? `${g.error}: ${g.code ?? ""} ${g.message}` : "scalar" in g ? show(g.scalar) : g.values ? JSON.stringify(g.values.map((v) => (v?.bytes ? hex(v.bytes) : v))).slice(0, 200) : `${g.container} shape ${JSON.stringify(g.shape)}: ${hex(g.bytes).slice(0, 200)}`;
    lines.push(`zarr.get: ${gt}`);
  } else if (run?.result?.open) {
    lines.push(`open: ${run.result.open.error}: ${run.result.open.code ?? ""} ${run.result.open.message}`);
  }
  if (failing) lines.push(`difference: ${failing.outcome}: ${failing.detail}`);
  return lines.join("\n");
}

// ---- the run -----------------------------------------------------------------------------

/** The random source of run `n` of `seed`: each run reproduces on its own. */
export function runRandom(seed, n) {
  let x = (Math.imul(seed >>> 0, 0x9e3779b1) ^ Math.imul(n + 1, 0x85ebca6b)) >>> 0;
  x ^= x >>> 16;
  return new Random(x || 1);
}

/** One case given as JSON ({ spec, ctx, selections }, as a repro prints them), run and printed. */
export async function runOne(c) {
  const python = new ReferenceProcess();
  const reader = new Reader();
  try {
    const run = await runCase(c, python, reader);
    const failing = run.outcomes.find((o) => o.failure);
    return { text: reproText(c, run, failing), outcomes: run.outcomes.map((o) => o.outcome) };
  } finally {
    await reader.stop();
    python.close();
  }
}

export async function fuzzRead({ seconds = 60, seed = 1, skipKnown = false, only, shrink = true, log = () => {} } = {}) {
  const python = new ReferenceProcess();
  const reader = new Reader();
  await reader.start();
  const counts = Object.fromEntries(RD_OUTCOMES.map((o) => [o, 0]));
  for (const k of KNOWN_DEFECTS) counts[`known defect: ${k.family}`] = 0;
  const details = {};
  const repros = {};
  const samples = {};
  let wasmMemoryBytes = 0;
  let zarritaUnhandled = 0;
  let runs = 0;
  let failure;
  const end = Date.now() + seconds * 1000;
  try {
    for (let n = only ?? 0; only !== undefined ? n === only : Date.now() < end; n++) {
      const c = makeCase(runRandom(seed, n));
      const run = await runCase(c, python, reader);
      runs++;
      if (run.result) {
        wasmMemoryBytes = Math.max(wasmMemoryBytes, run.result.wasmMemoryBytes ?? 0);
        zarritaUnhandled = Math.max(zarritaUnhandled, run.result.unhandled ?? 0);
      }
      if (only !== undefined) log(reproText(c, run, run.outcomes.find((o) => o.failure)));
      // A family that leaves the reader's modules broken: a new reader.
      if (run.outcomes.some((o) => (o.failure && knownFamily(o.failure)?.restart) || /getArg is not a function/.test(String(o.detail)))) await reader.stop();
      for (const o of run.outcomes) {
        const family = o.failure && knownFamily(o.failure);
        if (o.failure && skipKnown && family) {
          const label = `known defect: ${family.family}`;
          counts[label]++;
          if (!repros[family.family] && shrink) {
            const small = await minimize(c, o, python, reader, 60);
            repros[family.family] = `${family.family} (issue ${family.issue}), run ${n} of seed ${seed}:\n${reproText(small.c, small.run ?? run, small.run?.failing ?? o)}`;
            log(`\n${repros[family.family]}\n`);
          }
          continue;
        }
        counts[o.outcome] = (counts[o.outcome] ?? 0) + 1;
        if (o.detail && !o.failure && o.outcome !== "read as the reference") {
          const label = `${o.outcome}: ${String(o.detail).replace(/\d+/g, "N").slice(0, 110)}`;
          details[label] = (details[label] ?? 0) + 1;
          // READ_FUZZ_SAMPLES=1: where each kind of outcome was met.
          samples[label] ??= `run ${n}: ${familyOf(c.spec)} v${c.spec.format} ${JSON.stringify(c.spec.dtype)} order ${c.spec.order ?? "-"} zarrita ${c.ctx.zarrita} ${c.ctx.wrap} ${selectionText(c.selections[o.index ?? 0]?.sel ?? null)}`;
        }
      }
      const bad = firstFailure(run.outcomes, skipKnown);
      if (bad) {
        let text = reproText(c, run, bad);
        if (shrink) {
          const small = await minimize(c, bad, python, reader);
          if (small.run) text = `minimized:\n${reproText(small.c, small.run, small.run.failing)}\n\nas found:\n${text}`;
        }
        failure = `read differential fuzzer: ${bad.outcome} at run ${n} (seed ${seed}; node tests/fuzz/js/read-differential.mjs 0 ${seed} --run ${n} replays it)\n${text}`;
        break;
      }
      if (runs % 50 === 0) log(`\r${runs} runs`);
    }
  } finally {
    await reader.stop();
    python.close();
  }
  return { runs, counts, details, samples, repros, wasmMemoryBytes, zarritaUnhandled, referenceCrashes: python.crashes, failure };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { oneCase, seconds, seed, json, skipKnown, only, shrink } = fuzzArguments(process.argv.slice(2), "READ_FUZZ_KNOWN_DEFECTS");
  if (oneCase !== undefined) {
    // node read-differential.mjs --case '{"spec": ..., "ctx": ..., "selections": [...]}'
    const { text, outcomes } = await runOne(oneCase);
    console.log(`${text}\noutcomes: ${outcomes.join(", ")}`);
    process.exit(0);
  }
  const result = await fuzzRead({
    seconds, seed, skipKnown, only, shrink,
    log: json ? () => {} : (m) => process.stderr.write(m),
  });
  if (json) {
    const { repros, ...rest } = result;
    console.log(JSON.stringify({ ...rest, knownDefectsSkipped: skipKnown, repros }));
  } else {
    console.log(`\nread differential fuzzer: ${result.runs} runs in ${seconds} s (seed ${seed}${skipKnown ? ", known defects skipped" : ""}); wasm memory at most ${result.wasmMemoryBytes} bytes; reference crashes ${result.referenceCrashes}`);
    for (const [outcome, n] of Object.entries(result.counts)) if (n || FAILURES.has(outcome) || !outcome.startsWith("known")) console.log(`  ${outcome}: ${n}`);
    for (const [label, n] of Object.entries(result.details).sort()) {
      console.log(`    ${label}: ${n}`);
      if (process.env.READ_FUZZ_SAMPLES) console.log(`      e.g. ${result.samples[label]}`);
    }
  }
  if (result.failure) {
    console.error(`\n${result.failure}`);
    process.exitCode = 1;
  }
}
