// Zarr v2 arrays zarr-python 2 writes and reads, which withDataTypes
// refused in 0.4.0: complex and float16 with numcodecs' Shuffle filter
// (by its own elementsize, after the stored codec), int32 with Shuffle and
// zlib, and complex in order "F" with one axis (the same bytes as "C").
// Written by Debian's zarr-python 2 (scripts/make-fixtures.py), every
// value against what it reads back, through zarr.get and read with
// zarrita 0.5, 0.6 and 0.7.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import FileSystemStore from "@zarrita/storage/fs";
import { read, ready, register, withDataTypes } from "../../../js/index.js";
import { fixturePath } from "../support/fixtures.js";
import { inCOrder } from "../support/presented.js";
import { hex } from "../support/reference.js";
import { ZARRITAS } from "../support/zarritas.js";

const FIXTURE = fixturePath("v2-filters.zarr");
const EXPECTED = JSON.parse(readFileSync(`${FIXTURE}/expected.json`, "utf8"));
const hasFloat16Array = typeof globalThis.Float16Array === "function";

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

// float16 is presented as float32 where the runtime has no Float16Array.
const expectedHex = (name) => (EXPECTED[name].dtype.endsWith("f2") && !hasFloat16Array ? EXPECTED[name].float32_hex : EXPECTED[name].little_endian_hex);

describe.each(ZARRITAS)("zarrita %s", (_version, zarr) => {
  test.each(Object.keys(EXPECTED))("%s: zarr.get and read give what zarr-python reads", async (name) => {
    // zarrita 0.5 and 0.6 read int32 with Shuffle only where register()
    // gave them a shuffle codec; with withDataTypes for the others.
    const store = withDataTypes(new FileSystemStore(FIXTURE));
    const arr = await zarr.open.v2(zarr.root(store).resolve(name), { kind: "array" });
    expect(hex(inCOrder(await zarr.get(arr)))).toBe(expectedHex(name));
    expect(hex((await read(arr)).data)).toBe(expectedHex(name));
  });
});
