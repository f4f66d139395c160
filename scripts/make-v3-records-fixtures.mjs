// Writes tests/fixtures/v3-records.zarr: a Zarr v3 group with one small
// array per case of the record and fixed-size string types of
// zarr-extensions and TensorStore: `struct` (flat, nested, every kind of
// field the pages name, under transpose, gzip and sharding), its legacy
// alias `structured` (tuple fields, a bytes codec without `endian`, base64
// fill values), `fixed_length_utf32` (either endian, astral code points)
// and TensorStore's `raw_bytes` (both chunk key encodings), with chunks and
// an inner chunk left unwritten. Nothing from the package encodes it: every
// chunk comes from the small encoder below, written from the spec texts
// (struct.md: packed fields in declared order, no padding, nested structs
// depth first, each multi-byte field in the bytes codec's `endian`;
// fixed_length_utf32.md: length_bytes / 4 UTF-32 code units, U+0000
// padded; bytes-codec.md), with DataView for the IEEE bit patterns,
// tests/js/support/reference.js (crc32c, the narrow-float codes) and
// node:zlib.
//
// expected.json holds, per array, what a reader presents: the whole array
// with every multi-byte field little-endian (le_hex), each leaf field's
// stored codes in C order, or the strings; a missing chunk reads as the
// fill. See the end of this file for the exact shape.
//
// Run: node scripts/make-v3-records-fixtures.mjs (the store is committed;
// running it twice gives byte-identical files).
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { crc32c, narrowReference } from "../tests/js/support/reference.js";
import { arrayMeta, chunkElements, chunkKey, codeBytes, concat, consolidatedGroup, gridOf, storeWriter, transposeElements, unravel } from "./fixture-store.mjs";

const ROOT = fileURLToPath(new URL("../tests/fixtures/v3-records.zarr", import.meta.url));

// ---- scalars as stored components ----------------------------------------------
//
// Every scalar flattens to components { width, code }: the bytes codec
// writes `width` bytes of the unsigned `code`, reversed under
// endian "big" (one-byte components never move). A struct is its fields'
// components in declared order, so packing and depth-first nesting fall out.

// Bytes per component of the fixed-size leaf types.
const WIDTH = {
  bool: 1, int4: 1, int8: 1, uint8: 1, float8_e4m3: 1,
  int16: 2, uint16: 2, bfloat16: 2,
  int32: 4, uint32: 4, float32: 4,
  int64: 8, uint64: 8, float64: 8,
};
// "NaN" per the pages: float8_e4m3.md 0x7c, bfloat16.md 0x7fc0; IEEE quiet NaN.
const NAN = { float8_e4m3: 0x7cn, bfloat16: 0x7fc0n, float32: 0x7fc00000n, float64: 0x7ff8000000000000n };

const nameOf = (dataType) => (typeof dataType === "string" ? dataType : dataType.name);

// A float JSON scalar (number, "NaN", "Infinity", "-Infinity", "0x..." bit
// pattern) -> its code.
function floatCode(name, value) {
  if (typeof value === "string" && value.startsWith("0x")) {
    const code = BigInt(value);
    if (code >> BigInt(8 * WIDTH[name])) throw new Error(`${value} does not fit ${name}`);
    return code;
  }
  if (value === "NaN") return NAN[name];
  const x = { Infinity: Infinity, "-Infinity": -Infinity }[value] ?? value;
  if (typeof x !== "number") throw new Error(`not a ${name} scalar: ${value}`);
  const view = new DataView(new ArrayBuffer(8));
  if (name === "float32") {
    view.setFloat32(0, x);
    return BigInt(view.getUint32(0));
  }
  if (name === "float64") {
    view.setFloat64(0, x);
    return view.getBigUint64(0);
  }
  const code = narrowReference(name, x);
  if (code === null || code === undefined) throw new Error(`${name} cannot hold ${x}`);
  return BigInt(code);
}

// An integer JSON scalar -> its (signed) value, range-checked.
function intCode(name, value) {
  const bits = name === "int4" ? 4 : 8 * WIDTH[name];
  const v = BigInt(value);
  const signed = name.startsWith("int");
  const lo = signed ? -(1n << BigInt(bits - 1)) : 0n;
  const hi = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
  if (v < lo || v > hi) throw new Error(`${value} is out of range for ${name}`);
  return v;
}

// A leaf's code as expected.json gives it: 64-bit codes as decimal strings.
const codeJSON = (name, code) => (WIDTH[name] === 8 ? String(code) : Number(code));

/**
 * A JSON scalar of `dataType` -> its leaves, depth first:
 * [{ path, dataType, extra (trailing shape), components, codes }].
 */
