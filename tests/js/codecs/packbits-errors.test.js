import { beforeAll, expect, test } from "@jest/globals";
import { expectCodecError } from "../support/expect-error.js";
import {
  NumcodecsPackBitsCodec,
  PackBitsCodec,
  ready,
} from "../../../js/index.js";

beforeAll(() => ready());

const pb = (configuration, dataType = "uint16", shape = [10]) =>
  PackBitsCodec.fromConfig(configuration, { dataType, shape });
const nc = (shape = [13]) =>
  NumcodecsPackBitsCodec.fromConfig({}, { dataType: "bool", shape });

// [what, call, code, message (string: exact, RegExp: match)]
const CASES = [
  ["last_bit below first_bit", () => pb({ first_bit: 5, last_bit: 3 }),
    "INVALID_CONFIGURATION", "packbits: last_bit (3) must not be less than first_bit (5)"],
  ["last_bit at the component width", () => pb({ last_bit: 16 }),
    "INVALID_CONFIGURATION", "packbits: last_bit must be in 0..15 for uint16 (16 bits per component), got 16"],
  ["last_bit beyond a sub-byte width", () => pb({ last_bit: 4 }, "int4"),
    "INVALID_CONFIGURATION", "packbits: last_bit must be in 0..3 for int4 (4 bits per component), got 4"],
  ["negative first_bit", () => pb({ first_bit: -1 }),
    "INVALID_CONFIGURATION", "packbits: first_bit must be in 0..15 for uint16 (16 bits per component), got -1"],
  ["fractional first_bit", () => pb({ first_bit: 2.5 }),
    "INVALID_CONFIGURATION", "packbits: first_bit must be an integer, got 2.5"],
  ["NaN last_bit", () => pb({ last_bit: NaN }),
    "INVALID_CONFIGURATION", "packbits: last_bit must be an integer, got NaN"],
  ["infinite last_bit", () => pb({ last_bit: Infinity }),
    "INVALID_CONFIGURATION", "packbits: last_bit must be an integer, got Infinity"],
  ["non-numeric first_bit", () => pb({ first_bit: "3" }),
    "INVALID_CONFIGURATION", 'packbits: first_bit must be an integer or null, got "3"'],
  ["boolean last_bit", () => pb({ last_bit: true }),
    "INVALID_CONFIGURATION", "packbits: last_bit must be an integer or null, got true"],
  ["unknown padding_encoding", () => pb({ padding_encoding: "end" }),
    "INVALID_CONFIGURATION", 'packbits: padding_encoding must be "none", "first_byte" or "last_byte", got "end"'],
  ["padding_encoding of the wrong type", () => pb({ padding_encoding: 1 }),
    "INVALID_CONFIGURATION", 'packbits: padding_encoding must be "none", "first_byte" or "last_byte", got 1'],
  ["unknown configuration member", () => pb({ lastbit: 3 }),
    "INVALID_CONFIGURATION", 'packbits: unknown configuration member "lastbit" (expected padding_encoding, first_bit or last_bit)'],
  ["configuration as an array", () => pb([1]),
    "INVALID_CONFIGURATION", "packbits: configuration must be an object, got an Array of length 1"],
  ["variable-length strings", () => pb({}, "string"),
    "UNSUPPORTED_DATA_TYPE", "packbits: data type string has no fixed size, so no array -> bytes codec of this package can encode it"],
  ["raw bytes", () => pb({}, "r16"),
    "UNSUPPORTED_DATA_TYPE", "packbits: data type r16 is raw bytes with no bit layout; use the bytes codec"],
  ["zarrita's v2 strings", () => pb({}, "v2:U6"),
    "UNKNOWN_DATA_TYPE", /packbits: unknown data type "v2:U6"/],
  ["unknown data type", () => pb({}, "uint12"),
    "UNKNOWN_DATA_TYPE", /packbits: unknown data type "uint12"/],
  ["negative dimension", () => pb({}, "bool", [3, -2]),
    "INVALID_SHAPE", "packbits: shape must hold non-negative integers, got [3, -2]"],
  ["size beyond 2^53", () => pb({}, "complex128", [2 ** 50]),
    "SIZE_OVERFLOW", "packbits: complex128 shape [1125899906842624] decodes to more than 2^53 bytes"],
  ["numcodecs.packbits on uint8", () => NumcodecsPackBitsCodec.fromConfig({}, { dataType: "uint8", shape: [4] }),
    "UNSUPPORTED_DATA_TYPE", "numcodecs.packbits: only bool arrays can be packed, got uint8"],
  ["numcodecs.packbits with a parameter", () => NumcodecsPackBitsCodec.fromConfig({ bits: 2 }, { dataType: "bool", shape: [4] }),
    "INVALID_CONFIGURATION", 'numcodecs.packbits: unknown configuration member "bits" (PackBits has none)'],
];

