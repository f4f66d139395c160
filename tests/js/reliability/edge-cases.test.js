// The edge cases a review of 0.2.0 found (issue 15) and the data-type
// layer's rough edges (issue 16, item 6), each reproduced: metadata that
// names the internal codec, prototype names as fills, huge shapes and
// names, deep nesting, stale metadata, caches keyed wrongly, bad sizes,
// messages, datetime units, default chunk keys, "__proto__" entries,
// disposed codecs, -0 fills, NaT through consolidated metadata, sharded
// arrays whose fill zarrita cannot express, hex fills of the wrong width.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import * as zarr from "zarrita";
import {
  BytesCodec, diagnostics, PackBitsCodec, ready, register, widenToFloat32, withDataTypes, ZarrCodecError,
} from "../../../js/index.js";
import { instantiate, wasm } from "../../../js/wasm/load.js";
import { crc32c } from "../support/reference.js";

const encode = (o) => new TextEncoder().encode(typeof o === "string" ? o : JSON.stringify(o));
const v3 = (over) => ({
  zarr_format: 3, node_type: "array", shape: [4], data_type: "int4",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0, codecs: [{ name: "packbits" }], attributes: {}, ...over,
});
const LE = { name: "bytes", configuration: { endian: "little" } };

// The package's error, unwrapped from zarrita's pipeline error if need be.
async function errorOf(promise) {
  try {
    await promise;
  } catch (e) {
    return !(e instanceof ZarrCodecError) && e?.cause instanceof ZarrCodecError ? e.cause : e;
  }
  throw new Error("expected a failure");
}

async function open(store, path) {
  return zarr.open(zarr.root(store).resolve(path), { kind: "array" });
}

beforeAll(async () => {
  await ready();
  register(zarr.registry);
});