function leavesOf(dataType, value, path = "") {
  const name = nameOf(dataType);
  const leaf = (components, codes, extra = []) => [{ path, dataType, extra, components, codes }];
  if (name === "struct" || name === "structured") {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new Error(`${path || "record"}: a struct scalar is an object`);
    }
    const fields = fieldsOf(dataType);
    const extraKeys = Object.keys(value).filter((k) => !fields.some((f) => f.name === k));
    if (extraKeys.length) throw new Error(`${path || "record"}: no fields ${extraKeys}`);
    return fields.flatMap((f) => {
      if (!(f.name in value)) throw new Error(`${path || "record"}: no value for ${f.name}`);
      return leavesOf(f.dataType, value[f.name], path ? `${path}.${f.name}` : f.name);
    });
  }
  if (name === "fixed_length_utf32") {
    const units = dataType.configuration.length_bytes / 4;
    const points = [...value].map((c) => BigInt(c.codePointAt(0)));
    if (points.length > units) throw new Error(`"${value}" has more than ${units} code points`);
    while (points.length < units) points.push(0n);
    return leaf(points.map((code) => ({ width: 4, code })), [value]);
  }
  const raw = name === "raw_bytes" ? dataType.configuration.length_bytes : /^r(\d+)$/.exec(name)?.[1] / 8;
  if (raw) {
    if (!Array.isArray(value) || value.length !== raw || value.some((b) => !(b >= 0 && b <= 255 && b % 1 === 0))) {
      throw new Error(`${name}: ${JSON.stringify(value)} is not ${raw} byte values`);
    }
    return leaf(value.map((b) => ({ width: 1, code: BigInt(b) })), value, [raw]);
  }
  if (name === "complex64" || name === "complex128") {
    const part = name === "complex64" ? "float32" : "float64";
    const codes = value.map((v) => floatCode(part, v));
    return leaf(codes.map((code) => ({ width: WIDTH[part], code })), codes.map((c) => codeJSON(part, c)), [2]);
  }
  if (name === "numpy.datetime64") {
    const code = value === "NaT" ? -(1n << 63n) : intCode("int64", value);
    return leaf([{ width: 8, code: BigInt.asUintN(64, code) }], [String(code)]);
  }
  if (name === "bool") {
    if (typeof value !== "boolean") throw new Error(`bool: ${value}`);
    return leaf([{ width: 1, code: value ? 1n : 0n }], [value ? 1 : 0]);
  }
  if (/^u?int/.test(name)) {
    // int4: one byte, the value sign-extended into it.
    const code = intCode(name, value);
    return leaf([{ width: WIDTH[name], code: BigInt.asUintN(8 * WIDTH[name], code) }], [codeJSON(name, code)]);
  }
  if (name in NAN) {
    const code = floatCode(name, value);
    return leaf([{ width: WIDTH[name], code }], [codeJSON(name, code)]);
  }
  throw new Error(`make-v3-records-fixtures: no encoder for ${JSON.stringify(dataType)}`);
}

// struct fields are {name, data_type}; legacy `structured` ones may be
// [name, data_type] tuples.
function fieldsOf(dataType) {
  return dataType.configuration.fields.map((f) =>
    Array.isArray(f) ? { name: f[0], dataType: f[1] } : { name: f.name, dataType: f.data_type });
}

// One element's bytes: every component little-endian, or each reversed.
const elementBytes = (leaves, endian) =>
  concat(leaves.flatMap((l) => l.components).map(({ width, code }) => {
    const b = codeBytes(code, width);
    return endian === "big" ? b.reverse() : b;
  }));

// ---- chunks ------------------------------------------------------------------------

const product = (shape) => shape.reduce((x, y) => x * y, 1);

// The bytes codec's endian: absent means little-endian for legacy
// `structured` only; struct and fixed_length_utf32 need it for multi-byte
// components (the pages: MUST be configured).
function endianOf(a, codec) {
  const endian = codec.configuration?.endian;
  if (endian) return endian;
  const multiByte = a.fillLeaves.some((l) => l.components.some((c) => c.width > 1));
  if (multiByte && nameOf(a.dataType) !== "structured") throw new Error(`${a.name}: bytes needs endian`);
  return "little";
}

// The codec chain's encode of one chunk.
function encodeChunk(a, codecs, elements, chunkShape) {
  let bytes;
  for (const codec of codecs) {
    const cfg = codec.configuration ?? {};
    if (codec.name === "transpose") elements = transposeElements(elements, chunkShape, cfg.order);
    else if (codec.name === "bytes") bytes = concat(elements.map((e) => elementBytes(e, endianOf(a, codec))));
    else if (codec.name === "gzip") bytes = new Uint8Array(gzipSync(bytes, { level: cfg.level }));
    else if (codec.name === "crc32c") bytes = concat([bytes, codeBytes(crc32c(bytes), 4)]);
    else throw new Error(`make-v3-records-fixtures: no encoder for ${codec.name}`);
  }
  return bytes;
}

