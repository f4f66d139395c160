// Variable-length bytes through zarrita 0.5, 0.6 and 0.7: zarr-python 3's
// variable_length_bytes and its alias "bytes" with the vlen-bytes codec
// (tests/fixtures/v3-bytes.zarr: spec-literal from zarr-python 3's source,
// chunks by numcodecs' VLenBytes and Zstd) through withDataTypes, and
// zarr-python 2's "|O" with a vlen-bytes filter (v2-bytes.zarr) through
// register alone and through withDataTypes: values against the fixtures,
// missing chunks (filled on 0.7, refused where zarrita has no hook),
// shards, hostile chunks, writes, and metadata refused for that array alone.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import FileSystemStore from "@zarrita/storage/fs";
import { ready, register, storedDataType, withDataTypes, ZarrCodecError } from "../../../js/index.js";
import { expectCodecRejection } from "../support/expect-error.js";
import { fixtureInMemory, fixturePath, snapshotOf } from "../support/fixtures.js";
import { rejectionOf } from "../support/memory-store.js";
import { vlenBytesDecodeReference, vlenBytesEncodeReference } from "../support/vlen-bytes-reference.js";
import { hasArrayExtensions, ZARRITAS } from "../support/zarritas.js";

const V3 = fixturePath("v3-bytes.zarr");
const V2 = fixturePath("v2-bytes.zarr");
const EXPECTED_V3 = JSON.parse(readFileSync(`${V3}/expected.json`, "utf8"));
const EXPECTED_V2 = JSON.parse(readFileSync(`${V2}/expected.json`, "utf8"));

const encode = (o) => new TextEncoder().encode(JSON.stringify(o));
const hex = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
const text = (s) => new TextEncoder().encode(s);

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});


const v3 = (over) => ({
  zarr_format: 3, node_type: "array", shape: [2], data_type: "variable_length_bytes",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: "", codecs: [{ name: "vlen-bytes", configuration: {} }], attributes: {}, ...over,
});

const REFUSED = [
  ["bytes_codec", v3({ codecs: [{ name: "bytes" }] }), "INVALID_METADATA", 'variable-length bytes cannot be encoded by the "bytes" codec (expected vlen-bytes)'],
  ["vlen_utf8", v3({ codecs: [{ name: "vlen-utf8" }] }), "INVALID_METADATA", 'variable-length bytes cannot be encoded by the "vlen-utf8" codec (expected vlen-bytes)'],
  ["vlen_configured", v3({ codecs: [{ name: "vlen-bytes", configuration: { level: 1 } }] }), "INVALID_METADATA", "the vlen-bytes codec takes no configuration, got an object"],
  ["no_array_to_bytes", v3({ codecs: [{ name: "zstd" }] }), "INVALID_METADATA", 'codec "zstd" comes before the array -> bytes codec, so it would run on the presented v2:object values rather than the stored ones; withDataTypes cannot present this array'],
  ["fill_number", v3({ fill_value: 0 }), "INVALID_METADATA", "fill_value 0 must be a base64 string or an array of byte values (0..255)"],
  ["fill_not_base64", v3({ fill_value: "a b" }), "INVALID_METADATA", 'fill_value "a b" must be a base64 string or an array of byte values (0..255)'],
  ["fill_big_byte", v3({ fill_value: [1, 256] }), "INVALID_METADATA", "fill_value [1,256] must be a base64 string or an array of byte values (0..255)"],
  ["bytes_configured", v3({ data_type: { name: "bytes", configuration: { length: 4 } } }), "INVALID_METADATA", "data type bytes takes no configuration, got an object"],
];

