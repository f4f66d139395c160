// Writes of records through withDataTypes check every leaf as a plain array
// of the leaf's type is checked (issue 21, item 2), with zarrita 0.5.4,
// 0.6.2 and 0.7.5: an int4 field written as 9, a uint2 as 4, a float4 code
// as 16, a UTF-32 unit past U+10FFFF or a surrogate (in a struct, and in a
// zarr-python 2 ">U" field) are refused with VALUE_OUT_OF_RANGE and nothing
// is written; bools are stored as 0 or 1. The stored bytes are worked out
// by hand from the struct page (fields packed in order, multi-byte fields
// big-endian here), and zarr-python 2 reads back what is written.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";
import { ready, register, structFields, withDataTypes } from "../../../js/index.js";
import { fixtureCopy, fixturePath } from "../support/fixtures.js";
import { memoryStore, rejectionOf, v3Array } from "../support/memory-store.js";
import { hex } from "../support/reference.js";
import { ZARRITAS } from "../support/zarritas.js";

const VERSIONS = ZARRITAS.filter(([v]) => v !== "0.6.1");

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

// a int4 | u uint2 | f float4_e2m1fn | ok bool | s fixed_length_utf32 (2) | x int16: 14 bytes.
const FIELDS = [
  { name: "a", data_type: "int4" }, { name: "u", data_type: "uint2" }, { name: "f", data_type: "float4_e2m1fn" },
  { name: "ok", data_type: "bool" }, { name: "s", data_type: { name: "fixed_length_utf32", configuration: { length_bytes: 8 } } },
  { name: "x", data_type: "int16" },
];

/** One record as withDataTypes presents it: every multi-byte field little-endian. */
function record({ a = 0, u = 0, f = 0, ok = 0, s = [0, 0], x = 0 } = {}) {
  const out = new Uint8Array(14);
  const view = new DataView(out.buffer);
  out.set([a & 0xff, u, f, ok]);
  view.setUint32(4, s[0], true);
  view.setUint32(8, s[1], true);
  view.setInt16(12, x, true);
  return out;
}

/** The same record as the struct page stores it with endian "big". */
function storedBig({ a = 0, u = 0, f = 0, ok = 0, s = [0, 0], x = 0 } = {}) {
  const out = new Uint8Array(14);
  const view = new DataView(out.buffer);
  out.set([a & 0xff, u, f, ok]);
  view.setUint32(4, s[0], false);
  view.setUint32(8, s[1], false);
  view.setInt16(12, x, false);
  return out;
}

