import { beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { register } from "../../../js/index.js";
import { openFixture } from "../support/fixtures.js";
import { hex, packBitsEncodeReference } from "../support/reference.js";

beforeAll(() => register(zarr.registry));

const cStride = (shape) => shape.map((_, i) => shape.slice(i + 1).reduce((a, b) => a * b, 1));

async function writeAndRead(dtype, values, shape, chunkShape, configuration, fillValue = 0) {
  const store = new Map();
  const location = zarr.root(store).resolve("a");
  const arr = await zarr.create(location, {
    shape, chunkShape, dtype, fillValue,
    codecs: [{ name: "packbits", configuration }],
  });
  await zarr.set(arr, null, { data: values, shape, stride: cStride(shape) });
  const reopened = await zarr.open(location, { kind: "array" });
  return { store, arr: reopened, result: await zarr.get(reopened) };
}

describe("zarrita v3 arrays with packbits", () => {
  test("a bool mask: stored 1 bit per value, read back as BoolArray", async () => {
    const mask = Array.from({ length: 100 }, (_, i) => i % 3 === 0 || i % 7 === 0);
    const { store, arr, result } = await writeAndRead(
      "bool", new zarr.BoolArray(mask), [10, 10], [5, 8], {}, false);
    expect([...result.data]).toEqual(mask);
    // Chunk (0, 0) is 5 x 8 = 40 bools in 5 bytes; row 0 is elements 0..7.
    const chunk = store.get("/a/c/0/0");
    expect(chunk.byteLength).toBe(5);
    const row0 = mask.slice(0, 8);
    expect(chunk[0]).toBe(row0.reduce((b, v, i) => b | (v ? 1 << i : 0), 0));
    const { data } = await arr.getChunk([1, 1]);
    expect(data).toBeInstanceOf(zarr.BoolArray);
  });

  test("12-bit camera data in uint16", async () => {
    const image = Uint16Array.from({ length: 64 * 48 }, (_, i) => (i * 2654435761) % 4096);
    const { store, result } = await writeAndRead(
      "uint16", image, [64, 48], [32, 16], { last_bit: 11 });
    expect(result.data).toEqual(image);
    expect(store.get("/a/c/0/0").byteLength).toBe((32 * 16 * 12) / 8);
  });

  test("int16 with a middle bit range, sign-extended on decode", async () => {
    // Keep bits 4..11: values are multiples of 16 in -2048..2032.
    const values = Int16Array.from({ length: 40 }, (_, i) => ((i * 37) % 256 - 128) * 16);
    const { result } = await writeAndRead(
      "int16", values, [40], [16], { first_bit: 4, last_bit: 11, padding_encoding: "first_byte" });
    expect(result.data).toEqual(values);
  });

  test("float32 with first_bit truncates the mantissa, bit-exactly", async () => {
    const values = Float32Array.from({ length: 30 }, (_, i) => Math.sqrt(i + 0.5) * (i % 2 ? -1 : 1));
    const { result } = await writeAndRead("float32", values, [30], [7], { first_bit: 10 });
    const want = new Uint32Array(values.buffer).map((b) => b & ~0x3ff);
    expect(hex(result.data)).toBe(hex(want));
  });

  test("uint8 keeping 4 bits with last_byte padding", async () => {
    const values = Uint8Array.from({ length: 23 }, (_, i) => i % 16);
    const { store, result } = await writeAndRead(
      "uint8", values, [23], [10], { last_bit: 3, padding_encoding: "last_byte" });
    expect(result.data).toEqual(values);
    expect([...store.get("/a/c/0")]).toEqual([0x10, 0x32, 0x54, 0x76, 0x98, 0]);
  });
});

// A store with the byte ranges zarrita's sharding reader asks for.
class RangeStore extends Map {
  async getRange(key, range) {
    const bytes = this.get(key);
    if (!bytes) return undefined;
    if ("suffixLength" in range) return bytes.subarray(bytes.length - range.suffixLength);
    return bytes.subarray(range.offset, range.offset + range.length);
  }
}

describe("packbits as the inner codec of sharding_indexed", () => {
  // zarrita reads sharded arrays but cannot write them, so the shard is
  // assembled here by the spec: inner chunks from the JS reference encoder,
  // then the index of little-endian (offset, length) uint64 pairs, which
  // zarrita decodes with the registered (wasm) bytes codec.
  async function shardedArray(dtype, packbitsConfig, layout, chunks, fillValue) {
    const parts = [];
    const index = new BigUint64Array(2 * chunks.length);
    let offset = 0;
    chunks.forEach((chunk, i) => {
      if (chunk === null) {
        index[2 * i] = index[2 * i + 1] = 0xffffffffffffffffn;
        return;
      }
      const encoded = packBitsEncodeReference(layout, new Uint8Array(chunk.buffer));
      parts.push(encoded);
      index[2 * i] = BigInt(offset);
      index[2 * i + 1] = BigInt(encoded.length);
      offset += encoded.length;
    });
    const indexBytes = new Uint8Array(index.buffer);
    const shard = new Uint8Array(offset + indexBytes.length);
    let at = 0;
    for (const p of parts) { shard.set(p, at); at += p.length; }
    shard.set(indexBytes, at);
    const store = new RangeStore();
    store.set("/s/zarr.json", new TextEncoder().encode(JSON.stringify({
      zarr_format: 3, node_type: "array", shape: [8, 8], data_type: dtype,
      chunk_grid: { name: "regular", configuration: { chunk_shape: [8, 8] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: fillValue,
      codecs: [{
        name: "sharding_indexed",
        configuration: {
          chunk_shape: [4, 4],
          codecs: [{ name: "packbits", configuration: packbitsConfig }],
          index_codecs: [{ name: "bytes", configuration: { endian: "little" } }],
          index_location: "end",
        },
      }],
      attributes: {},
    })));
    store.set("/s/c/0/0", shard);
    return zarr.open(zarr.root(store).resolve("s"), { kind: "array" });
  }

  test("uint16 12-bit inner chunks, one of them missing (fill value)", async () => {
    const chunks = [0, 1, 2, 3].map((c) => Uint16Array.from({ length: 16 }, (_, i) => (c * 1000 + i * 211) % 4096));
    chunks[2] = null;
    const arr = await shardedArray("uint16", { last_bit: 11 },
      { containerBytes: 2, firstBit: 0, bits: 12, signed: false, isBool: false }, chunks, 7);
    const { data } = await zarr.get(arr);
    for (let r = 0; r < 8; r++) {
      for (let c = 0; c < 8; c++) {
        const inner = chunks[2 * Math.floor(r / 4) + Math.floor(c / 4)];
        const want = inner === null ? 7 : inner[(r % 4) * 4 + (c % 4)];
        expect(data[r * 8 + c]).toBe(want);
      }
    }
  });

  test("bool inner chunks", async () => {
    const chunks = [0, 1, 2, 3].map((c) => Uint8Array.from({ length: 16 }, (_, i) => ((i + c) % 3 === 0 ? 1 : 0)));
    const arr = await shardedArray("bool", {}, { containerBytes: 1, firstBit: 0, bits: 1, signed: false, isBool: true }, chunks, false);
    const { data } = await zarr.get(arr);
    const got = [...data].map(Number);
    const want = [];
    for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) want.push(chunks[2 * Math.floor(r / 4) + Math.floor(c / 4)][(r % 4) * 4 + (c % 4)]);
    expect(got).toEqual(want);
  });
});

describe("numcodecs PackBits files", () => {
  test.each(["mask", "mask2d", "aligned"])("zarr-python 2 array %s (v2-packbits.zarr)", async (name) => {
    const { store, expected } = openFixture("v2-packbits.zarr");
    const arr = await zarr.open.v2(zarr.root(store).resolve(name), { kind: "array" });
    const { data, shape } = await zarr.get(arr);
    expect(shape).toEqual(expected[name].shape);
    expect(hex(data)).toBe(expected[name].little_endian_hex);
  });

  test("v3 numcodecs.packbits followed by bytes, as zarr-python 3 writes it", async () => {
    const { store, expected } = openFixture("v3-numcodecs-packbits.zarr");
    const arr = await zarr.open.v3(zarr.root(store).resolve("mask"), { kind: "array" });
    const { data, shape } = await zarr.get(arr);
    expect(shape).toEqual(expected.mask.shape);
    expect(hex(data)).toBe(expected.mask.little_endian_hex);
    const chunk = await arr.getChunk([0, 0]);
    expect(chunk.data).toBeInstanceOf(zarr.BoolArray);
  });

  test("zarrita writes v2-style numcodecs.packbits chunks numcodecs can read", async () => {
    // Round trip through zarrita with the filter, checked against the bytes
    // numcodecs wrote for the same values (mask2d's chunk 0.0).
    const { store: fixture } = openFixture("v2-packbits.zarr");
    const original = await fixture.get("/mask2d/0.0");
    const source = await zarr.open.v2(zarr.root(fixture).resolve("mask2d"), { kind: "array" });
    const { data } = await source.getChunk([0, 0]);
    const store = new Map();
    const arr = await zarr.create(zarr.root(store).resolve("m"), {
      shape: [5, 3], chunkShape: [5, 3], dtype: "bool", fillValue: false,
      codecs: [{ name: "numcodecs.packbits", configuration: {} }, { name: "bytes" }],
    });
    await zarr.set(arr, null, { data, shape: [5, 3], stride: [3, 1] });
    expect(hex(store.get("/m/c/0/0"))).toBe(hex(original));
  });
});
