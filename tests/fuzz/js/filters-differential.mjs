// The differential fuzz of the array -> array codecs (issue 35): random
// small stores whose chunks go through numcodecs' filters (Zarr v2) or
// through scale_offset, cast_value and bitround (Zarr v3), random
// selections, and what read and zarr.get give held bit for bit against a
// reference.
//
// Each run (seeded; run n of seed s is the same case on every machine)
// describes a store:
//   - Zarr v2, written by zarr-python 2.13 with numcodecs 0.11: int8..int64,
//     uint8..uint64, float32 or float64 data (moderate values, and NaN
//     payloads, -0, infinities and random bits); one to three filters
//     chained by type (Delta with an astype, FixedScaleOffset into an
//     integer astype, Quantize, BitRound, AsType, Shuffle anywhere in the
//     list); compressor zlib, zstd, blosc or none; order C or F; zero,
//     special, random and null fills; chunks left missing. The reference
//     is what zarr-python 2 reads back.
//   - Zarr v3 with [scale_offset, cast_value, bytes, compressor?],
//     [cast_value, bytes, compressor?] or [bitround, bytes, compressor?]:
//     cast_value's data_type among the integers, float16/32/64, int4,
//     uint4, bfloat16 and float8_e4m3, each rounding, out_of_range clamp,
//     wrap or none, scalar_map entries both ways; scale and offset of the
//     array's type; random STORED values (mostly ones that decode, some
//     of any kind: NaN, infinities, extremes, random bits, scalar_map
//     keys) written as raw little-endian chunk bytes by Python. The
//     reference (filters-reference.py) decodes them as the zarr-extensions
//     pages define the codecs, in exact arithmetic; a chunk with a value
//     the pages call an error must be refused with the package's error.
// The reader thread (read-worker.mjs, the read fuzzer's) opens the store
// with zarrita 0.7.5 (sometimes 0.6.2 or 0.5.4), register(zarr.registry),
// withDataTypes or not, and reads each selection (slices with steps,
// integers, null, and a few invalid ones) with read (sometimes again into
// a preallocated container) and with zarr.get.
//
// Outcomes, counted by name, for read, read into and zarr.get each:
//   - read as the reference (values bit for bit: NaN payloads and -0;
//     where a cast_value or scale_offset makes a NaN, any NaN, as the
//     cast_value page does not require payloads to be kept);
//   - refused as the reference: the package's error (with its code) for a
//     selection with an element in a chunk the reference cannot decode;
//   - refused, as numpy refuses the selection / refused where docs/ say so
//     (a step below 1, an integer array: docs/read.md);
//   - read or refused, a failing chunk spanned: a step jumps over every
//     selected element of a chunk the reference cannot decode (reading it
//     or not is the reader's choice; the values read are judged);
//   - zarrita's own errors (counted apart, by message);
//   - the reference could not write the store, or crashed (not judged);
//   - numpy's undefined cast, where its loops differ: a float past
//     uint32's range cast to uint32 in a v2 filter, which numpy's vector
//     and scalar loops give differently (NUMPY_LOOPS_DIFFER; not judged);
//   - failures, which stop the run with the seed, the run and a minimized
//     repro (the case as JSON): a wrong value, a refusal of what the
//     reference reads, a read of what it refuses, a refusal at open, a
//     TypeError or RangeError from the package's code, a hang (30 s), wasm
//     memory past 64 MiB, a polluted prototype.
// KNOWN_DEFECTS lists the defects found, each with its signature and a
// minimal repro; a switch, off by default: with FILTERS_FUZZ_KNOWN_DEFECTS=1
// (or --known-defects) a failure a family matches is counted as "known
// defect: <family>" and the run goes on.
//
//   node tests/fuzz/js/filters-differential.mjs <seconds> <seed> [--json] [--known-defects] [--run N] [--no-shrink]
//   node tests/fuzz/js/filters-differential.mjs --case '<the "case:" line of a repro>'
import { fileURLToPath } from "node:url";
import { fuzzArguments } from "./fuzz-cli.mjs";
import { ReferenceProcess, Reader } from "./read-reference.mjs";
import {
  cStrides, compact, differenceFrom, expectedOf, fromB64, hex, makeSelection, runRandom, selectionText, show, weighted,
} from "./read-differential.mjs";

const MAX_WASM_BYTES = 64 * 1024 * 1024;

