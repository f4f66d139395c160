// Records (struct, legacy structured, Zarr v2 structured dtypes), fixed-
// length strings and raw bytes through withDataTypes, with zarrita 0.5.4,
// 0.6.2 and 0.7.5: every record's bytes and every field structFields gives
// against stores other writers made (tests/fixtures/v3-records.zarr: a
// spec-literal generator; v2-records.zarr: zarr-python 2), reads in parts,
// consolidated metadata in either order, missing chunks, and writes.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";
import { ready, register, storedDataType, structFields, withDataTypes, ZarrCodecError } from "../../../js/index.js";
import { expectCodecRejection } from "../support/expect-error.js";
import { fixtureCopy, fixturePath } from "../support/fixtures.js";
import { inCOrder, sameValues } from "../support/presented.js";
import { leavesOf, presentedLeaf } from "../support/record-fields.js";
import { hex } from "../support/reference.js";
import { hasArrayExtensions, ZARRITAS } from "../support/zarritas.js";

const V3 = fixturePath("v3-records.zarr");
const V2 = fixturePath("v2-records.zarr");
const EXPECTED_V3 = JSON.parse(readFileSync(`${V3}/expected.json`, "utf8"));
const EXPECTED_V2 = JSON.parse(readFileSync(`${V2}/expected.json`, "utf8"));
// The versions the issue names; 0.6.1 behaves as 0.6.2 here.
const VERSIONS = ZARRITAS.filter(([v]) => v !== "0.6.1");
// Arrays with a missing chunk whose fill is no single byte.
const MULTI_PART_FILLS = new Set(["points", "differing_fill", "legacy_tuples", "raw"]);
const V2_MULTI_PART_FILLS = new Set(["points", "text_records", "void_fill"]);

/** Strings as numpy stores a "<U<n>" column: n little-endian code units each, zero-padded. */
function utf32le(strings, dtype) {
  const n = Number(/^<U(\d+)$/.exec(dtype)[1]);
  const out = new Uint8Array(4 * n * strings.length);
  const view = new DataView(out.buffer);
  strings.forEach((s, i) => Array.from(s).forEach((c, k) => view.setUint32(4 * (n * i + k), c.codePointAt(0), true)));
  return out;
}

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

// fixed_length_utf32 values: an Array of JavaScript strings.
function strings(data) {
  expect(Array.isArray(data)).toBe(true);
  return Array.from(data);
}

async function readAll(zarr, arr) {
  const out = await zarr.get(arr);
  return { ...out, data: inCOrder(out) };
}

function checkFields(columns, fields, floats) {
  const leaves = leavesOf(columns);
  expect(Object.keys(leaves).sort()).toEqual(Object.keys(fields).sort());
  for (const [path, leaf] of Object.entries(fields)) {
    const got = leaves[path];
    const want = presentedLeaf(leaf, floats);
    expect(got.shape).toEqual(leaf.shape);
    if (want.strings) {
      expect(strings(got.data)).toEqual(want.strings);
      continue;
    }
    const inOrder = inCOrder(got);
    expect(`${path}: ${sameValues(inOrder, want.data, want.widened)}`).toBe(`${path}: `);
  }
}

