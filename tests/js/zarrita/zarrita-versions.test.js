// The same stores through zarrita 0.5.4, 0.6.1, 0.6.2 and 0.7.5 installed
// side by side (viv, vizarr and worker pools run 0.5 and 0.6): big-endian
// v2 arrays, numcodecs' v2 PackBits, zarr-python 3's numcodecs.packbits +
// bytes, v3 packbits (bool included) and packbits inside sharding_indexed,
// and bytes configurations zarrita reads though the spec does not.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import { BytesCodec, ready, register, withDataTypes, ZarrCodecError } from "../../../js/index.js";
import { openFixture } from "../support/fixtures.js";
import { inCOrder } from "../support/presented.js";
import { crc32c, hex, packBitsEncodeReference } from "../support/reference.js";
import { ZARRITAS } from "../support/zarritas.js";

const encode = (o) => new TextEncoder().encode(JSON.stringify(o));
const v3 = (over) => ({
  zarr_format: 3, node_type: "array", attributes: {},
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } }, fill_value: 0, ...over,
});
const grid = (chunk_shape) => ({ name: "regular", configuration: { chunk_shape } });
// zarrita's own bytes codecs, before register() replaces them.
const own = new Map(ZARRITAS.map(([version, zarr]) => [version, zarr.registry.get("bytes")]));

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

// A v3 store of a bool mask and 12-bit pixels (packbits), and the same
// pixels sharded (packbits inside; the index with crc32c, as zarrita 0.5
// and 0.6 read it).
function packbitsStore() {
  const store = new Map();
  const mask = Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? 1 : 0));
  store.set("/mask/zarr.json", encode(v3({ shape: [20], data_type: "bool", chunk_grid: grid([20]), fill_value: false, codecs: [{ name: "packbits", configuration: { padding_encoding: "none" } }] })));
  store.set("/mask/c/0", packBitsEncodeReference({ containerBytes: 1, firstBit: 0, bits: 1, isBool: true }, Uint8Array.from(mask)));
  const pixels = Uint16Array.from({ length: 64 }, (_, i) => (i * 2654435761) % 4096);
  const packed = (values) => packBitsEncodeReference({ containerBytes: 2, firstBit: 0, bits: 12 }, new Uint8Array(values.buffer));
  store.set("/pixels/zarr.json", encode(v3({ shape: [8, 8], data_type: "uint16", chunk_grid: grid([8, 8]), codecs: [{ name: "packbits", configuration: { last_bit: 11 } }] })));
  store.set("/pixels/c/0/0", packed(pixels));
  // One shard of four 4x4 inner chunks.
  const parts = [];
  const index = new BigUint64Array(8);
  let offset = 0;
  for (let k = 0; k < 4; k++) {
    const [r, c] = [Math.floor(k / 2) * 4, (k % 2) * 4];
    const inner = Uint16Array.from({ length: 16 }, (_, i) => pixels[(r + Math.floor(i / 4)) * 8 + c + (i % 4)]);
    const bytes = packed(inner);
    parts.push(bytes);
    index[2 * k] = BigInt(offset);
    index[2 * k + 1] = BigInt(bytes.length);
    offset += bytes.length;
  }
  const indexBytes = new Uint8Array(index.buffer);
  const crc = new Uint8Array(new Uint32Array([crc32c(indexBytes)]).buffer);
  store.set("/sharded/zarr.json", encode(v3({
    shape: [8, 8], data_type: "uint16", chunk_grid: grid([8, 8]),
    codecs: [{ name: "sharding_indexed", configuration: {
      chunk_shape: [4, 4], codecs: [{ name: "packbits", configuration: { last_bit: 11 } }],
      index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }], index_location: "end" } }],
  })));
  store.set("/sharded/c/0/0", Buffer.concat([...parts, indexBytes, crc]));
  return { store, mask, pixels };
}

// A Map with the byte ranges sharding asks for.
class RangeStore extends Map {
  async getRange(key, range) {
    const bytes = this.get(key);
    if (!bytes) return undefined;
    return "suffixLength" in range ? bytes.subarray(bytes.length - range.suffixLength) : bytes.subarray(range.offset, range.offset + range.length);
  }
}

