import { expect, test } from "@jest/globals";
import { expectCodecError } from "../support/expect-error.js";
import { BytesCodec, ready } from "../../../js/index.js";

const meta = (dataType, shape = [10]) => ({ dataType, shape });

test("using a codec before ready() says what to do", () => {
  // Jest gives each test file fresh modules, so nothing is loaded yet here.
  expect(() => BytesCodec.fromConfig({ endian: "big" }, meta("uint16"))).toThrow(
    /await ready\(\) before using the codec classes directly/,
  );
});

// [what, call, code, message]
const CASES = [
  ["missing endian", () => BytesCodec.fromConfig({}, meta("uint16")),
    "INVALID_CONFIGURATION",
    'bytes: data type uint16 is multi-byte, so the "endian" option is required ("big" or "little")'],
  ["no configuration at all for a multi-byte type", () => BytesCodec.fromConfig(undefined, meta("float64")),
    "INVALID_CONFIGURATION", /data type float64 is multi-byte/],
  ["unknown endian", () => BytesCodec.fromConfig({ endian: "middle" }, meta("uint16")),
    "INVALID_CONFIGURATION", 'bytes: endian must be "big" or "little", got "middle"'],
  ["endian of the wrong type", () => BytesCodec.fromConfig({ endian: 1 }, meta("uint16")),
    "INVALID_CONFIGURATION", 'bytes: endian must be "big" or "little", got 1'],
  ["endian in the wrong case", () => BytesCodec.fromConfig({ endian: "BIG" }, meta("uint16")),
    "INVALID_CONFIGURATION", /got "BIG"/],
  ["unknown configuration member", () => BytesCodec.fromConfig({ endian: "big", endianness: "big" }, meta("uint16")),
    "INVALID_CONFIGURATION", 'bytes: unknown configuration member "endianness" (expected "endian")'],
  ["configuration not an object", () => BytesCodec.fromConfig("big", meta("uint16")),
    "INVALID_CONFIGURATION", 'bytes: configuration must be an object, got "big"'],
  ["unknown data type", () => BytesCodec.fromConfig({ endian: "big" }, meta("uint12")),
    "UNKNOWN_DATA_TYPE", 'bytes: unknown data type "uint12" (expected a Zarr v3 data type such as uint16, complex64 or r16)'],
  ["raw type of a partial byte", () => BytesCodec.fromConfig({ endian: "big" }, meta("r12")),
    "UNKNOWN_DATA_TYPE", /unknown data type "r12"/],
  ["a datetime64 without its configuration", () => BytesCodec.fromConfig({ endian: "big" }, meta("numpy.datetime64")),
    "INVALID_METADATA", 'bytes: data type numpy.datetime64 needs its object form { "name": "numpy.datetime64", "configuration": { "unit", "scale_factor" } }'],
  ["a datetime64 unit numpy lacks", () => BytesCodec.fromConfig({ endian: "big" }, { dataType: { name: "numpy.datetime64", configuration: { unit: "fortnight", scale_factor: 1 } }, shape: [1] }),
    "INVALID_METADATA", 'bytes: numpy.datetime64 unit must be one of Y, M, W, D, h, m, s, ms, us, μs, ns, ps, fs, as, generic, got "fortnight"'],
  ["a timedelta64 scale_factor of 0", () => BytesCodec.fromConfig({ endian: "big" }, { dataType: { name: "numpy.timedelta64", configuration: { unit: "s", scale_factor: 0 } }, shape: [1] }),
    "INVALID_METADATA", "bytes: numpy.timedelta64 scale_factor must be an integer in 1..2147483647, got 0"],
  ["a timedelta64 scale_factor of 2^31", () => BytesCodec.fromConfig({ endian: "big" }, { dataType: { name: "numpy.timedelta64", configuration: { unit: "s", scale_factor: 2 ** 31 } }, shape: [1] }),
    "INVALID_METADATA", "bytes: numpy.timedelta64 scale_factor must be an integer in 1..2147483647, got 2147483648"],
  ["a datetime64 configuration with an extra member", () => BytesCodec.fromConfig({ endian: "big" }, { dataType: { name: "numpy.datetime64", configuration: { unit: "s", scale_factor: 1, tz: "UTC" } }, shape: [1] }),
    "INVALID_METADATA", 'bytes: numpy.datetime64 configuration has an unknown member "tz" (expected unit and scale_factor)'],
  ["a datetime64 configuration missing scale_factor", () => BytesCodec.fromConfig({ endian: "big" }, { dataType: { name: "numpy.datetime64", configuration: { unit: "s" } }, shape: [1] }),
    "INVALID_METADATA", "bytes: numpy.datetime64 scale_factor must be an integer in 1..2147483647, got undefined"],
  ["a configuration on a type that takes none", () => BytesCodec.fromConfig({}, { dataType: { name: "int8", configuration: { bits: 8 } }, shape: [1] }),
    "INVALID_METADATA", "bytes: data type int8 takes no configuration, got an object"],
  ["variable-length strings", () => BytesCodec.fromConfig({ endian: "big" }, meta("string")),
    "UNSUPPORTED_DATA_TYPE", "bytes: data type string has no fixed size, so no array -> bytes codec of this package can encode it"],
  ["data type not a string", () => BytesCodec.fromConfig({ endian: "big" }, { dataType: 16, shape: [1] }),
    "INVALID_METADATA", "bytes: meta.dataType must be a data type name or { name, configuration }, got 16"],
  ["no meta", () => BytesCodec.fromConfig({ endian: "big" }),
    "INVALID_METADATA", /got undefined/],
  ["negative dimension", () => BytesCodec.fromConfig({ endian: "big" }, meta("uint16", [4, -1])),
    "INVALID_SHAPE", "bytes: shape must hold non-negative integers, got [4, -1]"],
  ["fractional dimension", () => BytesCodec.fromConfig({ endian: "big" }, meta("uint16", [2.5])),
    "INVALID_SHAPE", "bytes: shape must hold non-negative integers, got [2.5]"],
  ["NaN dimension", () => BytesCodec.fromConfig({ endian: "big" }, meta("uint16", [NaN])),
    "INVALID_SHAPE", /got \[NaN\]/],
  ["shape not an array", () => BytesCodec.fromConfig({ endian: "big" }, meta("uint16", 10)),
    "INVALID_SHAPE", "bytes: meta.shape must be an array of non-negative integers, got 10"],
  ["string dimension", () => BytesCodec.fromConfig({ endian: "big" }, meta("uint16", ["10"])),
    "INVALID_SHAPE", 'bytes: meta.shape must hold numbers, got "10"'],
  ["byte size beyond 2^53", () => BytesCodec.fromConfig({ endian: "big" }, meta("uint64", [2 ** 30, 2 ** 21])),
    "SIZE_OVERFLOW", "bytes: uint64 shape [1073741824, 2097152] needs more than 2^53 bytes"],
  ["element count beyond 2^53", () => BytesCodec.fromConfig({ endian: "big" }, meta("uint8", [2 ** 40, 2 ** 40])),
    "SIZE_OVERFLOW", /has more than 2\^53 elements/],
];

