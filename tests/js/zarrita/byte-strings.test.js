// Byte strings through withDataTypes, with zarrita 0.5, 0.6 and 0.7:
// zarr-python 3's null_terminated_bytes (tests/fixtures/v3-bytes.zarr, spec-
// literal from its source, chunks by numpy and numcodecs) and v2 "|S"
// (v2-bytes.zarr, zarr-python 2), presented as zarrita's byte strings
// ("v2:S<n>"): the stored bytes exactly, numpy's values through
// byteStrings(), the base64 fills zarrita would take as text, missing
// chunks, writes, and metadata refused for that array alone.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import FileSystemStore from "@zarrita/storage/fs";
import { byteStrings, read, ready, register, storedDataType, withDataTypes } from "../../../js/index.js";
import { rejectionOf } from "../support/memory-store.js";
import { expectCodecError, expectCodecRejection } from "../support/expect-error.js";
import { fixtureInMemory, fixturePath, snapshotOf } from "../support/fixtures.js";
import { ZARRITAS } from "../support/zarritas.js";

const V3 = fixturePath("v3-bytes.zarr");
const V2 = fixturePath("v2-bytes.zarr");
const EXPECTED_V3 = JSON.parse(readFileSync(`${V3}/expected.json`, "utf8"));
const EXPECTED_V2 = JSON.parse(readFileSync(`${V2}/expected.json`, "utf8"));
const LABELS = ["labels", "labels_fill"];

const encode = (o) => new TextEncoder().encode(JSON.stringify(o));
const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
const strings = (data) => Array.from({ length: data.length }, (_, i) => data.get(i));

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});


const v3 = (over) => ({
  zarr_format: 3, node_type: "array", shape: [2], data_type: { name: "null_terminated_bytes", configuration: { length_bytes: 4 } },
  chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: "", codecs: [{ name: "bytes" }], attributes: {}, ...over,
});
const nt = (configuration) => ({ name: "null_terminated_bytes", configuration });

// name, metadata, code, message (after "withDataTypes: array /<name>: ")
const REFUSED = [
  ["length_0", v3({ data_type: nt({ length_bytes: 0 }) }), "INVALID_METADATA", "null_terminated_bytes length_bytes must be a positive integer, got 0"],
  ["length_negative", v3({ data_type: nt({ length_bytes: -3 }) }), "INVALID_METADATA", "null_terminated_bytes length_bytes must be a positive integer, got -3"],
  ["length_fraction", v3({ data_type: nt({ length_bytes: 1.5 }) }), "INVALID_METADATA", "null_terminated_bytes length_bytes must be a positive integer, got 1.5"],
  ["length_text", v3({ data_type: nt({ length_bytes: "4" }) }), "INVALID_METADATA", 'null_terminated_bytes length_bytes must be a positive integer, got "4"'],
  ["length_huge", v3({ data_type: nt({ length_bytes: 2 ** 21 + 1 }) }), "UNSUPPORTED_DATA_TYPE", "null_terminated_bytes of 2097153 bytes is larger than the 2097152 bytes this package supports"],
  ["no_configuration", v3({ data_type: { name: "null_terminated_bytes" } }), "INVALID_METADATA", "null_terminated_bytes needs a configuration { length_bytes }, got undefined"],
  ["extra_member", v3({ data_type: nt({ length_bytes: 4, encoding: "ascii" }) }), "INVALID_METADATA", 'null_terminated_bytes configuration has an unknown member "encoding" (expected length_bytes)'],
  ["name_only", v3({ data_type: "null_terminated_bytes" }), "INVALID_METADATA", 'data type null_terminated_bytes needs its object form { "name": "null_terminated_bytes", "configuration": { ... } }'],
  ["fill_not_base64", v3({ fill_value: "ab!" }), "INVALID_METADATA", 'fill_value "ab!" must be a base64 string (the bytes, base64-encoded)'],
  ["fill_unpadded", v3({ fill_value: "YWI" }), "INVALID_METADATA", 'fill_value "YWI" must be a base64 string (the bytes, base64-encoded)'],
  ["fill_too_long", v3({ fill_value: "YWJjZGU=" }), "INVALID_METADATA", 'fill_value "YWJjZGU=" holds 5 bytes, more than the 4 of each element'],
  ["fill_number", v3({ fill_value: 0 }), "INVALID_METADATA", "fill_value 0 must be a base64 string (the bytes, base64-encoded)"],
  ["fill_null", v3({ fill_value: null }), "INVALID_METADATA", "fill_value null must be a base64 string (the bytes, base64-encoded)"],
  ["packbits", v3({ codecs: [{ name: "packbits" }] }), "INVALID_METADATA", 'null_terminated_bytes cannot be encoded by the "packbits" codec (expected bytes)'],
  ["vlen_bytes", v3({ codecs: [{ name: "vlen-bytes" }] }), "INVALID_METADATA", 'null_terminated_bytes cannot be encoded by the "vlen-bytes" codec (expected bytes)'],
];

