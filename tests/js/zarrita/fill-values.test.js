// Fill values read exactly on every path that fills a missing chunk:
// zarr.get through withDataTypes (every zarrita), read with and without
// withDataTypes. The metadata is JSON text written here by hand (numbers
// past 2^53 as the digits JSON holds), and every expected value is worked
// out by hand from the data types' pages: an int64 fill of 2^63 - 1, a
// uint64 of 2^64 - 1, "0x3fc00000" is float32 1.5, "0x7e01" a float16 NaN
// whose payload widens to float32 0x7fc02000 (the payload shifted left 13
// bits, as a stored chunk of 0x7e01 widens), complex parts with a NaN
// payload. Where no JSON gives zarrita the value (a NaN's payload, parts
// that differ) and the zarrita has no array extensions (0.5, 0.6), the
// read is refused (UNFILLABLE_CHUNK), never a wrong value.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { read, ready, register, withDataTypes } from "../../../js/index.js";
import { memoryStore, rejectionOf } from "../support/memory-store.js";
import { hasArrayExtensions, ZARRITAS } from "../support/zarritas.js";

const encoder = new TextEncoder();

// zarr.json text with the fill written as given (`fillText` is JSON text).
function v3Text(dataType, fillText, { chunks = [2], shape = [4] } = {}) {
  return encoder.encode(
    `{"zarr_format":3,"node_type":"array","shape":${JSON.stringify(shape)},"data_type":${JSON.stringify(dataType)},` +
      `"chunk_grid":{"name":"regular","configuration":{"chunk_shape":${JSON.stringify(chunks)}}},` +
      `"chunk_key_encoding":{"name":"default","configuration":{"separator":"/"}},"fill_value":${fillText},` +
      `"codecs":[{"name":"bytes","configuration":{"endian":"little"}}],"attributes":{}}`,
  );
}

function v2Text(dtype, fillText) {
  return encoder.encode(
    `{"zarr_format":2,"shape":[4],"chunks":[2],"dtype":"${dtype}","order":"C","compressor":null,"filters":null,"fill_value":${fillText}}`,
  );
}

// A store of one array at /a whose first chunk holds `first` (its bytes)
// and whose second chunk is missing.
function storeOf(meta, first, v2 = false) {
  return memoryStore([
    [v2 ? "/a/.zarray" : "/a/zarr.json", meta],
    [v2 ? "/a/0" : "/a/c/0", first],
  ]);
}

const u8 = (...bytes) => Uint8Array.from(bytes);
const bitsOf = (data, i) => {
  const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const w = data.BYTES_PER_ELEMENT;
  return Array.from(bytes.subarray(i * w, i * w + w));
};
const f32 = (code) => Array.from(new Uint8Array(new Uint32Array([code]).buffer));

/**
 * Cases: the store, and for the missing chunk's elements (indices 2, 3)
 * what they must hold: `value` (compared with Object.is / ===) or `bits`
 * (each value's bytes). `beyondZarrita`: zarrita 0.5 and 0.6 cannot fill
 * it, withDataTypes refuses their read.
 */
const CASES = {
  "int64 fill 2^63 - 1 (v3)": { store: () => storeOf(v3Text("int64", "9223372036854775807"), new Uint8Array(16)), value: 9223372036854775807n },
  "uint64 fill 2^64 - 1 (v3)": { store: () => storeOf(v3Text("uint64", "18446744073709551615"), new Uint8Array(16)), value: 18446744073709551615n },
  "int64 fill -2^63 + 1 (v2)": { store: () => storeOf(v2Text("<i8", "-9223372036854775807"), new Uint8Array(16), true), value: -9223372036854775807n },
  "uint64 fill 2^64 - 1 (v2)": { store: () => storeOf(v2Text("<u8", "18446744073709551615"), new Uint8Array(16), true), value: 18446744073709551615n },
  "int64 fill null (v2: no fill, zeros)": { store: () => storeOf(v2Text("<i8", "null"), new Uint8Array(16), true), value: 0n },
  'float32 fill "0x3fc00000" (1.5)': { store: () => storeOf(v3Text("float32", '"0x3fc00000"'), new Uint8Array(8)), value: 1.5 },
  'float64 fill "0x3ff8000000000000" (1.5)': { store: () => storeOf(v3Text("float64", '"0x3ff8000000000000"'), new Uint8Array(16)), value: 1.5 },
  'float32 fill "0x80000000" (-0)': { store: () => storeOf(v3Text("float32", '"0x80000000"'), new Uint8Array(8)), bits: f32(0x80000000) },
  'float32 fill "0x7fc00001" (a NaN payload)': {
    store: () => storeOf(v3Text("float32", '"0x7fc00001"'), new Uint8Array(8)),
    bits: f32(0x7fc00001),
    beyondZarrita: true,
  },
  'float16 fill "0x7e01" (a NaN payload, widened)': {
    store: () => storeOf(v3Text("float16", '"0x7e01"'), u8(0x01, 0x7e, 0x01, 0x7e)),
    bits: f32(0x7fc02000),
    // The stored chunk of 0x7e01 widens to the same bits.
    stored: f32(0x7fc02000),
    beyondZarrita: true,
  },
  'complex64 fill ["0x7fc02000", 0.5]': {
    store: () => storeOf(v3Text("complex64", '["0x7fc02000", 0.5]'), new Uint8Array(16)),
    bits: [...f32(0x7fc02000), ...f32(0x3f000000)],
    trailing: 2,
    beyondZarrita: true,
  },
};

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

// The elements of the missing chunk (2 and 3) of a read's or get's data.
function check(t, data) {
  const per = t.trailing ?? 1;
  for (const i of [2, 3]) {
    if (t.value !== undefined) {
      const v = typeof data.get === "function" ? data.get(i) : data[i];
      expect(Object.is(v, t.value) || v === t.value).toBe(true);
    } else {
      const got = [];
      for (let k = 0; k < per; k++) got.push(...bitsOf(data, i * per + k));
      expect(got).toEqual(t.bits);
    }
  }
}

describe.each(Object.keys(CASES))("%s", (name) => {
  const t = CASES[name];

  test.each(ZARRITAS)("zarrita %s: zarr.get and read through withDataTypes", async (_version, zarr) => {
    const arr = await zarr.open(zarr.root(withDataTypes(t.store())).resolve("a"), { kind: "array" });
    check(t, (await read(arr)).data);
    if (t.stored) expect(bitsOf((await read(arr)).data, 0)).toEqual(t.stored);
    if (t.beyondZarrita && !hasArrayExtensions(zarr)) {
      const error = await rejectionOf(zarr.get(arr));
      expect(error.code).toBe("UNFILLABLE_CHUNK");
      expect(error.message).toMatch(/^withDataTypes: chunk \/a\/c\/1 of array \/a is missing, so it reads as the fill value /);
      return;
    }
    check(t, (await zarr.get(arr)).data);
  });

  // zarrita opens float16, complex and a NaN-payload float only through
  // withDataTypes (0.7 opens float16 where the runtime has Float16Array).
  const plain = t.value !== undefined || name.startsWith('float32 fill "0x7fc00001"');
  (plain ? test.each(ZARRITAS) : test.skip.each(ZARRITAS))("zarrita %s: read without withDataTypes reads the metadata's text itself", async (_version, zarr) => {
    const arr = await zarr.open(zarr.root(t.store()).resolve("a"), { kind: "array" });
    check(t, (await read(arr)).data);
  });
});