test.each(CASES)("%s", async (_what, call, code, message) => {
  await ready();
  expectCodecError(call, code, message);
});

const codec = () => BytesCodec.fromConfig({ endian: "big" }, meta("uint16"));

const BAD_DATA = [
  ["one byte short", () => codec().decode(new Uint8Array(19)),
    "LENGTH_MISMATCH", "bytes: uint16 shape [10] needs 20 encoded bytes, got 19"],
  ["one byte long", () => codec().decode(new Uint8Array(21)),
    "LENGTH_MISMATCH", "bytes: uint16 shape [10] needs 20 encoded bytes, got 21"],
  ["little-endian too", () => BytesCodec.fromConfig({ endian: "little" }, meta("uint16")).decode(new Uint8Array(3)),
    "LENGTH_MISMATCH", "bytes: uint16 shape [10] needs 20 encoded bytes, got 3"],
  ["decode of a string", () => codec().decode("abc"),
    "INVALID_INPUT", 'bytes: decode input must be a TypedArray or ArrayBuffer, got "abc"'],
  ["decode of null", () => codec().decode(null),
    "INVALID_INPUT", "bytes: decode input must be a TypedArray or ArrayBuffer, got null"],
  ["encode of the wrong size", () => codec().encode({ data: new Uint16Array(9) }),
    "LENGTH_MISMATCH", "bytes: uint16 shape [10] needs 20 bytes of input, got 18"],
  ["encode of undefined", () => codec().encode(undefined),
    "INVALID_INPUT", "bytes: encode expects a chunk { data, shape, stride }, got undefined"],
  ["encode of a plain array", () => codec().encode({ data: [1, 2, 3] }),
    "INVALID_INPUT", "bytes: encode needs chunk.data as a Uint16Array, got an Array of length 3"],
];

test.each(BAD_DATA)("%s, and the codec still works afterwards", async (_what, call, code, message) => {
  await ready();
  expectCodecError(call, code, message);
  const good = codec().decode(new Uint8Array(20).fill(1));
  expect(good.data).toEqual(new Uint16Array(10).fill(0x0101));
});