describe.each(ZARRITAS)("zarrita %s", (_version, zarr) => {
  const open = (store, name) => zarr.open(zarr.root(store).resolve(name), { kind: "array" });

  describe("zarr-python 3's null_terminated_bytes (v3-bytes.zarr)", () => {
    const store = withDataTypes(new FileSystemStore(V3));

    test.each(LABELS)("%s: the stored bytes exactly, numpy's values through byteStrings, the fill in the missing chunk", async (name) => {
      const e = EXPECTED_V3[name];
      const arr = await open(store, name);
      expect(arr.dtype).toBe(`v2:S${e.data_type.configuration.length_bytes}`);
      expect(storedDataType(arr)).toEqual(e.data_type);
      const { data, shape } = await zarr.get(arr);
      expect(shape).toEqual(e.shape);
      expect(data.constructor.name).toBe("ByteStringArray");
      expect(hex(data)).toBe(e.raw);
      expect(byteStrings(data).map(hex)).toEqual(e.values);
    });

    test("what ByteStringArray.get gives: UTF-8 text with every NUL removed (exact for text without interior NULs)", async () => {
      const { data } = await zarr.get(await open(store, "labels"));
      // numpy: b"alpha", b"b", b"", b"c\x00d", b"\xe9t\xe9", b"sixsix", then the fill b"" twice.
      expect(strings(data)).toEqual(["alpha", "b", "", "cd", "\ufffdt\ufffd", "sixsix", "", ""]);
      expect(hex(byteStrings(data)[3])).toBe("630064");
      expect(hex(byteStrings(data)[4])).toBe("e974e9");
    });

    test("a fill whose bytes are no UTF-8 refuses its missing chunk, on every zarrita; the chunks present read", async () => {
      const arr = await open(store, "labels_binary_fill");
      await expectCodecRejection(zarr.get(arr), "UNFILLABLE_CHUNK",
        'withDataTypes: chunk /labels_binary_fill/c/1 of array /labels_binary_fill is missing, so it reads as the fill value b"\\xff"; ' +
          "zarrita fills a missing chunk with a string's UTF-8 bytes, and these bytes are no UTF-8, so the read is refused");
      const part = await zarr.get(arr, [zarr.slice(0, 2)]);
      expect(byteStrings(part.data).map(hex)).toEqual(EXPECTED_V3.labels_binary_fill.values.slice(0, 2));
    });

    test("a bytes codec with endian \"big\" reads the strings unswapped (a byte string has no byte order)", async () => {
      const map = new Map([
        ["/big/zarr.json", encode(v3({ shape: [2], codecs: [{ name: "bytes", configuration: { endian: "big" } }] }))],
        ["/big/c/0", Uint8Array.from(Buffer.from("abcd" + "xy\0\0"))],
      ]);
      const { data } = await zarr.get(await open(withDataTypes(map), "big"));
      expect(strings(data)).toEqual(["abcd", "xy"]);
    });
  });

  describe("zarr-python 2's |S (v2-bytes.zarr)", () => {
    test("a base64 fill reads as its bytes in the missing chunk", async () => {
      const e = EXPECTED_V2.labels;
      const arr = await open(withDataTypes(new FileSystemStore(V2)), "labels");
      expect(arr.dtype).toBe("v2:S3");
      expect(storedDataType(arr)).toBe("|S3");
      const { data } = await zarr.get(arr);
      expect(hex(data)).toBe(e.raw);
      expect(byteStrings(data).map(hex)).toEqual(e.values);
      expect(data.get(4)).toBe("ab");
      // zarrita alone fills with the text "YWI=", which does not fit |S3.
      await expect(zarr.get(await open(new FileSystemStore(V2), "labels"))).rejects.toThrow("offset is out of bounds");
    });

    test("a null fill reads as zeros (zarrita alone fills with the text \"null\")", async () => {
      const e = EXPECTED_V2.labels_null;
      const { data } = await zarr.get(await open(withDataTypes(new FileSystemStore(V2)), "labels_null"));
      expect(hex(data)).toBe(e.raw);
      const wide = new Map([["/s/.zarray", encode({ zarr_format: 2, shape: [1], chunks: [1], dtype: "|S6", fill_value: null, order: "C", filters: null, compressor: null })]]);
      expect((await zarr.get(await open(withDataTypes(wide), "s"))).data.get(0)).toBe("");
      expect((await zarr.get(await open(wide, "s"))).data.get(0)).toBe("null");
    });

    test("where the base64 text fits, zarrita alone reads it as the value; withDataTypes reads the bytes", async () => {
      const wide = new Map([["/s/.zarray", encode({ zarr_format: 2, shape: [1], chunks: [1], dtype: "|S6", fill_value: "YWI=", order: "C", filters: null, compressor: null })]]);
      expect((await zarr.get(await open(withDataTypes(wide), "s"))).data.get(0)).toBe("ab");
      expect((await zarr.get(await open(wide, "s"))).data.get(0)).toBe("YWI=");
    });
  });

  describe("writes", () => {
    test("strings are written as their UTF-8 bytes, NUL-padded; the rest of the store stays", async () => {
      const map = fixtureInMemory(V3, ["labels_fill"]);
      const arr = await open(withDataTypes(map), "labels_fill");
      await zarr.set(arr, [0, zarr.slice(0, 2)], "é!");
      await zarr.set(arr, [1, 4], "end");
      expect(hex(map.get("/labels_fill/c/0/0"))).toBe("c3a92100" + "c3a92100");
      // The edge chunk's second element is padding, the fill as zarr-python wrote it.
      expect(hex(map.get("/labels_fill/c/1/2"))).toBe("656e6400" + "61620000");
      const { data } = await zarr.get(arr);
      expect(byteStrings(data).map(hex)).toEqual(["c3a921", "c3a921", ...EXPECTED_V3.labels_fill.values.slice(2, 9), "656e64"]);
    });

    test("a partial write into the missing chunk keeps the fill in the rest of it", async () => {
      const map = fixtureInMemory(V3, ["labels_fill"]);
      const arr = await open(withDataTypes(map), "labels_fill");
      await zarr.set(arr, [1, 2], "z");
      expect(hex(map.get("/labels_fill/c/1/1"))).toBe("7a000000" + "61620000");
    });

    test("any bytes are written exactly from a ByteStringArray chunk (NULs, bytes that are no UTF-8)", async () => {
      const map = fixtureInMemory(V3, ["labels_fill"]);
      const arr = await open(withDataTypes(map), "labels_fill");
      const source = await zarr.get(arr, [0, zarr.slice(0, 2)]);
      new Uint8Array(source.data.buffer, source.data.byteOffset, 8).set([0xff, 0, 0x80, 0, 0, 0, 0, 1]);
      await zarr.set(arr, [0, zarr.slice(2, 4)], source);
      expect(hex(map.get("/labels_fill/c/0/1"))).toBe("ff008000" + "00000001");
      expect(byteStrings((await zarr.get(arr, [0, zarr.slice(2, 4)])).data).map(hex)).toEqual(["ff0080", "00000001"]);
    });

    test("a string longer than length_bytes is refused before anything is written", async () => {
      const map = fixtureInMemory(V3, ["labels_fill"]);
      const before = snapshotOf(map);
      const arr = await open(withDataTypes(map), "labels_fill");
      // zarrita's ByteStringArray refuses it (a RangeError) before any codec runs.
      await expect(zarr.set(arr, [0, 0], "abcde")).rejects.toMatchObject({ name: "RangeError" });
      await expect(zarr.set(arr, [0, zarr.slice(0, 2)], "abcdé")).rejects.toMatchObject({ name: "RangeError" });
      expect(snapshotOf(map)).toEqual(before);
    });
  });

  describe("metadata refused for that array alone", () => {
    const map = new Map(REFUSED.map(([name, meta]) => [`/${name}/zarr.json`, encode(meta)]));
    map.set("/good/zarr.json", encode(v3({ fill_value: "eg==" })));
    const store = withDataTypes(map);

    test.each(REFUSED)("%s", async (name, _meta, code, message) => {
      await expectCodecRejection(zarr.open.v3(zarr.root(store).resolve(name), { kind: "array" }), code, `withDataTypes: array /${name}: ${message}`);
    });

    test("the store still works afterwards (a missing chunk reads the fill, \"z\")", async () => {
      const { data } = await zarr.get(await open(store, "good"));
      expect(strings(data)).toEqual(["z", "z"]);
    });

    // An 11-byte chunk of [3] "|S4" (12 bytes) would read as "AAA", an
    // empty one as "": zarrita's own codec takes any length.
    test.each([
      ["v3 null_terminated_bytes", "/s/zarr.json", encode(v3({ shape: [3], chunk_grid: { name: "regular", configuration: { chunk_shape: [3] } } })), "/s/c/0"],
      ["v2 |S4", "/s/.zarray", encode({ zarr_format: 2, shape: [3], chunks: [3], dtype: "|S4", fill_value: "", order: "C", filters: null, compressor: null }), "/s/0"],
    ])("%s: a chunk of the wrong length is the package's error (LENGTH_MISMATCH), zarr.get and read alike", async (_name, metaKey, meta, chunkKey) => {
      for (const chunk of [new Uint8Array(11).fill(0x41), new Uint8Array(0), new Uint8Array(13).fill(0x41)]) {
        const store = new Map([[metaKey, meta], [chunkKey, chunk]]);
        const arr = await open(withDataTypes(store), "s");
        for (const reading of [zarr.get(arr), read(arr)]) {
          const error = await rejectionOf(reading);
          expect(error.code).toBe("LENGTH_MISMATCH");
          expect(error.message).toMatch(new RegExp(`(needs 12 bytes, got ${chunk.length}|should be 12, got ${chunk.length})`));
        }
      }
      // The right length reads.
      const good = new Map([[metaKey, meta], [chunkKey, Uint8Array.of(0x61, 0x62, 0, 0, 0x63, 0, 0, 0, 0x64, 0x65, 0x66, 0x67)]]);
      expect(strings((await zarr.get(await open(withDataTypes(good), "s"))).data)).toEqual(["ab", "c", "defg"]);
    });

    test("a v2 |S fill longer than the dtype is refused", async () => {
      const v2 = new Map([["/s/.zarray", encode({ zarr_format: 2, shape: [1], chunks: [1], dtype: "|S2", fill_value: "YWJj", order: "C", filters: null, compressor: null })]]);
      await expectCodecRejection(open(withDataTypes(v2), "s"), "INVALID_METADATA", 'withDataTypes: array /s: fill_value "YWJj" holds 3 bytes, more than the 2 of each element');
    });
  });
});

test("byteStrings refuses what is no byte-string result", () => {
  const message = /^byteStrings: expected zarrita's byte strings \(a ByteStringArray: buffer, byteOffset, byteLength and chars\), got /;
  expectCodecError(() => byteStrings(new Uint8Array(4)), "INVALID_INPUT", message);
  expectCodecError(() => byteStrings(null), "INVALID_INPUT", message);
  expectCodecError(() => byteStrings({ buffer: new ArrayBuffer(4), byteOffset: 0, byteLength: 3, chars: 2 }), "INVALID_INPUT", message);
  expectCodecError(() => byteStrings({ buffer: new ArrayBuffer(4), byteOffset: 2, byteLength: 4, chars: 2 }), "INVALID_INPUT", message);
  expect(byteStrings({ buffer: Uint8Array.of(1, 0, 0, 0, 2, 0).buffer, byteOffset: 0, byteLength: 6, chars: 2 }).map(hex)).toEqual(["01", "", "02"]);
});
