// cast_value and scale_offset (and the scalars they parse, float16 and
// float8 ones too) are pure JavaScript: registered from the slim entry,
// whose wasm loads only at ready({ wasm }), their loaders resolve and
// zarrita reads through them with no wasm at all, where the array's other
// codecs need none (here zarrita's own bytes codec, put back after
// register). Nothing in this file calls ready() with a module, so the
// wasm is never loaded: the last test shows it.
import { describe, expect, test } from "@jest/globals";
import { BytesCodec, ready, register } from "../../../js/slim.js";
import { memoryStore } from "../support/memory-store.js";
import { ZARRITAS } from "../support/zarritas.js";

// A 1-d array of float32 stored as uint16 through scale_offset and
// cast_value, one chunk of 4 and one missing.
function kelvinStore() {
  const meta = {
    zarr_format: 3, node_type: "array", shape: [8], data_type: "float32",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 250,
    codecs: [
      { name: "scale_offset", configuration: { offset: 250, scale: 100 } },
      { name: "cast_value", configuration: { data_type: "uint16" } },
      { name: "bytes", configuration: { endian: "little" } },
    ],
    attributes: {},
  };
  return memoryStore([["/a/zarr.json", meta], ["/a/c/0", new Uint8Array(Uint16Array.of(4392, 0, 1, 65535).buffer)]]);
}

// The pages' decode in float32: cast to float32, then k / 100 + 250, each
// step rounded to float32; the missing chunk is the fill.
// zarrita's own bytes loaders, before register replaces them.
const zarritasBytes = new Map(ZARRITAS.map(([version, zarr]) => [version, zarr.registry.get("bytes")]));

const KELVIN = [...[4392, 0, 1, 65535].map((k) => Math.fround(Math.fround(k / Math.fround(100)) + 250)), 250, 250, 250, 250];

describe.each(ZARRITAS)("zarrita %s, the slim entry, no ready()", (version, zarr) => {
  test("cast_value's and scale_offset's loaders resolve, and make codecs whose scalars are float16 and float8", async () => {
    register(zarr.registry);
    const CastValue = await zarr.registry.get("cast_value")();
    const ScaleOffset = await zarr.registry.get("scale_offset")();
    // Scalars of narrow floats go through the fill parser (fills/float-fill.js).
    const cast = CastValue.fromConfig(
      { data_type: "float16", scalar_map: { encode: [["NaN", "0x7c00"]], decode: [["0x7c00", "NaN"]] } },
      { dataType: "float32", data_type: "float32", shape: [2] },
    );
    expect(Array.from(cast.encode({ data: Float32Array.of(1, NaN), shape: [2], stride: [1] }).data)).toEqual([0x3c00, 0x7c00]);
    const scale = ScaleOffset.fromConfig({ scale: "0x48", offset: 1 }, { dataType: "float8_e4m3", data_type: "float8_e4m3", shape: [1] });
    // 0x48 is 4 in float8_e4m3 (exponent 9 - 7, mantissa 0), 0x50 is 8,
    // and (8 - 1) * 4 = 28 = 1.75 * 2^4 is 0x5e (exponent 11, mantissa 6).
    expect(Array.from(scale.encode({ data: Uint8Array.of(0x50), shape: [1], stride: [1] }).data)).toEqual([0x5e]);
  });

  test("zarr.get reads a float32 array stored as uint16 through them (zarrita's own bytes codec)", async () => {
    register(zarr.registry);
    const ours = zarr.registry.get("bytes");
    // Ours needs the wasm: zarrita's back for this read.
    zarr.registry.set("bytes", zarritasBytes.get(version));
    try {
      const arr = await zarr.open(zarr.root(kelvinStore()).resolve("a"), { kind: "array" });
      const { data } = await zarr.get(arr, null);
      expect(Array.from(data)).toEqual(KELVIN);
    } finally {
      zarr.registry.set("bytes", ours);
    }
  });
});

test("the wasm was never loaded", async () => {
  expect(() => BytesCodec.fromConfig({ endian: "little" }, { dataType: "uint8", shape: [1] })).toThrow(expect.objectContaining({ code: "NOT_READY" }));
  await expect(ready()).rejects.toMatchObject({ code: "NOT_READY" });
});
