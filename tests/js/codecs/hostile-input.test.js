// Hostile input across both codecs and the JS surface: each gets the
// package's error with a precise message, before any large allocation, and
// the codecs (and the wasm instance) keep working afterwards.
import { beforeAll, expect, test } from "@jest/globals";
import * as zarrNamespace from "zarrita";
import { expectCodecError } from "../support/expect-error.js";
import {
  BytesCodec,
  NumcodecsPackBitsCodec,
  PackBitsCodec,
  ready,
  register,
} from "../../../js/index.js";

beforeAll(() => ready());

const pb = (configuration, dataType = "uint16", shape = [10]) =>
  PackBitsCodec.fromConfig(configuration, { dataType, shape });
const be = (dataType = "uint16", shape = [10]) =>
  BytesCodec.fromConfig({ endian: "big" }, { dataType, shape });
const nc = (shape = [13]) => NumcodecsPackBitsCodec.fromConfig({}, { dataType: "bool", shape });

// A Proxy whose every trap throws: even `instanceof` runs one.
const trapping = new Proxy({}, { getPrototypeOf: () => { throw new TypeError("trap"); }, get: () => { throw new TypeError("trap"); } });

// Transferring a buffer detaches it, and every view on it becomes empty.
function detach(value) {
  structuredClone(value.buffer ?? value, { transfer: [value.buffer ?? value] });
  return value;
}

