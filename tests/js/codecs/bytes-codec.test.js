import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { BytesCodec, ready } from "../../../js/index.js";
import { wasm } from "../../../js/wasm/load.js";
import { bytesOf, hex, randomBytes, swapGroups } from "../support/reference.js";

beforeAll(() => ready());

const codec = (endian, dataType, shape) =>
  BytesCodec.fromConfig(endian === undefined ? undefined : { endian }, {
    dataType,
    shape,
  });

// Types of the bytes spec, their decoded container, component bytes and
// entries per element (complex types interleave two).
const TYPES = [
  ["bool", Uint8Array, 1, 1],
  ["int8", Int8Array, 1, 1],
  ["uint8", Uint8Array, 1, 1],
  ["int16", Int16Array, 2, 1],
  ["uint16", Uint16Array, 2, 1],
  ["int32", Int32Array, 4, 1],
  ["uint32", Uint32Array, 4, 1],
  ["int64", BigInt64Array, 8, 1],
  ["uint64", BigUint64Array, 8, 1],
  ["float16", globalThis.Float16Array ?? Uint16Array, 2, 1],
  ["bfloat16", Uint16Array, 2, 1],
  ["float32", Float32Array, 4, 1],
  ["float64", Float64Array, 8, 1],
  ["complex64", Float32Array, 4, 2],
  ["complex128", Float64Array, 8, 2],
  ["complex_float32", Float32Array, 4, 2],
  ["complex_float64", Float64Array, 8, 2],
  ["complex_bfloat16", Uint16Array, 2, 2],
];