// A shard: its inner chunks by the inner codecs, then the index of
// (offset, nbytes) uint64 pairs (2^64-1 twice for a missing inner chunk)
// by the index codecs, at the end.
function encodeShard(a, coords, sharding) {
  const shardShape = a.chunkShape;
  const perShard = shardShape.map((s, d) => s / sharding.chunk_shape[d]);
  const parts = [];
  const index = [];
  let offset = 0;
  for (const local of gridOf(shardShape, sharding.chunk_shape)) {
    const global = local.map((v, d) => coords[d] * perShard[d] + v);
    if ((a.missingInner ?? []).some((m) => m.join() === global.join())) {
      index.push(0xffffffffffffffffn, 0xffffffffffffffffn);
      continue;
    }
    const bytes = encodeChunk(a, sharding.codecs, chunkElements(a.leaves, a.shape, a.fillLeaves, global, sharding.chunk_shape), sharding.chunk_shape);
    parts.push(bytes);
    index.push(BigInt(offset), BigInt(bytes.length));
    offset += bytes.length;
  }
  const indexLeaves = index.map((code) => [{ components: [{ width: 8, code }] }]);
  const indexArray = { ...a, fillLeaves: indexLeaves[0] };
  return concat([...parts, encodeChunk(indexArray, sharding.index_codecs, indexLeaves, [index.length])]);
}

// ---- the arrays ----------------------------------------------------------------------

const bytesBig = { name: "bytes", configuration: { endian: "big" } };
const bytesLittle = { name: "bytes", configuration: { endian: "little" } };
const gzip = { name: "gzip", configuration: { level: 5 } };
const struct = (...fields) => ({ name: "struct", configuration: { fields: fields.map(([name, data_type]) => ({ name, data_type })) } });
const utf32 = (length_bytes) => ({ name: "fixed_length_utf32", configuration: { length_bytes } });
const rawBytes = (length_bytes) => ({ name: "raw_bytes", configuration: { length_bytes } });
const xy = struct(["x", "float32"], ["y", "float32"]);

/**
 * name, data_type, shape, chunk_shape, codecs, fill_value (JSON, or for a
 * base64 fill the record it packs), the elements as JSON scalars in C
 * order (those of unwritten chunks are never stored), chunks left out.
 */
const ARRAYS = [];
function add(name, description, dataType, shape, chunkShape, codecs, fillValue, values, options = {}) {
  if (values.length !== product(shape)) throw new Error(`${name}: ${values.length} values for shape ${shape}`);
  ARRAYS.push({ name, description, dataType, shape, chunkShape, codecs, fillValue, values, ...options });
}

add("points", "struct of two float32, big-endian; the chunk holding index 4 is not written",
  xy, [5], [2], [bytesBig], { x: 1.5, y: -2.0 },
  [{ x: 0, y: 1 }, { x: -0, y: "NaN" }, { x: 3.25, y: "Infinity" }, { x: "0x00000001", y: -7.5 }, { x: 9, y: 9 }],
  { missing: [[2]] });
add("spec_record", "struct.md's worked example (13 bytes: id at 0, flags at 4, value at 5), big-endian, gzip",
  struct(["id", "int32"], ["flags", "uint8"], ["value", "float64"]), [3, 2], [2, 2], [bytesBig, gzip],
  { id: 0, flags: 0, value: 0.0 },
  [
    { id: 1, flags: 0x80, value: 1.5 },
    { id: -(2 ** 31), flags: 255, value: -0 },
    { id: 2 ** 31 - 1, flags: 1, value: "0x7ff0000000000001" }, // NaN with a payload
    { id: 0x01020304, flags: 7, value: "-Infinity" },
    { id: -1, flags: 0, value: 1e300 },
    { id: 42, flags: 42, value: 5e-324 },
  ]);
add("nested", "struct.md's nested example (point.x, point.y, value; 16 bytes), little-endian, sharded; inner chunk 3 not written",
  struct(["point", xy], ["value", "float64"]), [8], [4], [{ name: "sharding_indexed", configuration: {
    chunk_shape: [2], codecs: [bytesLittle], index_codecs: [bytesLittle, { name: "crc32c" }], index_location: "end" } }],
  { point: { x: 0, y: 0 }, value: 0 },
  Array.from({ length: 8 }, (_, i) => ({ point: { x: i + 0.5, y: -i }, value: i * 1e10 + 0.25 })),
  { missingInner: [[3]] });
