// What cast_value and scale_offset refuse, and how: the package's
// ZarrCodecError with a code, naming the codec, the value and what was
// expected. Configurations the pages forbid, values no rule covers, fills
// that do not survive the round trip, chunks of another type.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { CastValueCodec, ready, ScaleOffsetCodec } from "../../../js/index.js";
import { expectCodecError } from "../support/expect-error.js";

beforeAll(() => ready());

const f32 = { dataType: "float32", shape: [1] };
const chunk = (data) => ({ data, shape: [data.length], stride: [1] });

describe("cast_value configurations", () => {
  test("an unknown member is refused, as the page requires", () => {
    expectCodecError(() => new CastValueCodec({ data_type: "uint8", round: "nearest-even" }, f32), "INVALID_CONFIGURATION", /cast_value: unknown configuration member "round"/);
  });
  test("data_type is required", () => {
    expectCodecError(() => new CastValueCodec({}, f32), "INVALID_CONFIGURATION", /data_type is required/);
  });
  test("a data type the page does not list", () => {
    expectCodecError(() => new CastValueCodec({ data_type: "complex64" }, f32), "INVALID_CONFIGURATION", /data_type must be one of int2, .*got "complex64"/);
    expectCodecError(() => new CastValueCodec({ data_type: "uint8" }, { dataType: "bool", shape: [1] }), "UNSUPPORTED_DATA_TYPE", /got "bool"/);
  });
  test("rounding and out_of_range take only the page's values", () => {
    expectCodecError(() => new CastValueCodec({ data_type: "uint8", rounding: "up" }, f32), "INVALID_CONFIGURATION", /rounding must be one of "nearest-even", .*got "up"/);
    expectCodecError(() => new CastValueCodec({ data_type: "uint8", out_of_range: "saturate" }, f32), "INVALID_CONFIGURATION", /out_of_range must be one of "clamp", "wrap", got "saturate"/);
  });
  test("wrap needs an integer data_type; a float array with an integer data_type is the page's own example", () => {
    expectCodecError(() => new CastValueCodec({ data_type: "float16", out_of_range: "wrap" }, f32), "INVALID_CONFIGURATION", /"wrap" needs an integer data_type, got float16/);
    expect(() => new CastValueCodec({ data_type: "uint8", out_of_range: "wrap" }, { dataType: "float64", shape: [1] })).not.toThrow();
  });
  test("scalar_map: pairs, scalars of each side's type, no unknown members", () => {
    expectCodecError(() => new CastValueCodec({ data_type: "uint8", scalar_map: { encode: [[1]] } }, f32), "INVALID_CONFIGURATION", /scalar_map.encode\[0\] must be an \[input, output\] pair/);
    expectCodecError(() => new CastValueCodec({ data_type: "uint8", scalar_map: { encode: [["NaN", 0.5]] } }, f32), "INVALID_CONFIGURATION", /scalar_map.encode\[0\]\[1\] \(uint8\): expected an integer for uint8, got 0.5/);
    expectCodecError(() => new CastValueCodec({ data_type: "uint8", scalar_map: { encode: [["NaN", 256]] } }, f32), "INVALID_CONFIGURATION", /256 is outside uint8's range 0..255/);
    expectCodecError(() => new CastValueCodec({ data_type: "uint8", scalar_map: { both: [] } }, f32), "INVALID_CONFIGURATION", /unknown configuration member "both"/);
  });
});

describe("cast_value values", () => {
  test("out of range with no out_of_range: the value, the codec, the direction and the range", () => {
    const codec = new CastValueCodec({ data_type: "int8" }, { dataType: "float64", shape: [1] });
    expectCodecError(
      () => codec.encode(chunk(Float64Array.of(1, 128))),
      "VALUE_OUT_OF_RANGE",
      'cast_value (encode float64 -> int8): 128 is outside int8\'s range -128..127 and no out_of_range is configured (expected a value in range, or out_of_range "clamp" or "wrap")',
    );
    // 127.4 rounds into range first (rounding comes before out_of_range); 127.5 rounds to 128.
    expect(Array.from(codec.encode(chunk(Float64Array.of(127.4, -128.5))).data)).toEqual([127, -128]);
    expectCodecError(() => codec.encode(chunk(Float64Array.of(127.5))), "VALUE_OUT_OF_RANGE", /127.5 is outside int8's range/);
  });
  test("NaN and infinities into a type without them, clamp or not, unless scalar_map maps them", () => {
    const clamp = new CastValueCodec({ data_type: "uint8", out_of_range: "clamp" }, f32);
    expectCodecError(() => clamp.encode(chunk(Float32Array.of(NaN))), "VALUE_OUT_OF_RANGE", /NaN cannot be uint8, which has no NaN \(expected a finite value, or a scalar_map entry for it\)/);
    expectCodecError(() => clamp.encode(chunk(Float32Array.of(-Infinity))), "VALUE_OUT_OF_RANGE", /-Infinity cannot be uint8, which has no infinities/);
    const fnuz = new CastValueCodec({ data_type: "float8_e4m3fnuz", out_of_range: "clamp" }, f32);
    expectCodecError(() => fnuz.encode(chunk(Float32Array.of(Infinity))), "VALUE_OUT_OF_RANGE", /Infinity cannot be float8_e4m3fnuz/);
    // finite values past its range clamp to its largest (240, code 0x7f)
    expect(Array.from(fnuz.encode(chunk(Float32Array.of(1000, -1000, -0))).data)).toEqual([0x7f, 0xff, 0]);
    const mapped = new CastValueCodec({ data_type: "uint8", scalar_map: { encode: [["NaN", 0], ["Infinity", 255]] } }, f32);
    expect(Array.from(mapped.encode(chunk(Float32Array.of(NaN, Infinity, 3))).data)).toEqual([0, 255, 3]);
  });
  test("the scalar map is taken before the range check: a mapped out-of-range value is no error", () => {
    const codec = new CastValueCodec({ data_type: "uint8", scalar_map: { encode: [[-1, 0]] } }, { dataType: "int16", shape: [1] });
    expect(Array.from(codec.encode(chunk(Int16Array.of(-1, 5))).data)).toEqual([0, 5]);
  });
  test("a chunk of another type is refused, not reinterpreted", () => {
    const codec = new CastValueCodec({ data_type: "uint16" }, f32);
    expectCodecError(() => codec.decode(chunk(Float32Array.of(1))), "INVALID_INPUT", /cast_value decode: expected a chunk of uint16 values in a Uint16Array, got a Float32Array/);
    expectCodecError(() => codec.encode(chunk(Float64Array.of(1))), "INVALID_INPUT", /expected a chunk of float32 values in a Float32Array, got a Float64Array/);
  });
});

test("a sub-byte chunk holding more than its bits is refused, not masked", () => {
  const codec = new CastValueCodec({ data_type: "uint4" }, f32);
  expectCodecError(() => codec.decode(chunk(Uint8Array.of(15, 16))), "INVALID_INPUT", "uint4 chunk: element 1 is 16, which is no uint4 (expected values 0..15)");
  const float4 = new CastValueCodec({ data_type: "float4_e2m1fn" }, f32);
  expectCodecError(() => float4.decode(chunk(Uint8Array.of(0x1f))), "INVALID_INPUT", /element 0 is 31, which is no float4_e2m1fn \(expected codes 0..15\)/);
  expect(Array.from(float4.decode(chunk(Uint8Array.of(0x7, 0xf, 0x1))).data)).toEqual([6, -6, 0.5]);
});

describe("cast_value fills (zarrita 0.7 gives the fill)", () => {
  test("a fill that does not survive the round trip is an error when the codec is made", () => {
    expectCodecError(() => new CastValueCodec({ data_type: "uint8" }, { ...f32, fillValue: 0.5 }), "INVALID_METADATA", /the fill value 0.5 does not survive the round trip through uint8 \(it comes back as 0\)/);
    expectCodecError(() => new CastValueCodec({ data_type: "uint8" }, { ...f32, fillValue: NaN }), "INVALID_METADATA", /the fill value NaN cannot be cast to uint8 and back/);
    expectCodecError(() => new CastValueCodec({ data_type: "uint8", out_of_range: "clamp" }, { ...f32, fillValue: 300 }), "INVALID_METADATA", /300 does not survive the round trip .* comes back as 255/);
  });
  test("a fill the rules cast exactly, or scalar_map maps both ways, is cast for the next codec", () => {
    const codec = new CastValueCodec({ data_type: "uint8", scalar_map: { encode: [["NaN", 0]], decode: [[0, "NaN"]] } }, { dataType: "float64", shape: [1], fillValue: NaN });
    expect(codec.encodedFill).toBe(0);
    expect(codec.getEncodedMeta({ dataType: "float64", shape: [1], fillValue: NaN })).toEqual({ dataType: "uint8", shape: [1], fillValue: 0 });
    const half = new CastValueCodec({ data_type: "float16" }, { ...f32, fillValue: -0 });
    expect(Object.is(half.encodedFill, -0)).toBe(true);
    const big = new CastValueCodec({ data_type: "int64" }, { dataType: "uint64", shape: [1], fillValue: 2n ** 62n + 1n });
    expect(big.encodedFill).toBe(2n ** 62n + 1n);
  });
});

describe("scale_offset", () => {
  const i32 = { dataType: "int32", shape: [1] };
  test("configurations", () => {
    expectCodecError(() => new ScaleOffsetCodec({ scale: 2, factor: 3 }, f32), "INVALID_CONFIGURATION", /scale_offset: unknown configuration member "factor"/);
    expectCodecError(() => new ScaleOffsetCodec({ scale: 0 }, f32), "INVALID_CONFIGURATION", /scale must be a non-zero number of float32 \(decoding divides by it\), got 0/);
    expectCodecError(() => new ScaleOffsetCodec({ scale: 0.5 }, i32), "INVALID_CONFIGURATION", /scale_offset: scale \(int32\): expected an integer for int32, got 0.5/);
    expectCodecError(() => new ScaleOffsetCodec({ offset: "ten" }, f32), "INVALID_CONFIGURATION", /offset/);
    expectCodecError(() => new ScaleOffsetCodec({}, { dataType: "complex64", shape: [1] }), "UNSUPPORTED_DATA_TYPE", /got "complex64"/);
  });
  test("no configuration is the identity, in IEEE arithmetic (-0 / 1 + 0 is +0)", () => {
    const codec = new ScaleOffsetCodec(undefined, f32);
    expect(Array.from(codec.decode(chunk(Float32Array.of(1.5, -0, NaN))).data)).toEqual([1.5, 0, NaN]);
  });
  test("scale and offset in the fill-value encoding: hex codes and special values", () => {
    // 0x40000000 is float32 2; offset "-Infinity" is allowed but makes every finite value -Infinity on decode
    const codec = new ScaleOffsetCodec({ scale: "0x40000000", offset: 1 }, f32);
    expect(Array.from(codec.decode(chunk(Float32Array.of(4))).data)).toEqual([3]);
  });
  test("integers: exact, an error where a value leaves the type or a division leaves a remainder", () => {
    const codec = new ScaleOffsetCodec({ scale: 4, offset: 3 }, i32);
    expectCodecError(() => codec.decode(chunk(Int32Array.of(8, 30))), "VALUE_OUT_OF_RANGE", /scale_offset \(int32\) decode: 30 gives 30\/4, which has a remainder: it is no integer of int32/);
    expectCodecError(() => codec.encode(chunk(Int32Array.of(2 ** 30))), "VALUE_OUT_OF_RANGE", /scale_offset \(int32\) encode: 1073741824 gives 4294967284, which lies outside the range of int32/);
    const u16 = new ScaleOffsetCodec({ offset: 1000 }, { dataType: "uint16", shape: [1] });
    expectCodecError(() => u16.encode(chunk(Uint16Array.of(999))), "VALUE_OUT_OF_RANGE", /999 gives -1, which lies outside the range of uint16/);
    const big = new ScaleOffsetCodec({ scale: 3, offset: -5 }, { dataType: "int64", shape: [1] });
    expect(big.encode(chunk(BigInt64Array.of(2n ** 53n + 1n))).data[0]).toBe((2n ** 53n + 6n) * 3n);
  });
  test("floats: an overflow from finite values is an error; NaN and infinities pass", () => {
    const codec = new ScaleOffsetCodec({ scale: 1e30 }, f32);
    expectCodecError(() => codec.encode(chunk(Float32Array.of(1e10))), "VALUE_OUT_OF_RANGE", /scale_offset \(float32\) encode: 10000000000 gives 1.0000000\d*e\+40, which overflows float32/);
    expect(Array.from(codec.encode(chunk(Float32Array.of(NaN, -Infinity))).data)).toEqual([NaN, -Infinity]);
  });
  test("float16 computes in float16: each step rounds to its grid", () => {
    // float16 0.333251953125 (0x3555) times 3 is 0.999755859375, halfway
    // between float16 0.99951171875 (0x3bff) and 1 (0x3c00): ties to the even code, 1.
    const codec = new ScaleOffsetCodec({ scale: 3 }, { dataType: "float16", shape: [1] });
    const third = 0x3555;
    expect(Array.from(codec.encode(chunk(Uint16Array.of(third))).data)).toEqual([0x3c00]);
    expect(Array.from(codec.decode(chunk(Uint16Array.of(0x3c00))).data)).toEqual([third]); // 1/3 rounded to float16
  });
  test("the fill is encoded for the next codec", () => {
    const codec = new ScaleOffsetCodec({ scale: 10, offset: 1 }, { ...f32, fillValue: 2 });
    expect(codec.encodedFill).toBe(10);
    expect(codec.getEncodedMeta({ ...f32, fillValue: 2 })).toEqual({ ...f32, fillValue: 10 });
  });
});

// Found by the filters differential fuzzer (tests/fuzz/js/filters-differential.mjs).
describe("at the edges of the 64-bit integers and of integer arithmetic", () => {
  test("a float of 2^63 into int64 (2^64 into uint64): clamped to the largest, or out of range; never wrapped", () => {
    const i64 = { dataType: "int64", shape: [1] };
    const u64 = { dataType: "uint64", shape: [1] };
    // decode: data_type float64 stored, the array's int64 decoded.
    const clamp = new CastValueCodec({ data_type: "float64", out_of_range: "clamp" }, i64);
    expect(clamp.decode(chunk(Float64Array.of(2 ** 63, -(2 ** 63), 2 ** 62))).data).toEqual(BigInt64Array.of(2n ** 63n - 1n, -(2n ** 63n), 2n ** 62n));
    expect(new CastValueCodec({ data_type: "float64", out_of_range: "clamp" }, u64).decode(chunk(Float64Array.of(2 ** 64, -1))).data).toEqual(BigUint64Array.of(2n ** 64n - 1n, 0n));
    expectCodecError(() => new CastValueCodec({ data_type: "float64" }, i64).decode(chunk(Float64Array.of(2 ** 63))), "VALUE_OUT_OF_RANGE", /9223372036854776000 is outside int64.s range/);
  });
  test("scale_offset decode on integers: in / scale must be one of the type before the offset is added", () => {
    // -2^31 / -1 is 2^31, past int32, though 2^31 - 5 would fit.
    const i32 = new ScaleOffsetCodec({ scale: -1, offset: -5 }, { dataType: "int32", shape: [1] });
    expectCodecError(() => i32.decode(chunk(Int32Array.of(-(2 ** 31)))), "VALUE_OUT_OF_RANGE", /-2147483648 gives 2147483648, which lies outside the range of int32/);
    expect(Array.from(i32.decode(chunk(Int32Array.of(10, -7))).data)).toEqual([-15, 2]);
    const i8 = new ScaleOffsetCodec({ scale: -1, offset: -1 }, { dataType: "int8", shape: [1] });
    expectCodecError(() => i8.decode(chunk(Int8Array.of(-128))), "VALUE_OUT_OF_RANGE", /-128 gives 128/);
    const i64 = new ScaleOffsetCodec({ scale: -1, offset: -1 }, { dataType: "int64", shape: [1] });
    expectCodecError(() => i64.decode(chunk(BigInt64Array.of(-(2n ** 63n)))), "VALUE_OUT_OF_RANGE", /gives 9223372036854775808/);
  });
});
