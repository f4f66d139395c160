// fixed_length_utf32 through withDataTypes (and numpy's "<U"/">U" of Zarr
// v2), with zarrita 0.5.4, 0.6.2 and 0.7.5: every Unicode scalar value,
// astral ones included, and an interior U+0000 survive fills, reads,
// writes and structFields (issue 21, items 1 and 3). The stored bytes are
// worked out by hand from the type's page (one 4-byte code unit per code
// point, zero-padded), and what the package writes is read back by
// zarr-python 2.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import FileSystemStore from "@zarrita/storage/fs";
import { ready, register, structFields, withDataTypes } from "../../../js/index.js";
import { fixtureCopy, fixturePath } from "../support/fixtures.js";
import { memoryStore, rejectionOf, v3Array } from "../support/memory-store.js";
import { hex } from "../support/reference.js";
import { ZARRITAS } from "../support/zarritas.js";

const VERSIONS = ZARRITAS.filter(([v]) => v !== "0.6.1");
const utf32 = (length_bytes) => ({ name: "fixed_length_utf32", configuration: { length_bytes } });

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

/** Strings as stored: `n` code units each, zero-padded, in `endian` order. */
function unitsOf(strings, n, endian = "little") {
  const out = new Uint8Array(4 * n * strings.length);
  const view = new DataView(out.buffer);
  strings.forEach((s, i) => {
    const points = Array.from(s, (c) => c.codePointAt(0));
    if (points.length > n) throw new Error(`${s} is longer than ${n}`);
    points.forEach((p, k) => view.setUint32(4 * (n * i + k), p, endian === "little"));
  });
  return out;
}

function strings4(zarr, fill = "😀", endian = "big") {
  const store = memoryStore([["/s/zarr.json", v3Array({
    shape: [4], data_type: utf32(16), chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
    fill_value: fill, codecs: [{ name: "bytes", configuration: { endian } }],
  })]]);
  return { store, open: () => zarr.open(zarr.root(withDataTypes(store)).resolve("s"), { kind: "array" }) };
}