describe.each(VERSIONS)("zarrita %s", (version, zarr) => {
  describe.each(["float32", "bits"])("floats: %s", (floats) => {
    const store = withDataTypes(new FileSystemStore(V3), { floats });

    test.each(Object.keys(EXPECTED_V3))("v3 %s", async (name) => {
      const e = EXPECTED_V3[name];
      const arr = await zarr.open(zarr.root(store).resolve(name), { kind: "array" });
      expect(storedDataType(arr)).toEqual(e.data_type);
      if (MULTI_PART_FILLS.has(name) && !hasArrayExtensions(zarr)) {
        await expect(zarr.get(arr)).rejects.toThrow(/is missing, so it reads as the fill value .* this zarrita fills a missing chunk with one number/);
        return;
      }
      const result = await readAll(zarr, arr);
      if (e.kind === "utf32") {
        // An Array of strings, as zarrita presents its own variable-length ones.
        expect(arr.dtype).toBe("v2:object");
        expect(result.shape).toEqual(e.shape);
        expect(strings(result.data)).toEqual(e.strings);
        return;
      }
      expect(arr.dtype).toBe("uint8");
      expect(result.shape).toEqual([...e.shape, e.record_bytes]);
      expect(hex(result.data)).toBe(e.le_hex);
      if (e.kind === "struct") checkFields(structFields(await zarr.get(arr), arr), e.fields, floats);
    });
  });

  test.each(Object.keys(EXPECTED_V2))("v2 %s (zarr-python 2)", async (name) => {
    const e = EXPECTED_V2[name];
    const store = withDataTypes(new FileSystemStore(V2));
    const arr = await zarr.open(zarr.root(store).resolve(name), { kind: "array" });
    if (V2_MULTI_PART_FILLS.has(name) && !hasArrayExtensions(zarr)) {
      // Its fill's bytes differ and a chunk is missing.
      await expect(zarr.get(arr)).rejects.toThrow(new RegExp(`chunk /${name}/\\d+ of array /${name} is missing`));
      return;
    }
    const result = await readAll(zarr, arr);
    if (e.strings) {
      // Presented as v3's fixed_length_utf32: an Array of strings.
      expect(arr.dtype).toBe("v2:object");
      expect(storedDataType(arr)).toBe(e.dtype);
      expect(strings(result.data)).toEqual(e.strings);
      return;
    }
    expect(storedDataType(arr)).toEqual(e.dtype);
    if (e.item_bytes) {
      // Void: raw bytes, the fill zarr-python 2 wrote as base64.
      expect(arr.dtype).toBe("uint8");
      expect(result.shape).toEqual([...e.shape, e.item_bytes]);
      expect(hex(result.data)).toBe(e.hex);
      return;
    }
    expect(result.shape).toEqual([...e.shape, e.record_bytes]);
    expect(hex(result.data)).toBe(e.le_hex);
    const leaves = leavesOf(structFields(await zarr.get(arr), arr));
    for (const [path, field] of Object.entries(e.fields)) {
      // numpy's complex values carry (real, imaginary) as a trailing dimension here.
      expect(leaves[path].shape).toEqual(/c\d+$/.test(field.dtype) ? [...field.shape, 2] : field.shape);
      const column = inCOrder(leaves[path]);
      // Strings: an Array of them; numpy's code units, read independently.
      const got = Array.isArray(column) ? hex(utf32le(column, field.dtype)) : hex(column);
      expect(`${path}: ${got}`).toBe(`${path}: ${field.le_hex}`);
    }
  });

  test("a part of a 2-d struct array, and structFields of that part", async () => {
    const store = withDataTypes(new FileSystemStore(V3));
    const arr = await zarr.open(zarr.root(store).resolve("spec_record"), { kind: "array" });
    const part = await zarr.get(arr, [zarr.slice(1, 3), 1, null]);
    expect(part.shape).toEqual([2, 13]);
    const all = EXPECTED_V3.spec_record.le_hex; // [3, 2, 13] in C order
    expect(hex(inCOrder(part))).toBe(all.slice(2 * 13 * 3, 2 * 13 * 4) + all.slice(2 * 13 * 5, 2 * 13 * 6));
    const { id, value } = structFields(part, arr);
    expect(Array.from(id.data)).toEqual([EXPECTED_V3.spec_record.fields.id.codes[3], EXPECTED_V3.spec_record.fields.id.codes[5]]);
    expect(value.shape).toEqual([2]);
  });

  test("the worked example of fixed_length_utf32's page: \"Hi\" in 12 bytes", async () => {
    const store = withDataTypes(new FileSystemStore(V3));
    const arr = await zarr.open(zarr.root(store).resolve("hi"), { kind: "array" });
    const { data } = await zarr.get(arr);
    expect(data[0]).toBe("Hi");
    expect(readFileSync(`${V3}/hi/c/0`).subarray(0, 12)).toEqual(Buffer.from("480000006900000000000000", "hex"));
  });
});

describe("consolidated metadata, either order (zarrita 0.7), and 0.5/0.6's v2 consolidation", () => {
  const zarr7 = ZARRITAS.find(([v]) => v.startsWith("0.7"))[1];
  const check = async (zarr, store, name) => {
    const e = EXPECTED_V3[name];
    const arr = await zarr.open(zarr.root(store).resolve(name), { kind: "array" });
    const result = await readAll(zarr, arr);
    if (e.kind === "utf32") expect(strings(result.data)).toEqual(e.strings);
    else expect(hex(result.data)).toBe(e.le_hex);
  };

  test("withConsolidatedMetadata(withDataTypes(store))", async () => {
    const store = await zarr7.withConsolidatedMetadata(withDataTypes(new FileSystemStore(V3)), { format: "v3" });
    for (const name of Object.keys(EXPECTED_V3)) await check(zarr7, store, name);
  });

  test("withDataTypes(withConsolidatedMetadata(store))", async () => {
    const store = withDataTypes(await zarr7.withConsolidatedMetadata(new FileSystemStore(V3), { format: "v3" }));
    for (const name of Object.keys(EXPECTED_V3)) await check(zarr7, store, name);
  });

  test.each(VERSIONS)("zarrita %s: v2 consolidated (.zmetadata) with structured dtypes", async (_v, zarr) => {
    const store = zarr.tryWithConsolidated
      ? await zarr.tryWithConsolidated(withDataTypes(new FileSystemStore(V2)))
      : await zarr.withConsolidatedMetadata(withDataTypes(new FileSystemStore(V2)), { format: "v2" });
    const arr = await zarr.open(zarr.root(store).resolve("mixed_blosc"), { kind: "array" });
    expect(hex((await zarr.get(arr)).data)).toBe(EXPECTED_V2.mixed_blosc.le_hex);
  });
});

