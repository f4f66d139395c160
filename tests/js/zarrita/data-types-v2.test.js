// Zarr v2 arrays of the dtypes zarrita lacks, written by Debian's
// zarr-python 2.13 and numpy (scripts/make-fixtures.py), through zarrita
// 0.5, 0.6 and 0.7 with withDataTypes: every value against what
// zarr-python reads back (unwritten chunks as the fill value).
import { beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import FileSystemStore from "@zarrita/storage/fs";
import { ready, register, storedDataType, withDataTypes } from "../../../js/index.js";
import { fixturePath } from "../support/fixtures.js";
import { inCOrder } from "../support/presented.js";
import { hex } from "../support/reference.js";
import { hasArrayExtensions, ZARRITAS } from "../support/zarritas.js";

const FIXTURE = fixturePath("v2-data-types.zarr");
const EXPECTED = JSON.parse(readFileSync(`${FIXTURE}/expected.json`, "utf8"));
const hasFloat16Array = typeof globalThis.Float16Array === "function";

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

// What each array presents: the dtype zarrita sees, the shape with the
// trailing dimension, and the expected little-endian bytes.
function presented(name, floats) {
  const e = EXPECTED[name];
  if (e.dtype.endsWith("c8") || e.dtype.endsWith("c16")) {
    return { dtype: e.dtype.endsWith("c8") ? "float32" : "float64", shape: [...e.shape, 2], hex: e.little_endian_hex };
  }
  if (/[Mm]8/.test(e.dtype)) return { dtype: "int64", shape: e.shape, hex: e.little_endian_hex };
  // float16 where the runtime has no Float16Array: widened (numpy's
  // float32 of each value), or its bit patterns.
  if (hasFloat16Array) return { dtype: "float16", shape: e.shape, hex: e.little_endian_hex };
  return floats === "bits"
    ? { dtype: "uint16", shape: e.shape, hex: e.little_endian_hex }
    : { dtype: "float32", shape: e.shape, hex: e.float32_hex };
}

const READABLE = ["c8", "c8_equal_fill", "c16", "datetime", "timedelta", "datetime_10s", "f2"];

describe.each(ZARRITAS)("zarrita %s", (version, zarr) => {
  describe.each(["float32", "bits"])("floats: %s", (floats) => {
    const store = withDataTypes(new FileSystemStore(FIXTURE), { floats });
    test.each(READABLE)("%s", async (name) => {
      const want = presented(name, floats);
      const arr = await zarr.open.v2(zarr.root(store).resolve(name), { kind: "array" });
      expect(arr.dtype).toBe(want.dtype);
      expect(arr.shape).toEqual(want.shape);
      expect(storedDataType(arr)).toBe(EXPECTED[name].dtype);
      if (name === "c8" && !hasArrayExtensions(zarr)) {
        // Its fill (1.5, -2) has parts that differ: 0.5 and 0.6 fill a
        // missing chunk with one number, so the read is refused.
        await expect(zarr.get(arr)).rejects.toThrow(/chunk \/c8\/[12]\.[01] of array \/c8 is missing, so it reads as the fill value \[1\.5,-2\]/);
        return;
      }
      const out = await zarr.get(arr);
      expect(out.shape).toEqual(want.shape);
      expect(hex(inCOrder(out))).toBe(want.hex);
    });
  });

  test("complex in Fortran order (2-d) reads: each value's parts together, the axes reversed", async () => {
    const store = withDataTypes(new FileSystemStore(FIXTURE));
    const arr = await zarr.open.v2(zarr.root(store).resolve("c16_fortran"), { kind: "array" });
    expect(hex(inCOrder(await zarr.get(arr)))).toBe(EXPECTED.c16_fortran.little_endian_hex);
  });

  test("consolidated metadata (.zmetadata) through withDataTypes", async () => {
    const consolidated = zarr.withConsolidatedMetadata ?? zarr.tryWithConsolidated;
    const store = await consolidated(withDataTypes(new FileSystemStore(FIXTURE)), { format: "v2" });
    for (const name of READABLE.filter((n) => n !== "c8" || hasArrayExtensions(zarr))) {
      const want = presented(name, "float32");
      const arr = await zarr.open.v2(zarr.root(store).resolve(name), { kind: "array" });
      expect(hex(inCOrder(await zarr.get(arr)))).toBe(want.hex);
    }
    const fortran = await zarr.open.v2(zarr.root(store).resolve("c16_fortran"), { kind: "array" });
    expect(hex(inCOrder(await zarr.get(fortran)))).toBe(EXPECTED.c16_fortran.little_endian_hex);
  });
});

test("zarrita 0.7: dimension names gain a null for the trailing dimension", async () => {
  const [, zarr] = ZARRITAS.find(([v]) => v.startsWith("0.7"));
  const arr = await zarr.open.v2(zarr.root(withDataTypes(new FileSystemStore(FIXTURE))).resolve("c8"), { kind: "array" });
  expect(arr.dimensionNames).toEqual(["y", "x", null]);
  expect(arr.attrs._ARRAY_DIMENSIONS).toEqual(["y", "x", null]);
});
