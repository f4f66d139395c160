// Arrays of the types zarrita reads itself, opened through withDataTypes:
// storedDataType names their stored type as it does a presented array's
// (isPresented tells the two apart), and a fill value their type's spec
// forbids is refused for that array alone, as for presented types, in v3,
// v2 and consolidated metadata, on every zarrita.
import { beforeAll, describe, expect, test } from "@jest/globals";
import FileSystemStore from "@zarrita/storage/fs";
import { isPresented, ready, register, storedDataType, withDataTypes, withN5 } from "../../../js/index.js";
import { expectCodecRejection } from "../support/expect-error.js";
import { fixturePath } from "../support/fixtures.js";
import { hasArrayExtensions, ZARRITAS } from "../support/zarritas.js";

const encode = (o) => new TextEncoder().encode(typeof o === "string" ? o : JSON.stringify(o));
const v3 = (over) => ({
  zarr_format: 3, node_type: "array", shape: [2], data_type: "float32",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0, codecs: [{ name: "bytes", configuration: { endian: "little" } }], attributes: {}, ...over,
});
const v2 = (over) => ({
  zarr_format: 2, shape: [2], chunks: [2], dtype: "<f4", order: "C", compressor: null, filters: null, fill_value: 0, ...over,
});

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

// ---- storedDataType and isPresented ----------------------------------------------

function typesStore() {
  const store = new Map();
  store.set("/u16/zarr.json", encode(v3({ data_type: "uint16", fill_value: 7 })));
  store.set("/object_form/zarr.json", encode(v3({ data_type: { name: "int16" } })));
  store.set("/int4/zarr.json", encode(v3({ data_type: "int4", codecs: [{ name: "packbits" }] })));
  store.set("/v2_u2/.zarray", encode(v2({ dtype: ">u2" })));
  store.set("/v2_c8/.zarray", encode(v2({ dtype: "<c8", fill_value: [0, 0] })));
  store.set("/v2_bool/.zarray", encode(v2({ dtype: "|b1", fill_value: null })));
  return store;
}

describe.each(ZARRITAS)("storedDataType and isPresented, zarrita %s", (_version, zarr) => {
  const store = withDataTypes(typesStore());
  const open3 = (name) => zarr.open.v3(zarr.root(store).resolve(name), { kind: "array" });
  const open2 = (name) => zarr.open.v2(zarr.root(store).resolve(name), { kind: "array" });

  test.each([
    ["u16", open3, "uint16", false, "uint16"],
    ["object_form", open3, { name: "int16" }, false, "int16"],
    ["int4", open3, "int4", true, "int8"],
    ["v2_u2", open2, ">u2", false, "uint16"],
    ["v2_c8", open2, "<c8", true, "float32"],
    ["v2_bool", open2, "|b1", false, "bool"],
  ])("%s", async (name, open, stored, presented, dtype) => {
    const arr = await open(name);
    expect([storedDataType(arr), isPresented(arr), arr.dtype]).toEqual([stored, presented, dtype]);
  });

  test("an array opened without withDataTypes has none", async () => {
    const arr = await zarr.open.v3(zarr.root(typesStore()).resolve("u16"), { kind: "array" });
    expect([storedDataType(arr), isPresented(arr)]).toEqual([undefined, false]);
  });

  test("metadata read again replaces what was recorded", async () => {
    const raw = typesStore();
    const typed = withDataTypes(raw);
    const at = zarr.root(typed).resolve("u16");
    expect(storedDataType(await zarr.open.v3(at, { kind: "array" }))).toBe("uint16");
    raw.set("/u16/zarr.json", encode(v3({ data_type: "int2", codecs: [{ name: "packbits" }] })));
    const again = await zarr.open.v3(at, { kind: "array" });
    expect([storedDataType(again), isPresented(again)]).toEqual(["int2", true]);
  });
});

// ---- fill values of native types ----------------------------------------------------