describe("bytes: hand-worked layouts", () => {
  test("int16 big-endian: 01 02 FF FE is [0x0102, -2]", () => {
    const { data, shape, stride } = codec("big", "int16", [2]).decode(
      new Uint8Array([0x01, 0x02, 0xff, 0xfe]),
    );
    expect(data).toEqual(new Int16Array([0x0102, -2]));
    expect(shape).toEqual([2]);
    expect(stride).toEqual([1]);
  });

  test("uint64 keeps its top bit", () => {
    const c = codec("big", "uint64", [2]);
    const bytes = new Uint8Array([
      0x80, 0, 0, 0, 0, 0, 0, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
    ]);
    const { data } = c.decode(bytes);
    expect(data).toBeInstanceOf(BigUint64Array);
    expect([...data]).toEqual([0x8000000000000001n, 0xfffffffffffffffen]);
    expect(c.encode({ data })).toEqual(bytes);
  });

  test("float64 NaN payloads and -0 survive both directions", () => {
    const patterns = new BigUint64Array([
      0x7ff0000000000001n, // signalling NaN, payload 1
      0xfff8deadbeef0001n,
      0x8000000000000000n, // -0
    ]);
    const c = codec("big", "float64", [3]);
    const encoded = c.encode({ data: new Float64Array(patterns.buffer) });
    expect(hex(encoded.subarray(0, 8))).toBe("7ff0000000000001");
    const { data } = c.decode(encoded);
    expect(hex(data)).toBe(hex(patterns));
  });

  test("complex64 swaps the real and imaginary parts separately", () => {
    // (1.0, -0.0) big-endian: 3F800000 80000000.
    const { data } = codec("big", "complex64", [1]).decode(
      new Uint8Array([0x3f, 0x80, 0, 0, 0x80, 0, 0, 0]),
    );
    expect(data).toBeInstanceOf(Float32Array);
    expect(data[0]).toBe(1);
    expect(Object.is(data[1], -0)).toBe(true);
  });

  test("raw r24 is never swapped, even with endian big", () => {
    const bytes = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const { data } = codec("big", "r24", [2]).decode(bytes);
    expect([...data]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test("bool encodes any non-zero value as 0x01", () => {
    const c = codec(undefined, "bool", [4]);
    expect([...c.encode({ data: new Uint8Array([0, 7, 1, 0x80]) })]).toEqual([
      0, 1, 1, 1,
    ]);
  });

  test("endian is ignored for one-byte types and may be absent", () => {
    const bytes = new Uint8Array([0xff, 1]);
    expect(codec(undefined, "int8", [2]).decode(bytes).data).toEqual(
      new Int8Array([-1, 1]),
    );
    expect(codec("big", "int8", [2]).decode(bytes).data).toEqual(
      new Int8Array([-1, 1]),
    );
  });
});

describe("bytes: containers, views and copies", () => {
  test("little-endian decode is a zero-copy view of the input", () => {
    const input = new Uint8Array([1, 0, 2, 0, 3, 0]);
    const { data } = codec("little", "uint16", [3]).decode(input);
    expect(data).toEqual(new Uint16Array([1, 2, 3]));
    expect(data.buffer).toBe(input.buffer);
  });

  test("a misaligned little-endian input is copied, not rejected", () => {
    const backing = new Uint8Array(17);
    backing.set([1, 0, 0, 0, 0, 0, 0, 0x80], 1);
    const input = backing.subarray(1, 9);
    const { data } = codec("little", "uint64", [1]).decode(input);
    expect(data[0]).toBe(0x8000000000000001n);
    expect(data.buffer).not.toBe(input.buffer);
  });

  test("big-endian decode returns a fresh array outside wasm memory", () => {
    const input = randomBytes(4 * 100000, 3);
    const before = input.slice();
    const { data } = codec("big", "float32", [100000]).decode(input);
    expect(data.buffer).not.toBe(wasm().HEAPU8.buffer);
    expect(input).toEqual(before);
    expect(hex(data)).toBe(hex(swapGroups(input, 4)));
  });

  test("encode never changes its input and respects byteOffset", () => {
    const backing = new Uint8Array(2 + 6);
    backing.set([0xaa, 0xbb, 1, 2, 3, 4, 5, 6]);
    const data = new Uint16Array(backing.buffer, 2, 3);
    const encoded = codec("big", "uint16", [3]).encode({ data });
    expect([...encoded]).toEqual([2, 1, 4, 3, 6, 5]);
    expect([...backing]).toEqual([0xaa, 0xbb, 1, 2, 3, 4, 5, 6]);
    const little = codec("little", "uint16", [3]).encode({ data });
    expect([...little]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(little.buffer).not.toBe(backing.buffer);
  });

  test("0-sized and scalar shapes", () => {
    const empty = codec("big", "float64", [3, 0]);
    expect(empty.decode(new Uint8Array(0)).data).toEqual(new Float64Array(0));
    expect(empty.encode({ data: new Float64Array(0) })).toEqual(new Uint8Array(0));
    const scalar = codec("big", "int32", []);
    expect(scalar.decode(new Uint8Array([0, 0, 1, 0])).data).toEqual(
      new Int32Array([256]),
    );
  });

  test("computeEncodedSize is the identity", () => {
    expect(codec("big", "uint64", [4, 2]).computeEncodedSize(64)).toBe(64);
  });

  test("C-order strides", () => {
    expect(codec("big", "int16", [2, 3, 4]).decode(new Uint8Array(48)).stride)
      .toEqual([12, 4, 1]);
  });
});

describe.each(["reference", "portable", "simd"])(
  "bytes round trip with the %s kernels",
  (implementation) => {
    beforeAll(() => expect(wasm().setImplementation(implementation)).toBe(true));
    afterAll(() => wasm().setImplementation("simd"));

    test.each(TYPES)("%s, both endians, odd and block-crossing lengths", (
      dataType,
      ArrayType,
      componentBytes,
      perElement,
    ) => {
      for (const n of [0, 1, 3, 17, 1001, 70000]) {
        let input = randomBytes(n * componentBytes * perElement, n + 7);
        if (dataType === "bool") input = input.map((b) => b & 1);
        for (const endian of ["little", "big"]) {
          const c = codec(endian, dataType, [n]);
          const { data } = c.decode(input);
          expect(data).toBeInstanceOf(ArrayType);
          expect(data.length).toBe(n * perElement);
          const expected =
            endian === "big" ? swapGroups(input, componentBytes) : input;
          expect(hex(data)).toBe(hex(expected));
          expect(hex(c.encode({ data }))).toBe(hex(input));
        }
      }
    });
  },
);

describe("bytes: raw types", () => {
  test.each([8, 16, 24, 64, 1024])("r%i round-trips as bytes", (bits) => {
    const input = randomBytes((bits / 8) * 9, bits);
    const c = codec("big", `r${bits}`, [3, 3]);
    const { data } = c.decode(input);
    expect(data).toBeInstanceOf(Uint8Array);
    expect(bytesOf(data)).toEqual(input);
    expect(c.encode({ data })).toEqual(input);
  });
});
