import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { PackBitsCodec, ready } from "../../../js/index.js";
import { wasm } from "../../../js/wasm/load.js";
import {
  hex,
  packBitsDecodeReference,
  packBitsEncodeReference,
  randomBytes,
} from "../support/reference.js";

beforeAll(() => ready());

const codec = (configuration, dataType, shape) =>
  PackBitsCodec.fromConfig(configuration, { dataType: dt(dataType), shape });

// name, container, bits N, components, signed
const TYPES = [
  ["bool", Uint8Array, 1, 1, false],
  ["int2", Int8Array, 2, 1, true],
  ["uint2", Uint8Array, 2, 1, false],
  ["int4", Int8Array, 4, 1, true],
  ["uint4", Uint8Array, 4, 1, false],
  ["float4_e2m1fn", Uint8Array, 4, 1, false],
  ["float6_e2m3fn", Uint8Array, 6, 1, false],
  ["float6_e3m2fn", Uint8Array, 6, 1, false],
  ["int8", Int8Array, 8, 1, true],
  ["uint8", Uint8Array, 8, 1, false],
  ["int16", Int16Array, 16, 1, true],
  ["uint16", Uint16Array, 16, 1, false],
  ["int32", Int32Array, 32, 1, true],
  ["uint32", Uint32Array, 32, 1, false],
  ["int64", BigInt64Array, 64, 1, true],
  ["uint64", BigUint64Array, 64, 1, false],
  ["float16", globalThis.Float16Array ?? Uint16Array, 16, 1, false],
  ["bfloat16", Uint16Array, 16, 1, false],
  ["float32", Float32Array, 32, 1, false],
  ["float64", Float64Array, 64, 1, false],
  ["complex64", Float32Array, 32, 2, false],
  ["complex128", Float64Array, 64, 2, false],
  ["complex_float32", Float32Array, 32, 2, false],
  ["complex_float64", Float64Array, 64, 2, false],
  ["complex_bfloat16", Uint16Array, 16, 2, false],
  ["complex_float4_e2m1fn", Uint8Array, 4, 2, false],
  ["complex_float6_e2m3fn", Uint8Array, 6, 2, false],
  ["complex_float6_e3m2fn", Uint8Array, 6, 2, false],
  ["float8_e4m3", Uint8Array, 8, 1, false],
  ["float8_e8m0fnu", Uint8Array, 8, 1, false],
  ["complex_float8_e5m2", Uint8Array, 8, 2, false],
  ["numpy.datetime64", BigInt64Array, 64, 1, true],
];

// Container values a type can hold: random bytes with the bits above a
// sub-byte type's sign- or zero-extended (encode refuses any other).
function holdable(bytes, bitsN, signed, dataType) {
  if (bitsN >= 8 || dataType === "bool") return bytes;
  const up = 8 - bitsN;
  return bytes.map((b) => (signed ? ((b << (24 + up)) >> (24 + up)) & 0xff : b & ((1 << bitsN) - 1)));
}

// The frame of n elements of `count` components of `bits` bits.
function frame(n, count, bits, padding) {
  const body = Math.ceil((n * count * bits) / 8);
  return { body, encoded: body + (padding && padding !== "none" ? 1 : 0), paddingBits: body * 8 - n * count * bits };
}
const dt = (name) => (name.startsWith("numpy.") ? { name, configuration: { unit: "ns", scale_factor: 1 } } : name);