add("mixed_types", "struct with int4, float8_e4m3, bfloat16, numpy.datetime64, complex64, r24, fixed_length_utf32 and uint64 fields, big-endian",
  struct(["a", "int4"], ["f", "float8_e4m3"], ["h", "bfloat16"],
    ["t", { name: "numpy.datetime64", configuration: { unit: "s", scale_factor: 1 } }], ["c", "complex64"], ["r", "r24"],
    ["label", utf32(8)], ["u", "uint64"]),
  [4], [2], [bytesBig],
  { a: -1, f: "NaN", h: -2.0, t: "NaT", c: [0, 0], r: [0, 0, 0], label: "", u: 7 },
  [
    { a: -8, f: "NaN", h: "0x7fc0", t: "NaT", c: [1.0, -1.0], r: [1, 2, 3], label: "ab", u: 2n ** 64n - 1n },
    { a: 7, f: "0x80", h: "0x8000", t: 0, c: ["NaN", "0x80000000"], r: [255, 0, 128], label: "é", u: 0 },
    { a: 0, f: 1.0, h: 1.5, t: 1700000000, c: ["Infinity", 0.5], r: [0xde, 0xad, 0xbe], label: "", u: 2n ** 53n + 1n },
    { a: -1, f: "0x01", h: "Infinity", t: -1, c: [0, -0], r: [9, 8, 7], label: "🙂", u: 1 },
  ]);
add("differing_fill", "struct of two uint8 (bytes without endian); fields with different fills; the second chunk not written",
  struct(["a", "uint8"], ["b", "uint8"]), [4], [2], [{ name: "bytes" }], { a: 1, b: 2 },
  [{ a: 10, b: 20 }, { a: 0, b: 255 }, { a: 99, b: 99 }, { a: 99, b: 99 }], { missing: [[1]] });
add("record_transpose", "struct {int16, uint8} under transpose [1, 0], big-endian: element (i, j) stored at j*2 + i",
  struct(["v", "int16"], ["w", "uint8"]), [2, 3], [2, 3],
  [{ name: "transpose", configuration: { order: [1, 0] } }, bytesBig], { v: 0, w: 0 },
  [{ v: 1, w: 1 }, { v: -2, w: 2 }, { v: 0x0102, w: 3 }, { v: -32768, w: 11 }, { v: 32767, w: 12 }, { v: -1, w: 13 }]);
add("legacy_tuples", "legacy structured: tuple fields, bytes without endian (little), base64 fill; the second chunk not written",
  { name: "structured", configuration: { fields: [["x", "float32"], ["y", "int16"]] } }, [3], [2], [{ name: "bytes" }],
  { x: 0.5, y: -3 }, [{ x: 1.25, y: 300 }, { x: "-Infinity", y: -32768 }, { x: 7, y: 7 }],
  { missing: [[1]], base64Fill: true });
add("legacy_be", "legacy structured: tuple fields with a bool, big-endian, base64 fill packed big-endian",
  { name: "structured", configuration: { fields: [["x", "int32"], ["flag", "bool"]] } }, [2], [2], [bytesBig],
  { x: 258, flag: true }, [{ x: -5, flag: false }, { x: 2 ** 31 - 1, flag: true }], { base64Fill: true });
add("hi", "fixed_length_utf32 of 3 code points, little-endian; element 0 is the page's \"Hi\" example",
  utf32(12), [3], [3], [bytesLittle], "", ["Hi", "", "abc"]);
add("labels_be", "fixed_length_utf32 of 6 code points, big-endian, gzip; chunk (1, 1) not written",
  utf32(24), [3, 4], [2, 2], [bytesBig, gzip], "none",
  ["zarr", "ünï", "日本語", "🙂🙂", "abcdef", "", "e\u0301", "Zürich", "𝄞x𝄞", "A", "skip", "skip"],
  { missing: [[1, 1]] });
add("raw", "raw_bytes of 5 bytes (never swapped); the second chunk not written",
  rawBytes(5), [4], [3], [{ name: "bytes" }], [1, 2, 3, 4, 5],
  [[0, 0, 0, 0, 0], [255, 254, 253, 252, 251], [0x12, 0x34, 0x56, 0x78, 0x9a], [7, 7, 7, 7, 7]], { missing: [[1]] });
add("raw_v2_keys", "raw_bytes of 2 bytes, v2 chunk keys with \".\"",
  rawBytes(2), [2, 2], [1, 2], [{ name: "bytes" }], [0xff, 0],
  [[1, 2], [3, 4], [0xab, 0xcd], [0, 0xff]], { encoding: { name: "v2", configuration: { separator: "." } } });

