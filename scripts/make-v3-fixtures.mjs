// Writes tests/fixtures/v3-data-types.zarr: a Zarr v3 group with one small
// array of every data type withDataTypes presents, stored with the codec
// chains people write (bytes of either endian, packbits with bit ranges and
// padding modes, transpose, gzip, crc32c, sharding with bytes or packbits
// inside, both chunk key encodings), fill values in every form the specs
// give, and chunks left unwritten. Nothing from the package encodes it: the
// chunks come from the spec-literal references in
// tests/js/support/reference.js (packbits one bit at a time, CRC-32C bit by
// bit) and node:zlib. zarrs and TensorStore, which write these types, are
// not installable here; zarrita cannot write them.
//
// expected.json holds, per array, the stored codes of every component in C
// order (the fill's where a chunk is missing): the tests turn them into the
// presented values with the same references, from the formats' definitions.
//
// Run: node scripts/make-v3-fixtures.mjs (the store is committed).
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { crc32c, packBitsEncodeReference, randomBytes } from "../tests/js/support/reference.js";
import { arrayMeta, chunkElements, chunkKey, codeBytes, concat, consolidatedGroup, gridOf, storeWriter, transposeElements } from "./fixture-store.mjs";

const ROOT = fileURLToPath(new URL("../tests/fixtures/v3-data-types.zarr", import.meta.url));

// The stored form of each type's components: bits, container bytes, signed.
function componentOf(dataType) {
  const name = typeof dataType === "string" ? dataType : dataType.name;
  if (name.startsWith("numpy.")) return { name: "int64", bits: 64, bytes: 8, signed: true, count: 1 };
  const raw = /^r(\d+)$/.exec(name);
  if (raw) return { name: "uint8", bits: 8, bytes: 1, signed: false, count: Number(raw[1]) / 8, raw: true };
  const complex = name === "complex64" || name === "complex128" || name.startsWith("complex_");
  const component = { complex64: "float32", complex128: "float64" }[name] ?? name.replace(/^complex_/, "");
  const bits = { int2: 2, uint2: 2, int4: 4, uint4: 4, float4_e2m1fn: 4, float6_e2m3fn: 6, float6_e3m2fn: 6,
    float16: 16, bfloat16: 16, uint16: 16, float32: 32, float64: 64 }[component] ?? 8;
  return { name: component, bits, bytes: Math.ceil(bits / 8), signed: /^int/.test(component), count: complex ? 2 : 1 };
}

// The codec chain's encode of one chunk's elements (each its component codes).
function encodeChunk(a, codecs, elements, chunkShape, seed) {
  const c = a.component;
  let bytes;
  for (const codec of codecs) {
    const cfg = codec.configuration ?? {};
    const values = elements.flat();
    if (codec.name === "transpose") {
      elements = transposeElements(elements, chunkShape, cfg.order);
    } else if (codec.name === "bytes") {
      // One value per byte for sub-byte types, with arbitrary upper bits
      // (zarr-extensions: they are ignored); big-endian swaps each component.
      const noise = randomBytes(values.length, seed);
      bytes = concat(values.map((v, i) => {
        if (c.bits < 8) return Uint8Array.of(((v & ((1 << c.bits) - 1)) | (noise[i] << c.bits)) & 0xff);
        const b = codeBytes(v, c.bytes);
        return cfg.endian === "big" ? b.reverse() : b;
      }));
    } else if (codec.name === "packbits") {
      const first = cfg.first_bit ?? 0;
      const last = cfg.last_bit ?? c.bits - 1;
      const body = packBitsEncodeReference(
        { containerBytes: c.bytes, firstBit: first, bits: last - first + 1, isBool: false },
        concat(values.map((v) => codeBytes(v, c.bytes))),
      );
      const padding = body.length * 8 - values.length * (last - first + 1);
      if (cfg.padding_encoding === "first_byte") bytes = concat([Uint8Array.of(padding), body]);
      else if (cfg.padding_encoding === "last_byte") bytes = concat([body, Uint8Array.of(padding)]);
      else bytes = body;
    } else if (codec.name === "gzip") {
      bytes = new Uint8Array(gzipSync(bytes, { level: cfg.level ?? 1 }));
    } else if (codec.name === "crc32c") {
      bytes = concat([bytes, codeBytes(crc32c(bytes), 4)]);
    } else {
      throw new Error(`make-v3-fixtures: no encoder for ${codec.name}`);
    }
  }
  return bytes;
}

