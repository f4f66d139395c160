// The array -> array filters on their own: encode against the chunks numcodecs
// (zarr-python 2) and the numpy reference stored (scripts/make-filter-fixtures.py),
// chunk by chunk, bit for bit; the numpy casts and Quantize's bits against the
// values numpy computed (casts.json); bad configurations; and the fallback to
// the codec a registry held before.
import { describe, expect, test } from "@jest/globals";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FILTER_CODECS } from "../../../js/array-to-array/filters.js";
import { parseLossless } from "../../../js/json/lossless.js";
import { converter, float32OfBigInt } from "../../../js/array-to-array/numpy-cast.js";
import { quantizeBits } from "../../../js/array-to-array/quantize.js";
import { reshapedShape } from "../../../js/array-to-array/reshape.js";
import { parseNumericType, typeNamed } from "../../../js/array-to-array/numpy-types.js";
import { registerFilters } from "../../../js/zarrita/filter-loaders.js";
import { fixturePath } from "../support/fixtures.js";
import { expectCodecError } from "../support/expect-error.js";
import { hex } from "../support/reference.js";

const V2 = fixturePath("v2-numcodecs-filters.zarr");
const V3 = fixturePath("v3-array-to-array.zarr");
const json = (path) => JSON.parse(readFileSync(path, "utf8"));
const EXPECTED_V2 = json(join(V2, "expected.json"));
const EXPECTED_V3 = json(join(V3, "expected.json"));
const CASTS = json(join(V2, "casts.json"));

const fromHex = (text, type) => new type.Array(new Uint8Array(Buffer.from(text, "hex")).buffer);

// The chunk at `index` of `values` (C order, `shape`), padded with `fill`
// past the array's edge, as zarr-python pads it before encoding.
function chunkAt(values, shape, chunkShape, index, fill, type) {
  const n = chunkShape.reduce((a, b) => a * b, 1);
  const out = new type.Array(n).fill(type.big ? BigInt(fill) : fill);
  const stride = shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));
  const chunkStride = chunkShape.map((_, i) => chunkShape.slice(i + 1).reduce((a, b) => a * b, 1));
  for (let k = 0; k < n; k++) {
    let at = 0;
    let inside = true;
    for (let d = 0; d < shape.length; d++) {
      const x = index[d] * chunkShape[d] + (Math.floor(k / chunkStride[d]) % chunkShape[d]);
      if (x >= shape[d]) inside = false;
      at += x * stride[d];
    }
    // Bytes, not values: a signalling NaN read into a number is quieted.
    if (inside) new Uint8Array(out.buffer, k * out.BYTES_PER_ELEMENT, out.BYTES_PER_ELEMENT).set(new Uint8Array(values.buffer, values.byteOffset + at * values.BYTES_PER_ELEMENT, values.BYTES_PER_ELEMENT));
  }
  return { data: out, shape: chunkShape, stride: chunkStride };
}

function* indices(shape, chunkShape) {
  const grid = shape.map((s, i) => Math.ceil(s / chunkShape[i]));
  const total = grid.reduce((a, b) => a * b, 1);
  for (let k = 0; k < total; k++) {
    let rem = k;
    const index = new Array(grid.length);
    for (let d = grid.length - 1; d >= 0; d--) {
      index[d] = rem % grid[d];
      rem = Math.floor(rem / grid[d]);
    }
    yield index;
  }
}

// Arrays with one little-endian filter and no compressor: each stored chunk is
// that filter's encode output (as little-endian values: one that stores a
// big-endian astype is left to numcodecs-filters.test.js's reads).
const V2_SINGLE = Object.keys(EXPECTED_V2).filter((name) => {
  const zarray = json(join(V2, name, ".zarray"));
  const stored = [zarray.filters[0]?.astype, zarray.filters[0]?.encode_dtype].find((t) => typeof t === "string");
  return zarray.compressor === null && zarray.filters.length === 1 && !zarray.dtype.startsWith(">") && !stored?.startsWith(">");
});

describe("encode gives the chunks numcodecs wrote (Zarr v2, zarr-python 2)", () => {
  test.each(V2_SINGLE)("%s", (name) => {
    // As read reads it: numbers Python wrote as floats ("1000000.0") known as such.
    const zarray = parseLossless(readFileSync(join(V2, name, ".zarray"), "utf8"), { floats: true });
    const { id, ...configuration } = zarray.filters[0];
    const type = parseNumericType("test", "dtype", zarray.dtype);
    const codec = new (FILTER_CODECS.get(id))(configuration, { dataType: type.name, shape: zarray.chunks });
    const values = fromHex(EXPECTED_V2[name].input_hex, type);
    let chunks = 0;
    for (const index of indices(zarray.shape, zarray.chunks)) {
      const stored = readFileSync(join(V2, name, index.join(".")));
      const encoded = codec.encode(chunkAt(values, zarray.shape, zarray.chunks, index, zarray.fill_value, type));
      expect(hex(encoded.data)).toBe(stored.toString("hex"));
      chunks++;
    }
    expect(chunks).toBeGreaterThan(0);
  });
});