describe.each(VERSIONS)("zarrita %s", (_version, zarr) => {
  async function open() {
    const store = memoryStore([["/r/zarr.json", v3Array({
      shape: [2], data_type: { name: "struct", configuration: { fields: FIELDS } },
      chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
      fill_value: { a: 0, u: 0, f: 0, ok: false, s: "", x: 0 }, codecs: [{ name: "bytes", configuration: { endian: "big" } }],
    })]]);
    const arr = await zarr.open(zarr.root(withDataTypes(store)).resolve("r"), { kind: "array" });
    return { store, arr };
  }

  test("values every leaf's type holds are stored, bools as 0 or 1", async () => {
    const { store, arr } = await open();
    const good = { a: -8, u: 3, f: 15, ok: 1, s: [0x1f600, 0x10ffff], x: -2 };
    const other = { a: 7, u: 0, f: 0, ok: 0, s: [0x78, 0], x: 300 };
    await zarr.set(arr, null, { data: new Uint8Array([...record(good), ...record({ ...other, ok: 0 })]), shape: [2, 14], stride: [14, 1] });
    expect(hex(store.files.get("/r/c/0"))).toBe(hex(storedBig(good)) + hex(storedBig(other)));
    // A bool byte of 2 is true, stored as 1 (a plain bool array does the same).
    await zarr.set(arr, [1, null], { data: record({ ...other, ok: 2 }), shape: [14], stride: [1] });
    expect(hex(store.files.get("/r/c/0").subarray(14))).toBe(hex(storedBig({ ...other, ok: 1 })));
    const { a, s, ok } = structFields(await zarr.get(arr), arr);
    expect(Array.from(a.data)).toEqual([-8, 7]);
    expect(s.data).toEqual(["😀\u{10FFFF}", "x"]);
    expect(Array.from(ok.data, Boolean)).toEqual([true, true]);
  });

  test.each([
    ["an int4 field of 9", { a: 9 }, "leaf field 0 (int4) of record 1: value 9 is outside int4's range -8..7"],
    ["an int4 field of -9", { a: -9 }, "leaf field 0 (int4) of record 1: value -9 is outside int4's range -8..7"],
    ["a uint2 field of 4", { u: 4 }, "leaf field 1 (uint2) of record 1: value 4 is outside uint2's range 0..3"],
    ["a float4 code of 16", { f: 16 }, "leaf field 2 (float4_e2m1fn) of record 1: value 16 is not a float4_e2m1fn bit pattern (0..15)"],
    ["a code unit past U+10FFFF", { s: [0x41, 0x110000] }, "leaf field 4 (fixed_length_utf32 of 2 code points) of record 1: code unit 0x110000 (code point 1) is not a Unicode code point (at most 0x10FFFF)"],
    ["a surrogate code unit", { s: [0xd83d, 0] }, "leaf field 4 (fixed_length_utf32 of 2 code points) of record 1: code unit 0xD83D (code point 0) is a surrogate (0xD800..0xDFFF), not a Unicode scalar value"],
  ])("%s is refused (VALUE_OUT_OF_RANGE) and nothing is written", async (_name, bad, message) => {
    const { store, arr } = await open();
    await zarr.set(arr, null, { data: new Uint8Array([...record({ x: 1 }), ...record({ x: 2 })]), shape: [2, 14], stride: [14, 1] });
    const before = hex(store.files.get("/r/c/0"));
    const error = await rejectionOf(zarr.set(arr, [1, null], { data: record(bad), shape: [14], stride: [1] }));
    expect(error.code).toBe("VALUE_OUT_OF_RANGE");
    expect(error.message).toBe(`bytes: struct of 14 bytes shape [2]: ${message}`);
    expect(hex(store.files.get("/r/c/0"))).toBe(before);
  });

  test("the same values into plain arrays of those types are refused the same way", async () => {
    const store = memoryStore([
      ["/i/zarr.json", v3Array({ data_type: "int4", shape: [2], chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } } })],
      ["/t/zarr.json", v3Array({
        data_type: { name: "fixed_length_utf32", configuration: { length_bytes: 8 } }, shape: [2],
        chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } }, fill_value: "",
      })],
    ]);
    const root = zarr.root(withDataTypes(store));
    const int4 = await zarr.open(root.resolve("i"), { kind: "array" });
    expect((await rejectionOf(zarr.set(int4, [1], 9))).message).toBe("bytes: int4 shape [2]: value 9 at index 1 is outside int4's range -8..7");
    const text = await zarr.open(root.resolve("t"), { kind: "array" });
    expect((await rejectionOf(zarr.set(text, [1], "\uD83D"))).code).toBe("VALUE_OUT_OF_RANGE");
    expect(store.files.has("/i/c/0") || store.files.has("/t/c/0")).toBe(false);
  });

  describe("zarr-python 2 records with a \">U3\" field", () => {
    const copy = fixtureCopy(fixturePath("v2-records.zarr"), "text-records");
    const files = () => readdirSync(join(copy.dir, "text_records")).sort().map((f) => [f, hex(readFileSync(join(copy.dir, "text_records", f)))]);
    // s >U3 | n <i2 | ok |b1: 15 bytes, presented with s little-endian.
    const text = (units, n, ok) => {
      const out = new Uint8Array(15);
      const view = new DataView(out.buffer);
      units.forEach((u, k) => view.setUint32(4 * k, u, true));
      view.setInt16(12, n, true);
      out[14] = ok;
      return out;
    };

    test("a unit past U+10FFFF or a surrogate is refused; astral values are written as numpy reads them", async () => {
      const store = withDataTypes(new FileSystemStore(copy.dir));
      const arr = await zarr.open(zarr.root(store).resolve("text_records"), { kind: "array" });
      const before = files();
      for (const [unit, why] of [[0x110000, "is not a Unicode code point (at most 0x10FFFF)"], [0xdfff, "is a surrogate (0xD800..0xDFFF), not a Unicode scalar value"]]) {
        const error = await rejectionOf(zarr.set(arr, [1, null], { data: text([0x61, unit], 1, 1), shape: [15], stride: [1] }));
        expect(error.code).toBe("VALUE_OUT_OF_RANGE");
        expect(error.message).toBe(`bytes: struct of 15 bytes shape [3]: leaf field 0 (fixed_length_utf32 of 3 code points) of record 1: code unit 0x${unit.toString(16).toUpperCase()} (code point 1) ${why}`);
      }
      expect(files()).toEqual(before);
      await zarr.set(arr, [1, null], { data: text([0x1f600, 0, 0x10ffff], -5, 1), shape: [15], stride: [1] });
      const read = execFileSync("/usr/bin/python3", ["-c",
        "import json, sys, zarr; z = zarr.open(sys.argv[1], mode='r'); print(json.dumps([[str(r['s']), int(r['n']), bool(r['ok'])] for r in z[:3]]))",
        join(copy.dir, "text_records")]).toString();
      expect(JSON.parse(read)[1]).toEqual(["😀\0\u{10FFFF}", -5, true]);
    });
  });
});
