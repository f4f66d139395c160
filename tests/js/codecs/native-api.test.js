// The low-level API: the embind classes nativeCodecs() hands out, TypedArrays
// in and out, errors as status values, freed with delete(). Expected values
// are the hand-worked examples of docs/codecs.md.
import { beforeAll, expect, test } from "@jest/globals";
import { nativeCodecs, ready, widenToFloat32 } from "../../../js/index.js";

beforeAll(() => ready());

test("packbits uint16 12-bit: BC 3A 12 decodes to 0xABC, 0x123 and encodes back", () => {
  const { PackBitsCodec } = nativeCodecs();
  const codec = new PackBitsCodec("uint16", { last_bit: 11 }, [2], "native");
  try {
    expect(codec.status()).toEqual({ code: "OK", message: "" });
    expect([codec.decodedBytes(), codec.encodedBytes()]).toEqual([4, 3]);
    const values = new Uint16Array(2);
    expect(codec.decode(new Uint8Array([0xbc, 0x3a, 0x12]), values).code).toBe("OK");
    expect([...values]).toEqual([0xabc, 0x123]);
    const packed = new Uint8Array(3);
    expect(codec.encode(values, packed).code).toBe("OK");
    expect([...packed]).toEqual([0xbc, 0x3a, 0x12]);
    // a wrong size is a status with the message the JS classes throw
    expect(codec.decode(new Uint8Array(4), values)).toEqual({
      code: "LENGTH_MISMATCH",
      message: "packbits: uint16 bits 0..11 shape [2] needs 3 bytes, got 4",
    });
  } finally {
    codec.delete();
  }
});

test("a bad configuration is the instance's status, not a throw", () => {
  const { PackBitsCodec, BytesCodec } = nativeCodecs();
  const packbits = new PackBitsCodec("uint16", { last_bit: 16 }, [2], "native");
  expect(packbits.status().code).toBe("INVALID_CONFIGURATION");
  expect(packbits.status().message).toContain("last_bit must be in 0..15");
  packbits.delete();
  const bytes = new BytesCodec("uint12", { endian: "big" }, [2], "native");
  expect(bytes.status().code).toBe("UNKNOWN_DATA_TYPE");
  bytes.delete();
});

test("bytes float8_e4m3 with the float32 presentation widens: 0x38 is 1, 0x77 is 240, 0xF8 is -inf", () => {
  const { BytesCodec } = nativeCodecs();
  const codec = new BytesCodec("float8_e4m3", {}, [3], "float32");
  const out = new Float32Array(3);
  expect(codec.decode(new Uint8Array([0x38, 0x77, 0xf8]), out).code).toBe("OK");
  codec.delete();
  // e4m3 (IEEE-style, bias 7): 0x38 = 2^0, 0x77 = 2^7 * 1.875 = 240 (the largest finite), 0xF8 = -inf
  expect([...out]).toEqual([1, 240, -Infinity]);
});

test("widenToFloat32 keeps one codec per type: alternating lengths and types stay right", () => {
  for (let round = 0; round < 3; round++) {
    expect([...widenToFloat32("float8_e4m3", new Uint8Array([0x38, 0x40]))]).toEqual([1, 2]);
    expect([...widenToFloat32("float8_e4m3", new Uint8Array([0x38]))]).toEqual([1]);
    expect([...widenToFloat32("bfloat16", new Uint16Array([0x3f80, 0xc000, 0x4040]))]).toEqual([1, -2, 3]);
    expect([...widenToFloat32("complex_float8_e4m3", new Uint8Array([0x38, 0xb8]))]).toEqual([1, -1]);
  }
});
