// cast_value and scale_offset against the reference written from their
// zarr-extensions pages in Python (scripts/make-cast-scale-fixtures.py:
// exact rationals, numpy float32/float16), value by value, encode and
// decode: each rounding mode, clamp and wrap at the limits, scalar_map,
// NaN, -0, 64-bit integers past 2^53, and the narrow float formats.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { ready } from "../../../js/index.js";
import { CastValueCodec } from "../../../js/array-to-array/cast-value.js";
import { ScaleOffsetCodec } from "../../../js/array-to-array/scale-offset.js";
import { fixturePath } from "../support/fixtures.js";

beforeAll(() => ready());

const { cast_value: casts, scale_offset: scaleOffsets } = JSON.parse(readFileSync(fixturePath("cast-scale/cases.json"), "utf8"));

const NARROW = new Set(["float16", "bfloat16", "float8_e4m3", "float8_e5m2", "float8_e3m4", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu", "float6_e2m3fn", "float4_e2m1fn"]);
const ARRAYS = {
  int2: Int8Array, int4: Int8Array, int8: Int8Array, int16: Int16Array, int32: Int32Array, int64: BigInt64Array,
  uint2: Uint8Array, uint4: Uint8Array, uint8: Uint8Array, uint16: Uint16Array, uint32: Uint32Array, uint64: BigUint64Array,
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, bfloat16: Uint16Array,
};
const containerOf = (type) => ARRAYS[type] ?? Uint8Array;

/** A fixture string -> the element its container holds (bit codes for narrow floats). */
function element(type, text) {
  if (type === "int64" || type === "uint64") return BigInt(text);
  if (NARROW.has(type) || type.includes("int")) return Number(text);
  return { nan: NaN, inf: Infinity, "-inf": -Infinity }[text] ?? Number(text);
}

const chunkOf = (type, texts) => {
  const data = new (containerOf(type))(texts.length);
  texts.forEach((text, i) => (data[i] = element(type, text)));
  return { data, shape: [texts.length], stride: [1] };
};

// One element at a time: an error for one input must not hide the others.
function castEach(run, type, inputs) {
  return inputs.map((text) => {
    try {
      return run(chunkOf(type, [text])).data[0];
    } catch (error) {
      if (error?.name !== "ZarrCodecError") throw error;
      return null;
    }
  });
}

const expected = (type, outputs) => outputs.map((text) => (text === null ? null : element(type, text)));
const label = (c) => `${c.from} -> ${c.to} ${JSON.stringify(c.configuration)}`;

describe("cast_value against the page-derived reference", () => {
  test.each(casts.map((c) => [label(c), c]))("encode %s", (_, c) => {
    const codec = new CastValueCodec(c.configuration, { dataType: c.from });
    expect(castEach((chunk) => codec.encode(chunk), c.from, c.inputs)).toEqual(expected(c.to, c.outputs));
  });

  // The same casts as decode: the stored type is `from`, the array's `to`,
  // and an encode scalar_map becomes the decode one.
  const decodable = casts.filter((c) => c.configuration.out_of_range !== "wrap" || c.from.includes("int"));
  test.each(decodable.map((c) => [label(c), c]))("decode %s", (_, c) => {
    const { scalar_map: map, ...rest } = c.configuration;
    const configuration = { ...rest, data_type: c.from, ...(map ? { scalar_map: { decode: map.encode ?? map.decode } } : {}) };
    const codec = new CastValueCodec(configuration, { dataType: c.to });
    expect(castEach((chunk) => codec.decode(chunk), c.from, c.inputs)).toEqual(expected(c.to, c.outputs));
  });

  test("the reference covers every rounding mode, both rules, errors and NaN", () => {
    const modes = new Set(casts.map((c) => c.configuration.rounding ?? "nearest-even"));
    expect([...modes].sort()).toEqual(["nearest-away", "nearest-even", "towards-negative", "towards-positive", "towards-zero"]);
    expect(casts.some((c) => c.configuration.out_of_range === "wrap")).toBe(true);
    expect(casts.some((c) => c.outputs.includes(null))).toBe(true);
    expect(casts.some((c) => c.outputs.includes("nan"))).toBe(true);
  });
});

describe("scale_offset against numpy's arithmetic in the array's type", () => {
  test.each(scaleOffsets.map((c) => [`${c.data_type} ${c.direction} ${JSON.stringify(c.configuration)}`, c]))("%s", (_, c) => {
    const codec = new ScaleOffsetCodec(c.configuration, { dataType: c.data_type });
    const run = c.direction === "encode" ? (chunk) => codec.encode(chunk) : (chunk) => codec.decode(chunk);
    expect(castEach(run, c.data_type, c.inputs)).toEqual(expected(c.data_type, c.outputs));
  });

  test("the page's example: float32 4392 / 100 + 250 is 293.91998 (float32 at each step)", () => {
    const codec = new ScaleOffsetCodec({ scale: 100, offset: 250 }, { dataType: "float32" });
    const out = codec.decode({ data: new Float32Array([4392]), shape: [1], stride: [1] }).data;
    expect(out[0]).toBe(Math.fround(Math.fround(4392 / 100) + 250));
    expect(out[0]).toBe(293.91998291015625);
    // rounding once in doubles gives the other neighbour
    expect(Math.fround(4392 / 100 + 250)).toBe(293.9200134277344);
  });
});

describe("the scale_offset page's fixedscaleoffset conversion example", () => {
  // float32, fill 10, values in [10, 100] -> uint8 with fill 0, values in [0, 10]:
  // scale_offset { scale: 0.1, offset: 10 } then cast_value { data_type: uint8, out_of_range: wrap }.
  test("the fill and the values, by hand", () => {
    const meta = { dataType: "float32", shape: [3], fillValue: 10 };
    const scale = new ScaleOffsetCodec({ scale: 0.1, offset: 10 }, meta);
    const next = scale.getEncodedMeta(meta);
    expect(next.fillValue).toBe(0);
    const cast = new CastValueCodec({ data_type: "uint8", out_of_range: "wrap" }, next);
    expect(cast.getEncodedMeta(next)).toEqual({ dataType: "uint8", shape: [3], fillValue: 0 });
    const scaled = scale.encode({ data: Float32Array.of(10, 55, 100), shape: [3], stride: [1] });
    // (55 - 10) * float32(0.1) = 4.5000000670552254 in float32 rounds to 4.5 -> ties to even 4; 90 * 0.1 -> 9
    expect(Array.from(scaled.data)).toEqual([0, Math.fround(45 * Math.fround(0.1)), Math.fround(90 * Math.fround(0.1))]);
    expect(Array.from(cast.encode(scaled).data)).toEqual([0, Math.fround(45 * Math.fround(0.1)) > 4.5 ? 5 : 4, 9]);
  });
});