describe.each(ZARRITAS)("zarrita %s", (_version, zarr) => {
  const open = (store, name) => zarr.open(zarr.root(store).resolve(name), { kind: "array" });
  const fills = hasArrayExtensions(zarr);

  describe("zarr-python 3's variable_length_bytes (v3-bytes.zarr)", () => {
    const store = withDataTypes(new FileSystemStore(V3));

    test.each(["blobs", "blobs_alias"])("%s: one Uint8Array per element; the missing chunk reads as the fill where zarrita can fill", async (name) => {
      const e = EXPECTED_V3[name];
      const arr = await open(store, name);
      expect(arr.dtype).toBe("v2:object");
      expect(storedDataType(arr)).toEqual(e.data_type);
      if (!fills) {
        await expectCodecRejection(zarr.get(arr), "UNFILLABLE_CHUNK",
          new RegExp(`^withDataTypes: chunk /${name}/${e.missing[0]} of array /${name} is missing, so it reads as the fill value b".*"; this zarrita fills a missing chunk with the metadata's fill_value itself, which cannot be a Uint8Array`));
        // The chunks present read.
        const first = await zarr.get(arr, e.shape.length === 1 ? [zarr.slice(0, 6)] : [0, null]);
        expect(first.data.map(hex)).toEqual(e.values.slice(0, first.data.length));
        return;
      }
      const { data, shape } = await zarr.get(arr);
      expect(shape).toEqual(e.shape);
      expect(Array.isArray(data)).toBe(true);
      expect(data.every((d) => d instanceof Uint8Array)).toBe(true);
      expect(data.map(hex)).toEqual(e.values);
    });

    test("the fill's elements are each their own bytes (changing one changes no other); refused where zarrita cannot fill", async () => {
      if (!fills) {
        await expectCodecRejection(zarr.get(await open(store, "blobs_alias"), [1, null]), "UNFILLABLE_CHUNK", /chunk \/blobs_alias\/c\/1\/0 of array \/blobs_alias is missing, so it reads as the fill value b"\\x01\\x02\\x03"/);
        return;
      }
      const { data } = await zarr.get(await open(store, "blobs_alias"), [1, null]);
      expect(data.map(hex)).toEqual(["010203", "010203", "010203"]);
      data[0][0] = 9;
      expect(data.map(hex)).toEqual(["090203", "010203", "010203"]);
      expect((await zarr.get(await open(store, "blobs_alias"), [1, 0]))).toEqual(Uint8Array.of(1, 2, 3));
    });

    test("shards: a whole shard reads; a shard missing an inner chunk reads as the fill on zarrita 0.7 and is refused on 0.5 and 0.6", async () => {
      const e = EXPECTED_V3.blobs_sharded;
      const arr = await open(store, "blobs_sharded");
      expect((await zarr.get(arr, [zarr.slice(0, 4)])).data.map(hex)).toEqual(e.values.slice(0, 4));
      if (fills) {
        // The array extension reads the missing inner chunk as the fill.
        expect((await zarr.get(arr)).data.map(hex)).toEqual(e.values);
        return;
      }
      await expectCodecRejection(zarr.get(arr), "UNFILLABLE_CHUNK",
        'withDataTypes: shard /blobs_sharded/c/1 of array /blobs_sharded misses inner chunk 1, so it reads as the fill value b"F"; ' +
          "this zarrita fills a missing inner chunk with the metadata's fill_value itself, which would read a wrong value, so the read is refused");
    });

    test("a hostile chunk is the package's error for that chunk; the others still read", async () => {
      const map = fixtureInMemory(V3, ["blobs_alias"]);
      const good = map.get("/blobs_alias/c/0/0");
      map.set("/blobs_alias/c/0/0", good.subarray(0, good.length - 1));
      const arr = await open(withDataTypes(map), "blobs_alias");
      const error = await rejectionOf(zarr.get(arr, [0, null]));
      expect(error).toBeInstanceOf(ZarrCodecError);
      expect(error.code).toBe("LENGTH_MISMATCH");
      expect(error.message).toBe("vlen-bytes: chunk shape [1, 3]: item 2 is 5 bytes long (its length is at byte 15), more than the 4 bytes left in the 23-byte chunk");
      map.set("/blobs_alias/c/0/0", good);
      expect((await zarr.get(arr, [0, null])).data.map(hex)).toEqual(EXPECTED_V3.blobs_alias.values.slice(0, 3));
    });
  });

  describe("zarr-python 2's |O with a vlen-bytes filter (v2-bytes.zarr)", () => {
    test("register alone: zarrita reads the items through the vlen-bytes codec; its missing chunk has zarr-python 2's fill 0", async () => {
      const e = EXPECTED_V2.blobs;
      const { data } = await zarr.get(await open(new FileSystemStore(V2), "blobs"));
      expect(data.slice(0, 4).map(hex)).toEqual(e.values.slice(0, 4));
      expect(data[4]).toBe(0);
    });

    test("withDataTypes: the missing element reads as empty bytes where zarrita can fill", async () => {
      const e = EXPECTED_V2.blobs;
      const arr = await open(withDataTypes(new FileSystemStore(V2)), "blobs");
      expect(storedDataType(arr)).toBe("|O");
      if (!fills) {
        await expectCodecRejection(zarr.get(arr), "UNFILLABLE_CHUNK", /^withDataTypes: chunk \/blobs\/2 of array \/blobs is missing, so it reads as the fill value b""/);
        return;
      }
      expect((await zarr.get(arr)).data.map(hex)).toEqual(e.values);
    });
  });

  describe("writes", () => {
    test("whole chunks encode exactly as numcodecs' VLenBytes wrote them, and read back", async () => {
      const map = fixtureInMemory(V3, ["blobs_alias"]);
      const written = hex(map.get("/blobs_alias/c/0/0"));
      const arr = await open(withDataTypes(map), "blobs_alias");
      const row = await zarr.get(arr, [0, null]);
      await zarr.set(arr, [0, null], row);
      expect(hex(map.get("/blobs_alias/c/0/0"))).toBe(written);
      const items = [text("new"), new Uint8Array(0), Uint8Array.of(0, 0xff)];
      // Into the missing chunk: a whole-chunk write reads nothing first.
      await zarr.set(arr, [zarr.slice(1, 2), null], { data: items, shape: [1, 3], stride: [3, 1] });
      expect(hex(map.get("/blobs_alias/c/1/0"))).toBe(hex(vlenBytesEncodeReference(items)));
      expect((await zarr.get(arr, [1, null])).data.map(hex)).toEqual(items.map(hex));
    });

    test("a part of a chunk, through zstd: the rest of the chunk stays", async () => {
      const map = fixtureInMemory(V3, ["blobs"]);
      const arr = await open(withDataTypes(map), "blobs");
      await zarr.set(arr, [zarr.slice(1, 2)], { data: [text("one")], shape: [1], stride: [1] });
      const e = EXPECTED_V3.blobs;
      expect((await zarr.get(arr, [zarr.slice(0, 6)])).data.map(hex)).toEqual([e.values[0], hex(text("one")), ...e.values.slice(2, 6)]);
    });

    test("anything but a Uint8Array is refused and nothing is written", async () => {
      const map = fixtureInMemory(V3, ["blobs_alias"]);
      const before = snapshotOf(map);
      const arr = await open(withDataTypes(map), "blobs_alias");
      const error = await rejectionOf(zarr.set(arr, [0, null], { data: [text("a"), "b", text("c")], shape: [3], stride: [1] }));
      expect(error.code).toBe("INVALID_INPUT");
      expect(error.message).toBe('vlen-bytes: element 1 must be a Uint8Array, got "b"');
      expect(snapshotOf(map)).toEqual(before);
    });

    test("a write into the missing chunk: filled first on zarrita 0.7, refused before writing on 0.5 and 0.6", async () => {
      const map = fixtureInMemory(V3, ["blobs"]);
      const before = snapshotOf(map);
      const arr = await open(withDataTypes(map), "blobs");
      const write = zarr.set(arr, [zarr.slice(6, 7)], { data: [text("six")], shape: [1], stride: [1] });
      if (!fills) {
        await expectCodecRejection(write, "UNFILLABLE_CHUNK", /chunk \/blobs\/c\/2 of array \/blobs is missing/);
        expect(snapshotOf(map)).toEqual(before);
        return;
      }
      await write;
      const chunk = vlenBytesDecodeReference(new Uint8Array(await (await import("numcodecs/zstd")).default.fromConfig({ level: 0 }).decode(map.get("/blobs/c/2"))), 3);
      expect(chunk.map(hex)).toEqual([hex(text("six")), "", ""]);
    });
  });

  describe("metadata refused for that array alone", () => {
    const map = new Map(REFUSED.map(([name, meta]) => [`/${name}/zarr.json`, encode(meta)]));
    map.set("/good/zarr.json", encode(v3({})));
    map.set("/good/c/0", vlenBytesEncodeReference([text("g"), text("ood")]));
    const store = withDataTypes(map);

    test.each(REFUSED)("%s", async (name, _meta, code, message) => {
      await expectCodecRejection(zarr.open.v3(zarr.root(store).resolve(name), { kind: "array" }), code, `withDataTypes: array /${name}: ${message}`);
    });

    test("the store still works afterwards", async () => {
      expect((await zarr.get(await open(store, "good"))).data.map(hex)).toEqual([hex(text("g")), hex(text("ood"))]);
    });

    // zarrita 0.5 and 0.6 consolidate only v2 metadata.
    (zarr.withConsolidatedMetadata ? test : test.skip)("in a consolidated document, the refused array alone; the others open and read", async () => {
      const raw = new Map(map);
      const metadata = Object.fromEntries([...raw].filter(([k]) => k.endsWith("zarr.json")).map(([k, v]) => [k.slice(1, -"/zarr.json".length), JSON.parse(new TextDecoder().decode(v))]));
      raw.set("/zarr.json", encode({ zarr_format: 3, node_type: "group", attributes: {}, consolidated_metadata: { kind: "inline", must_understand: false, metadata } }));
      const consolidated = await zarr.withConsolidatedMetadata(withDataTypes(raw), { format: "v3" });
      expect((await zarr.get(await open(consolidated, "good"))).data.map(hex)).toEqual([hex(text("g")), hex(text("ood"))]);
      await expect(open(consolidated, "fill_number")).rejects.toMatchObject({ code: "INVALID_METADATA" });
    });

    test("a v2 fill that is no base64 is refused", async () => {
      const v2 = new Map([["/o/.zarray", encode({ zarr_format: 2, shape: [1], chunks: [1], dtype: "|O", fill_value: "x!", order: "C", filters: [{ id: "vlen-bytes" }], compressor: null })]]);
      await expectCodecRejection(open(withDataTypes(v2), "o"), "INVALID_METADATA", 'withDataTypes: array /o: fill_value "x!" must be a base64 string (the bytes, base64-encoded)');
    });
  });
});