// A sharded chunk: inner chunks encoded by the inner codecs, then the index
// of (offset, length) uint64 pairs with its crc32c (index at the end).
function encodeShard(a, coords, sharding, skipInner) {
  const shardShape = a.meta.chunk_grid.configuration.chunk_shape;
  const inner = sharding.chunk_shape;
  const perShard = shardShape.map((s, d) => s / inner[d]);
  const parts = [];
  const index = new BigUint64Array(2 * perShard.reduce((x, y) => x * y, 1));
  let offset = 0;
  gridOf(shardShape, inner).forEach((local, i) => {
    const global = local.map((v, d) => coords[d] * perShard[d] + v);
    if (skipInner.some((s) => s.join() === global.join())) {
      index[2 * i] = index[2 * i + 1] = 0xffffffffffffffffn;
      return;
    }
    const elements = chunkElements(a.codes, a.shape, a.fillCodes, global, inner);
    const bytes = encodeChunk(a, sharding.codecs, elements, inner, 100 + i);
    parts.push(bytes);
    index[2 * i] = BigInt(offset);
    index[2 * i + 1] = BigInt(bytes.length);
    offset += bytes.length;
  });
  const indexBytes = new Uint8Array(index.buffer);
  return concat([...parts, indexBytes, codeBytes(crc32c(indexBytes), 4)]);
}

// ---- the arrays -----------------------------------------------------------------

const seq = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const rnd = (n, seed, mask) => [...randomBytes(n, seed)].map((b) => b & mask);

/**
 * name, data_type, shape, chunk_shape, codecs, fill_value (JSON), the fill's
 * component codes, the element codes (component arrays), chunks left out.
 */
const ARRAYS = [];
function add(name, dataType, shape, chunkShape, codecs, fillValue, fillCodes, elementCodes, options = {}) {
  ARRAYS.push({ name, dataType, shape, chunkShape, codecs, fillValue, fillCodes, elementCodes, ...options });
}
const n = (shape) => shape.reduce((x, y) => x * y, 1);

// Integers narrower than a byte.
add("int4_packbits", "int4", [6, 5], [4, 4], [{ name: "packbits" }], -3, [-3],
  seq(30, (i) => [((i * 7) % 16) - 8]), { missing: [[1, 1]] });
add("int4_bytes", "int4", [7], [4], [{ name: "bytes" }], 7, [7], seq(7, (i) => [i - 4]));
add("uint2_packbits", "uint2", [9], [5], [{ name: "packbits", configuration: { padding_encoding: "first_byte" } }], 2, [2],
  seq(9, (i) => [i % 4]));
add("int2_bytes", "int2", [5], [5], [{ name: "bytes", configuration: {} }], -2, [-2], seq(5, (i) => [(i % 4) - 2]));
add("uint4_packbits_gzip", "uint4", [8, 3], [8, 2], [{ name: "packbits" }, { name: "gzip", configuration: { level: 1 } }], 15, [15],
  seq(24, (i) => [(i * 5) % 16]));
// Narrow floats.
add("float4_transpose", "float4_e2m1fn", [3, 4], [2, 4], [{ name: "transpose", configuration: { order: [1, 0] } }, { name: "packbits" }],
  "0x7", [0x7], seq(12, (i) => [i % 16]), { missing: [[1, 0]] });