const V3_SINGLE = Object.keys(EXPECTED_V3).filter((name) => {
  const meta = json(join(V3, name, "zarr.json"));
  return meta.codecs.length === 2 && meta.codecs[1].configuration.endian === "little";
});

describe("encode gives the chunks of the page-derived reference (Zarr v3)", () => {
  test.each(V3_SINGLE)("%s", (name) => {
    const meta = json(join(V3, name, "zarr.json"));
    const chunkShape = meta.chunk_grid.configuration.chunk_shape;
    const type = typeNamed(meta.data_type);
    const codec = new (FILTER_CODECS.get(meta.codecs[0].name))(meta.codecs[0].configuration, { dataType: type.name, shape: chunkShape });
    const values = fromHex(EXPECTED_V3[name].input_hex, type);
    for (const index of indices(meta.shape, chunkShape)) {
      const stored = readFileSync(join(V3, name, "c", ...index.map(String)));
      const encoded = codec.encode(chunkAt(values, meta.shape, chunkShape, index, meta.fill_value, type));
      expect(hex(encoded.data)).toBe(stored.toString("hex"));
    }
  });
});

describe("numpy's casts (casts.json, numpy 1.24 on x86-64)", () => {
  // Python's repr: "nan", "inf", "-inf", "1e+19".
  const sources = Float64Array.from(CASTS.float64, (text) => ({ nan: NaN, inf: Infinity, "-inf": -Infinity })[text] ?? Number(text));
  test.each(["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"])("float64 -> %s", (name) => {
    const to = typeNamed(name);
    const convert = converter(typeNamed("float64"), to);
    const out = new to.Array(sources.length);
    sources.forEach((x, i) => {
      out[i] = convert(x);
    });
    expect(Array.from(out, String)).toEqual(CASTS[name]);
  });

  test("int64 -> float32 rounds once", () => {
    const { int64, float32_hex: expected } = CASTS.int64_to_float32;
    expect(hex(Float32Array.from(int64, (v) => float32OfBigInt(BigInt(v))))).toBe(expected);
    // Rounding to 53 bits first would land 2^62 + 2^38 + 1 on the tie below.
    expect(Math.fround(Number(2n ** 62n + 2n ** 38n + 1n))).not.toBe(float32OfBigInt(2n ** 62n + 2n ** 38n + 1n));
  });

  test("Quantize's bits for digits -5..19", () => {
    for (const [digits, bits] of Object.entries(CASTS.quantize_bits)) expect([digits, quantizeBits(Number(digits))]).toEqual([digits, bits]);
  });
});

describe("reshape's shapes (the page's rules)", () => {
  test("sizes, -1 and lists of input axes", () => {
    expect(reshapedShape([[0, 1], -1], [3, 4, 4])).toEqual([12, 4]);
    expect(reshapedShape([2, 2, 3, [2]], [3, 4, 4])).toEqual([2, 2, 3, 4]);
    expect(reshapedShape([[0, 1], 10, [3, 4]], [2, 5, 10, 3, 7])).toEqual([10, 10, 21]);
    expect(reshapedShape([[], -1], [6])).toEqual([1, 6]);
  });

  test.each([
    [[[1], [0]], [2, 3], /input axes in shape must increase strictly, got 0 after 1/],
    [[[1, 0], 6], [2, 3], /must increase strictly/],
    [[-1, -1], [2, 3], /-1 once/],
    [[4, -1], [2, 3], /no size for shape\[1\]/],
    [[5], [2, 3], /gives \[5\] \(5 elements\) for a \[2,3\] chunk \(6\)/],
    [[3, [0]], [2, 3], /shape\[1\] \(input axes \[0\]\) does not sit where those axes are/],
    [[[0], [2]], [2, 3], /names input axis 2, but the chunks have 2 axes/],
    [[0], [2, 3], /shape\[0\] must be a positive integer, -1 or a list of input axes, got 0/],
    ["12", [2, 3], /shape must be a non-empty list/],
  ])("%j for %j is refused", (shape, input, message) => {
    expectCodecError(() => reshapedShape(shape, input), "INVALID_CONFIGURATION", new RegExp(`^reshape: .*${message.source}`));
  });
});