describe("metadata cannot use the codec withDataTypes presents with", () => {
  test.each([
    ["int16 bytes read as int8", { data_type: "int8", codecs: [{ name: "zarr-codecs-wasm.stored", configuration: { codec: { name: "bytes", configuration: { endian: "little" } }, data_type: "int16" } }] }],
    ["float32 bytes read as uint8", { data_type: "uint8", codecs: [{ name: "zarr-codecs-wasm.stored", configuration: { codec: { name: "bytes" }, data_type: "float32" } }] }],
    ["a codec named constructor", { data_type: "uint8", codecs: [{ name: "zarr-codecs-wasm.stored", configuration: { codec: { name: "constructor" } } }] }],
    ["a forged ticket", { data_type: "uint8", codecs: [{ name: "zarr-codecs-wasm.stored", configuration: { ticket: "zcw-00000000000000000000000000000000" } }] }],
  ])("%s: refused", async (_name, over) => {
    const store = withDataTypes(new Map([["/a/zarr.json", encode(v3(over))], ["/a/c/0", new Uint8Array([44, 1, 212, 254])]]));
    const arr = await open(store, "a");
    const error = await errorOf(zarr.get(arr));
    expect(error).toBeInstanceOf(ZarrCodecError);
    expect(error.code).toBe("INVALID_METADATA");
    expect(error.message).toMatch(/^zarr-codecs-wasm.stored: this codec is withDataTypes' own and cannot be named in stored metadata/);
  });
});

describe("fills", () => {
  test.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"])("%s is no float or complex fill", async (fill) => {
    for (const meta of [
      v3({ data_type: "float8_e4m3", codecs: [LE], fill_value: fill }),
      v3({ data_type: "complex64", codecs: [LE], fill_value: [fill, 0] }),
      v3({ data_type: "float32", codecs: [LE], fill_value: fill, shape: [4], data_type_note: undefined }),
    ].slice(0, 2)) {
      const error = await errorOf(open(withDataTypes(new Map([["/a/zarr.json", encode(meta)]])), "a"));
      expect(error.code).toBe("INVALID_METADATA");
      expect(error.message).toContain(`fill_value ${JSON.stringify(fill)}`);
    }
  });

  test("float fills of 2^53 and above (BigInt when parsed losslessly) are values", async () => {
    const cases = [
      ["bfloat16", "1152921504606847000", 2 ** 60],
      ["float8_e8m0fnu", "1152921504606847000", 2 ** 60],
      ["complex_bfloat16", "[1152921504606847000, 9007199254740993]", 2 ** 60],
    ];
    for (const [type, fill, want] of cases) {
      // An int64 fill elsewhere in the document makes withDataTypes parse it losslessly.
      const text = JSON.stringify(v3({ data_type: type, codecs: [LE], shape: [2], chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } } })).replace('"fill_value":0', `"fill_value":${fill}`);
      const arr = await open(withDataTypes(new Map([["/a/zarr.json", encode(text)]])), "a");
      const { data } = await zarr.get(arr);
      expect(data[0]).toBe(want);
    }
  });

  test("a float8 fill of -0 reads -0 in a missing chunk", async () => {
    // The metadata's text says -0.0 (JSON.stringify would write 0).
    const text = JSON.stringify(v3({ data_type: "float8_e4m3", codecs: [LE] })).replace('"fill_value":0', '"fill_value":-0.0');
    const arr = await open(withDataTypes(new Map([["/a/zarr.json", encode(text)]])), "a");
    const { data } = await zarr.get(arr);
    expect(Object.is(data[0], -0)).toBe(true);
  });

  test("hex fills of the wrong width are refused (bfloat16 0x7fc)", async () => {
    const error = await errorOf(open(withDataTypes(new Map([["/a/zarr.json", encode(v3({ data_type: "bfloat16", codecs: [LE], fill_value: "0x7fc" }))]])), "a"));
    expect(error.message).toBe('withDataTypes: array /a: fill_value "0x7fc" must have exactly 4 hex digits for 16-bit codes, got 3');
  });

  test("NaT through zarrita's consolidated metadata, withDataTypes outermost (-2^63 survives as a double)", async () => {
    const meta = v3({ data_type: { name: "numpy.datetime64", configuration: { unit: "ns", scale_factor: 1 } }, codecs: [LE], fill_value: "NaT" });
    const doc = { zarr_format: 3, node_type: "group", attributes: {}, consolidated_metadata: { kind: "inline", must_understand: false, metadata: { a: { ...meta, fill_value: -9223372036854775808 } } } };
    const raw = new Map([["/zarr.json", encode(JSON.stringify(doc).replace('"fill_value":-9223372036854776000', '"fill_value":-9223372036854775808'))]]);
    const store = withDataTypes(await zarr.withConsolidatedMetadata(raw, { format: "v3" }));
    const { data } = await zarr.get(await open(store, "a"));
    expect(data[0]).toBe(-(2n ** 63n));
  });
});