add("float6_e2m3fn_bytes", "float6_e2m3fn", [4, 4], [4, 4], [{ name: "bytes" }], 0.125, [0x01], seq(16, (i) => [(i * 5) % 64]));
add("float6_e3m2fn_packbits", "float6_e3m2fn", [5], [3], [{ name: "packbits", configuration: { padding_encoding: "last_byte" } }], -28, [0x3f],
  seq(5, (i) => [(i * 13) % 64]), { missing: [[1]] });
for (const [format, nan] of [["float8_e3m4", 0x78], ["float8_e4m3", 0x7c], ["float8_e4m3fnuz", 0x80],
  ["float8_e4m3b11fnuz", 0x80], ["float8_e5m2", 0x7e], ["float8_e5m2fnuz", 0x80], ["float8_e8m0fnu", 0xff]]) {
  // Every code; the second chunk left out reads as NaN.
  add(format, format, [16, 16], [8, 16], [{ name: "bytes" }], "NaN", [nan], seq(256, (i) => [i]), { missing: [[1, 0]] });
}
add("float8_e5m2_first_bit", "float8_e5m2", [10], [10], [{ name: "packbits", configuration: { first_bit: 2 } }], 0, [0],
  seq(10, (i) => [(i * 29) % 256]));
add("bfloat16_be", "bfloat16", [4, 3], [2, 3], [{ name: "bytes", configuration: { endian: "big" } }], "0x7fc0", [0x7fc0],
  [[0x3f80], [0xbfc0], [0x7f80], [0xff80], [0x7fc1], [0x8000], [0x0001], [0x4049], [0x0000], [0x7f7f], [0x3c00], [0xc2f7]],
  { missing: [[1, 0]] });
add("float16_le", "float16", [6], [4], [{ name: "bytes", configuration: { endian: "little" } }], "NaN", [0x7e00],
  [[0x3c00], [0x8000], [0x7bff], [0x7c00], [0x0001], [0xfe01]], { missing: [[1]] });
// Complex types: the trailing dimension of 2.
add("complex_float8_e4m3", "complex_float8_e4m3", [3, 2], [2, 2], [{ name: "bytes" }], [1, 2], [0x38, 0x40],
  seq(6, (i) => [(i * 17) % 256, (i * 31 + 5) % 256]), { missing: [[1, 0]] });
add("complex_bfloat16_packbits", "complex_bfloat16", [4], [2], [{ name: "packbits", configuration: { first_bit: 8 } }], [0, 0], [0, 0],
  seq(4, (i) => [0x3f00 + i * 0x100, 0xc000 - i * 0x100]));
add("complex64_be", "complex64", [3], [2], [{ name: "bytes", configuration: { endian: "big" } }], ["NaN", "NaN"], [0x7fc00000, 0x7fc00000],
  [[0x3f800000, 0xbf800000], [0x7f800000, 0x80000000], [0x00000001, 0x7fc00001]], { missing: [[1]] });
add("complex128", "complex_float64", [2, 2], [1, 2], [{ name: "bytes", configuration: { endian: "little" } }], [0.5, -0.5],
  [0x3fe0000000000000n, 0xbfe0000000000000n], seq(4, (i) => [BigInt(i) << 52n, 0x4000000000000000n + BigInt(i)]), { missing: [[1, 0]] });
add("complex_float4_packbits", "complex_float4_e2m1fn", [5], [5], [{ name: "packbits" }], ["0x1", "0x9"], [0x1, 0x9],
  seq(5, (i) => [i * 3 % 16, (i * 5 + 1) % 16]));
add("complex_float16", "complex_float16", [2], [2], [{ name: "bytes", configuration: { endian: "little" } }], [0, 0], [0, 0],
  [[0x3c00, 0xc000], [0x7c00, 0x0001]]);