describe("packbits: hand-worked vectors", () => {
  test("uint16 0xABC, 0x123 with last_bit 11 encode to BC 3A 12", () => {
    const c = codec({ last_bit: 11 }, "uint16", [2]);
    expect(hex(c.encode({ data: new Uint16Array([0xabc, 0x123]) }))).toBe("bc3a12");
    expect(c.decode(new Uint8Array([0xbc, 0x3a, 0x12])).data).toEqual(
      new Uint16Array([0xabc, 0x123]),
    );
  });

  test("int4 byte 0x8F decodes to -1, -8", () => {
    const { data } = codec(undefined, "int4", [2]).decode(new Uint8Array([0x8f]));
    expect(data).toEqual(new Int8Array([-1, -8]));
  });

  test("int32 with last_bit 11 sign-extends through all 32 bits", () => {
    const { data } = codec({ last_bit: 11 }, "int32", [2]).decode(
      new Uint8Array([0x00, 0xf8, 0x7f]),
    );
    expect(data).toEqual(new Int32Array([-2048, 2047]));
  });

  test("bool mask: element i is bit i % 8 of byte i / 8", () => {
    const c = codec(undefined, "bool", [10]);
    const mask = new Uint8Array([1, 1, 0, 0, 0, 0, 0, 1, 0, 1]);
    expect([...c.encode({ data: mask })]).toEqual([0x83, 0x02]);
    expect(c.decode(new Uint8Array([0x83, 0x02])).data).toEqual(mask);
  });

  test.each([
    ["none", [0x81, 0x15]],
    ["first_byte", [0x03, 0x81, 0x15]],
    ["last_byte", [0x81, 0x15, 0x03]],
  ])("padding_encoding %s frames 13 bools", (padding_encoding, encoded) => {
    const mask = new Uint8Array([1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 1]);
    const c = codec({ padding_encoding }, "bool", [13]);
    expect([...c.encode({ data: mask })]).toEqual(encoded);
    expect(c.decode(new Uint8Array(encoded)).data).toEqual(mask);
  });

  test("null bit indices and a missing configuration mean the defaults", () => {
    const bytes = new Uint8Array([0x34, 0x12]);
    const a = codec({ first_bit: null, last_bit: null }, "uint16", [1]);
    const b = codec(undefined, "uint16", [1]);
    expect(a.decode(bytes).data).toEqual(new Uint16Array([0x1234]));
    expect(b.decode(bytes).data).toEqual(new Uint16Array([0x1234]));
  });

  test("float32 keeping bits 13..31 truncates the mantissa", () => {
    const c = codec({ first_bit: 13 }, "float32", [2]);
    const values = new Float32Array([Math.PI, -1e-20]);
    const { data } = c.decode(c.encode({ data: values }));
    const bits = new Uint32Array(values.buffer);
    expect(new Uint32Array(data.buffer)).toEqual(
      new Uint32Array([bits[0] & ~0x1fff, bits[1] & ~0x1fff]),
    );
    expect(c.computeEncodedSize(8)).toBe(5); // 2 * 19 bits = 38 bits
  });

  test("computeEncodedSize counts the padding byte", () => {
    const c = codec({ last_bit: 11, padding_encoding: "last_byte" }, "uint16", [8, 8]);
    expect(c.computeEncodedSize(2 * 64)).toBe(96 + 1);
    expect(c.computeEncodedSize(2 * 3)).toBe(5 + 1);
  });
});

describe("packbits: inputs and outputs", () => {
  test("decode neither changes its input nor returns wasm memory", () => {
    const input = randomBytes(3 * 4000, 5);
    const before = input.slice();
    const { data } = codec({ last_bit: 11 }, "uint16", [8000]).decode(input);
    expect(input).toEqual(before);
    expect(data.buffer).not.toBe(wasm().HEAPU8.buffer);
  });

  test("encode never changes its input and respects byteOffset", () => {
    // int4 -1 (0xFF) and -8 (0xF8) at byte offset 2.
    const backing = new Uint8Array([9, 9, 0xff, 0xf8]);
    const data = new Int8Array(backing.buffer, 2, 2);
    const encoded = codec(undefined, "int4", [2]).encode({ data });
    expect([...encoded]).toEqual([0x8f]);
    expect([...backing]).toEqual([9, 9, 0xff, 0xf8]);
  });

  test("a value the stored type cannot hold is refused, never wrapped", () => {
    // int4 holds -8..7: 9 would wrap to -7 if its low bits were kept.
    expect(() => codec(undefined, "int4", [3]).encode({ data: new Int8Array([1, 9, 2]) })).toThrow(
      "packbits: int4 shape [3]: value 9 at index 1 is outside int4's range -8..7",
    );
    expect(() => codec(undefined, "uint2", [2]).encode({ data: new Uint8Array([3, 4]) })).toThrow(
      "packbits: uint2 shape [2]: value 4 at index 1 is outside uint2's range 0..3",
    );
    expect(() => codec(undefined, "float4_e2m1fn", [1]).encode({ data: new Uint8Array([0x10]) })).toThrow(
      "packbits: float4_e2m1fn shape [1]: value 16 at index 0 is not a float4_e2m1fn bit pattern (0..15)",
    );
    // A configured bit range of a wider type drops bits, as the spec says.
    expect([...codec({ last_bit: 3 }, "int16", [1]).encode({ data: new Int16Array([1000]) })]).toEqual([1000 & 15]);
  });

  test("0-sized chunks", () => {
    const c = codec({ padding_encoding: "first_byte" }, "uint4", [0, 3]);
    expect([...c.encode({ data: new Uint8Array(0) })]).toEqual([0]);
    expect(c.decode(new Uint8Array([0])).data).toEqual(new Uint8Array(0));
  });
});