describe("shapes, names and nesting", () => {
  test("encode of a shape past 2^32 bytes: LENGTH_MISMATCH, nothing allocated first", () => {
    const codec = BytesCodec.fromConfig({}, { dataType: "uint8", shape: [2 ** 33] });
    let error;
    try {
      codec.encode({ data: new Uint8Array(8) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ZarrCodecError);
    expect(error.code).toBe("LENGTH_MISMATCH");
    expect(error.message).toBe("bytes: uint8 shape [8589934592] needs 8589934592 bytes of input, got 8");
  });

  test("a 64 MiB data type name is refused without growing wasm memory", () => {
    const memory = diagnostics().wasmMemoryBytes();
    const name = "x".repeat(64 * 1024 * 1024);
    expect(() => BytesCodec.fromConfig({}, { dataType: name, shape: [1] })).toThrow(/^bytes: unknown data type "x{64}" \(expected a Zarr v3 data type/);
    expect(() => BytesCodec.fromConfig({ endian: name }, { dataType: "int16", shape: [1] })).toThrow(/^bytes: endian must be "big" or "little", got "x{32}/);
    expect(diagnostics().wasmMemoryBytes()).toBe(memory);
  });

  test("messages cut names at a character, never mid-way (no U+FFFD)", () => {
    // 64 bytes of a name quoted: 32 two-byte characters, none cut in half.
    expect(() => BytesCodec.fromConfig({}, { dataType: "ü".repeat(100), shape: [1] })).toThrow(/^bytes: unknown data type "ü{32}" \(expected/);
    expect(() => new PackBitsCodec({ padding_encoding: "é".repeat(40) }, { dataType: "bool", shape: [1] })).toThrow(
      /^packbits: padding_encoding must be "none", "first_byte" or "last_byte", got "é{16}"$/,
    );
  });

  test("nesting 100,000 deep: attributes open, shapes, fills and configurations are refused", async () => {
    const deep = (inner) => "[".repeat(100000) + inner + "]".repeat(100000);
    const attrs = JSON.stringify(v3({})).replace('"attributes":{}', `"attributes":{"deep":${deep("1")}}`);
    const store = withDataTypes(new Map([
      ["/attrs/zarr.json", encode(attrs)],
      ["/attrs/c/0", new Uint8Array([0x8f, 0x21])],
      ["/shape/zarr.json", encode(JSON.stringify(v3({})).replace('"shape":[4]', `"shape":${deep("4")}`))],
      ["/fill/zarr.json", encode(JSON.stringify(v3({})).replace('"fill_value":0', `"fill_value":${deep("0")}`))],
      ["/config/zarr.json", encode(JSON.stringify(v3({})).replace('"codecs":[{"name":"packbits"}]', `"codecs":[{"name":"packbits","configuration":{"first_bit":${deep("0")}}}]`))],
    ]));
    const arr = await open(store, "attrs");
    expect(Array.from((await zarr.get(arr)).data)).toEqual([-1, -8, 1, 2]);
    expect((await errorOf(open(store, "shape"))).message).toBe("withDataTypes: array /shape: shape must be an array of non-negative integers, got an Array of length 1 [an Array of length 1]");
    expect((await errorOf(open(store, "fill"))).message).toBe("withDataTypes: array /fill: fill_value an Array of length 1 is outside int4's range -8..7");
    expect((await errorOf(open(store, "config"))).message).toBe("withDataTypes: array /config: packbits: first_bit must be an integer or null, got an Array of length 1");
  });

  test("v2 filters that are no array", async () => {
    const zarray = { zarr_format: 2, shape: [2], chunks: [2], dtype: "<c8", compressor: null, filters: "x", fill_value: 0, order: "C" };
    const error = await errorOf(open(withDataTypes(new Map([["/a/.zarray", encode(zarray)]])), "a"));
    expect(error.message).toBe('withDataTypes: array /a: filters must be an array or null, got "x"');
  });

  test.each(["<M8[7parsec]", "<M8[fortnight]", ">m8[0s]"])("v2 datetime %s is refused", async (dtype) => {
    const zarray = { zarr_format: 2, shape: [2], chunks: [2], dtype, compressor: null, filters: null, fill_value: 0, order: "C" };
    const error = await errorOf(open(withDataTypes(new Map([["/a/.zarray", encode(zarray)]])), "a"));
    expect(error.code).toBe("INVALID_METADATA");
    expect(error.message).toMatch(/^withDataTypes: array \/a: dtype (<M8\[7parsec\]|<M8\[fortnight\]|>m8\[0s\]) has (the unit "\w+", which is not one of numpy's|a scale outside 1..2147483647)/);
  });
});

describe("keys and documents", () => {
  test("a missing or null chunk_key_encoding is the default one", async () => {
    for (const cke of [undefined, null]) {
      const meta = v3({ chunk_key_encoding: cke });
      const store = withDataTypes(new Map([["/a/zarr.json", encode(meta)], ["/a/c/0", new Uint8Array([0x8f, 0x21])]]));
      expect(Array.from((await zarr.get(await open(store, "a"))).data)).toEqual([-1, -8, 1, 2]);
    }
  });

  test('a consolidated entry named "__proto__" stays an entry', async () => {
    const doc = `{"zarr_format":3,"node_type":"group","attributes":{},"consolidated_metadata":{"kind":"inline","must_understand":false,"metadata":{"__proto__":${JSON.stringify(v3({}))}}}}`;
    const raw = new Map([["/zarr.json", encode(doc)], ["/__proto__/c/0", new Uint8Array([0x8f, 0x21])]]);
    const store = await zarr.withConsolidatedMetadata(withDataTypes(raw), { format: "v3" });
    expect(Array.from((await zarr.get(await open(store, "__proto__"))).data)).toEqual([-1, -8, 1, 2]);
  });

  test("metadata changed between opens is read again (nothing kept between requests)", async () => {
    const raw = new Map([
      ["/a/.zattrs", encode({ _ARRAY_DIMENSIONS: ["x"] })],
      ["/a/.zarray", encode({ zarr_format: 2, shape: [2], chunks: [2], dtype: "<c8", compressor: null, filters: null, fill_value: null, order: "C" })],
    ]);
    const store = withDataTypes(raw);
    expect((await open(store, "a")).shape).toEqual([2, 2]);
    raw.set("/a/.zarray", encode({ zarr_format: 2, shape: [5], chunks: [2], dtype: "<c8", compressor: null, filters: null, fill_value: null, order: "C" }));
    expect((await open(store, "a")).shape).toEqual([5, 2]);
  });

  test("packbits on raw bytes is refused at open, as the codec refuses it", async () => {
    const meta = v3({ data_type: "r16", codecs: [{ name: "packbits", configuration: { first_bit: 4, last_bit: 5 } }], fill_value: [0, 0] });
    const error = await errorOf(open(withDataTypes(new Map([["/a/zarr.json", encode(meta)]])), "a"));
    expect(error.code).toBe("UNSUPPORTED_DATA_TYPE");
    expect(error.message).toBe("withDataTypes: array /a: packbits: data type r16 is raw bytes with no bit layout; use the bytes codec");
  });

  test("a sharded complex array whose fill parts differ: a missing inner chunk reads as the fill, the rest of its shard as stored", async () => {
    // complex64 [4] in shards of [2], inner chunks of [1]: shard 0 whole,
    // shard 1 has only its first inner chunk.
    const c64 = (re, im) => new Uint8Array(new Float32Array([re, im]).buffer);
    const shard = (chunks) => {
      const body = [];
      const index = new DataView(new ArrayBuffer(16 * chunks.length));
      let at = 0;
      chunks.forEach((c, i) => {
        if (c) {
          index.setBigUint64(16 * i, BigInt(at), true);
          index.setBigUint64(16 * i + 8, BigInt(c.length), true);
          body.push(c);
          at += c.length;
        } else {
          index.setBigUint64(16 * i, 2n ** 64n - 1n, true);
          index.setBigUint64(16 * i + 8, 2n ** 64n - 1n, true);
        }
      });
      const idx = new Uint8Array(index.buffer);
      const crc = new Uint8Array(4);
      new DataView(crc.buffer).setUint32(0, crc32c(idx), true);
      return Buffer.concat([...body, idx, crc]);
    };
    const meta = v3({
      data_type: "complex64", shape: [4], chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } }, fill_value: [1, 2],
      codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [1], codecs: [LE], index_codecs: [LE, { name: "crc32c" }], index_location: "end" } }],
    });
    const files = new Map([["/a/zarr.json", encode(meta)], ["/a/c/0", shard([c64(3, 4), c64(5, 6)])], ["/a/c/1", shard([c64(7, 8), null])]]);
    const store = withDataTypes({
      get: async (k) => files.get(k),
      getRange: async (k, r) => {
        const b = files.get(k);
        if (!b) return undefined;
        return r.suffixLength !== undefined ? b.subarray(b.length - r.suffixLength) : b.subarray(r.offset, r.offset + r.length);
      },
    });
    const arr = await open(store, "a");
    expect(Array.from((await zarr.get(arr, [zarr.slice(0, 2), null])).data)).toEqual([3, 4, 5, 6]);
    // zarrita 0.7 (this file's): the array extension fills the inner chunk
    // (tests/js/zarrita/missing-chunks.test.js: 0.5 and 0.6 refuse it).
    expect(Array.from((await zarr.get(arr, [zarr.slice(2, 4), null])).data)).toEqual([7, 8, 1, 2]);
  });
});

describe("codecs and helpers", () => {
  test("computeEncodedSize takes byte lengths only", () => {
    const codec = BytesCodec.fromConfig({}, { dataType: "uint8", shape: [4] });
    for (const bad of [8.5, -1, NaN, 2 ** 53, "8"]) {
      expect(() => codec.computeEncodedSize(bad)).toThrow(/^bytes: computeEncodedSize needs a byte length \(a non-negative integer\), got /);
    }
    expect(codec.computeEncodedSize(8)).toBe(8);
  });

  test("widenToFloat32 keeps one codec per type, whatever form the type is given in", () => {
    const d = diagnostics();
    widenToFloat32({ name: "complex_float16" }, new Uint16Array([0x3c00, 0xc000]));
    const live = d.liveInstances();
    for (let i = 0; i < 20000; i++) widenToFloat32({ name: "float8_e4m3" }, new Uint8Array([0x38]));
    expect(d.liveInstances()).toBeLessThanOrEqual(live + 1);
    expect(Array.from(widenToFloat32({ name: "complex_float16" }, new Uint16Array([0x3c00, 0xc000])))).toEqual([1, -2]);
  });

  test("diagnostics().setImplementation refuses a name outright, and a module without SIMD refuses simd", async () => {
    const d = diagnostics();
    expect(() => d.setImplementation("fast")).toThrow(/^diagnostics: implementation must be "reference", "portable" or "simd", got "fast"$/);
    for (const name of ["reference", "portable", "simd"]) {
      d.setImplementation(name);
      expect(d.implementation()).toBe(name);
    }
    // The benchmark's no-SIMD build (scripts/test.sh builds it before Jest):
    // the binding answers false, which diagnostics turns into an error.
    const glue = new URL("../../../dist/zarr-codecs-wasm-nosimd.mjs", import.meta.url);
    const binary = new URL("../../../dist/zarr-codecs-wasm-nosimd.wasm", import.meta.url);
    const factory = (await import(glue.href)).default;
    const plain = await instantiate(factory, await WebAssembly.compile(readFileSync(binary)));
    expect(plain.setImplementation("simd")).toBe(false);
    expect(plain.implementation()).not.toBe("simd");
    expect(plain.setImplementation("reference")).toBe(true);
  });

  test("the embind instance is out of reach; dispose twice is harmless; use after dispose is DISPOSED", () => {
    const codec = BytesCodec.fromConfig({ endian: "big" }, { dataType: "int16", shape: [1] });
    expect("native" in codec).toBe(false);
    codec.dispose();
    codec.dispose();
    expect(() => codec.decode(new Uint8Array(2))).toThrow(expect.objectContaining({ code: "DISPOSED" }));
  });

  test("after a failed call, the call protocol holds none of the caller's arrays", () => {
    const codec = BytesCodec.fromConfig({ endian: "big" }, { dataType: "int16", shape: [4] });
    expect(() => codec.decode(new Uint8Array(3))).toThrow(ZarrCodecError);
    const held = (slots) => slots.filter((slot) => slot !== undefined);
    expect(held(wasm().zcwIo.inputs)).toEqual([]);
    expect(held(wasm().zcwIo.outputs)).toEqual([]);
  });
});