describe.each(VERSIONS)("zarrita %s", (_version, zarr) => {
  test("strings are an Array of JavaScript strings; a missing chunk reads as an astral fill", async () => {
    const { open } = strings4(zarr);
    const arr = await open();
    expect(arr.dtype).toBe("v2:object");
    const { data, shape } = await zarr.get(arr);
    expect(Array.isArray(data)).toBe(true);
    expect(shape).toEqual([4]);
    expect(data).toEqual(["😀", "😀", "😀", "😀"]);
    expect(await zarr.get(arr, [3])).toBe("😀");
  });

  test("astral code points and an interior U+0000 are written as their code points and read back", async () => {
    const { store, open } = strings4(zarr, "");
    const arr = await open();
    await zarr.set(arr, [0], "😀x");
    await zarr.set(arr, [zarr.slice(2, 4)], { data: ["x\0y", "😀😁😂😃"], shape: [2], stride: [1] });
    // By hand: U+1F600 U+0078, then an empty string, big-endian.
    expect(hex(store.files.get("/s/c/0"))).toBe(`0001f600${"00000078"}${"0".repeat(16)}${"0".repeat(32)}`);
    expect(hex(store.files.get("/s/c/1"))).toBe(hex(unitsOf(["x\0y", "😀😁😂😃"], 4, "big")));
    expect((await zarr.get(arr)).data).toEqual(["😀x", "", "x\0y", "😀😁😂😃"]);
  });

  test("a string longer than the capacity, by one or by many code points, or a lone surrogate: refused, nothing written", async () => {
    const { store, open } = strings4(zarr, "");
    const arr = await open();
    await zarr.set(arr, [zarr.slice(0, 2)], { data: ["abcd", "😀😀😀😀"], shape: [2], stride: [1] });
    const before = hex(store.files.get("/s/c/0"));
    const cases = [
      ["abcde", "VALUE_OUT_OF_RANGE", "the string at index 1 has more than 4 code points, the capacity of the stored type"],
      ["abcdefghij", "VALUE_OUT_OF_RANGE", "the string at index 1 has more than 4 code points, the capacity of the stored type"],
      ["😀😀😀😀😀", "VALUE_OUT_OF_RANGE", "the string at index 1 has more than 4 code points, the capacity of the stored type"],
      ["a\uD83D", "VALUE_OUT_OF_RANGE", "the string at index 1 holds a lone surrogate U+D83D at UTF-16 position 1, which is no Unicode scalar value (UTF-32 cannot store it)"],
      ["\uDE00b", "VALUE_OUT_OF_RANGE", "the string at index 1 holds a lone surrogate U+DE00 at UTF-16 position 0, which is no Unicode scalar value (UTF-32 cannot store it)"],
      [7, "INVALID_INPUT", "expected a string at index 1, got 7"],
    ];
    for (const [value, code, message] of cases) {
      const error = await rejectionOf(zarr.set(arr, [1], value));
      expect(error.code).toBe(code);
      expect(error.message).toBe(`bytes: fixed_length_utf32 of 4 code points shape [2]: ${message}`);
      expect(hex(store.files.get("/s/c/0"))).toBe(before);
    }
    expect((await zarr.get(arr, [zarr.slice(0, 2)])).data).toEqual(["abcd", "😀😀😀😀"]);
  });

  test("an interior U+0000 is kept, trailing U+0000 is padding (stored bytes made by hand)", async () => {
    const { store, open } = strings4(zarr, "", "little");
    store.files.set("/s/c/0", unitsOf(["x\0y", "\0z"], 4));
    store.files.set("/s/c/1", unitsOf(["ab", "\0\0\0\0"], 4));
    const arr = await open();
    expect((await zarr.get(arr)).data).toEqual(["x\0y", "\0z", "ab", ""]);
    // A fill with trailing U+0000 reads as the same string stored would.
    const padded = strings4(zarr, "a\0", "little");
    expect((await zarr.get(await padded.open(), [zarr.slice(0, 1)])).data).toEqual(["a"]);
  });

  test("a stored code unit past U+10FFFF refuses the chunk: INVALID_INPUT, naming it", async () => {
    const { store, open } = strings4(zarr, "", "little");
    const bytes = unitsOf(["ab", "c"], 4);
    new DataView(bytes.buffer).setUint32(4 * 5, 0x110000, true);
    store.files.set("/s/c/0", bytes);
    const error = await rejectionOf(zarr.get(await open()));
    expect(error.code).toBe("INVALID_INPUT");
    expect(error.message).toBe("bytes: fixed_length_utf32 of 4 code points shape [2]: stored code unit 0x110000 of string 1 (code point 1) is not a Unicode code point (at most 0x10FFFF)");
  });

  test("structFields: a string field is an Array of strings, astral code points and interior U+0000 kept", async () => {
    const fields = [{ name: "s", data_type: utf32(12) }, { name: "n", data_type: "uint8" }];
    const store = memoryStore([["/r/zarr.json", v3Array({
      shape: [3], data_type: { name: "struct", configuration: { fields } }, chunk_grid: { name: "regular", configuration: { chunk_shape: [3] } },
      fill_value: { s: "", n: 0 }, codecs: [{ name: "bytes", configuration: { endian: "little" } }],
    })]]);
    const values = ["😀x", "a\0b", "\u{10FFFF}\u{1F642}é"];
    const records = new Uint8Array(39);
    const units = unitsOf(values, 3);
    values.forEach((_, i) => {
      records.set(units.subarray(12 * i, 12 * i + 12), 13 * i);
      records[13 * i + 12] = i;
    });
    store.files.set("/r/c/0", records);
    const arr = await zarr.open(zarr.root(withDataTypes(store)).resolve("r"), { kind: "array" });
    const { s, n } = structFields(await zarr.get(arr), arr);
    expect(Array.isArray(s.data)).toBe(true);
    expect(s.data).toEqual(values);
    expect(s.shape).toEqual([3]);
    expect(Array.from(n.data)).toEqual([0, 1, 2]);
  });

  describe("zarr-python 2's \"<U\" and \">U\" arrays, presented the same way", () => {
    const copy = fixtureCopy(fixturePath("v2-records.zarr"), "unicode");
    const numpyReads = (path) =>
      JSON.parse(execFileSync("/usr/bin/python3", ["-c", "import json, sys, zarr; print(json.dumps(zarr.open(sys.argv[1], mode='r')[...].ravel().tolist()))", path]).toString());

    test("reads as numpy does; writes of astral and U+0000 values read back the same in zarr-python 2", async () => {
      const expected = JSON.parse(readFileSync(join(copy.dir, "expected.json"), "utf8"));
      const store = withDataTypes(new FileSystemStore(copy.dir));
      const arr = await zarr.open(zarr.root(store).resolve("unicode"), { kind: "array" });
      expect(arr.dtype).toBe("v2:object");
      expect((await zarr.get(arr)).data).toEqual(expected.unicode.strings);
      const written = ["\u{1F600}\u{1F600}\u{1F600}\u{1F600}", "a\0b", "\u{10FFFF}", "", "é\u{1D11E}", "z"];
      await zarr.set(arr, [zarr.slice(0, 6)], { data: written, shape: [6], stride: [1] });
      // Chunk 0 on disk: numpy's "<U4", by hand.
      expect(hex(readFileSync(join(copy.dir, "unicode/0")))).toBe(hex(unitsOf(written.slice(0, 3), 4)));
      expect(numpyReads(join(copy.dir, "unicode"))).toEqual([...written, "😀", "😀"]);
      const be = await zarr.open(zarr.root(store).resolve("unicode_be"), { kind: "array" });
      await zarr.set(be, [1, 1], "\u{1F642}\0\u{1F642}");
      expect(numpyReads(join(copy.dir, "unicode_be"))).toEqual([...expected.unicode_be.strings.slice(0, 3), "\u{1F642}\0\u{1F642}"]);
    });
  });
});