describe("writes: records re-encoded to the stored order, strings checked against their capacity", () => {
  const copy = fixtureCopy(V3, "records");
  const files = (name) =>
    readdirSync(join(copy.dir, name), { recursive: true, withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => join(f.path ?? f.parentPath, f.name))
      .sort()
      .map((f) => [f, hex(readFileSync(f))]);

  test.each(VERSIONS)("zarrita %s: a record set as its little-endian bytes is stored big-endian, field by field", async (_v, zarr) => {
    const store = withDataTypes(new FileSystemStore(copy.dir));
    const arr = await zarr.open(zarr.root(store).resolve("points"), { kind: "array" });
    // x = 0.1, y = -3 (float32), little-endian, as withDataTypes presents them.
    const record = new Uint8Array(8);
    const view = new DataView(record.buffer);
    view.setFloat32(0, 0.1, true);
    view.setFloat32(4, -3, true);
    await zarr.set(arr, [1, null], { data: record, shape: [8], stride: [1] });
    expect(hex((await zarr.get(arr, [1, null])).data)).toBe(hex(record));
    // The chunk on disk holds it big-endian, the bytes codec's order.
    const want = new Uint8Array(8);
    new DataView(want.buffer).setFloat32(0, 0.1, false);
    new DataView(want.buffer).setFloat32(4, -3, false);
    expect(hex(readFileSync(join(copy.dir, "points/c/0")).subarray(8, 16))).toBe(hex(want));
  });

  test.each(VERSIONS)("zarrita %s: a string longer than the capacity is refused and the store is unchanged", async (_v, zarr) => {
    const store = withDataTypes(new FileSystemStore(copy.dir));
    const arr = await zarr.open(zarr.root(store).resolve("hi"), { kind: "array" }); // 3 code points
    await zarr.set(arr, [2], "xyz"); // exactly three: fits
    expect((await zarr.get(arr, [zarr.slice(2, 3)])).data[0]).toBe("xyz");
    expect(hex(readFileSync(join(copy.dir, "hi/c/0")).subarray(24, 36))).toBe("78000000790000007a000000");
    const fitted = files("hi");
    let error;
    try {
      await zarr.set(arr, [1], "wxyz");
    } catch (e) {
      error = e;
    }
    const cause = error?.cause ?? error;
    expect(cause).toBeInstanceOf(ZarrCodecError);
    expect(cause.code).toBe("VALUE_OUT_OF_RANGE");
    expect(cause.message).toMatch(/the string at index 1 has more than 3 code points, the capacity of the stored type$/);
    expect(files("hi")).toEqual(fitted);
  });
});

test("hostile record metadata is refused with the package's error; the store's other arrays still open", async () => {
  const zarr = ZARRITAS.find(([v]) => v.startsWith("0.7"))[1];
  const encode = (o) => new TextEncoder().encode(JSON.stringify(o));
  const v3 = (data_type, over = {}) => ({
    zarr_format: 3, node_type: "array", shape: [2], data_type,
    chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
    chunk_key_encoding: { name: "default" }, fill_value: 0,
    codecs: [{ name: "bytes", configuration: { endian: "little" } }], attributes: {}, ...over,
  });
  const struct = (fields) => ({ name: "struct", configuration: { fields } });
  let nested = struct([{ name: "x", data_type: "uint8" }]);
  for (let i = 0; i < 40; i++) nested = struct([{ name: "n", data_type: nested }]);
  const cases = [
    ["duplicate", v3(struct([{ name: "a", data_type: "uint8" }, { name: "a", data_type: "int8" }])), "INVALID_METADATA", 'struct has two fields named "a"'],
    ["empty_name", v3(struct([{ name: "", data_type: "uint8" }])), "INVALID_METADATA", "struct field 0 must have a non-empty string name, got \"\""],
    ["missing_name", v3(struct([{ data_type: "uint8" }])), "INVALID_METADATA", "struct field 0 must have a name and a data_type"],
    ["no_fields", v3(struct([])), "INVALID_METADATA", "struct must have at least one field"],
    ["variable_length", v3(struct([{ name: "s", data_type: "string" }])), "UNSUPPORTED_DATA_TYPE", 'struct field "s" has the variable-length data type string, which a record of fixed size cannot hold'],
    ["tuple_in_struct", v3(struct([["a", "uint8"]])), "INVALID_METADATA", "struct field 0 must be an object { name, data_type }, got an Array of length 2"],
    ["neither", v3({ name: "structured", configuration: { fields: [7] } }), "INVALID_METADATA", "structured field 0 must be an object { name, data_type } or a [name, data_type] pair, got 7"],
    ["utf32_length", v3({ name: "fixed_length_utf32", configuration: { length_bytes: 6 } }, { fill_value: "" }), "INVALID_METADATA", "fixed_length_utf32 length_bytes must be a positive multiple of 4, got 6"],
    ["raw_length", v3({ name: "raw_bytes", configuration: { length_bytes: 0 } }), "INVALID_METADATA", "raw_bytes length_bytes must be a positive integer, got 0"],
    ["huge_record", v3(struct([{ name: "r", data_type: { name: "raw_bytes", configuration: { length_bytes: 70000 } } }])), "UNSUPPORTED_DATA_TYPE", "a struct record larger than 65536 bytes is not supported"],
    ["overflow", v3(struct([{ name: "a", data_type: "uint64" }]), { shape: [2 ** 50 + 1], fill_value: { a: 0 } }), "INVALID_METADATA", `shape with the trailing dimension [${2 ** 50 + 1}, 8] has more than 2^53 elements`],
    ["fill_wrong_field", v3(struct([{ name: "a", data_type: "uint8" }]), { fill_value: { b: 1 } }), "INVALID_METADATA", 'fill_value an object has a member "b" that is no field of the struct'],
    ["fill_missing_field", v3(struct([{ name: "a", data_type: "uint8" }, { name: "b", data_type: "uint8" }]), { fill_value: { a: 1 } }), "INVALID_METADATA", 'fill_value an object has no value for field "b"'],
    ["fill_out_of_range", v3(struct([{ name: "a", data_type: "int4" }]), { fill_value: { a: 9 } }), "INVALID_METADATA", 'field "a": fill_value 9 is outside int4\'s range -8..7'],
    ["fill_long_string", v3({ name: "fixed_length_utf32", configuration: { length_bytes: 4 } }, { fill_value: "ab" }), "INVALID_METADATA", 'fill_value "ab" has 2 code points, more than the 1 of the fixed_length_utf32'],
    ["deep", v3(nested), "INVALID_METADATA", "struct is nested more than 32 levels deep"],
    ["packbits_on_record", v3(struct([{ name: "a", data_type: "uint8" }]), { codecs: [{ name: "packbits" }], fill_value: { a: 0 } }), "UNSUPPORTED_DATA_TYPE", "packbits: data type struct of 1 bytes is a record with no bit layout; use the bytes codec"],
  ];
  const raw = new Map();
  for (const [name, meta] of cases) raw.set(`/${name}/zarr.json`, encode(meta));
  raw.set("/good/zarr.json", encode(v3(struct([{ name: "a", data_type: "uint8" }]), { fill_value: { a: 3 } })));
  const store = withDataTypes(raw);
  for (const [name, , code, message] of cases) {
    await expectCodecRejection(zarr.open.v3(zarr.root(store).resolve(name), { kind: "array" }), code, `withDataTypes: array /${name}: ${message}`);
  }
  const good = await zarr.open.v3(zarr.root(store).resolve("good"), { kind: "array" });
  expect(Array.from((await zarr.get(good)).data)).toEqual([3, 3]);
});

test("structFields wraps what a throwing Proxy or getter throws, as encode and decode do (INVALID_INPUT, the error as its cause)", async () => {
  const zarr = ZARRITAS.find(([v]) => v.startsWith("0.7"))[1];
  const arr = await zarr.open(zarr.root(withDataTypes(new FileSystemStore(V3))).resolve("points"), { kind: "array" });
  const result = await zarr.get(arr);
  const trap = new TypeError("trap");
  const throwing = new Proxy({}, { get: () => { throw trap; }, getPrototypeOf: () => { throw trap; } });
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  const getter = { ...result };
  Object.defineProperty(getter, "shape", { get: () => { throw trap; } });
  const cases = [
    [() => structFields(throwing, arr), /^structFields: reading its arguments failed \("trap"\)$/],
    [() => structFields(result, throwing), /^structFields: reading its arguments failed \("trap"\)$/],
    [() => structFields(revocable.proxy, arr), /^structFields: reading its arguments failed \(/],
    [() => structFields(getter, arr), /^structFields: reading its arguments failed \("trap"\)$/],
    [() => structFields({ ...result, shape: new Proxy([2, 8], { get: () => { throw trap; } }) }, arr), /^structFields: reading result.shape or result.stride failed/],
    [() => structFields({ ...result, data: throwing }, arr), /^structFields: reading result.data failed/],
  ];
  for (const [call, message] of cases) {
    let error;
    try {
      call();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ZarrCodecError);
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toMatch(message);
  }
  // Still usable.
  expect(Object.keys(structFields(result, arr))).toEqual(["x", "y"]);
});
