// numcodecs' filters (Delta, FixedScaleOffset, Quantize, BitRound, AsType,
// Shuffle after Delta and before it, two FixedScaleOffsets) in Zarr v2 arrays written by Debian's zarr-python 2,
// and the v3 array -> array codecs (numcodecs.*, bitround, reshape) in
// arrays written by scripts/make-filter-fixtures.py's numpy reference:
// every value through zarr.get and read, with the package registered on
// zarrita 0.5, 0.6 and 0.7, against what numpy / numcodecs decode, bit for
// bit.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { readFileSync } from "node:fs";
import FileSystemStore from "@zarrita/storage/fs";
import { createReadPool, read, ready, register, ZarrCodecError } from "../../../js/index.js";
import { fixturePath } from "../support/fixtures.js";
import { inCOrder } from "../support/presented.js";
import { hex } from "../support/reference.js";
import { ZARRITAS } from "../support/zarritas.js";
import { memoryStore } from "../support/memory-store.js";
import { rejectionOf } from "../support/expect-error.js";

const V2 = fixturePath("v2-numcodecs-filters.zarr");
const V3 = fixturePath("v3-array-to-array.zarr");
const EXPECTED_V2 = JSON.parse(readFileSync(`${V2}/expected.json`, "utf8"));
const EXPECTED_V3 = JSON.parse(readFileSync(`${V3}/expected.json`, "utf8"));

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

// zarrita 0.7 reads a v2 fixedscaleoffset filter as its own scale_offset
// and cast_value (its v2 -> v3 conversion, not the registry's
// "fixedscaleoffset"); the package tells that chain apart and reads it as
// numcodecs does (zarrita/v2-fixed-scale-offset.js), where zarrita's own
// codecs computed float32 data in float64 differently and refused integer
// arrays with a fractional scale or offset: these arrays read as numcodecs
// wrote them on every zarrita.
// zarrita 0.7's conversion of a v2 filter list drops the astype of a
// fixedscaleoffset whose astype is the array's dtype when another
// fixedscaleoffset comes before it: what zarr.get reads there is not the
// stored type, and no codec can tell. read reads the .zarray's filters
// (read/plan/codec-chain.js) and gives numcodecs' values on every zarrita.
const ZARRITA_07_LOSES = new Set(["fso_u1_i8_then_i8_u1"]);
// numcodecs stores a filter list's chunks in its outermost filter's
// astype, byte order included; every zarrita reads them in the array's
// byte order (its bytes codec is the dtype's). read takes the filters'.
const ZARRITA_TAKES_ARRAY_BYTE_ORDER = new Set(["fso_be_f8_as_le_i2", "fso_le_f8_as_be_i2", "delta_be_i4_as_le_i2"]);
// zarr-python 2 writes a FixedScaleOffset's Python floats as "1000000.0";
// zarrita's JSON.parse keeps no trace of the ".0", and numpy types a float
// scalar otherwise than an int (float32 arithmetic stays float32), so
// zarr.get's values differ in their last bits; read reads the .zarray's
// text (on main at 4229392 read differed too).
const ZARRITA_LOSES_FLOAT_TEXT = new Set(["fso_f4_float_scalars"]);