// [what, call, code, message: exact string or RegExp]
const TABLE = [
  // configurations of the wrong type
  ["configuration a number", () => pb(5), "INVALID_CONFIGURATION", "packbits: configuration must be an object, got 5"],
  ["configuration a string", () => BytesCodec.fromConfig("big", { dataType: "int8", shape: [1] }), "INVALID_CONFIGURATION", 'bytes: configuration must be an object, got "big"'],
  ["first_bit a string", () => pb({ first_bit: "2" }), "INVALID_CONFIGURATION", 'packbits: first_bit must be an integer or null, got "2"'],
  ["last_bit an object", () => pb({ last_bit: {} }), "INVALID_CONFIGURATION", "packbits: last_bit must be an integer or null, got an object"],
  ["last_bit a symbol", () => pb({ last_bit: Symbol("x") }), "INVALID_CONFIGURATION", "packbits: last_bit must be an integer or null, got Symbol(x)"],
  ["first_bit 1e300", () => pb({ first_bit: 1e300 }), "INVALID_CONFIGURATION", "packbits: first_bit must be an integer, got 1e+300"],
  ["padding_encoding an array", () => pb({ padding_encoding: ["first_byte"] }), "INVALID_CONFIGURATION", 'packbits: padding_encoding must be "none", "first_byte" or "last_byte", got an Array of length 1'],
  ["endian a number", () => BytesCodec.fromConfig({ endian: 1 }, { dataType: "int16", shape: [1] }), "INVALID_CONFIGURATION", 'bytes: endian must be "big" or "little", got 1'],
  ["numcodecs.packbits with parameters", () => NumcodecsPackBitsCodec.fromConfig({ bits: 1 }, { dataType: "bool", shape: [1] }), "INVALID_CONFIGURATION", 'numcodecs.packbits: unknown configuration member "bits" (PackBits has none)'],
  // metadata
  ["no meta", () => PackBitsCodec.fromConfig({}), "INVALID_METADATA", "packbits: meta must be an object { dataType, shape }, got undefined"],
  ["dataType null", () => pb({}, null), "INVALID_METADATA", "packbits: meta.dataType must be a data type name or { name, configuration }, got null"],
  ["a 10,000-character type name is cut in the message", () => pb({}, "x".repeat(10000)), "UNKNOWN_DATA_TYPE", `packbits: unknown data type "${"x".repeat(64)}" (expected a Zarr v3 data type such as uint16, complex64 or r16)`],
  // shapes
  ["negative dimension", () => pb({}, "uint16", [-1]), "INVALID_SHAPE", "packbits: shape must hold non-negative integers, got [-1]"],
  ["fractional dimension", () => be("uint16", [1.5]), "INVALID_SHAPE", "bytes: shape must hold non-negative integers, got [1.5]"],
  ["NaN dimension", () => pb({}, "bool", [NaN]), "INVALID_SHAPE", "packbits: shape must hold non-negative integers, got [NaN]"],
  ["infinite dimension", () => pb({}, "bool", [Infinity]), "INVALID_SHAPE", "packbits: shape must hold non-negative integers, got [Infinity]"],
  ["a dimension of 2^53", () => pb({}, "bool", [2 ** 53]), "INVALID_SHAPE", "packbits: shape must hold non-negative integers, got [9007199254740992]"],
  ["a dimension as a string", () => pb({}, "bool", ["8"]), "INVALID_SHAPE", 'packbits: meta.shape must hold numbers, got "8"'],
  ["elements beyond 2^53", () => pb({}, "bool", [2 ** 30, 2 ** 30, 2 ** 30]), "SIZE_OVERFLOW", "packbits: shape [1073741824, 1073741824, 1073741824] has more than 2^53 elements"],
  ["bytes beyond 2^53", () => be("uint64", [2 ** 51]), "SIZE_OVERFLOW", "bytes: uint64 shape [2251799813685248] needs more than 2^53 bytes"],
  // sizes past 32 bits are exact, not wrapped: a short input is refused by length
  ["uint16 [2^31]: 4 GiB, not 0 bytes", () => be("uint16", [2 ** 31]).decode(new Uint8Array(0)), "LENGTH_MISMATCH", "bytes: uint16 shape [2147483648] needs 4294967296 encoded bytes, got 0"],
  ["bool [2^35] packs to 4 GiB", () => pb({}, "bool", [2 ** 35]).decode(new Uint8Array(1)), "LENGTH_MISMATCH", "packbits: bool shape [34359738368] needs 4294967296 bytes, got 1"],
  ["decoded size beyond wasm memory (5 GB)", () => pb({}, "uint8", [5e9]).decode(new Uint8Array(1)), "LENGTH_MISMATCH", "packbits: uint8 shape [5000000000] needs 5000000000 bytes, got 1"],
  ["numcodecs [2^33] bools", () => nc([2 ** 33]).decode({ data: new Uint8Array(2) }), "LENGTH_MISMATCH", "numcodecs.packbits: bool shape [8589934592] needs 1073741825 bytes (a padding-count byte, then the bits), got 2"],
  // chunks and inputs
  ["encode(null)", () => pb({}).encode(null), "INVALID_INPUT", "packbits: encode expects a chunk { data, shape, stride }, got null"],
  ["encode(undefined)", () => be().encode(undefined), "INVALID_INPUT", "bytes: encode expects a chunk { data, shape, stride }, got undefined"],
  ["encode of a chunk without data", () => pb({}).encode({ shape: [10] }), "INVALID_INPUT", "packbits: encode expects a chunk { data, shape, stride }, got an object"],
  ["encode of a Float32Array for uint16", () => pb({}).encode({ data: new Float32Array(5) }), "INVALID_INPUT", "packbits: encode needs chunk.data as a Uint16Array, got a Float32Array of 20 bytes"],
  ["encode of a BigInt64Array for int32", () => be("int32", [2]).encode({ data: new BigInt64Array(1) }), "INVALID_INPUT", "bytes: encode needs chunk.data as an Int32Array, got a BigInt64Array of 8 bytes"],
  ["encode of the right kind, wrong length", () => pb({}).encode({ data: new Uint16Array(11) }), "LENGTH_MISMATCH", "packbits: uint16 shape [10] needs 20 bytes of input, got 22"],
  ["numcodecs encode of an Int16Array", () => nc().encode({ data: new Int16Array(13) }), "INVALID_INPUT", "numcodecs.packbits: encode needs chunk.data as a Uint8Array, got an Int16Array of 26 bytes"],
  ["decode(null)", () => pb({}).decode(null), "INVALID_INPUT", "packbits: decode input must be a TypedArray or ArrayBuffer, got null"],
  ["decode of a plain array", () => be().decode([1, 2]), "INVALID_INPUT", "bytes: decode input must be a TypedArray or ArrayBuffer, got an Array of length 2"],
  ["decode of a detached buffer", () => pb({}).decode(detach(new ArrayBuffer(20))), "INVALID_INPUT", "packbits: decode input is on a detached ArrayBuffer (it was transferred)"],
  ["decode of a view on a detached buffer", () => be().decode(detach(new Uint8Array(20))), "INVALID_INPUT", "bytes: decode input is on a detached ArrayBuffer (it was transferred)"],
  ["encode of data on a detached buffer", () => be().encode({ data: detach(new Uint16Array(10)) }), "INVALID_INPUT", "bytes: chunk.data is on a detached ArrayBuffer (it was transferred)"],
  ["decodeInto a detached output", () => pb({}).decodeInto(new Uint8Array(20), detach(new Uint16Array(10))), "INVALID_INPUT", "packbits: decodeInto needs a Uint16Array of 20 bytes, got a Uint16Array of 0 bytes"],
  ["decode of a Proxy whose traps throw", () => be().decode(trapping), "INVALID_INPUT", 'bytes: reading decode input failed ("trap")'],
  ["encode of chunk.data a Proxy whose traps throw", () => be().encode({ data: trapping }), "INVALID_INPUT", "bytes: encode needs chunk.data as a Uint16Array, got an object"],
  ["decodeInto a Proxy whose traps throw", () => pb({}).decodeInto(new Uint8Array(20), trapping), "INVALID_INPUT", "packbits: decodeInto needs a Uint16Array of 20 bytes, got an object"],
  ["a padding byte that lies", () => pb({ padding_encoding: "last_byte", last_bit: 11 }, "uint16", [3]).decode(new Uint8Array([0, 0, 0, 0, 0, 200])), "PADDING_MISMATCH", "packbits: uint16 bits 0..11 shape [3]: the last_byte padding byte says 200 padding bits, but the data has 4"],
  // the JS surface
  ["register(null)", () => register(null), "INVALID_REGISTRY", "register: expected a codec registry (a Map such as zarr.registry), got null"],
  ["register of a string", () => register("zarr.registry"), "INVALID_REGISTRY", 'register: expected a codec registry (a Map such as zarr.registry), got "zarr.registry"'],
  ["register of zarrita's module namespace", () => register(zarrNamespace), "INVALID_REGISTRY", 'register: expected a codec registry (a Map such as zarr.registry), got a module namespace: pass zarr.registry, not the module itself (import * as zarr from "zarrita")'],
  ["register of an object with get and set", () => register({ get: () => undefined, set: () => undefined }), "INVALID_REGISTRY", "register: expected a codec registry (a Map such as zarr.registry), got an object with get and set, which is not a Map: pass zarr.registry"],
];

