// Zarr v2 void dtypes ("|V3") as zarr-python 2 writes them, whose
// fill_value is the base64 of the fill's bytes ("AAAA" for its default),
// through withDataTypes with zarrita 0.5.4, 0.6.2 and 0.7.5 (issue 21,
// item 4): they open, read (unwritten chunks as the fill) and write, and
// zarr-python 2 reads back what was written. tests/fixtures/v2-records.zarr
// holds them (scripts/make-records-fixtures.py).
import { beforeAll, describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";
import { ready, register, storedDataType, withDataTypes } from "../../../js/index.js";
import { fixtureCopy, fixturePath } from "../support/fixtures.js";
import { memoryStore, rejectionOf } from "../support/memory-store.js";
import { hex } from "../support/reference.js";
import { hasArrayExtensions, ZARRITAS } from "../support/zarritas.js";

const VERSIONS = ZARRITAS.filter(([v]) => v !== "0.6.1");
const EXPECTED = JSON.parse(readFileSync(join(fixturePath("v2-records.zarr"), "expected.json"), "utf8"));

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

describe.each(VERSIONS)("zarrita %s", (_version, zarr) => {
  const copy = fixtureCopy(fixturePath("v2-records.zarr"), "void");

  test("\"|V3\" with zarr-python's default fill \"AAAA\" reads and writes; zarr-python 2 reads the write", async () => {
    const store = withDataTypes(new FileSystemStore(copy.dir));
    const arr = await zarr.open(zarr.root(store).resolve("void"), { kind: "array" });
    expect(storedDataType(arr)).toBe("|V3");
    expect([arr.dtype, arr.shape]).toEqual(["uint8", [6, 3]]);
    expect(hex((await zarr.get(arr)).data)).toBe(EXPECTED.void.hex);
    await zarr.set(arr, [5, null], { data: new Uint8Array([0xaa, 0xbb, 0xcc]), shape: [3], stride: [1] });
    const read = execFileSync("/usr/bin/python3", ["-c",
      "import sys, zarr; print(zarr.open(sys.argv[1], mode='r')[...].tobytes().hex())", join(copy.dir, "void")]).toString().trim();
    expect(read).toBe(`${EXPECTED.void.hex.slice(0, 30)}aabbcc`);
  });

  test("a fill whose bytes differ (\"AQID\": 01 02 03)", async () => {
    const arr = await zarr.open(zarr.root(withDataTypes(new FileSystemStore(copy.dir))).resolve("void_fill"), { kind: "array" });
    if (!hasArrayExtensions(zarr)) {
      const error = await rejectionOf(zarr.get(arr));
      expect(error.code).toBe("UNFILLABLE_CHUNK");
      expect(error.message).toMatch(/^withDataTypes: chunk \/void_fill\/1 of array \/void_fill is missing, so it reads as the fill value \[1,2,3\]/);
      return;
    }
    expect(hex((await zarr.get(arr)).data)).toBe(EXPECTED.void_fill.hex);
  });

  test("a base64 fill of the wrong length, or no base64 at all, is refused for that array alone", async () => {
    const zarray = (fill_value) => ({ zarr_format: 2, shape: [2], chunks: [2], dtype: "|V3", compressor: null, filters: null, order: "C", fill_value });
    const store = withDataTypes(memoryStore([
      ["/short/.zarray", zarray("AAA=")], ["/odd/.zarray", zarray("A*AA")], ["/ok/.zarray", zarray("AQID")],
    ]));
    const short = await rejectionOf(zarr.open.v2(zarr.root(store).resolve("short"), { kind: "array" }));
    expect([short.code, short.message]).toEqual(["INVALID_METADATA", 'withDataTypes: array /short: fill_value "AAA=" holds 2 bytes in base64, but a value has 3']);
    const odd = await rejectionOf(zarr.open.v2(zarr.root(store).resolve("odd"), { kind: "array" }));
    expect(odd.message).toBe('withDataTypes: array /odd: fill_value "A*AA" must be an array of 3 byte values (0..255)');
    const ok = await zarr.open.v2(zarr.root(store).resolve("ok"), { kind: "array" });
    expect(ok.shape).toEqual([2, 3]);
  });
});