// Bit ranges to try for an N-bit component: all of them, the low bits, the
// high bits, a middle range and a single bit.
function rangesFor(n) {
  const ranges = [[null, null], [0, Math.max(0, Math.floor(n / 2) - 1)], [Math.floor(n / 3), n - 1], [n - 1, n - 1]];
  if (n >= 12) ranges.push([2, n - 3], [0, 11]);
  return ranges;
}

describe.each(["reference", "portable", "simd"])("packbits with the %s kernels", (implementation) => {
  beforeAll(() => expect(wasm().setImplementation(implementation)).toBe(true));
  afterAll(() => wasm().setImplementation("simd"));

  test.each(TYPES)("%s against the JS spec reference", (dataType, ArrayType, bitsN, count, signed) => {
    const containerBytes = ArrayType.BYTES_PER_ELEMENT;
    for (const [first_bit, last_bit] of rangesFor(bitsN)) {
      const first = first_bit ?? 0;
      const bits = (last_bit ?? bitsN - 1) - first + 1;
      const layout = { containerBytes, firstBit: first, bits, signed, isBool: dataType === "bool" };
      for (const n of [1, 7, 8, 9, 63, 200, 1001]) {
        const c = codec({ first_bit, last_bit }, dataType, [n]);
        const packed = randomBytes(Math.ceil((n * count * bits) / 8), n + bits);
        const { data } = c.decode(packed);
        expect(data).toBeInstanceOf(ArrayType);
        const want = packBitsDecodeReference(layout, packed, n * count);
        expect(hex(data)).toBe(hex(want));
        const values = holdable(randomBytes(n * count * containerBytes, n * 3 + first), bitsN, signed, dataType);
        const typed = new ArrayType(values.buffer);
        expect(hex(c.encode({ data: typed }))).toBe(hex(packBitsEncodeReference(layout, values)));
      }
    }
  });

  test.each([
    ["bool", {}, 300000],
    ["uint16", { last_bit: 11 }, 100000],
    ["uint8", { last_bit: 3 }, 200001],
    ["int16", { first_bit: 3, last_bit: 12 }, 77777],
    ["complex64", { first_bit: 16, padding_encoding: "last_byte" }, 20001],
  ])("%s %j: chunks larger than the scratch region round-trip", (dataType, config, n) => {
    const c = codec(config, dataType, [n]);
    const [, , bitsN, count] = TYPES.find(([name]) => name === dataType);
    const plan = frame(n, count, (config.last_bit ?? bitsN - 1) - (config.first_bit ?? 0) + 1, config.padding_encoding);
    const packed = randomBytes(plan.encoded, n);
    if (config.padding_encoding === "last_byte") packed[packed.length - 1] = plan.paddingBits;
    // Zero the padding bits, which decode ignores and encode writes as 0.
    packed[plan.body - 1] &= 0xff >> plan.paddingBits;
    const { data } = c.decode(packed);
    expect(hex(c.encode({ data }))).toBe(hex(packed));
  });
});

describe("packbits: the three implementations agree on large random chunks", () => {
  test.each([
    ["bool", {}],
    ["uint4", {}],
    ["int2", {}],
    ["uint16", { last_bit: 9 }],
    ["uint16", { last_bit: 13 }],
    ["int16", { first_bit: 4, last_bit: 11 }],
    ["float6_e3m2fn", {}],
    ["int32", { last_bit: 22 }],
  ])("%s %j", (dataType, config) => {
    const n = 150001;
    const c = codec(config, dataType, [n]);
    const [, , bitsN, count] = TYPES.find(([name]) => name === dataType);
    const plan = frame(n, count, (config.last_bit ?? bitsN - 1) - (config.first_bit ?? 0) + 1);
    const packed = randomBytes(plan.encoded, 77);
    const results = {};
    for (const impl of ["reference", "portable", "simd"]) {
      wasm().setImplementation(impl);
      const { data } = c.decode(packed);
      results[impl] = { decoded: hex(data), encoded: hex(c.encode({ data })) };
    }
    wasm().setImplementation("simd");
    expect(results.portable).toEqual(results.reference);
    expect(results.simd).toEqual(results.reference);
  });
});