test("every Unicode scalar value round-trips (zarrita 0.7.5)", async () => {
  const zarr = ZARRITAS.find(([v]) => v.startsWith("0.7"))[1];
  // 0..0x10FFFF without the surrogates, four to a string.
  const points = [];
  for (let p = 0; p <= 0x10ffff; p++) if (p < 0xd800 || p > 0xdfff) points.push(p);
  const strings = [];
  for (let i = 0; i < points.length; i += 4) strings.push(String.fromCodePoint(...points.slice(i, i + 4)));
  const n = strings.length;
  const store = memoryStore([["/all/zarr.json", v3Array({
    shape: [n], data_type: utf32(16), chunk_grid: { name: "regular", configuration: { chunk_shape: [1 << 16] } },
    fill_value: "", codecs: [{ name: "bytes", configuration: { endian: "big" } }],
  })]]);
  const arr = await zarr.open(zarr.root(withDataTypes(store)).resolve("all"), { kind: "array" });
  await zarr.set(arr, null, { data: strings, shape: [n], stride: [1] });
  // Stored: each code point, big-endian, in order (U+0000 first: leading,
  // so not padding).
  const stored = new DataView(store.files.get("/all/c/0").buffer);
  for (let k = 0; k < 4 * 65536; k++) {
    if (stored.getUint32(4 * k, false) !== points[k]) throw new Error(`code unit ${k}: ${stored.getUint32(4 * k, false)}, expected ${points[k]}`);
  }
  const { data } = await zarr.get(arr);
  expect(data[0]).toBe("\0\x01\x02\x03");
  expect(data).toEqual(strings);
});