// name, metadata, message after "withDataTypes: array /<name>: fill_value "
const V3_CASES = [
  ["float32_word", v3({ fill_value: "constructor" }), '"constructor" must be a number, "NaN", "Infinity", "-Infinity" or a hex code of 8 digits for float32'],
  ["float32_short_hex", v3({ fill_value: "0x7fc0" }), '"0x7fc0" must have exactly 8 hex digits for 32-bit codes, got 4'],
  ["float64_object", v3({ data_type: "float64", fill_value: {} }), 'an object must be a number, "NaN", "Infinity", "-Infinity" or a hex code of 16 digits for float64'],
  ["int16_fraction", v3({ data_type: "int16", fill_value: 1.5 }), "1.5 is outside int16's range -32768..32767"],
  ["uint8_300", v3({ data_type: "uint8", fill_value: 300 }), "300 is outside uint8's range 0..255"],
  ["uint8_negative", v3({ data_type: "uint8", fill_value: -1 }), "-1 is outside uint8's range 0..255"],
  ["int32_string", v3({ data_type: "int32", fill_value: "1" }), `"1" is outside int32's range -2147483648..2147483647`],
  ["int64_past_range", v3({ data_type: "int64", fill_value: "@9223372036854775808" }), "9223372036854775808 is outside int64's range -9223372036854775808..9223372036854775807"],
  ["uint64_nan", v3({ data_type: "uint64", fill_value: "NaN" }), '"NaN" is outside uint64\'s range 0..18446744073709551615'],
  ["bool_zero", v3({ data_type: "bool", fill_value: 0 }), "0 must be true or false for bool"],
];
const V2_CASES = [
  ["v2_float32_word", v2({ fill_value: "constructor" }), '"constructor" must be a number, "NaN", "Infinity", "-Infinity" or a hex code of 8 digits for float32'],
  ["v2_int16_fraction", v2({ dtype: "<i2", fill_value: 0.5 }), "0.5 is outside int16's range -32768..32767"],
  ["v2_bool_word", v2({ dtype: "|b1", fill_value: "yes" }), '"yes" must be true or false for bool'],
];
// Fills the specs allow: these open.
const V3_GOOD = [
  ["float32_nan", v3({ fill_value: "NaN" })],
  ["float32_hex", v3({ fill_value: "0x7fc00001" })],
  ["float64_minus_infinity", v3({ data_type: "float64", fill_value: "-Infinity" })],
  ["uint64_max", v3({ data_type: "uint64", fill_value: "@18446744073709551615" })],
  ["int64_min", v3({ data_type: "int64", fill_value: "@-9223372036854775808" })],
  ["bool_true", v3({ data_type: "bool", fill_value: true })],
];
const V2_GOOD = [
  ["v2_float32_null", v2({ fill_value: null })],
  ["v2_float32_nan", v2({ fill_value: "NaN" })],
  ["v2_uint8", v2({ dtype: "|u1", fill_value: 255 })],
];

// JSON with integers past 2^53 written as they are ("@123" marks them).
const json = (doc) => JSON.stringify(doc).replace(/"@(-?\d+)"/g, "$1");

function fillStore() {
  const store = new Map();
  for (const [name, doc] of [...V3_CASES, ...V3_GOOD]) store.set(`/${name}/zarr.json`, encode(json(doc)));
  for (const [name, doc] of [...V2_CASES, ...V2_GOOD]) store.set(`/${name}/.zarray`, encode(json(doc)));
  store.set("/good/zarr.json", encode(v3({ fill_value: 1.5 })));
  store.set("/good/c/0", new Uint8Array(new Float32Array([2.5, -0.25]).buffer));
  return store;
}

