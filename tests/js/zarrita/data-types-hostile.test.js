// Metadata its spec forbids, through withDataTypes: each array refused at
// open with the package's error and a precise message (never a crash, a
// hang or a wrong read), for that array alone: the store keeps working, and
// in a consolidated document the other arrays still open.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { register, ready, withDataTypes } from "../../../js/index.js";
import { expectCodecRejection } from "../support/expect-error.js";
import { hasArrayExtensions, ZARRITAS } from "../support/zarritas.js";

const encode = (o) => new TextEncoder().encode(JSON.stringify(o));
const v3 = (over) => ({
  zarr_format: 3, node_type: "array", shape: [4], data_type: "int4",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0, codecs: [{ name: "packbits" }], attributes: {}, ...over,
});
const datetime = (configuration) => ({ name: "numpy.datetime64", configuration });

// name, metadata, code, message (after "withDataTypes: array /<name>: ")
const CASES = [
  ["unknown_type", v3({ data_type: "int3" }), "UNKNOWN_DATA_TYPE",
    'unknown data type "int3" (expected a Zarr v3 data type such as uint16, complex64 or r16)'],
  ["raw_not_whole_bytes", v3({ data_type: "r12", codecs: [{ name: "bytes" }] }), "UNKNOWN_DATA_TYPE",
    'unknown data type "r12" (expected a Zarr v3 data type such as uint16, complex64 or r16)'],
  ["name_not_a_string", v3({ data_type: { name: 5 } }), "INVALID_METADATA",
    "a data type must be a name or { name, configuration }, got an object"],
  ["data_type_a_number", v3({ data_type: 7 }), "INVALID_METADATA",
    "a data type must be a name or { name, configuration }, got 7"],
  ["extra_member", v3({ data_type: { name: "float8_e4m3", units: "m" } }), "INVALID_METADATA",
    'data type float8_e4m3 has an unknown member "units" (expected name and configuration)'],
  ["configuration_on_int4", v3({ data_type: { name: "int4", configuration: { bits: 4 } } }), "INVALID_METADATA",
    "data type int4 takes no configuration, got an object"],
  ["datetime_as_a_name", v3({ data_type: "numpy.datetime64" }), "INVALID_METADATA",
    'data type numpy.datetime64 needs its object form { "name": "numpy.datetime64", "configuration": { "unit", "scale_factor" } }'],
  ["datetime_no_configuration", v3({ data_type: { name: "numpy.datetime64" } }), "INVALID_METADATA",
    "numpy.datetime64 needs a configuration { unit, scale_factor }, got undefined"],
  ["datetime_bad_unit", v3({ data_type: datetime({ unit: "fortnight", scale_factor: 1 }) }), "INVALID_METADATA",
    'numpy.datetime64 unit must be one of Y, M, W, D, h, m, s, ms, us, μs, ns, ps, fs, as, generic, got "fortnight"'],
  ["datetime_scale_0", v3({ data_type: datetime({ unit: "s", scale_factor: 0 }) }), "INVALID_METADATA",
    "numpy.datetime64 scale_factor must be an integer in 1..2147483647, got 0"],
  ["datetime_scale_2_31", v3({ data_type: datetime({ unit: "s", scale_factor: 2 ** 31 }) }), "INVALID_METADATA",
    "numpy.datetime64 scale_factor must be an integer in 1..2147483647, got 2147483648"],
  ["datetime_extra", v3({ data_type: datetime({ unit: "s", scale_factor: 1, tz: "UTC" }) }), "INVALID_METADATA",
    'numpy.datetime64 configuration has an unknown member "tz" (expected unit and scale_factor)'],
  ["datetime_fill", v3({ data_type: datetime({ unit: "s", scale_factor: 1 }), fill_value: "abc" }), "INVALID_METADATA",
    'fill_value "abc" must be an integer in -2^63..2^63-1 or "NaT"'],
  ["int4_fill_9", v3({ fill_value: 9 }), "INVALID_METADATA", "fill_value 9 is outside int4's range -8..7"],
  ["int4_fill_fraction", v3({ fill_value: 1.5 }), "INVALID_METADATA", "fill_value 1.5 is outside int4's range -8..7"],
  ["float4_fill_nan", v3({ data_type: "float4_e2m1fn", fill_value: "NaN" }), "INVALID_METADATA",
    'fill_value "NaN" cannot be float4_e2m1fn: the format has no NaN'],
  ["fnuz_fill_infinity", v3({ data_type: "float8_e4m3fnuz", fill_value: "Infinity" }), "INVALID_METADATA",
    'fill_value "Infinity" cannot be float8_e4m3fnuz: the format has no infinity'],
  ["float8_fill_wide_hex", v3({ data_type: "float8_e5m2", fill_value: "0x1ff" }), "INVALID_METADATA",
    'fill_value "0x1ff" must have exactly 2 hex digits for 8-bit codes, got 3'],
  ["bfloat16_fill_word", v3({ data_type: "bfloat16", codecs: [{ name: "bytes", configuration: { endian: "little" } }], fill_value: "hello" }), "INVALID_METADATA",
    'fill_value "hello" must be a number, "NaN", "Infinity", "-Infinity" or a hex code for bfloat16'],
  ["complex_fill_number", v3({ data_type: "complex64", codecs: [{ name: "bytes", configuration: { endian: "little" } }], fill_value: 5 }), "INVALID_METADATA",
    "fill_value 5 must be [real, imaginary]"],
  ["complex_fill_part", v3({ data_type: "complex_float4_e2m1fn", fill_value: [1, "NaN"] }), "INVALID_METADATA",
    'fill_value "NaN" cannot be float4_e2m1fn: the format has no NaN'],
  ["complex64_fill_hex_part", v3({ data_type: "complex64", codecs: [{ name: "bytes", configuration: { endian: "little" } }], fill_value: [0, "0x7fc0"] }), "INVALID_METADATA",
    'fill_value "0x7fc0" must have exactly 8 hex digits for 32-bit codes, got 4'],
  ["raw_fill_short", v3({ data_type: "r16", codecs: [{ name: "bytes" }], fill_value: [1] }), "INVALID_METADATA",
    "fill_value [1] must be an array of 2 byte values (0..255)"],
  ["raw_fill_big_byte", v3({ data_type: "r16", codecs: [{ name: "bytes" }], fill_value: [1, 256] }), "INVALID_METADATA",
    "fill_value [1,256] must be an array of 2 byte values (0..255)"],
  ["negative_shape", v3({ shape: [-1] }), "INVALID_METADATA", "shape must be an array of non-negative integers, got an Array of length 1 [-1]"],
  ["shape_a_string", v3({ shape: "4" }), "INVALID_METADATA", 'shape must be an array of non-negative integers, got "4"'],
  // Shapes within 2^53 elements that the trailing dimension takes past it.
  ["trailing_overflow", v3({ data_type: "complex64", shape: [2 ** 51, 2], codecs: [{ name: "bytes", configuration: { endian: "little" } }], chunk_grid: { name: "regular", configuration: { chunk_shape: [1, 2] } }, fill_value: [0, 0] }),
    "INVALID_METADATA", `shape with the trailing dimension [${2 ** 51}, 2, 2] has more than 2^53 elements`],
  ["raw_trailing_overflow", v3({ data_type: "r64", shape: [2 ** 50 + 1], codecs: [{ name: "bytes" }], fill_value: [0, 0, 0, 0, 0, 0, 0, 0] }),
    "INVALID_METADATA", `shape with the trailing dimension [${2 ** 50 + 1}, 8] has more than 2^53 elements`],
  ["rectangular_grid", v3({ chunk_grid: { name: "rectangular", configuration: { chunk_shape: [[2, 2]] } } }), "INVALID_METADATA",
    'chunk_grid must be "regular" (the grid zarrita reads), got "rectangular"'],
  ["chunk_rank", v3({ chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 2] } } }), "INVALID_METADATA",
    "chunk_shape has 2 dimensions, but the array has 1"],
  ["chunk_zero", v3({ chunk_grid: { name: "regular", configuration: { chunk_shape: [0] } } }), "INVALID_METADATA",
    "chunk_shape must be an array of positive integers, got an Array of length 1 [0]"],
  ["key_encoding", v3({ chunk_key_encoding: { name: "zarr3" } }), "INVALID_METADATA",
    'chunk_key_encoding must be "default" or "v2", got "zarr3"'],
  ["key_separator", v3({ chunk_key_encoding: { name: "default", configuration: { separator: "-" } } }), "INVALID_METADATA",
    'the chunk key separator must be "/" or ".", got "-"'],
  ["no_array_to_bytes", v3({ codecs: [{ name: "gzip" }] }), "INVALID_METADATA",
    'codec "gzip" comes before the array -> bytes codec, so it would run on the presented int8 values rather than the stored ones; withDataTypes cannot present this array'],
  ["no_codecs", v3({ codecs: [] }), "INVALID_METADATA", "its codecs have no array -> bytes codec (bytes, packbits or sharding_indexed)"],
  ["codecs_not_a_list", v3({ codecs: { name: "packbits" } }), "INVALID_METADATA", "codecs must be an array, got an object"],
  ["codec_without_name", v3({ codecs: [{ configuration: {} }] }), "INVALID_METADATA", "a codec must be an object with a name, got an object"],
  ["bad_transpose", v3({ codecs: [{ name: "transpose", configuration: { order: [1, 1] } }, { name: "packbits" }], shape: [2, 2], chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 2] } } }),
    "INVALID_METADATA", "transpose order must be a permutation of 0..1, got an Array of length 2"],
];

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

