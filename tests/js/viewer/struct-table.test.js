// The viewer's struct table (examples/viewer/tables.js) on a record type
// the sample store does not have: a nested struct (its fields dotted), a
// field whose name is an integer (JavaScript objects enumerate those
// first; the table keeps the declared order), int4 and bool fields (drawn
// over their own types' ranges). The records are written as bytes by
// hand, through withDataTypes, and read back with structFields. String
// fields are left to the browser tests (the sample's detections).
import { beforeAll, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { register, storedDataType, structFields, withDataTypes } from "../../../js/index.js";
import { structTable } from "../../../examples/viewer/tables.js";
import { valueRange } from "../../../examples/viewer/contrast.js";

const FIELDS = [
  { name: "box", data_type: { name: "struct", configuration: { fields: [{ name: "x", data_type: "float32" }, { name: "y", data_type: "float32" }] } } },
  { name: "7", data_type: "int4" },
  { name: "flag", data_type: "bool" },
];
const RECORD = 4 + 4 + 1 + 1;
const ROWS = [
  { x: 1.5, y: -2, level: -8, flag: true },
  { x: 0.25, y: 1e-7, level: 7, flag: false },
  { x: -3, y: NaN, level: 0, flag: true },
];

let arr;
let fields;
beforeAll(async () => {
  register(zarr.registry);
  const files = new Map();
  const store = { get: async (k) => files.get(k), set: async (k, v) => void files.set(k, v) };
  await store.set("/t/zarr.json", new TextEncoder().encode(JSON.stringify({
    zarr_format: 3, node_type: "array", shape: [3], data_type: { name: "struct", configuration: { fields: FIELDS } },
    chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: { box: { x: 0, y: 0 }, 7: 0, flag: false },
    codecs: [{ name: "bytes", configuration: { endian: "big" } }], attributes: {},
  })));
  arr = await zarr.open.v3(zarr.root(withDataTypes(store)).resolve("t"), { kind: "array" });
  // The presented record: every field little-endian, int4 in a byte of its own.
  const bytes = new Uint8Array(ROWS.length * RECORD);
  const view = new DataView(bytes.buffer);
  ROWS.forEach((r, i) => {
    const at = i * RECORD;
    view.setFloat32(at, r.x, true);
    view.setFloat32(at + 4, r.y, true);
    view.setInt8(at + 8, r.level);
    view.setUint8(at + 9, r.flag ? 1 : 0);
  });
  await zarr.set(arr, null, { data: bytes, shape: [ROWS.length, RECORD], stride: [RECORD, 1] });
  fields = structFields(await zarr.get(arr), arr);
});

test("one column per leaf in declared order, nested fields dotted, every value formatted", () => {
  const { table } = structTable(fields, storedDataType(arr), ROWS.length, 20, String);
  expect(Object.keys(fields)).toEqual(["7", "box", "flag"]); // what JavaScript does with the names
  expect(table.columns).toEqual(["index", "box.x", "box.y", "7", "flag"]);
  // float32's 1e-7 is 1.00000001e-7: 6 significant digits, as an exponent below 0.0001
  expect(table.rows).toEqual([
    ["0", "1.5", "-2", "-8", "true"],
    ["1", "0.25", "1e-7", "7", "false"],
    ["2", "-3", "NaN", "0", "true"],
  ]);
  expect(table.total).toBe(3);
  // rows: only the first ones
  expect(structTable(fields, storedDataType(arr), ROWS.length, 2, String).table.rows).toHaveLength(2);
});

test("the numeric fields, ready to draw over their own types' ranges; strings are not among them", () => {
  const { fields: numeric } = structTable(fields, storedDataType(arr), ROWS.length, 20, String);
  expect(numeric.map(({ name, stored, presented }) => [name, stored, presented])).toEqual([
    ["box.x", "float32", "float32"],
    ["box.y", "float32", "float32"],
    ["7", "int4", "int8"],
    ["flag", "bool", "bool"],
  ]);
  expect(Array.from(numeric[0].values)).toEqual(ROWS.map((r) => r.x));
  expect(Array.from(numeric[2].values)).toEqual(ROWS.map((r) => r.level));
  expect(Array.from(numeric[3].values)).toEqual(ROWS.map((r) => Number(r.flag)));
  expect(valueRange(numeric[2], numeric[2].values)).toEqual([-8, 7]); // int4's range, not the data's
  expect(valueRange(numeric[3], numeric[3].values)).toEqual([0, 1]);
});