test("register refuses a registry-like object before calling any of it (no promise of zarr.get or zarr.set left to reject)", () => {
  const calls = [];
  const lookalike = { get: (...a) => calls.push(["get", ...a]), set: (...a) => calls.push(["set", ...a]) };
  expectCodecError(() => register(lookalike), "INVALID_REGISTRY", /not a Map: pass zarr\.registry/);
  expect(calls).toEqual([]);
});

test(`the table has at least 30 hostile inputs (${TABLE.length})`, () => {
  expect(TABLE.length).toBeGreaterThanOrEqual(30);
});

test.each(TABLE)("%s", (_what, call, code, message) => {
  const before = process.memoryUsage().arrayBuffers;
  expectCodecError(call, code, message);
  const grew = process.memoryUsage().arrayBuffers - before;
  // Refused before any large allocation.
  expect(grew).toBeLessThan(8 << 20);
  // And everything still works.
  expect(pb({ last_bit: 11 }, "uint16", [2]).decode(new Uint8Array([0xbc, 0x3a, 0x12])).data).toEqual(new Uint16Array([0xabc, 0x123]));
  expect(be("int16", [1]).decode(new Uint8Array([0xff, 0xfe])).data).toEqual(new Int16Array([-2]));
});

test("SharedArrayBuffer-backed input and data work like any other", () => {
  const shared = new Uint8Array(new SharedArrayBuffer(3));
  shared.set([0xbc, 0x3a, 0x12]);
  const codec = pb({ last_bit: 11 }, "uint16", [2]);
  expect(codec.decode(shared).data).toEqual(new Uint16Array([0xabc, 0x123]));
  const values = new Uint16Array(new SharedArrayBuffer(4));
  values.set([0xabc, 0x123]);
  expect([...codec.encode({ data: values })]).toEqual([0xbc, 0x3a, 0x12]);
  const little = BytesCodec.fromConfig({ endian: "little" }, { dataType: "uint16", shape: [2] });
  const view = little.decode(new Uint8Array(values.buffer));
  expect(view.data).toEqual(new Uint16Array([0xabc, 0x123]));
});
