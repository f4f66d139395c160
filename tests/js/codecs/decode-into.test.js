import { beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import {
  BytesCodec,
  NumcodecsPackBitsCodec,
  PackBitsCodec,
  ready,
  ZarrCodecError,
} from "../../../js/index.js";
import { hex, randomBytes } from "../support/reference.js";

beforeAll(() => ready());

describe("decodeInto writes into the caller's array", () => {
  test.each([
    ["bytes big-endian", () => BytesCodec.fromConfig({ endian: "big" }, { dataType: "float32", shape: [70001] }), Float32Array, 70001 * 4],
    ["bytes little-endian", () => BytesCodec.fromConfig({ endian: "little" }, { dataType: "uint16", shape: [999] }), Uint16Array, 1998],
    ["packbits bool", () => PackBitsCodec.fromConfig({}, { dataType: "bool", shape: [100003] }), Uint8Array, Math.ceil(100003 / 8)],
    ["packbits uint16 12-bit", () => PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [50000] }), Uint16Array, 75000],
    ["packbits int4 first_byte", () => PackBitsCodec.fromConfig({ padding_encoding: "first_byte" }, { dataType: "int4", shape: [7] }), Int8Array, 5],
  ])("%s: same values as decode, into the same array every time", (_what, make, ArrayType, encodedBytes) => {
    const codec = make();
    const input = randomBytes(encodedBytes, encodedBytes);
    if (_what.includes("first_byte")) input[0] = 4; // 7 * 4 bits pad 4
    const expected = codec.decode(input).data;
    const out = new ArrayType(expected.length).fill(3);
    expect(codec.decodeInto(input, out)).toBe(out);
    expect(hex(out)).toBe(hex(expected));
    // Reused: overwritten completely, not accumulated.
    const other = randomBytes(encodedBytes, 99);
    if (_what.includes("first_byte")) other[0] = 4;
    codec.decodeInto(other, out);
    expect(hex(out)).toBe(hex(codec.decode(other).data));
  });

  test("numcodecs.packbits into a Uint8Array or zarrita's BoolArray", () => {
    const codec = NumcodecsPackBitsCodec.fromConfig({}, { dataType: "bool", shape: [11] });
    const chunk = { data: new Uint8Array([5, 0x83, 0xa0]) };
    const out = new Uint8Array(11);
    codec.decodeInto(chunk, out);
    expect([...out]).toEqual([1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1]);
    const bools = new zarr.BoolArray(11);
    codec.decodeInto(chunk, bools);
    expect([...bools]).toEqual([true, false, false, false, false, false, true, true, true, false, true]);
  });

  test("a subarray view at an offset is filled in place, neighbours untouched", () => {
    const codec = PackBitsCodec.fromConfig({}, { dataType: "uint4", shape: [4] });
    const backing = new Uint8Array(8).fill(0xee);
    codec.decodeInto(new Uint8Array([0x21, 0x43]), backing.subarray(2, 6));
    expect([...backing]).toEqual([0xee, 0xee, 1, 2, 3, 4, 0xee, 0xee]);
  });
});

describe("decodeInto refuses outputs that would be silently wrong", () => {
  const codec = () => PackBitsCodec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [4] });
  const input = new Uint8Array(6);
  test.each([
    ["a container of another type", () => codec().decodeInto(input, new Float32Array(2)),
      "packbits: decodeInto needs a Uint16Array of 8 bytes, got a Float32Array of 8 bytes"],
    ["the wrong length", () => codec().decodeInto(input, new Uint16Array(5)),
      "packbits: decodeInto needs a Uint16Array of 8 bytes, got a Uint16Array of 10 bytes"],
    ["no output", () => codec().decodeInto(input, undefined),
      "packbits: decodeInto needs a Uint16Array of 8 bytes, got undefined"],
    ["an output overlapping the input", () => {
      const shared = new Uint8Array(16);
      return codec().decodeInto(shared.subarray(0, 6), new Uint16Array(shared.buffer, 4, 4));
    }, "packbits: decodeInto's output overlaps its input"],
    ["bytes: wrong type", () => BytesCodec.fromConfig({ endian: "big" }, { dataType: "int16", shape: [2] }).decodeInto(new Uint8Array(4), new Uint16Array(2)),
      "bytes: decodeInto needs an Int16Array of 4 bytes, got a Uint16Array of 4 bytes"],
  ])("%s", (_what, call, message) => {
    expect(call).toThrow(ZarrCodecError);
    expect(call).toThrow(message);
  });
});
