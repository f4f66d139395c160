import { beforeAll, describe, expect, test } from "@jest/globals";
import {
  PackBitsCodec,
  ready,
  widenToFloat32,
  bfloat16ToFloat32,
  float16ToFloat32,
  float4E2m1fnToFloat32,
  float6E2m3fnToFloat32,
  float6E3m2fnToFloat32,
  ZarrCodecError,
} from "../../../js/index.js";
import { FLOAT_FORMATS, floatFormatValue } from "../support/reference.js";

const bitsOf = (f32) => [...new Uint32Array(f32.buffer)];

// The helpers run on the wasm kernels (one source of truth with the codecs).
beforeAll(() => ready());

const FORMATS = Object.fromEntries(Object.entries(FLOAT_FORMATS).filter(([, f]) => f[0] + f[1] < 8 || f[3] === "e8m0"));
const defined = floatFormatValue;

describe.each(Object.keys(FORMATS))("%s: every code, through the JS API", (name) => {
  const [E, M] = FORMATS[name];
  const bits = FORMATS[name][3] === "e8m0" ? 8 : 1 + E + M;
  test("widened exactly, by the codecs and the helper alike", () => {
    const codes = Uint8Array.from({ length: 2 ** bits }, (_, i) => i);
    const viaHelper = widenToFloat32(name, codes);
    const viaPackBits = new PackBitsCodec({}, { dataType: name, shape: [codes.length] }, { floats: "float32" });
    for (let c = 0; c < codes.length; c++) {
      const want = Math.fround(defined(name, c));
      const got = viaHelper[c];
      if (Number.isNaN(want)) expect(Number.isNaN(got)).toBe(true);
      else if (!Object.is(got, want)) throw new Error(`${name} 0x${c.toString(16)}: ${got} != ${want}`);
    }
    // The same values through packbits' fused decode (codes packed first).
    const packer = PackBitsCodec.fromConfig({}, { dataType: name, shape: [codes.length] });
    const viaDecode = viaPackBits.decode(packer.encode({ data: codes })).data;
    expect(bitsOf(viaDecode)).toEqual(bitsOf(viaHelper));
  });
});

test("hand-worked anchors from the data-type pages", () => {
  const one = (name, code) => widenToFloat32(name, new Uint8Array([code]))[0];
  // float8_e4m3 has infinities (its page: "IEEE 754-compliant, with NaN and
  // +/-inf"), so exponent 1111 is reserved: its largest value is 240. 448
  // is float8_e4m3fn's, a format the registry does not have.
  expect(one("float8_e4m3", 0x77)).toBe(240);
  expect(one("float8_e4m3", 0x78)).toBe(Infinity);
  expect(Number.isNaN(one("float8_e4m3", 0x7c))).toBe(true); // the spec's NaN
  expect(one("float8_e5m2", 0x7b)).toBe(57344);
  expect(one("float8_e3m4", 0x6f)).toBe(15.5);
  expect(one("float8_e4m3fnuz", 0x7f)).toBe(240);
  expect(Number.isNaN(one("float8_e4m3fnuz", 0x80))).toBe(true);
  expect(one("float8_e4m3b11fnuz", 0x7f)).toBe(30);
  expect(one("float8_e5m2fnuz", 0x7f)).toBe(57344);
  expect(one("float8_e8m0fnu", 0x00)).toBe(2 ** -127);
  expect(one("float8_e8m0fnu", 0xfe)).toBe(2 ** 127);
  expect(Number.isNaN(one("float8_e8m0fnu", 0xff))).toBe(true);
});

test("every bfloat16 pattern is the top half of a float32", () => {
  const all = Uint16Array.from({ length: 65536 }, (_, i) => i);
  const bits = bitsOf(bfloat16ToFloat32(all));
  for (let h = 0; h < 65536; h++) if (bits[h] !== h * 65536) throw new Error(`bfloat16 0x${h.toString(16)}`);
});

