// The narrow float formats' table is written twice: in the wasm core
// (src/types/float_format.cpp, which widening and narrowing read) and in
// JavaScript (js/floats/float-formats.js, which cast_value, scale_offset,
// FixedScaleOffset and the fill parser read, so that they run before and
// without the wasm). Here the two must agree: every field of every format
// as the bindings' typeInfo tells it, and every code's value as the core
// widens it, both ways.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { BytesCodec, ready } from "../../../js/index.js";
import { codeOfValue, FLOAT_FORMATS, valueOfCode } from "../../../js/floats/float-formats.js";
import { typeInfo } from "../../../js/types/type-info.js";

beforeAll(() => ready());

describe.each([...FLOAT_FORMATS.keys()])("%s", (name) => {
  const format = FLOAT_FORMATS.get(name);

  test("every field of the layout is the core's", () => {
    const info = typeInfo(name);
    expect({
      format: info.floatFormat,
      bits: info.componentBits,
      exponentBits: info.floatExponentBits,
      mantissaBits: info.floatMantissaBits,
      bias: info.floatBias,
      kind: info.floatKind,
      nanCode: info.floatNanCode,
      hasInfinity: info.floatHasInfinity,
      largest: info.floatLargest,
    }).toEqual({
      format: name,
      bits: format.bits,
      exponentBits: format.exponentBits,
      mantissaBits: format.mantissaBits,
      bias: format.bias,
      kind: format.kind,
      nanCode: format.nanCode,
      hasInfinity: format.hasInfinity,
      largest: format.largest,
    });
  });

  test("every code's value is the core's widening, and every value's code is the code (NaN: its sign and payload, quiet)", () => {
    const count = 2 ** format.bits;
    const codes = format.bits === 16 ? Uint16Array.from({ length: count }, (_, i) => i) : Uint8Array.from({ length: count }, (_, i) => i);
    const codec = BytesCodec.fromConfig({ endian: "little" }, { dataType: name, shape: [count] }, { floats: "float32" });
    const widened = codec.decode(new Uint8Array(codes.buffer)).data;
    codec.dispose();
    const values = Array.from(codes, (code) => valueOfCode(format, code));
    // Bit for bit: a NaN's sign and payload too.
    const bits = (x) => new Uint32Array(Float32Array.of(x).buffer)[0];
    const differ = values.map((v, code) => [code, bits(v), bits(widened[code])]).filter(([, a, b]) => a !== b);
    expect(differ).toEqual([]);
    const quiet = format.kind === "ieee" ? 2 ** (format.mantissaBits - 1) : 0;
    const back = Array.from(codes, (code) => codeOfValue(format, values[code]));
    const want = Array.from(codes, (code) => (Number.isNaN(values[code]) ? (format.kind === "ieee" ? code | quiet : format.nanCode) : code));
    expect(back).toEqual(want);
  });
});