function hostileStore() {
  const store = new Map();
  for (const [name, meta] of CASES) store.set(`/${name}/zarr.json`, encode(meta));
  store.set("/good/zarr.json", encode(v3({})));
  store.set("/good/c/0", new Uint8Array([0x8f, 0x21])); // -1, -8, 1, 2
  return store;
}

describe.each(ZARRITAS)("zarrita %s", (_version, zarr) => {
  const store = withDataTypes(hostileStore());

  test.each(CASES)("%s", async (name, _meta, code, message) => {
    await expectCodecRejection(zarr.open.v3(zarr.root(store).resolve(name), { kind: "array" }), code, `withDataTypes: array /${name}: ${message}`);
  });

  test("the store still works afterwards", async () => {
    const arr = await zarr.open.v3(zarr.root(store).resolve("good"), { kind: "array" });
    expect([...(await zarr.get(arr)).data]).toEqual([-1, -8, 1, 2]);
  });

  test("in a consolidated document, each refused array alone; the others open and read", async () => {
    const raw = hostileStore();
    const metadata = Object.fromEntries([...raw].filter(([k]) => k.endsWith("zarr.json")).map(([k, v]) => [k.slice(1, -"/zarr.json".length), JSON.parse(new TextDecoder().decode(v))]));
    raw.set("/zarr.json", encode({ zarr_format: 3, node_type: "group", attributes: {}, consolidated_metadata: { kind: "inline", must_understand: false, metadata } }));
    const consolidated = zarr.withConsolidatedMetadata
      ? await zarr.withConsolidatedMetadata(withDataTypes(raw), { format: "v3" })
      : withDataTypes(raw); // 0.5 and 0.6 consolidate only v2 metadata
    const good = await zarr.open.v3(zarr.root(consolidated).resolve("good"), { kind: "array" });
    expect([...(await zarr.get(good)).data]).toEqual([-1, -8, 1, 2]);
    for (const [name, , code, message] of CASES.slice(0, 6)) {
      // Refused at open where zarrita has a hook for it (0.7's array
      // extensions), at the first read otherwise.
      const attempt = async () => {
        const arr = await zarr.open.v3(zarr.root(consolidated).resolve(name), { kind: "array" });
        await zarr.get(arr);
      };
      await expect(attempt()).rejects.toThrow(`withDataTypes: array /${name}: ${message}`);
      if (hasArrayExtensions(zarr) && zarr.withConsolidatedMetadata) {
        await expect(zarr.open.v3(zarr.root(consolidated).resolve(name), { kind: "array" })).rejects.toMatchObject({ code });
      }
    }
  });
});