// ---- writing ---------------------------------------------------------------------------

const write = storeWriter(ROOT);
const json = (o) => `${JSON.stringify(o, null, 2)}\n`;
const hexOf = (bytes) => Buffer.from(bytes).toString("hex");
const kindOf = (dataType) => ({ fixed_length_utf32: "utf32", raw_bytes: "raw" })[nameOf(dataType)] ?? "struct";

const consolidated = {};
const expected = {};
for (const a of ARRAYS) {
  a.leaves = a.values.map((v) => leavesOf(a.dataType, v));
  a.fillLeaves = leavesOf(a.dataType, a.fillValue);
  const bytesCodec = [...a.codecs, ...a.codecs.flatMap((c) => c.configuration?.codecs ?? [])].find((c) => c.name === "bytes");
  // structured.md: base64 of the packed bytes, in the bytes codec's order.
  const fill = a.base64Fill ? Buffer.from(elementBytes(a.fillLeaves, endianOf(a, bytesCodec))).toString("base64") : a.fillValue;
  a.meta = arrayMeta(a, fill, { description: a.description });
  write(`${a.name}/zarr.json`, json(a.meta));
  consolidated[a.name] = a.meta;

  const sharding = a.codecs[0].name === "sharding_indexed" ? a.codecs[0].configuration : undefined;
  const missingKeys = [];
  for (const coords of gridOf(a.shape, a.chunkShape)) {
    const key = chunkKey(a.meta, coords);
    if (a.missing?.some((m) => m.join() === coords.join())) {
      missingKeys.push(key);
      continue;
    }
    write(`${a.name}/${key}`, sharding
      ? encodeShard(a, coords, sharding)
      : encodeChunk(a, a.codecs, chunkElements(a.leaves, a.shape, a.fillLeaves, coords, a.chunkShape), a.chunkShape));
  }

  // The array as read: an element of a missing chunk (or inner chunk) is the fill.
  const isMissing = (idx) => {
    const chunk = idx.map((v, d) => Math.floor(v / a.chunkShape[d]));
    if (a.missing?.some((m) => m.join() === chunk.join())) return true;
    if (!sharding) return false;
    const inner = idx.map((v, d) => Math.floor(v / sharding.chunk_shape[d]));
    return (a.missingInner ?? []).some((m) => m.join() === inner.join());
  };
  const read = a.leaves.map((leaves, i) => (isMissing(unravel(i, a.shape)) ? a.fillLeaves : leaves));
  const kind = kindOf(a.dataType);
  const entry = { data_type: a.dataType, shape: a.shape, missing: missingKeys, kind };
  if (a.missingInner) entry.missing_inner = a.missingInner;
  if (kind === "utf32") {
    entry.strings = read.map(([leaf]) => leaf.codes[0]);
  } else {
    entry.record_bytes = elementBytes(a.fillLeaves, "little").length;
    entry.le_hex = hexOf(concat(read.map((leaves) => elementBytes(leaves, "little"))));
  }
  if (kind === "struct") {
    entry.fields = {};
    a.fillLeaves.forEach((leaf, k) => {
      entry.fields[leaf.path] = {
        data_type: leaf.dataType,
        shape: [...a.shape, ...leaf.extra],
        codes: read.flatMap((leaves) => leaves[k].codes),
      };
    });
  }
  expected[a.name] = entry;
}
write("zarr.json", json(consolidatedGroup(consolidated)));
// expected.json, per array name:
//   data_type, shape   as in zarr.json
//   missing            chunk keys not written; missing_inner (sharded) the
//                      inner chunk grid coordinates not written
//   kind               "struct" | "utf32" | "raw"
//   record_bytes       (struct, raw) bytes per element
//   le_hex             (struct, raw) the array in C order, every multi-byte
//                      field and code unit little-endian
//   fields             (struct) per dotted leaf path: data_type (as in the
//                      metadata), shape (array shape, + [2] complex, + [n]
//                      raw), codes (C order: integers as numbers, 64-bit ones
//                      and float64 bit patterns as decimal strings; float
//                      codes unsigned; int4 -8..7; complex interleaved; raw
//                      byte values; fixed_length_utf32 the strings; bool 0/1)
//   strings            (utf32) C order, trailing U+0000 stripped
writeFileSync(`${ROOT}/expected.json`, `${JSON.stringify(expected, null, 1)}\n`);
console.log(`make-v3-records-fixtures: wrote ${ARRAYS.length} arrays to ${ROOT}`);
