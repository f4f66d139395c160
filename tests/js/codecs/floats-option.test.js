// fromConfig's third argument, { floats }, as docs/codecs.md documents it:
// "bits" (the default) keeps narrow floats as their bit patterns, "float32"
// widens them on decode (and narrows them on encode) in the codec's own
// pass; other data types are unaffected. Expected values come from the
// formats' definitions (support/reference.js), not from the codecs.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { BytesCodec, PackBitsCodec, ready } from "../../../js/index.js";
import { expectCodecError } from "../support/expect-error.js";
import { floatFormatValue, narrowReference, packBitsEncodeReference } from "../support/reference.js";

beforeAll(() => ready());

const float32Bits = (values) => [...new Uint32Array(Float32Array.from(values).buffer)];

describe("BytesCodec.fromConfig(configuration, meta, { floats })", () => {
  // float8_e4m3 (bias 7, IEEE-style): 0x38 = 1, 0x77 = 240, 0x7c = NaN,
  // 0x80 = -0, 0x01 = 2^-9 (the smallest subnormal), 0xf8 = -Infinity.
  const codes = Uint8Array.of(0x38, 0x77, 0x7c, 0x80, 0x01, 0xf8);
  const values = Array.from(codes, (c) => floatFormatValue("float8_e4m3", c));

  test('"float32" widens exactly: -0, NaN, infinities and subnormals', () => {
    expect(values.slice(0, 2)).toEqual([1, 240]); // the page's anchors, checked on the reference
    const codec = BytesCodec.fromConfig({}, { dataType: "float8_e4m3", shape: [6] }, { floats: "float32" });
    const { data, shape, stride } = codec.decode(codes);
    expect(data).toBeInstanceOf(Float32Array);
    expect(float32Bits(data)).toEqual(float32Bits(values));
    expect([shape, stride]).toEqual([[6], [1]]);
  });

  test('"float32" encodes by narrowing, round-to-nearest-even (the write rules)', () => {
    const codec = BytesCodec.fromConfig({}, { dataType: "float8_e4m3", shape: [4] }, { floats: "float32" });
    const input = Float32Array.of(1.0625, 1.1875, -0, 244); // ties to even down and up, -0, rounds to 240 (the largest)
    const want = Array.from(input, (x) => narrowReference("float8_e4m3", x));
    expect(want).toEqual([0x38, 0x3a, 0x80, 0x77]);
    expect([...codec.encode({ data: input })]).toEqual(want);
  });

  test('"bits" and no options give the bit patterns, as the containers table says', () => {
    for (const options of [undefined, null, {}, { floats: "bits" }, { floats: undefined }]) {
      const data = BytesCodec.fromConfig({}, { dataType: "float8_e4m3", shape: [6] }, options).decode(codes).data;
      expect(data).toBeInstanceOf(Uint8Array);
      expect([...data]).toEqual([...codes]);
    }
  });

  test('"float32" on bfloat16 big-endian: swapped and widened in one pass', () => {
    // 0x3f80 = 1, 0xc0a0 = -5, 0x7fc1 = a NaN with payload 1 (kept in float32's top bits).
    const codec = BytesCodec.fromConfig({ endian: "big" }, { dataType: "bfloat16", shape: [3] }, { floats: "float32" });
    const data = codec.decode(Uint8Array.of(0x3f, 0x80, 0xc0, 0xa0, 0x7f, 0xc1));
    expect(float32Bits(data.data)).toEqual([0x3f800000, 0xc0a00000, 0x7fc10000]);
  });

  test('"float32" on complex forms widens both parts, interleaved', () => {
    const codec = BytesCodec.fromConfig({}, { dataType: "complex_float8_e4m3", shape: [1] }, { floats: "float32" });
    expect([...codec.decode(Uint8Array.of(0x38, 0xc0)).data]).toEqual([1, -2]);
  });

  test("types that are not narrow floats decode as without the option", () => {
    for (const [dataType, bytes, want] of [
      ["uint16", Uint8Array.of(0x01, 0x02), Uint16Array.of(0x0102)],
      ["float32", Uint8Array.of(0x3f, 0x80, 0, 0), Float32Array.of(1)],
      ["int4", Uint8Array.of(0x0f), Int8Array.of(-1)],
    ]) {
      const data = BytesCodec.fromConfig({ endian: "big" }, { dataType, shape: [1] }, { floats: "float32" }).decode(bytes).data;
      expect(data).toEqual(want);
    }
  });

  test("decodeInto takes the widened container", () => {
    const codec = BytesCodec.fromConfig({}, { dataType: "float8_e4m3", shape: [6] }, { floats: "float32" });
    const out = new Float32Array(6);
    expect(codec.decodeInto(codes, out)).toBe(out);
    expect(float32Bits(out)).toEqual(float32Bits(values));
    expectCodecError(() => codec.decodeInto(codes, new Uint8Array(6)), "INVALID_INPUT", /needs a Float32Array of 24 bytes, got a Uint8Array of 6 bytes/);
  });
});

describe("PackBitsCodec.fromConfig(configuration, meta, { floats })", () => {
  test('"float32" widens packed float4_e2m1fn codes', () => {
    // float4_e2m1fn: 0x1 = 0.5, 0x7 = 6, 0xf = -6, 0x8 = -0.
    const codes = Uint8Array.of(0x1, 0x7, 0xf, 0x8);
    const packed = packBitsEncodeReference({ containerBytes: 1, bits: 4, firstBit: 0 }, codes);
    const codec = PackBitsCodec.fromConfig({}, { dataType: "float4_e2m1fn", shape: [4] }, { floats: "float32" });
    const data = codec.decode(packed).data;
    expect(float32Bits(data)).toEqual(float32Bits(Array.from(codes, (c) => floatFormatValue("float4_e2m1fn", c))));
    expect([...codec.encode({ data })]).toEqual([...packed]);
  });

  test("a value the format cannot hold is refused on encode, naming the value", () => {
    const codec = PackBitsCodec.fromConfig({}, { dataType: "float4_e2m1fn", shape: [2] }, { floats: "float32" });
    expectCodecError(() => codec.encode({ data: Float32Array.of(1, NaN) }), "VALUE_OUT_OF_RANGE", /value NaN at index 1/);
  });
});

describe("bad options are the package's error", () => {
  const meta = { dataType: "float8_e4m3", shape: [1] };
  test.each([
    ["a string", "float32", /options must be an object \{ floats \}, got "float32"/],
    ["an unknown member", { float: "float32" }, /unknown option "float" \(expected floats\)/],
    ["an unknown floats value", { floats: "float16" }, /floats must be "float32" or "bits", got "float16"/],
    ["a throwing getter", { get floats() { throw new Error("boom"); } }, /reading the options failed \("boom"\)/],
  ])("%s", (_, options, message) => {
    expectCodecError(() => BytesCodec.fromConfig({}, meta, options), "INVALID_CONFIGURATION", message);
    expectCodecError(() => PackBitsCodec.fromConfig({}, meta, options), "INVALID_CONFIGURATION", message);
  });
});