test.each(CASES)("%s", (_what, call, code, message) => {
  expectCodecError(call, code, message);
});

const BAD_DATA = [
  ["one byte short", () => pb({}).decode(new Uint8Array(19)),
    "LENGTH_MISMATCH", "packbits: uint16 shape [10] needs 20 bytes, got 19"],
  ["one byte long, 12-bit", () => pb({ last_bit: 11 }).decode(new Uint8Array(16)),
    "LENGTH_MISMATCH", "packbits: uint16 bits 0..11 shape [10] needs 15 bytes, got 16"],
  ["missing padding byte", () => pb({ padding_encoding: "first_byte" }, "bool", [13]).decode(new Uint8Array(2)),
    "LENGTH_MISMATCH", "packbits: bool shape [13] needs 3 bytes (with the first_byte padding byte), got 2"],
  ["first_byte padding that disagrees", () => pb({ padding_encoding: "first_byte" }, "bool", [13]).decode(new Uint8Array([5, 0, 0])),
    "PADDING_MISMATCH", "packbits: bool shape [13]: the first_byte padding byte says 5 padding bits, but the data has 3"],
  ["last_byte padding that disagrees", () => pb({ padding_encoding: "last_byte", last_bit: 11 }, "uint16", [3]).decode(new Uint8Array([0, 0, 0, 0, 0, 255])),
    "PADDING_MISMATCH", "packbits: uint16 bits 0..11 shape [3]: the last_byte padding byte says 255 padding bits, but the data has 4"],
  ["empty input with a padding byte expected", () => pb({ padding_encoding: "last_byte" }, "bool", [0]).decode(new Uint8Array(0)),
    "LENGTH_MISMATCH", "packbits: bool shape [0] needs 1 bytes (with the last_byte padding byte), got 0"],
  ["decode of a number", () => pb({}).decode(20),
    "INVALID_INPUT", "packbits: decode input must be a TypedArray or ArrayBuffer, got 20"],
  ["encode of the wrong size", () => pb({}).encode({ data: new Uint16Array(11) }),
    "LENGTH_MISMATCH", "packbits: uint16 shape [10] needs 20 bytes of input, got 22"],
  ["encode of null", () => pb({}).encode(null),
    "INVALID_INPUT", "packbits: encode expects a chunk { data, shape, stride }, got null"],
  ["numcodecs: truncated chunk", () => nc().decode({ data: new Uint8Array(2) }),
    "LENGTH_MISMATCH", "numcodecs.packbits: bool shape [13] needs 3 bytes (a padding-count byte, then the bits), got 2"],
  ["numcodecs: padding count that disagrees", () => nc().decode({ data: new Uint8Array([7, 0, 0]) }),
    "PADDING_MISMATCH", "numcodecs.packbits: bool shape [13]: the padding-count byte says 7 padding bits, but the data has 3"],
  ["numcodecs: decode without a chunk", () => nc().decode(undefined),
    "INVALID_INPUT", "numcodecs.packbits: chunk.data must be a TypedArray or ArrayBuffer, got undefined"],
  ["numcodecs: encode of the wrong size", () => nc().encode({ data: new Uint8Array(12) }),
    "LENGTH_MISMATCH", "numcodecs.packbits: bool shape [13] needs 13 bytes of input, got 12"],
];

test.each(BAD_DATA)("%s, and the codecs still work afterwards", (_what, call, code, message) => {
  expectCodecError(call, code, message);
  const c = pb({ last_bit: 11 }, "uint16", [2]);
  expect(c.decode(new Uint8Array([0xbc, 0x3a, 0x12])).data).toEqual(new Uint16Array([0xabc, 0x123]));
  expect(nc([11]).decode({ data: new Uint8Array([5, 0x83, 0xa0]) }).data).toEqual(
    new Uint8Array([1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1]));
});