describe("bad configurations name the codec and the value", () => {
  const f8 = { dataType: "float64", shape: [4] };
  test.each([
    ["delta", { dtype: "<c8" }, f8, /^delta: dtype must be a numeric dtype .* got "<c8"$/],
    ["delta", { dtype: "<f2" }, { dataType: "float16", shape: [4] }, /^delta: dtype must be a numeric dtype .* got "<f2"$/],
    ["delta", { dtype: "<i4" }, f8, /^delta: dtype int32 does not match the chunks it receives, which are "float64"$/],
    ["numcodecs.delta", null, f8, /^delta: expected a configuration object .* got null$/],
    ["fixedscaleoffset", { dtype: "<f8", scale: "10", offset: 0 }, f8, /^fixedscaleoffset: scale must be a finite number, got "10"$/],
    ["fixedscaleoffset", { dtype: "<f8", scale: 10 }, f8, /^fixedscaleoffset: offset must be a finite number, got undefined$/],
    ["fixedscaleoffset", { dtype: "<f8", astype: "|b1", scale: 10, offset: 0 }, f8, /^fixedscaleoffset: astype must be a numeric dtype .* got "\|b1"$/],
    ["quantize", { dtype: "<i4", digits: 2 }, { dataType: "int32", shape: [4] }, /^quantize: dtype must be a floating-point dtype .* got "<i4"$/],
    ["quantize", { dtype: "<f8", digits: 2.5 }, f8, /^quantize: digits must be an integer in -300..300, got 2.5$/],
    ["bitround", { keepbits: -1 }, f8, /^bitround: keepbits must be an integer >= 0, got -1$/],
    ["numcodecs.bitround", { keepbits: 24 }, { dataType: "float32", shape: [4] }, /^bitround: keepbits must be at most 23 for float32 \(its mantissa bits\), got 24$/],
    ["astype", { encode_dtype: "<U4", decode_dtype: "<f8" }, f8, /^astype: encode_dtype must be a numeric dtype .* got "<U4"$/],
    ["reshape", { shape: [5] }, f8, /^reshape: \[5\] gives \[5\] \(5 elements\) for a \[4\] chunk \(4\)$/],
  ])("%s %j", (name, configuration, meta, message) => {
    expectCodecError(() => new (FILTER_CODECS.get(name))(configuration, meta), "INVALID_CONFIGURATION", message);
  });

  test("bitround encodes no data type it does not know (decoding any is nothing to do)", () => {
    const codec = new (FILTER_CODECS.get("bitround"))({ keepbits: 3 }, { dataType: "float16", shape: [2] });
    const chunk = { data: new Uint16Array([0x3c01, 0x3c02]), shape: [2], stride: [1] };
    expect(codec.decode(chunk)).toBe(chunk);
    expectCodecError(() => codec.encode(chunk), "UNSUPPORTED_DATA_TYPE", /^bitround: encoding "float16" is not supported/);
  });
});

describe("registering keeps the codec it replaces for what ours refuse", () => {
  class TheirDelta {
    kind = "array_to_array";
    static fromConfig(configuration, meta) {
      return Object.assign(new TheirDelta(), { configuration, meta });
    }
  }

  test("a float16 delta goes to the replaced codec; others are ours; refused by both, ours says why", async () => {
    const registry = new Map([["numcodecs.delta", () => TheirDelta]]);
    registerFilters(registry);
    const Loaded = await registry.get("numcodecs.delta")();
    const theirs = Loaded.fromConfig({ dtype: "<f2" }, { dataType: "float16", shape: [3] });
    expect(theirs).toBeInstanceOf(TheirDelta);
    expect(Loaded.fromConfig({ dtype: "<i2" }, { dataType: "int16", shape: [3] })).toBeInstanceOf(FILTER_CODECS.get("delta"));
    // Registering again still falls back to theirs, not to ours.
    registerFilters(registry);
    expect((await registry.get("numcodecs.delta")()).fromConfig({ dtype: "<f2" }, { dataType: "float16", shape: [3] })).toBeInstanceOf(TheirDelta);

    const refusing = new Map([["numcodecs.delta", () => ({ fromConfig: () => { throw new Error("theirs refuses"); } })]]);
    registerFilters(refusing);
    const Refusing = await refusing.get("numcodecs.delta")();
    expectCodecError(() => Refusing.fromConfig({ dtype: "<c8" }, { dataType: "complex64", shape: [3] }), "INVALID_CONFIGURATION", /^delta: dtype must be a numeric dtype/);
  });
});