// numpy.datetime64 / timedelta64: int64 counts; NaT is -2^63.
add("datetime64", { name: "numpy.datetime64", configuration: { unit: "ns", scale_factor: 1 } }, [5], [3],
  [{ name: "bytes", configuration: { endian: "big" } }], "NaT", [-(2n ** 63n)],
  [[1700000000000000001n], [-(2n ** 63n)], [0n], [-5n], [2n ** 63n - 1n]], { missing: [[1]] });
add("timedelta64", { name: "numpy.timedelta64", configuration: { unit: "s", scale_factor: 10 } }, [4], [2],
  [{ name: "packbits", configuration: { last_bit: 62 } }], 1700000000000000001, [1700000000000000001n],
  [[1n], [-(2n ** 62n)], [2n ** 62n - 1n], [-7n]], { missing: [[1]] });
// Raw bytes: a trailing dimension of bits / 8.
add("r16", "r16", [3], [2], [{ name: "bytes" }], [1, 2], [1, 2], seq(3, (i) => [i * 16 + 1, 200 + i]), { missing: [[1]] });
add("r24_crc32c", "r24", [2, 2], [2, 1], [{ name: "bytes" }, { name: "crc32c" }], [7, 7, 7], [7, 7, 7],
  seq(4, (i) => [i, 255 - i, 0x5a]));
// Sharded: the index with crc32c (zarrita 0.5 and 0.6 read it that way).
const index = [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }];
add("sharded_int4", "int4", [8, 8], [8, 8], [{ name: "sharding_indexed", configuration: {
  chunk_shape: [4, 4], codecs: [{ name: "packbits" }], index_codecs: index, index_location: "end" } }], 1, [1],
  seq(64, (i) => [(i % 16) - 8]), { missingInner: [[1, 0]] });
add("sharded_float8", "float8_e4m3", [4, 6], [4, 6], [{ name: "sharding_indexed", configuration: {
  chunk_shape: [2, 3], codecs: [{ name: "bytes" }], index_codecs: index, index_location: "end" } }], 0, [0],
  seq(24, (i) => [(i * 11) % 256]));
add("sharded_complex64", "complex64", [4, 4], [4, 4], [{ name: "sharding_indexed", configuration: {
  chunk_shape: [2, 4], codecs: [{ name: "bytes", configuration: { endian: "little" } }], index_codecs: index, index_location: "end" } }],
  [0, 0], [0, 0], seq(16, (i) => [0x3f800000 + i, 0x40000000 + i]), { missingInner: [[1, 0]] });
// Chunk keys: v2 encoding, and "." as the default encoding's separator.
add("v2_keys_complex", "complex_bfloat16", [3], [2], [{ name: "bytes", configuration: { endian: "little" } }], [0, 0], [0, 0],
  seq(3, (i) => [0x3f80 + i, 0xbf80 + i]), { encoding: { name: "v2", configuration: { separator: "." } } });
add("dot_keys_int4", "int4", [4, 4], [2, 4], [{ name: "packbits" }], 0, [0], seq(16, (i) => [(i % 16) - 8]),
  { encoding: { name: "default", configuration: { separator: "." } } });
// A type zarrita knows, in object form; and zero-dimensional arrays.
add("object_form_uint16", { name: "uint16" }, [3], [3], [{ name: "bytes", configuration: { endian: "little" } }], 5, [5],
  [[1], [0xabcd], [0xffff]]);
add("scalar_int4", "int4", [], [], [{ name: "bytes" }], 3, [3], [[-6]]);
add("scalar_complex_float8", "complex_float8_e5m2", [], [], [{ name: "bytes" }], [0, 0], [0, 0], [[0x3c, 0xc0]]);

// ---- writing ----------------------------------------------------------------------

function placeholder(a) {
  const key = `exact fill of ${a.name}`;
  exact.set(key, String(a.fillCodes[0]));
  return key;
}