describe.each(ZARRITAS)("zarrita %s", (version, zarr) => {
  for (const name of Object.keys(EXPECTED_V2)) {
    test(`v2 ${name}: zarr.get and read give what numcodecs decodes`, async () => {
      const arr = await zarr.open.v2(zarr.root(new FileSystemStore(V2)).resolve(name), { kind: "array" });
      expect(hex((await read(arr)).data)).toBe(EXPECTED_V2[name].little_endian_hex);
      if ((ZARRITA_07_LOSES.has(name) && version.startsWith("0.7")) || ZARRITA_TAKES_ARRAY_BYTE_ORDER.has(name) || ZARRITA_LOSES_FLOAT_TEXT.has(name)) {
        const got = await zarr.get(arr).then((r) => hex(inCOrder(r)), (e) => e);
        expect(got).not.toBe(EXPECTED_V2[name].little_endian_hex);
        return;
      }
      const got = await zarr.get(arr);
      expect(got.shape).toEqual(EXPECTED_V2[name].shape);
      expect(hex(inCOrder(got))).toBe(EXPECTED_V2[name].little_endian_hex);
    });
  }

  test.each(Object.keys(EXPECTED_V3))("v3 %s: zarr.get and read give the reference's values", async (name) => {
    const arr = await zarr.open.v3(zarr.root(new FileSystemStore(V3)).resolve(name), { kind: "array" });
    const got = await zarr.get(arr);
    expect(got.shape).toEqual(EXPECTED_V3[name].shape);
    expect(hex(inCOrder(got))).toBe(EXPECTED_V3[name].little_endian_hex);
    expect(hex((await read(arr)).data)).toBe(EXPECTED_V3[name].little_endian_hex);
  });
});

// A v2 array whose Quantize filter names an integer dtype (numcodecs
// quantizes floats only): the package's error, naming the codec and the
// value, through zarr.get and read on every zarrita (zarrita 0.7 may wrap
// it: its cause). No zarrita has a quantize of its own to fall back to
// (where one has, as 0.7 has delta, registering never reads less).
describe.each(ZARRITAS)("zarrita %s: a bad filter configuration", (_version, zarr) => {
  test("names the codec and the value", async () => {
    const zarray = { zarr_format: 2, shape: [4], chunks: [4], dtype: "<i4", compressor: null, fill_value: 0, order: "C", filters: [{ id: "quantize", digits: 2, dtype: "<i4" }] };
    const store = memoryStore([["/.zarray", zarray], ["/0", new Uint8Array(16)]]);
    const arr = await zarr.open.v2(zarr.root(store), { kind: "array" });
    for (const pending of [zarr.get(arr), read(arr)]) {
      let error = await rejectionOf(pending);
      while (error && !(error instanceof ZarrCodecError) && error.cause) error = error.cause;
      expect(error).toBeInstanceOf(ZarrCodecError);
      expect(error.code).toBe("INVALID_CONFIGURATION");
      expect(error.message).toMatch(/^quantize: dtype must be a floating-point dtype .* got "<i4"$/);
    }
  });
});

// read with a pool of workers: chains with filters are read on the calling
// thread through zarrita's pipeline (the pool's workers decode the
// package's own chains), with the same values.
describe("read with a pool", () => {
  let pool;
  beforeAll(() => {
    pool = createReadPool({ workers: 1, inThreadChunks: 0 });
  });
  afterAll(() => pool?.close());

  test.each(ZARRITAS)("zarrita %s: the same values as numcodecs decodes", async (_version, zarr) => {
    for (const name of ["delta_i2_as_i1", "quantize_f4_d2", "astype_f8_as_f4", "delta_i4_2d_shuffle_zlib", "fso_f4_float_scalars"]) {
      const arr = await zarr.open.v2(zarr.root(new FileSystemStore(V2)).resolve(name), { kind: "array" });
      expect([name, hex((await read(arr, null, { pool })).data)]).toEqual([name, EXPECTED_V2[name].little_endian_hex]);
      const into = new Float32Array(EXPECTED_V2[name].shape.reduce((a, b) => a * b, 1) * (name === "fso_f4_float_scalars" ? 1 : 0));
      if (into.length) expect([name, hex((await read(arr, null, { into })).data)]).toEqual([name, EXPECTED_V2[name].little_endian_hex]);
    }
    for (const name of ["reshape_delta", "numcodecs_fixedscaleoffset_f4_u2"]) {
      const arr = await zarr.open.v3(zarr.root(new FileSystemStore(V3)).resolve(name), { kind: "array" });
      expect([name, hex((await read(arr, null, { pool })).data)]).toEqual([name, EXPECTED_V3[name].little_endian_hex]);
    }
  });
});