describe.each(ZARRITAS)("native fill values, zarrita %s", (_version, zarr) => {
  const store = withDataTypes(fillStore());
  const open3 = (name) => zarr.open.v3(zarr.root(store).resolve(name), { kind: "array" });
  const open2 = (name) => zarr.open.v2(zarr.root(store).resolve(name), { kind: "array" });

  test.each(V3_CASES)("v3 %s is refused at open", async (name, _doc, message) => {
    await expectCodecRejection(open3(name), "INVALID_METADATA", `withDataTypes: array /${name}: fill_value ${message}`);
  });

  test.each(V2_CASES)("%s is refused at open", async (name, _doc, message) => {
    await expectCodecRejection(open2(name), "INVALID_METADATA", `withDataTypes: array /${name}: fill_value ${message}`);
  });

  test.each(V3_GOOD)("v3 %s opens", async (name) => {
    expect((await open3(name)).shape).toEqual([2]);
  });

  test.each(V2_GOOD)("%s opens", async (name) => {
    expect((await open2(name)).shape).toEqual([2]);
  });

  test("the store still works afterwards, fills included", async () => {
    const good = await open3("good");
    expect([...(await zarr.get(good)).data]).toEqual([2.5, -0.25]);
    const missing = await open3("float32_nan"); // no chunk: the fill
    expect((await zarr.get(missing)).data.every(Number.isNaN)).toBe(true);
  });

  test("in consolidated v3 metadata, each refused array alone; the others open and read", async () => {
    const raw = fillStore();
    const entries = [...V3_CASES, ...V3_GOOD, ["good", v3({ fill_value: 1.5 })]];
    const metadata = Object.fromEntries(entries.map(([name, doc]) => [name, doc]));
    raw.set("/zarr.json", encode(json({ zarr_format: 3, node_type: "group", attributes: {}, consolidated_metadata: { kind: "inline", must_understand: false, metadata } })));
    const consolidated = zarr.withConsolidatedMetadata
      ? await zarr.withConsolidatedMetadata(withDataTypes(raw), { format: "v3" })
      : withDataTypes(raw); // 0.5 and 0.6 consolidate only v2 metadata
    const good = await zarr.open.v3(zarr.root(consolidated).resolve("good"), { kind: "array" });
    expect([...(await zarr.get(good)).data]).toEqual([2.5, -0.25]);
    expect(storedDataType(good)).toBe("float32");
    for (const [name, , message] of V3_CASES) {
      // At open where zarrita has a hook (0.7's array extensions), at the first read otherwise.
      const attempt = async () => zarr.get(await zarr.open.v3(zarr.root(consolidated).resolve(name), { kind: "array" }));
      await expectCodecRejection(attempt(), "INVALID_METADATA", `withDataTypes: array /${name}: fill_value ${message}`);
      if (hasArrayExtensions(zarr) && zarr.withConsolidatedMetadata) {
        await expectCodecRejection(zarr.open.v3(zarr.root(consolidated).resolve(name), { kind: "array" }), "INVALID_METADATA", /fill_value/);
      }
    }
    for (const [name] of V3_GOOD) await zarr.open.v3(zarr.root(consolidated).resolve(name), { kind: "array" });
  });

  test("in consolidated v2 metadata (.zmetadata), each refused array alone", async () => {
    const raw = fillStore();
    raw.set("/good/.zarray", encode(v2({ fill_value: 1.5 })));
    raw.set("/good/0", new Uint8Array(new Float32Array([2.5, -0.25]).buffer));
    raw.delete("/good/zarr.json");
    raw.delete("/good/c/0");
    const metadata = { ".zgroup": { zarr_format: 2 } };
    for (const [name, doc] of [...V2_CASES, ...V2_GOOD, ["good", v2({ fill_value: 1.5 })]]) metadata[`${name}/.zarray`] = doc;
    raw.set("/.zgroup", encode({ zarr_format: 2 }));
    raw.set("/.zmetadata", encode({ zarr_consolidated_format: 1, metadata }));
    const consolidated = zarr.tryWithConsolidated
      ? await zarr.tryWithConsolidated(withDataTypes(raw))
      : await zarr.withConsolidatedMetadata(withDataTypes(raw), { format: "v2" });
    const good = await zarr.open.v2(zarr.root(consolidated).resolve("good"), { kind: "array" });
    expect([...(await zarr.get(good)).data]).toEqual([2.5, -0.25]);
    for (const [name, , message] of V2_CASES) {
      const attempt = async () => zarr.get(await zarr.open.v2(zarr.root(consolidated).resolve(name), { kind: "array" }));
      await expectCodecRejection(attempt(), "INVALID_METADATA", `withDataTypes: array /${name}: fill_value ${message}`);
    }
    for (const [name] of V2_GOOD) await zarr.open.v2(zarr.root(consolidated).resolve(name), { kind: "array" });
  });
});

describe("N5 arrays (zarrita 0.7)", () => {
  const zarr = ZARRITAS.at(-1)[1];
  const at = (store) => zarr.open.v3(zarr.root(store).resolve("volumes/raw/gzip"), { kind: "array" });

  test("withDataTypes outside withN5 reads the metadata withN5 makes: the N5 type is named", async () => {
    const arr = await at(withDataTypes(withN5(new FileSystemStore(fixturePath("n5-store.n5")))));
    expect([storedDataType(arr), isPresented(arr)]).toEqual(["uint16", false]);
  });

  test("withN5 outside withDataTypes answers the metadata itself: undefined, as docs/data-types.md says", async () => {
    const arr = await at(withN5(withDataTypes(new FileSystemStore(fixturePath("n5-store.n5")))));
    expect([storedDataType(arr), isPresented(arr)]).toEqual([undefined, false]);
  });
});