describe.each(ZARRITAS)("zarrita %s", (version, zarr) => {
  test("zarr-python 2's big-endian arrays, bit for bit (complex and float16 through withDataTypes)", async () => {
    const { store, expected } = openFixture("v2-big-endian.zarr");
    const wrapped = withDataTypes(store);
    for (const name of Object.keys(expected).filter((n) => n !== "strings")) {
      const arr = await zarr.open.v2(zarr.root(wrapped).resolve(name), { kind: "array" });
      const out = await zarr.get(arr);
      const data = out.data.constructor.name === "BoolArray" ? new Uint8Array(out.data.buffer) : inCOrder(out);
      const floatsWidened = name === "float16" && typeof globalThis.Float16Array !== "function";
      if (floatsWidened) {
        // Presented as float32: the values numpy wrote (1, -0, 65504, inf)
        // widened exactly; their float16 codes are the fixture's bytes.
        expect(expected[name].little_endian_hex).toBe("003c0080ff7b007c");
        expect([...data]).toEqual([1, -0, 65504, Infinity]);
      } else {
        expect(hex(data)).toBe(expected[name].little_endian_hex);
      }
    }
    // Strings still go to zarrita's own codec.
    const strings = await zarr.open.v2(zarr.root(store).resolve("strings"), { kind: "array" });
    const { data } = await zarr.get(strings);
    expect([data.get(0), data.get(1), data.get(2)]).toEqual(["zarr", "wasm", "ünï"]);
  });

  test("numcodecs' v2 PackBits filter, as zarr-python 2 wrote it", async () => {
    const { store, expected } = openFixture("v2-packbits.zarr");
    for (const name of Object.keys(expected)) {
      const arr = await zarr.open.v2(zarr.root(store).resolve(name), { kind: "array" });
      const out = await zarr.get(arr);
      expect(hex(new Uint8Array(out.data.buffer))).toBe(expected[name].little_endian_hex);
    }
  });

  test("zarr-python 3's numcodecs.packbits + bytes", async () => {
    const { store, expected } = openFixture("v3-numcodecs-packbits.zarr");
    const arr = await zarr.open.v3(zarr.root(store).resolve("mask"), { kind: "array" });
    const out = await zarr.get(arr);
    expect(hex(new Uint8Array(out.data.buffer))).toBe(expected.mask.little_endian_hex);
  });

  test("v3 packbits: a bool mask, 12-bit pixels, and the pixels sharded", async () => {
    const { store, mask, pixels } = packbitsStore();
    const ranged = new RangeStore(store);
    const m = await zarr.get(await zarr.open.v3(zarr.root(ranged).resolve("mask"), { kind: "array" }));
    expect(m.data.constructor.name).toBe("BoolArray");
    expect([...new Uint8Array(m.data.buffer)]).toEqual(mask);
    for (const name of ["pixels", "sharded"]) {
      const out = await zarr.get(await zarr.open.v3(zarr.root(ranged).resolve(name), { kind: "array" }));
      expect(out.data).toEqual(pixels);
    }
  });

  test("bytes configurations zarrita reads though the spec does not go to zarrita's codec", async () => {
    const store = new Map();
    const values = Uint16Array.from([1, 0xabc, 0xffff]);
    for (const [name, configuration] of [["no_endian", {}], ["no_configuration", undefined], ["typo", { endianness: "big" }]]) {
      const codecs = [configuration === undefined ? { name: "bytes" } : { name: "bytes", configuration }];
      store.set(`/${name}/zarr.json`, encode(v3({ shape: [3], data_type: "uint16", chunk_grid: grid([3]), codecs })));
      store.set(`/${name}/c/0`, new Uint8Array(values.buffer));
    }
    for (const name of ["no_endian", "no_configuration", "typo"]) {
      const out = await zarr.get(await zarr.open.v3(zarr.root(store).resolve(name), { kind: "array" }));
      expect([...out.data]).toEqual([...values]); // read as little-endian, as zarrita does
    }
    // The class used directly stays strict.
    expect(() => BytesCodec.fromConfig({}, { dataType: "uint16", shape: [3] })).toThrow(ZarrCodecError);
  });

  test("a truncated chunk is an error (zarrita's own bytes codec returns fewer values)", async () => {
    const store = new Map();
    store.set("/a/zarr.json", encode(v3({ shape: [4], data_type: "int16", chunk_grid: grid([4]), codecs: [{ name: "bytes", configuration: { endian: "big" } }] })));
    store.set("/a/c/0", new Uint8Array([0, 1, 0, 2, 0])); // 5 of 8 bytes
    const arr = await zarr.open.v3(zarr.root(store).resolve("a"), { kind: "array" });
    const error = await zarr.get(arr).then(() => undefined, (e) => e.cause ?? e);
    expect(error).toBeInstanceOf(ZarrCodecError);
    expect(error.message).toBe("bytes: int16 shape [4] needs 8 encoded bytes, got 5");
    // What zarrita alone makes of the same chunk: no error.
    const Own = await own.get(version)();
    const { data } = Own.fromConfig({ endian: "big" }, { dataType: "int16", data_type: "int16", shape: [4] }).decode(new Uint8Array([0, 1, 0, 2, 0]));
    expect(data.length).toBeLessThan(4);
  });

  test("the meta each zarrita hands fromConfig reads either way", async () => {
    const Codec = await zarr.registry.get("packbits")();
    const legacy = Codec.fromConfig({ last_bit: 11 }, { data_type: "uint16", shape: [2], codecs: [] });
    const modern = Codec.fromConfig({ last_bit: 11 }, { dataType: "uint16", shape: [2] });
    for (const c of [legacy, modern]) expect([...c.decode(new Uint8Array([0xbc, 0x3a, 0x12])).data]).toEqual([0xabc, 0x123]);
  });
});

test("peerDependencies names exactly the zarritas tested here", () => {
  const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
  expect(pkg.peerDependencies.zarrita).toBe("~0.5.4 || ~0.6.1 || ~0.7.5");
  expect(ZARRITAS.map(([v]) => v)).toEqual(["0.5.4", "0.6.1", "0.6.2", "0.7.5"]);
});