describe("float4_e2m1fn: every code (sign, 2 exponent bits, 1 mantissa bit, bias 1)", () => {
  test("codes 0..15", () => {
    const codes = Uint8Array.from({ length: 16 }, (_, i) => i);
    expect([...float4E2m1fnToFloat32(codes)]).toEqual([
      0, 0.5, 1, 1.5, 2, 3, 4, 6,
      -0, -0.5, -1, -1.5, -2, -3, -4, -6,
    ]);
    expect(Object.is(float4E2m1fnToFloat32(new Uint8Array([8]))[0], -0)).toBe(true);
  });
  test("bits above the low 4 are ignored", () => {
    expect([...float4E2m1fnToFloat32(new Uint8Array([0xf7, 0x11]))]).toEqual([6, 0.5]);
  });
});

describe("float6 extremes", () => {
  test("e2m3fn: max 7.5, smallest subnormal 0.125, largest subnormal 0.875, min normal 1", () => {
    const v = float6E2m3fnToFloat32(new Uint8Array([0b011111, 0b000001, 0b000111, 0b001000, 0b111111, 0b100000]));
    expect([...v]).toEqual([7.5, 0.125, 0.875, 1, -7.5, -0]);
  });
  test("e3m2fn: max 28, smallest subnormal 0.0625, largest subnormal 0.1875, min normal 0.25", () => {
    const v = float6E3m2fnToFloat32(new Uint8Array([0b011111, 0b000001, 0b000011, 0b000100, 0b111111, 0b001101]));
    // 0b001101: exponent 3 (bias 3 -> 2^0), mantissa 1 -> 1.25
    expect([...v]).toEqual([28, 0.0625, 0.1875, 0.25, -28, 1.25]);
  });
});

describe("bfloat16", () => {
  test("infinities, NaN with payload, signed zero, subnormal, ordinary values", () => {
    const v = bfloat16ToFloat32(new Uint16Array([0x7f80, 0xff80, 0x7fc1, 0x8000, 0x0001, 0x3fc0, 0xc049]));
    expect(bitsOf(v)).toEqual([0x7f800000, 0xff800000, 0x7fc10000, 0x80000000, 0x00010000, 0x3fc00000, 0xc0490000]);
    expect(v[5]).toBe(1.5);
    expect(v[6]).toBeCloseTo(-3.140625, 6);
  });
});

describe("float16", () => {
  test("hand-worked values", () => {
    const v = float16ToFloat32(new Uint16Array([
      0x3c00, // 1
      0xc000, // -2
      0x7bff, // 65504, the largest finite
      0x0400, // 2^-14, the smallest normal
      0x0001, // 2^-24, the smallest subnormal
      0x03ff, // the largest subnormal: 1023 * 2^-24
      0x7c00, // +inf
      0xfc00, // -inf
      0x8000, // -0
      0x3555, // 0.333251953125
    ]));
    expect([...v]).toEqual([1, -2, 65504, 2 ** -14, 2 ** -24, 1023 * 2 ** -24, Infinity, -Infinity, -0, 0.333251953125]);
    expect(Object.is(v[8], -0)).toBe(true);
  });
  test("NaN payloads and signs survive", () => {
    const v = float16ToFloat32(new Uint16Array([0x7e00, 0xfd01, 0x7c01]));
    expect(bitsOf(v)).toEqual([0x7fc00000, 0xffa02000, 0x7f802000]);
  });
  test("every float16 pattern matches the spec formula", () => {
    const all = Uint16Array.from({ length: 65536 }, (_, i) => i);
    const v = float16ToFloat32(all);
    for (let h = 0; h < 65536; h++) {
      const s = h & 0x8000 ? -1 : 1;
      const e = (h >> 10) & 31;
      const m = h & 1023;
      const want = e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
      if (Number.isNaN(want)) expect(Number.isNaN(v[h])).toBe(true);
      else if (v[h] !== want || Object.is(want, -0) !== Object.is(v[h], -0)) throw new Error(`float16 0x${h.toString(16)}: ${v[h]} != ${want}`);
    }
  });
});

test("wrong input types are refused", () => {
  expect(() => float16ToFloat32(new Uint8Array(2))).toThrow(ZarrCodecError);
  expect(() => float16ToFloat32(new Uint8Array(2))).toThrow("float16ToFloat32: expected a Uint16Array of bit patterns, got a Uint8Array");
  expect(() => float4E2m1fnToFloat32([1, 2])).toThrow("float4E2m1fnToFloat32: expected a Uint8Array of bit patterns, got an Array of length 2");
});