const write = storeWriter(ROOT);
// Fill values beyond 2^53 go in as placeholders and come out as their exact
// digits (JSON.stringify of a double would round them).
const exact = new Map();
const json = (o) => {
  let text = `${JSON.stringify(o, null, 2)}\n`;
  for (const [placeholder, digits] of exact) text = text.replaceAll(`"${placeholder}"`, digits);
  return text;
};
const consolidated = {};
const expected = {};
for (const a of ARRAYS) {
  a.component = componentOf(a.dataType);
  a.codes = a.elementCodes;
  const fill = typeof a.fillValue === "number" && !Number.isSafeInteger(a.fillValue) && Number.isInteger(a.fillValue)
    ? placeholder(a)
    : a.fillValue;
  a.meta = arrayMeta(a, fill, { description: `${JSON.stringify(a.dataType)} for withDataTypes' tests` }, {
    ...(a.shape.length === 2 && { dimension_names: ["y", "x"] }),
  });
  write(`${a.name}/zarr.json`, json(a.meta));
  consolidated[a.name] = a.meta;
  const sharding = a.codecs[0].name === "sharding_indexed" ? a.codecs[0].configuration : undefined;
  for (const coords of gridOf(a.shape, a.chunkShape)) {
    if (a.missing?.some((m) => m.join() === coords.join())) continue;
    const key = chunkKey(a.meta, coords);
    const bytes = sharding
      ? encodeShard(a, coords, sharding, a.missingInner ?? [])
      : encodeChunk(a, a.codecs, chunkElements(a.codes, a.shape, a.fillCodes, coords, a.chunkShape), a.chunkShape, coords.reduce((s, v) => s * 7 + v + 1, 1));
    write(`${a.name}/${key}`, bytes);
  }
  // The codes of the whole array as read: a missing chunk (or inner chunk)
  // reads as the fill.
  const isMissing = (idx) => {
    const chunk = idx.map((v, d) => Math.floor(v / a.chunkShape[d]));
    if (a.missing?.some((m) => m.join() === chunk.join())) return true;
    if (!sharding) return false;
    const inner = idx.map((v, d) => Math.floor(v / sharding.chunk_shape[d]));
    return (a.missingInner ?? []).some((m) => m.join() === inner.join());
  };
  // What decoding a stored component gives: packbits keeps bits
  // first_bit..last_bit (the rest 0), sign-extending signed integers.
  const range = [...a.codecs, ...(sharding?.codecs ?? [])].find((c) => c.name === "packbits")?.configuration ?? {};
  const first = BigInt(range.first_bit ?? 0);
  const last = BigInt(range.last_bit ?? a.component.bits - 1);
  const kept = (code) => {
    let v = (BigInt.asUintN(a.component.bits, BigInt(code)) >> first) & ((1n << (last - first + 1n)) - 1n);
    v <<= first;
    if (a.component.signed) v = BigInt.asIntN(Number(last) + 1, v);
    return typeof code === "bigint" ? v : Number(v);
  };
  const codes = [];
  const total = n(a.shape);
  for (let i = 0; i < total; i++) {
    let rem = i;
    const idx = new Array(a.shape.length);
    for (let d = a.shape.length - 1; d >= 0; d--) {
      idx[d] = rem % a.shape[d];
      rem = Math.floor(rem / a.shape[d]);
    }
    codes.push(...(isMissing(idx) ? a.fillCodes : a.codes[i].map(kept)));
  }
  expected[a.name] = {
    data_type: a.dataType,
    component: a.component.name,
    shape: a.shape,
    trailing: a.component.raw ? a.component.count : a.component.count === 2 ? 2 : 0,
    // int64 and 64-bit codes as decimal strings (JSON numbers would round).
    codes: codes.map((c) => (typeof c === "bigint" ? String(c) : c)),
  };
}
write("zarr.json", json(consolidatedGroup(consolidated)));
writeFileSync(`${ROOT}/expected.json`, `${JSON.stringify(expected, null, 1)}\n`);
console.log(`make-v3-fixtures: wrote ${ARRAYS.length} arrays to ${ROOT}`);
