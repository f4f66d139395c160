// zarr.set into arrays presented by withDataTypes writes the stored type
// back: exactly for integers, bit patterns, complex parts, datetimes and
// raw bytes; widened floats narrowed by each format's rules (checked
// against a nearest-value reference, not the kernels' arithmetic); values
// the stored type cannot hold refused with the store left unchanged.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { ready, register, withDataTypes } from "../../../js/index.js";
import { fixtureInMemory, fixturePath, snapshotOf } from "../support/fixtures.js";
import { cOrder } from "../support/read-compare.js";
import { inCOrder } from "../support/presented.js";
import { narrowReference, packBitsEncodeReference } from "../support/reference.js";
import { ZARRITAS } from "../support/zarritas.js";

const FIXTURE = fixturePath("v3-data-types.zarr");

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});



// zarrita 0.7 wraps a codec's error as the cause of its own; 0.5 and 0.6 do not.
async function refusal(promise) {
  try {
    await promise;
  } catch (error) {
    return error.cause ?? error;
  }
  throw new Error("expected the write to be refused");
}

describe.each(ZARRITAS)("zarrita %s", (_version, zarr) => {
  async function open(store, name, options) {
    return zarr.open(zarr.root(withDataTypes(store, options)).resolve(name), { kind: "array" });
  }
  const write = (arr, selection, data, shape) => zarr.set(arr, selection, { data, shape, stride: cOrder(shape) });

  test("int4 (packbits): a chunk written as the spec packs it; 9 refused, the store unchanged", async () => {
    const store = fixtureInMemory(FIXTURE, ["int4_packbits"]);
    const arr = await open(store, "int4_packbits");
    const values = Int8Array.from({ length: 16 }, (_, i) => i - 8);
    await write(arr, [zarr.slice(0, 4), zarr.slice(0, 4)], values, [4, 4]);
    const want = packBitsEncodeReference({ containerBytes: 1, firstBit: 0, bits: 4 }, new Uint8Array(values.buffer));
    expect([...store.get("/int4_packbits/c/0/0")]).toEqual([...want]);
    expect([...inCOrder(await zarr.get(arr, [zarr.slice(0, 4), zarr.slice(0, 4)]))]).toEqual([...values]);
    const before = snapshotOf(store);
    const error = await refusal(write(arr, [zarr.slice(0, 1), zarr.slice(0, 2)], Int8Array.from([1, 9]), [1, 2]));
    expect(error.code).toBe("VALUE_OUT_OF_RANGE");
    expect(error.message).toBe("packbits: int4 shape [4, 4]: value 9 at index 1 is outside int4's range -8..7");
    expect(snapshotOf(store)).toEqual(before);
  });

  test("int4 (bytes) and uint2 (packbits): sign- and zero-extended bytes, exactly", async () => {
    const store = fixtureInMemory(FIXTURE, ["int4_bytes", "uint2_packbits"]);
    const int4 = await open(store, "int4_bytes");
    await write(int4, [zarr.slice(0, 4)], Int8Array.from([-8, -1, 0, 7]), [4]);
    expect([...store.get("/int4_bytes/c/0")]).toEqual([0xf8, 0xff, 0x00, 0x07]);
    const uint2 = await open(store, "uint2_packbits");
    await write(uint2, [zarr.slice(0, 5)], Uint8Array.from([3, 2, 1, 0, 3]), [5]);
    // first_byte padding: 5 values of 2 bits = 10 bits in 2 bytes, 6 padding.
    expect([...store.get("/uint2_packbits/c/0")]).toEqual([6, 0b00011011, 0b11]);
  });

  test("float8_e4m3 widened: each value narrowed by the format's rules", async () => {
    const store = fixtureInMemory(FIXTURE, ["float8_e4m3"]);
    const arr = await open(store, "float8_e4m3");
    // Exact values, ties to even (248 is halfway to 256: infinity), rounding,
    // NaN, -0, overflow, the smallest subnormal and half of it.
    const xs = [1, -2, 240, 248, 0.1, NaN, -0, 1e9, -1e9, 2 ** -9, 2 ** -10, 3 * 2 ** -11, 17, -Infinity, 0.3, 100];
    const row = Float32Array.from({ length: 16 }, (_, i) => xs[i]);
    await write(arr, [zarr.slice(0, 1), null], row, [1, 16]);
    const stored = store.get("/float8_e4m3/c/0/0").subarray(0, 16);
    expect([...stored]).toEqual(xs.map((x) => narrowReference("float8_e4m3", x)));
    expect(stored[3]).toBe(0x78); // 248 -> +infinity
    expect(stored[5]).toBe(0x7c); // NaN -> the spec's NaN code
  });

  test("fnuz, e8m0, bfloat16 and float16 follow their own rules", async () => {
    const store = fixtureInMemory(FIXTURE, ["float8_e4m3fnuz", "float8_e8m0fnu", "bfloat16_be", "float16_le"]);
    const fnuz = await open(store, "float8_e4m3fnuz");
    const fxs = [-0, 1e9, Infinity, NaN, 0.5, -240, 241, 250];
    await write(fnuz, [zarr.slice(0, 1), zarr.slice(0, 8)], Float32Array.from(fxs), [1, 8]);
    expect([...store.get("/float8_e4m3fnuz/c/0/0").subarray(0, 8)]).toEqual(fxs.map((x) => narrowReference("float8_e4m3fnuz", x)));
    expect(store.get("/float8_e4m3fnuz/c/0/0")[0]).toBe(0x00); // -0 -> +0: there is no -0
    const e8m0 = await open(store, "float8_e8m0fnu");
    const exs = [3, 6, 1e-40, 2 ** 127, 3e38, NaN, 0.75, Infinity];
    await write(e8m0, [zarr.slice(0, 1), zarr.slice(0, 8)], Float32Array.from(exs), [1, 8]);
    expect([...store.get("/float8_e8m0fnu/c/0/0").subarray(0, 8)]).toEqual(exs.map((x) => narrowReference("float8_e8m0fnu", x)));
    const bf = await open(store, "bfloat16_be");
    await write(bf, [zarr.slice(0, 1), null], Float32Array.from([1.00390625, 1.01171875, -3.14159]), [1, 3]);
    const b = store.get("/bfloat16_be/c/0/0");
    const codes = [0, 1, 2].map((i) => (b[2 * i] << 8) | b[2 * i + 1]); // big-endian
    expect(codes).toEqual([1.00390625, 1.01171875, -3.14159].map((x) => narrowReference("bfloat16", x)));
    if (typeof globalThis.Float16Array !== "function") {
      const f16 = await open(store, "float16_le");
      await write(f16, [zarr.slice(0, 4)], Float32Array.from([65520, 65519, 5.96e-8, -0]), [4]);
      const h = new Uint16Array(store.get("/float16_le/c/0").slice().buffer);
      expect([...h]).toEqual([65520, 65519, 5.96e-8, -0].map((x) => narrowReference("float16", x)));
      expect(h[0]).toBe(0x7c00); // overflow -> infinity
    }
  });

  test("a value a format cannot hold is refused, naming floats: \"bits\"; the store unchanged", async () => {
    const store = fixtureInMemory(FIXTURE, ["float4_transpose", "float8_e8m0fnu"]);
    const float4 = await open(store, "float4_transpose");
    const before = snapshotOf(store);
    let error = await refusal(write(float4, [zarr.slice(0, 1), zarr.slice(0, 2)], Float32Array.from([1, NaN]), [1, 2]));
    expect(error.code).toBe("VALUE_OUT_OF_RANGE");
    expect(error.message).toMatch(/^packbits: float4_e2m1fn shape \[2, 4\]: value NaN at index \d has no float4_e2m1fn code \(the format has no NaN or infinity\); to store such values, write the format's bit patterns instead \(withDataTypes option floats: "bits"\)$/);
    const e8m0 = await open(store, "float8_e8m0fnu");
    error = await refusal(write(e8m0, [zarr.slice(0, 1), zarr.slice(0, 1)], Float32Array.from([0]), [1, 1]));
    expect(error.message).toMatch(/value 0 at index 0 has no float8_e8m0fnu code \(the format holds only powers of two/);
    expect(snapshotOf(store)).toEqual(before);
    // With floats: "bits", bit patterns go in as they are.
    const bits = await open(store, "float4_transpose", { floats: "bits" });
    await write(bits, [zarr.slice(0, 2), zarr.slice(0, 4)], Uint8Array.from([15, 14, 13, 12, 11, 10, 9, 8]), [2, 4]);
    expect([...inCOrder(await zarr.get(bits, [zarr.slice(0, 2), null]))]).toEqual([15, 14, 13, 12, 11, 10, 9, 8]);
    const refused = await refusal(write(bits, [zarr.slice(0, 1), zarr.slice(0, 1)], Uint8Array.from([16]), [1, 1]));
    expect(refused.message).toMatch(/value 16 at index \d is not a float4_e2m1fn bit pattern \(0\.\.15\)/);
  });

  test("complex parts, datetimes and raw bytes, exactly; a partial write keeps the rest", async () => {
    const store = fixtureInMemory(FIXTURE, ["complex_float8_e4m3", "datetime64", "r16", "complex64_be"]);
    const complex = await open(store, "complex_float8_e4m3", { floats: "bits" });
    await write(complex, [zarr.slice(0, 2), null, null], Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]), [2, 2, 2]);
    expect([...store.get("/complex_float8_e4m3/c/0/0")]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const time = await open(store, "datetime64");
    const t = BigInt64Array.from([-(2n ** 63n), 1700000000000000001n, 2n ** 63n - 1n]);
    await write(time, [zarr.slice(0, 3)], t, [3]);
    const stored = store.get("/datetime64/c/0");
    expect(Buffer.from(stored).toString("hex")).toBe("8000000000000000" + "17979cfe362a0001" /* 1700000000000000001 */ + "7fffffffffffffff");
    const raw = await open(store, "r16");
    await write(raw, [zarr.slice(0, 1), null], Uint8Array.from([0xab, 0xcd]), [1, 2]);
    expect([...store.get("/r16/c/0")]).toEqual([0xab, 0xcd, 17, 201]); // element 1 kept
    // complex64 big-endian: one part changed, the others kept bit for bit
    // (NaN payloads included).
    const c64 = await open(store, "complex64_be");
    const old = Buffer.from(store.get("/complex64_be/c/0")).toString("hex");
    await write(c64, [zarr.slice(0, 1), zarr.slice(1, 2)], Float32Array.from([2.5]), [1, 1]);
    const now = Buffer.from(store.get("/complex64_be/c/0")).toString("hex");
    expect(now.slice(0, 8) + now.slice(16)).toBe(old.slice(0, 8) + old.slice(16));
    expect(now.slice(8, 16)).toBe("40200000");
  });
});