export const FD_OUTCOMES = [
  "read as the reference",
  "read into as the reference",
  "scalar as the reference",
  "refused as the reference",
  "refused, as numpy refuses the selection",
  "refused where docs/ say so",
  "read or refused, a failing chunk spanned",
  "zarrita error",
  "zarrita error at open",
  "the reference could not write the store",
  "the reference crashed",
  "numpy's undefined cast, where its loops differ",
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
const FAILURES = new Set(FD_OUTCOMES.slice(FD_OUTCOMES.indexOf("wrong value")));

// ---- describing a store --------------------------------------------------------------

const V2_TYPES = ["|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f4", "<f8"];
const V2_INTS = V2_TYPES.slice(0, 8);
const V2_FLOATS = ["<f4", "<f8"];
const itemsize = (d) => Number(d.slice(2));
const isFloatDescr = (d) => d[1] === "f";

/** One to three numcodecs filters, each taking the type the one before it gives. */
function v2Filters(r, dtype) {
  const n = weighted(r, [[1, 5], [2, 3], [3, 2]]);
  const filters = [];
  let cur = dtype;
  for (let k = 0; k < n; k++) {
    const kinds = [["delta", 3], ["fixedscaleoffset", 4], ["astype", 2], ["shuffle", 2]];
    if (isFloatDescr(cur)) kinds.push(["quantize", 3], ["bitround", 3]);
    switch (weighted(r, kinds)) {
      case "delta": {
        const astype = r.int(2) ? cur : r.pick(isFloatDescr(cur) ? V2_FLOATS : V2_INTS);
        filters.push({ id: "delta", dtype: cur, astype });
        cur = astype;
        break;
      }
      case "fixedscaleoffset": {
        const astype = r.pick(V2_INTS);
        const scale = r.pick([1, 2, 10, 100, 1000, 0.5, 3, 0.1, 65536, 1e6]);
        const offset = r.pick([0, 1, -5, 10, 100.5, 1000, -273.15, 250]);
        filters.push({ id: "fixedscaleoffset", offset, scale, dtype: cur, astype });
        cur = astype;
        break;
      }
      case "quantize": {
        const astype = r.pick(V2_FLOATS);
        filters.push({ id: "quantize", digits: r.int(7), dtype: cur, astype });
        cur = astype;
        break;
      }
      case "bitround":
        filters.push({ id: "bitround", keepbits: r.int((cur === "<f4" ? 23 : 52) + 1) });
        break;
      case "astype": {
        const to = r.pick(V2_TYPES);
        filters.push({ id: "astype", encode_dtype: to, decode_dtype: cur });
        cur = to;
        break;
      }
      default:
        filters.push({ id: "shuffle", elementsize: itemsize(cur) });
    }
  }
  return filters;
}

/** Whether each filter of `filters` takes the type the one before it gives (the list v2Filters makes). */
function v2Chains(dtype, filters) {
  let cur = dtype;
  for (const f of filters) {
    if (f.id === "delta" || f.id === "fixedscaleoffset" || f.id === "quantize") {
      if (f.dtype !== cur) return false;
      cur = f.astype;
    } else if (f.id === "astype") {
      if (f.decode_dtype !== cur) return false;
      cur = f.encode_dtype;
    } else if (f.id === "shuffle") {
      if (f.elementsize !== itemsize(cur)) return false;
    } else if (f.id === "bitround" && !isFloatDescr(cur)) return false;
  }
  return true;
}

const V3_ARRAY_TYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64"];
const V3_STORED_TYPES = [...V3_ARRAY_TYPES, "float16", "int4", "uint4", "bfloat16", "float8_e4m3"];
const ROUNDINGS = ["nearest-even", "towards-zero", "towards-positive", "towards-negative", "nearest-away"];
const isFloatType = (t) => /float/.test(t);
const intBits = (t) => Number(/\d+/.exec(t)[0]);

/** Scalars of type `t` as JSON (the fill-value encoding), exact in a JS number. */
function scalarPool(t) {
  if (isFloatType(t)) return [0, 1, -1.5, 0.5, 42, "NaN", "Infinity", "-Infinity"];
  const bits = intBits(t);
  const signed = t.startsWith("int");
  const pool = [0, 1, 7];
  if (signed) pool.push(-1);
  if (bits <= 32) {
    pool.push(signed ? -(2 ** (bits - 1)) : 2 ** bits - 1);
    pool.push(signed ? 2 ** (bits - 1) - 1 : 0);
  }
  if (bits > 4) pool.push(42);
  return pool;
}

function scalarMap(r, from, to) {
  const entries = [];
  for (let i = r.int(3); i > 0; i--) entries.push([r.pick(scalarPool(from)), r.pick(scalarPool(to))]);
  return entries;
}

function v3Codecs(r, dtype) {
  const codecs = [];
  const chain = weighted(r, [["scale_offset+cast_value", 9], ["cast_value", 7], ["bitround", 4]]);
  if (chain === "bitround") {
    const keep = isFloatType(dtype) ? (dtype === "float32" ? 23 : 52) : intBits(dtype);
    codecs.push({ name: "bitround", configuration: { keepbits: 1 + r.int(keep) } });
  } else {
    if (chain.startsWith("scale_offset")) {
      const configuration = {};
      const ints = !isFloatType(dtype);
      const signed = dtype.startsWith("int");
      if (r.int(5)) configuration.scale = ints ? r.pick(signed ? [1, -1, 2, 3, 10, -4, 100] : [1, 2, 3, 10, 100]) : r.pick([1, 0.1, 100, 2, -0.5, 0.001, 3.7, 1e-30, 65536, "0x3ff8000000000000"].filter((v) => typeof v === "number" || dtype === "float64"));
      if (r.int(5)) configuration.offset = ints ? r.pick(signed ? [0, 1, -5, 100, -100] : [0, 1, 5, 100]) : r.pick([0, 5, -10.5, 1000, 273.15, 1e6, 1e30]);
      codecs.push(r.int(8) === 0 && !Object.keys(configuration).length ? { name: "scale_offset" } : { name: "scale_offset", configuration });
    }
    const dataType = r.pick(V3_STORED_TYPES);
    const configuration = { data_type: dataType };
    if (r.int(3)) configuration.rounding = r.pick(ROUNDINGS);
    const oor = weighted(r, [[undefined, 4], ["clamp", 3], ["wrap", isFloatType(dataType) ? 0 : 3]]);
    if (oor) configuration.out_of_range = oor;
    if (r.int(3) === 0) {
      const map = {};
      if (r.int(2)) map.decode = scalarMap(r, dataType, dtype);
      if (r.int(2)) map.encode = scalarMap(r, dtype, dataType);
      configuration.scalar_map = map;
    }
    codecs.push({ name: "cast_value", configuration });
  }
  const stored = codecs.at(-1).name === "cast_value" ? codecs.at(-1).configuration.data_type : dtype;
  const oneByte = /^(u?int(4|8)|float8_e4m3)$/.test(stored);
  codecs.push(oneByte && r.int(2) ? { name: "bytes" } : { name: "bytes", configuration: { endian: "little" } });
  const compressor = weighted(r, [[null, 5], ["zstd", 2], ["gzip", 2]]);
  if (compressor === "zstd") codecs.push({ name: "zstd", configuration: { level: r.int(6), checksum: false } });
  if (compressor === "gzip") codecs.push({ name: "gzip", configuration: { level: r.int(10) } });
  return codecs;
}

export function makeCase(r) {
  const format = r.int(2) ? 2 : 3;
  const rank = weighted(r, [[0, 1], [1, 4], [2, 4], [3, 2]]);
  const shape = Array.from({ length: rank }, () => (r.int(25) === 0 ? 0 : 1 + r.int(rank >= 3 ? 4 : 6)));
  const chunks = shape.map((d) => 1 + r.int(Math.max(1, Math.min(d + 1, 4))));
  const spec = { format, seed: r.next(), path: r.pick(["arr", "g/arr"]), shape, chunks };
  spec.missing = r.int(5) < 2 ? 0 : r.pick([0.15, 0.3, 0.6]);
  if (format === 2) {
    spec.dtype = r.pick(V2_TYPES);
    spec.filters = v2Filters(r, spec.dtype);
    spec.compressor = weighted(r, [
      [null, 3],
      [{ id: "zlib", level: r.int(10) }, 1],
      [{ id: "zstd", level: r.int(6) }, 1],
      [{ id: "blosc", cname: r.pick(["lz4", "zstd", "blosclz", "zlib"]), clevel: r.int(10), shuffle: r.int(3), blocksize: 0 }, 2],
    ]);
    spec.order = r.int(3) === 0 ? "F" : "C";
    spec.separator = ".";
    spec.fill = weighted(r, [["zero", 3], ["special", 2], ["random", 3], ["null", 1]]);
  } else {
    spec.dtype = r.pick(V3_ARRAY_TYPES);
    spec.codecs = v3Codecs(r, spec.dtype);
    spec.fill = weighted(r, [["zero", 2], ["decoded", 4], ["nan", isFloatType(spec.dtype) ? 1 : 0], ["inf", isFloatType(spec.dtype) ? 1 : 0]]);
    spec.wild = r.pick([0, 0.005, 0.02, 0.05, 0.15]);
  }
  const ctx = {
    zarrita: weighted(r, [["0.7.5", 5], ["0.6.2", 2.5], ["0.5.4", 2.5]]),
    wrap: r.int(10) < 7 ? "plain" : "types",
    openAs: r.int(4) === 0 ? (format === 3 ? "v3" : "v2") : "auto",
  };
  const selections = Array.from({ length: 2 + r.int(3) }, () => ({
    sel: makeSelection(r, shape, false),
    into: r.int(100) < 30,
    pad: r.int(10) < 7,
  }));
  return { spec, ctx, selections };
}

// ---- judging ----------------------------------------------------------------------------

const NUMERIC = {
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
  int64: BigInt64Array, uint64: BigUint64Array, float32: Float32Array, float64: Float64Array,
};

/**
 * `ours` with each element the reference lets be any NaN (`nanAt`, C-order
 * indices) and that is a NaN in `ours` set to the reference's bytes: the
 * cast_value page does not require NaN payloads to be kept.
 */
function nanLoosened(ours, expected, nanAt, dtype) {
  if (!nanAt.length || !ours.bytes || !/^float(32|64)$/.test(dtype)) return ours;
  const w = dtype === "float32" ? 4 : 8;
  const bytes = ours.bytes.slice();
  const view = new DataView(bytes.buffer);
  for (const k of nanAt) {
    if ((k + 1) * w > bytes.length) continue;
    const v = w === 4 ? view.getFloat32(k * w, true) : view.getFloat64(k * w, true);
    if (Number.isNaN(v)) bytes.set(expected.bytes.subarray(k * w, k * w + w), k * w);
  }
  return { ...ours, bytes };
}

const invalidEntry = (s) => s && (("i" in s && !Number.isInteger(s.i)) || "obj" in s || "list" in s || "str" in s);
/** A selection docs/read.md refuses (anything but integers, null and zarr.slice with integer bounds and a step of 1 or more). */
const docsInvalid = (sel) => Array.isArray(sel) && sel.some((x) => invalidEntry(x) || (x?.s && (x.s.slice(0, 2).some((v) => v !== null && !Number.isInteger(v)) || (x.s[2] !== null && !(Number.isInteger(x.s[2]) && x.s[2] >= 1)))));

/** A zarrita message without its numbers and paths, to count by. */
const messageKey = (m) => String(m).replace(/\/[\w./-]+/g, "<path>").replace(/\d+/g, "N").slice(0, 120);

/**
 * One method's result (`got`: read's, read into's or zarr.get's comparable
 * result or failure) for one selection: [outcome, detail, failure?].
 */
function judgeOne(method, c, info, ref, got, selection) {
  const { sel } = selection;
  const failure = (outcome, diff, e) => ({ outcome, method, diff, e, c, sel, ref });
  const label = method === "read" ? "" : `${method}: `;
  if (ref.error || docsInvalid(sel)) {
    if (!got.error) {
      // zarrita's own indexing reads what numpy refuses: zarrita's, not the package's.
      if (method === "zarr.get") return ["zarrita error", `zarr.get reads a selection numpy refuses (${ref.error ?? "docs/read.md refuses it"})`.replace(/\d+/g, "N").slice(0, 120)];
      return ["read, the reference refused", `${label}${ref.error ?? "docs/read.md refuses it"}`, failure("read, the reference refused")];
    }
    if (got.error === "package error" || got.error === "zarrita error") {
      return ref.error ? ["refused, as numpy refuses the selection", `${label}${got.error === "package error" ? got.code : "zarrita's"}`] : ["refused where docs/ say so", `${label}${got.code ?? "zarrita's"}`];
    }
    return [got.error, `${label}${got.message}`, failure(got.error, undefined, got)];
  }
  if (ref.refused) {
    if (!got.error) return ["read, the reference refused", `${label}${ref.refused}`, failure("read, the reference refused")];
    if (got.error === "package error") return ["refused as the reference", `${label}${got.code}`];
    if (got.error === "zarrita error") return ["zarrita error", `${label}refused where the reference refuses, not with the package's error: ${messageKey(got.message)}`];
    return [got.error, `${label}${got.message}\n${got.stack}`, failure(got.error, undefined, got)];
  }
  if (got.error) {
    if (ref.either && got.error === "package error") return ["read or refused, a failing chunk spanned", `${label}refused (${got.code})`];
    if (got.error === "package error") {
      if (got.code === "UNKNOWN_CODEC") return ["zarrita error", `${label}its registry lacks a codec: ${messageKey(got.message)}`];
      return ["refused, the reference read", `${label}${got.code}: ${got.message}`, failure("refused, the reference read", undefined, got)];
    }
    if (got.error === "zarrita error") return ["zarrita error", `${label}${got.name}: ${messageKey(got.message)}`];
    return [got.error, `${label}${got.message}\n${got.stack}`, failure(got.error, undefined, got)];
  }
  const expected = expectedOf(ref, info, c);
  const ours = "scalar" in got ? got : nanLoosened(method === "zarr.get" ? { ...got, stride: cStrides(got.shape) } : got, expected, ref.nan ?? [], info.dtype);
  if ("scalar" in ours && ref.nan?.includes(0) && typeof ours.scalar === "number" && Number.isNaN(ours.scalar)) {
    return [ref.either ? "read or refused, a failing chunk spanned" : "scalar as the reference", label];
  }
  const diff = differenceFrom(ours, expected, ref, info);
  // zarr.get fills a missing chunk itself (no codec runs there): a wrong
  // fill there is zarrita's (its fills past 2^53, issue 28), not the codecs'.
  if (diff && method === "zarr.get" && diff.onlyFilled) return ["zarrita error", `zarr.get fills missing chunks otherwise (v${c.spec.format}, zarrita ${c.ctx.zarrita}, ${c.spec.dtype})`];
  // zarrita 0.5 and 0.6 read a v2 array in order F as if it were in order
  // C, filters or none (their own; read reads it right).
  if (diff && method === "zarr.get" && c.spec.order === "F" && c.ctx.zarrita !== "0.7.5") return ["zarrita error", "zarr.get on zarrita 0.5/0.6 reads v2 order F as C"];
  if (diff) return ["wrong value", `${label}${diff.why}`, failure("wrong value", diff)];
  if (method === "into" && !got.same) return ["wrong value", "into: the result's data is not the container given", failure("wrong value", { why: "into not returned" })];
  if (ref.either) return ["read or refused, a failing chunk spanned", `${label}read`];
  if ("scalar" in got) return ["scalar as the reference", label];
  return [method === "into" ? "read into as the reference" : "read as the reference", label];
}

/** Every outcome of one case: [{ outcome, detail, failure?, index }]. */
/**
 * zarrita 0.7 turns a v2 fixedscaleoffset into scale_offset + cast_value,
 * and leaves the cast_value out where the filter's astype is the array's
 * dtype, even after another filter that stores another type: the type
 * the filter stores is then lost before any codec is built. zarr.get
 * cannot read such a list on 0.7 (read reads the .zarray's filters).
 */
function zarritaConversionLoses(c) {
  const { format, filters, dtype } = c.spec;
  return format === 2 && c.ctx.zarrita === "0.7.5" && filters.some((x, i) => i > 0 && x.id === "fixedscaleoffset" && x.astype === dtype && x.dtype !== dtype);
}

function judgeCase(c, answer, result) {
  if (answer.crashed) return [{ outcome: "the reference crashed", detail: answer.crashed.slice(0, 120) }];
  if (answer.failed) return [{ outcome: "the reference crashed", detail: `its own error: ${answer.failed.split("\n").slice(-2).join(" ").slice(0, 160)}` }];
  if (answer.unwritable) return [{ outcome: "the reference could not write the store", detail: answer.unwritable.replace(/\d+/g, "N").slice(0, 120) }];
  if (result.hang) {
    const i = Math.max(0, result.selection);
    return [{ outcome: "hang", detail: "", failure: { outcome: "hang", c, sel: c.selections[i]?.sel, ref: answer.selections[i] } }];
  }
  const out = [];
  if (result.polluted) out.push({ outcome: "prototype polluted", detail: "", failure: { outcome: "prototype polluted", c } });
  if (result.wasmMemoryBytes > MAX_WASM_BYTES) out.push({ outcome: "wasm memory grew", detail: `${result.wasmMemoryBytes}`, failure: { outcome: "wasm memory grew", c } });
  if (result.crashed) return [...out, { outcome: result.crashed.error, detail: result.crashed.message, failure: { outcome: result.crashed.error, e: result.crashed, c } }];
  if (result.open) {
    const e = result.open;
    if (e.error === "zarrita error") return [...out, { outcome: "zarrita error at open", detail: `${e.name}: ${messageKey(e.message)}` }];
    const outcome = e.error === "package error" ? "refused at open" : e.error;
    return [...out, { outcome, detail: `${e.code}: ${e.message}`, failure: { outcome, e, c } }];
  }
  const info = { dtype: result.dtype, shape: result.shape };
  c.selections.forEach((selection, i) => {
    const ours = result.results[i];
    const ref = answer.selections[i];
    for (const method of ["read", "into", "zarr.get"]) {
      const got = method === "read" ? ours.read : method === "into" ? ours.into : ours.get;
      if (!got) continue;
      const [outcome, detail, failure] = judgeOne(method, c, info, ref, got, selection);
      // zarrita 0.5 and 0.6 give a 0-d array's one element as 0 without
      // decoding its chunk, filters or none (their own; read-differential.mjs
      // leaves them out too).
      if (failure && method === "zarr.get" && c.spec.shape.length === 0 && c.ctx.zarrita !== "0.7.5") {
        out.push({ outcome: "zarrita error", detail: "zarr.get on zarrita 0.5/0.6 reads a 0-d array as 0", index: i, method });
        continue;
      }
      if (failure && method === "zarr.get" && zarritaConversionLoses(c)) {
        out.push({ outcome: "zarrita error", detail: "zarr.get on zarrita 0.7: its v2 filter conversion drops a fixedscaleoffset's astype", index: i, method });
        continue;
      }
      out.push({ outcome, detail, failure, index: i, method });
    }
  });
  return out;
}

/**
 * The defects found, by family, each with the signature that recognizes it
 * and where it was found. A temporary switch (FILTERS_FUZZ_KNOWN_DEFECTS=1
 * or --known-defects, off by default): on, a failure a family matches is
 * counted under it and the run goes on; off, every failure stops the run,
 * so that once they are fixed the fuzzer checks them.
 */
export const KNOWN_DEFECTS = [
  // Empty: the six families this fuzzer found (issue 35) are fixed, each
  // with a test that fails without its fix:
  //   cast_value: a float of 2^63 (2^64) into int64 (uint64) wrapped
  //     (found seed 1, run 7; tests/js/codecs/cast-scale-errors.test.js);
  //   scale_offset: an integer decode's in / scale past the type, brought
  //     back by the offset (seed 11, run 2066; the same file);
  //   delta: a signalling NaN first in a chunk came back quieted (seed 23,
  //     run 5641; v2 delta_f4_signalling_nan_first);
  //   v2: a shuffle filter before another filter ran after it (seed 1,
  //     run 126; v2 shuffle_before_delta_i2);
  //   zarrita 0.7: two fixedscaleoffset filters read by the scale_offset
  //     page's rules (seed 1, run 143; v2 fso_after_fso_i2);
  //   zarrita 0.7: a fixedscaleoffset after another filter, storing the
  //     array's dtype (seed 1, run 41): read reads the .zarray's filters
  //     (v2 fso_u1_i8_then_i8_u1); zarr.get there is zarrita's own (its
  //     conversion drops the astype), counted under "zarrita error" by
  //     zarritaConversionLoses below.
];

/**
 * Values numpy leaves undefined, where numpy itself gives two answers: a
 * float cast to uint32 past uint32's range (NaN, -inf, beyond 2^32 or below
 * -2^31) is 2^31 in numpy's vector loop, which the package gives
 * (docs/codecs.md, "Casts are numpy's"), and the value modulo 2^32 or 0 in
 * its scalar loop, which takes an array's last elements (fewer than 4):
 * numpy.full(8, 5e9).astype("<u4") is 0 throughout, numpy.full(2,
 * 5e9).astype("<u4") is 705032704. Counted, not judged.
 */
const NUMPY_LOOPS_DIFFER = (f) =>
  f.outcome === "wrong value" && f.c.spec.format === 2 && f.c.spec.filters.some((x) =>
    (x.id === "fixedscaleoffset" && x.dtype === "<u4") ||
    (x.id === "astype" && x.decode_dtype === "<u4" && isFloatDescr(x.encode_dtype)) ||
    (x.id === "delta" && x.dtype === "<u4" && isFloatDescr(x.astype)));

/** Whether a difference (differenceFrom's "why") is two NaNs that differ in their quiet bit alone. */
function quietBitDiffers(why) {
  const m = /: ([0-9a-f]{8}|[0-9a-f]{16}), numpy ([0-9a-f]{8}|[0-9a-f]{16}) /.exec(why ?? "");
  if (!m || m[1].length !== m[2].length) return false;
  const le = (h) => BigInt(`0x${h.match(/../g).reverse().join("")}`);
  const [ours, numpy] = [le(m[1]), le(m[2])];
  const [exp, quiet] = m[1].length === 8 ? [0x7f800000n, 0x00400000n] : [0x7ff0000000000000n, 0x0008000000000000n];
  const payload = quiet - 1n;
  return (ours & exp) === exp && (numpy & exp) === exp && (ours ^ numpy) === quiet && (ours & payload) !== 0n;
}

const knownFamily = (failure) => KNOWN_DEFECTS.find((k) => k.matches(failure));

// ---- running a case ---------------------------------------------------------------------

async function runCase(c, python, reader) {
  const answer = await python.request({ spec: c.spec, selections: c.selections.map((s) => s.sel) });
  if (answer.crashed || answer.failed || answer.unwritable) return { answer, outcomes: judgeCase(c, answer, {}) };
  const files = answer.files.map(([k, v]) => [`/${k}`, fromB64(v)]);
  const result = await reader.run({ files, path: `/${c.spec.path}`, zarrita: c.ctx.zarrita, wrap: c.ctx.wrap, openAs: c.ctx.openAs, selections: c.selections });
  return { answer, result, outcomes: judgeCase(c, answer, result) };
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
  if (c.ctx.wrap !== "plain") yield only((d) => (d.ctx.wrap = "plain"));
  if (c.ctx.openAs !== "auto") yield only((d) => (d.ctx.openAs = "auto"));
  if (s.compressor) yield only((d) => (d.spec.compressor = null));
  if (s.order === "F") yield only((d) => (d.spec.order = "C"));
  if (s.filters?.length > 1) {
    for (let i = 0; i < s.filters.length; i++) {
      // Only lists that still chain (numcodecs views a mismatch; the package refuses it on purpose).
      const rest = s.filters.filter((_, k) => k !== i);
      if (v2Chains(s.dtype, rest)) yield only((d) => (d.spec.filters = rest));
    }
  }
  if (s.codecs) {
    const last = s.codecs.at(-1).name;
    if (last === "zstd" || last === "gzip") yield only((d) => d.spec.codecs.pop());
    const cast = s.codecs.find((x) => x.name === "cast_value");
    const at = s.codecs.indexOf(cast);
    if (s.codecs[0].name === "scale_offset") yield only((d) => d.spec.codecs.shift());
    if (cast?.configuration.scalar_map) yield only((d) => delete d.spec.codecs[at].configuration.scalar_map);
    if (cast?.configuration.rounding) yield only((d) => delete d.spec.codecs[at].configuration.rounding);
    if (cast?.configuration.out_of_range) yield only((d) => delete d.spec.codecs[at].configuration.out_of_range);
    if (s.wild) yield only((d) => (d.spec.wild = 0));
  }
  if (s.missing) yield only((d) => (d.spec.missing = 0));
  if (s.fill !== "zero") yield only((d) => (d.spec.fill = "zero"));
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
  for (let k = 0; k < s.shape.length; k++) {
    yield only((d) => {
      for (const key of ["shape", "chunks"]) d.spec[key].splice(k, 1);
      if (Array.isArray(d.selections[0].sel)) d.selections[0].sel.splice(k, 1);
    });
  }
  for (let k = 0; k < s.shape.length; k++) {
    if (s.shape[k] > 1) {
      yield only((d) => (d.spec.shape[k] -= 1));
      yield only((d) => (d.spec.shape[k] = Math.ceil(d.spec.shape[k] / 2)));
    }
    if (s.chunks[k] > 1) yield only((d) => (d.spec.chunks[k] -= 1));
  }
}

const signature = (o) => `${o.outcome}|${o.method}|${knownFamily(o.failure)?.family ?? ""}`;

async function minimize(c, failing, python, reader, budget = 120) {
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

/** A repro a person can read: the case as JSON, the store's documents and chunks, the selection, expected and got. */
function reproText(c, run, failing) {
  const lines = [];
  const { spec, ctx } = c;
  const index = failing?.index ?? 0;
  const selection = c.selections[index];
  lines.push(`case: ${JSON.stringify({ spec, ctx, selections: [selection] })}`);
  lines.push(`opened with zarrita ${ctx.zarrita}, register(zarr.registry), ${ctx.wrap === "plain" ? "no withDataTypes" : "withDataTypes(store)"}, ${ctx.openAs === "auto" ? "zarr.open" : `zarr.open.${ctx.openAs}`}`);
  if (run?.answer?.files) {
    for (const [key, b64] of run.answer.files) {
      const bytes = fromB64(b64);
      if (/(zarr\.json|\.zarray)$/.test(key) && key.includes(spec.path)) lines.push(`  ${key}: ${compact(Buffer.from(bytes).toString())}`);
      else if (!/(zarr\.json|\.zgroup)$/.test(key)) lines.push(`  ${key}: ${bytes.length} bytes${bytes.length <= 96 ? ` ${hex(bytes)}` : ""}`);
    }
    if (run.answer.missing?.length) lines.push(`  missing chunks: ${run.answer.missing.join(" ")}`);
    for (const [key, why] of Object.entries(run.answer.failing ?? {})) lines.push(`  chunk ${key} cannot be decoded: ${why}`);
  }
  if (selection) lines.push(`selection: ${selectionText(selection.sel)}${selection.into ? " (then again with { into })" : ""}${selection.pad ? "" : " (read given it without the trailing axes)"}`);
  const ref = run?.answer?.selections?.[index];
  if (ref) {
    const text = ref.error ?? ref.refused ?? `shape ${JSON.stringify(ref.shape)}: ${hex(fromB64(ref.b64 ?? "")).slice(0, 400)}${ref.either ? ` (or refused: ${ref.either})` : ""}`;
    lines.push(`reference: ${ref.refused ? "refused: " : ""}${text}${ref.filled?.length ? ` (filled elements ${ref.filled.slice(0, 20).join(",")})` : ""}${ref.nan?.length ? ` (any NaN at ${ref.nan.slice(0, 20).join(",")})` : ""}`);
  }
  const ours = run?.result?.results?.[index];
  const text = (g) => (g.error ? `${g.error}: ${g.code ?? ""} ${g.message}` : "scalar" in g ? show(g.scalar) : `${g.container} shape ${JSON.stringify(g.shape)}: ${hex(g.bytes).slice(0, 400)}`);
  if (ours) {
    lines.push(`read: ${text(ours.read)}`);
    if (ours.into) lines.push(`read into: ${text(ours.into)}`);
    lines.push(`zarr.get: ${text(ours.get)}`);
  } else if (run?.result?.open) {
    lines.push(`open: ${run.result.open.error}: ${run.result.open.code ?? ""} ${run.result.open.message}`);
  }
  if (failing) lines.push(`difference (${failing.method ?? "open"}): ${failing.outcome}: ${failing.detail}`);
  return lines.join("\n");
}

// ---- the run -----------------------------------------------------------------------------

/** One case given as JSON ({ spec, ctx, selections }, as a repro prints them), run and printed. */
export async function runOne(c) {
  const python = new ReferenceProcess(30000, "filters-reference.py");
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

export async function fuzzFilters({ seconds = 60, seed = 1, skipKnown = false, only, shrink = true, log = () => {} } = {}) {
  const python = new ReferenceProcess(30000, "filters-reference.py");
  const reader = new Reader();
  await reader.start();
  const counts = Object.fromEntries(FD_OUTCOMES.map((o) => [o, 0]));
  for (const k of KNOWN_DEFECTS) counts[`known defect: ${k.family}`] = 0;
  const details = {};
  const repros = {};
  const samples = {};
  let wasmMemoryBytes = 0;
  let runs = 0;
  let selections = 0;
  let failure;
  const end = Date.now() + seconds * 1000;
  try {
    for (let n = only ?? 0; only !== undefined ? n === only : Date.now() < end; n++) {
      const c = makeCase(runRandom(seed, n));
      const run = await runCase(c, python, reader);
      runs++;
      if (run.result?.results) selections += run.result.results.length;
      if (run.result) wasmMemoryBytes = Math.max(wasmMemoryBytes, run.result.wasmMemoryBytes ?? 0);
      if (only !== undefined) log(`${reproText(c, run, run.outcomes.find((o) => o.failure))}\n`);
      for (const o of run.outcomes) {
        const family = o.failure && knownFamily(o.failure);
        if (o.failure && skipKnown && family) {
          counts[`known defect: ${family.family}`]++;
          if (!repros[family.family] && shrink) {
            const small = await minimize(c, o, python, reader, 30);
            repros[family.family] = `${family.family}, run ${n} of seed ${seed}:\n${reproText(small.c, small.run ?? run, small.run?.failing ?? o)}`;
            log(`\n${repros[family.family]}\n`);
          }
          continue;
        }
        if (o.failure && NUMPY_LOOPS_DIFFER(o.failure)) {
          counts["numpy's undefined cast, where its loops differ"]++;
          continue;
        }
        counts[o.outcome] = (counts[o.outcome] ?? 0) + 1;
        if (o.detail && !o.failure && !/as the reference$/.test(o.outcome)) {
          const label = `${o.outcome}: ${String(o.detail).replace(/\d+/g, "N").slice(0, 130)}`;
          details[label] = (details[label] ?? 0) + 1;
          // FILTERS_FUZZ_SAMPLES=1: a case of each kind of outcome.
          samples[label] ??= `run ${n}: ${JSON.stringify({ spec: c.spec, ctx: c.ctx, selections: [c.selections[o.index ?? 0]] })}`;
        }
      }
      const bad = run.outcomes.find((o) => o.failure && !(skipKnown && knownFamily(o.failure)) && !NUMPY_LOOPS_DIFFER(o.failure));
      if (bad) {
        let text = reproText(c, run, bad);
        if (shrink) {
          const small = await minimize(c, bad, python, reader);
          if (small.run) text = `minimized:\n${reproText(small.c, small.run, small.run.failing)}\n\nas found:\n${text}`;
        }
        failure = `filters differential fuzzer: ${bad.outcome} at run ${n} (seed ${seed}; node tests/fuzz/js/filters-differential.mjs 0 ${seed} --run ${n} replays it)\n${text}`;
        break;
      }
      if (runs % 50 === 0) log(`\r${runs} runs`);
    }
  } finally {
    await reader.stop();
    python.close();
  }
  return { runs, selections, counts, details, samples, repros, wasmMemoryBytes, referenceCrashes: python.crashes, failure };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { oneCase, seconds, seed, json, skipKnown, only, shrink } = fuzzArguments(process.argv.slice(2), "FILTERS_FUZZ_KNOWN_DEFECTS");
  if (oneCase !== undefined) {
    const { text, outcomes } = await runOne(oneCase);
    console.log(`${text}\noutcomes: ${outcomes.join(", ")}`);
    process.exit(0);
  }
  const result = await fuzzFilters({
    seconds, seed, skipKnown, only, shrink,
    log: json ? () => {} : (m) => process.stderr.write(m),
  });
  if (json) {
    const { samples, ...rest } = result;
    console.log(JSON.stringify({ ...rest, knownDefectsSkipped: skipKnown }));
  } else {
    console.log(`\nfilters differential fuzzer: ${result.runs} runs, ${result.selections} selections in ${seconds} s (seed ${seed}${skipKnown ? ", known defects skipped" : ""}); wasm memory at most ${result.wasmMemoryBytes} bytes; reference crashes ${result.referenceCrashes}`);
    for (const [outcome, n] of Object.entries(result.counts)) if (n || FAILURES.has(outcome)) console.log(`  ${outcome}: ${n}`);
    for (const [label, n] of Object.entries(result.details).sort()) {
      console.log(`    ${label}: ${n}`);
      if (process.env.FILTERS_FUZZ_SAMPLES) console.log(`      e.g. ${result.samples[label]}`);
    }
  }
  if (result.failure) {
    console.error(`\n${result.failure}`);
    process.exitCode = 1;
  }
}
