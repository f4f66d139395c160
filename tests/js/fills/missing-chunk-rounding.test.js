// The fill of a missing chunk, end to end, where rounding twice gives
// another value: a v3 and a v2 float16 array whose fill_value is
// 1.0004882812509095 (just above the midpoint 1 + 2^-11 of float16's 1
// and 1 + 2^-10), read through `read` and through `zarr.get` with
// withDataTypes, on every zarrita. The expected value is Debian's numpy's
// np.float16 of that number; the other formats' come from the reference
// of tests/js/support/narrow-float-reference.js (ml_dtypes' rounding).
import { beforeAll, describe, expect, test } from "@jest/globals";
import { execFileSync } from "node:child_process";
import { read, ready, register, withDataTypes } from "../../../js/index.js";
import { memoryStore } from "../support/memory-store.js";
import { narrowReference, nextDouble, valueOfCode } from "../support/narrow-float-reference.js";
import { ZARRITAS } from "../support/zarritas.js";

const encoder = new TextEncoder();

// zarr.json / .zarray text with the fill written as given (`fillText` is JSON text).
function v3Text(dataType, fillText) {
  return encoder.encode(
    `{"zarr_format":3,"node_type":"array","shape":[4],"data_type":${JSON.stringify(dataType)},` +
      `"chunk_grid":{"name":"regular","configuration":{"chunk_shape":[2]}},` +
      `"chunk_key_encoding":{"name":"default","configuration":{"separator":"/"}},"fill_value":${fillText},` +
      `"codecs":[{"name":"bytes","configuration":{"endian":"little"}}],"attributes":{}}`,
  );
}

function v2Text(dtype, fillText) {
  return encoder.encode(
    `{"zarr_format":2,"shape":[4],"chunks":[2],"dtype":"${dtype}","order":"C","compressor":null,"filters":null,"fill_value":${fillText}}`,
  );
}

// One array at /a: its first chunk stored (zeros), its second missing.
function storeOf(meta, bytesPerElement, v2 = false) {
  return memoryStore([
    [v2 ? "/a/.zarray" : "/a/zarr.json", meta],
    [v2 ? "/a/0" : "/a/c/0", new Uint8Array(2 * bytesPerElement)],
  ]);
}

const NEAR_TIE = 1.0004882812509095;
const numpyFloat16 = (x) =>
  Number(execFileSync("/usr/bin/python3", ["-c", `import numpy as np; print(repr(float(np.float16(${x.toPrecision(17)}))))`], { encoding: "utf8" }));

// 0x3a and 0x3b of float8_e5m2 are 0.75 and 0.875; a double just above
// their midpoint rounds up when rounded once.
const E5M2_NEAR_TIE = nextDouble((valueOfCode("float8_e5m2", 0x3a) + valueOfCode("float8_e5m2", 0x3b)) / 2, 1);

const CASES = {
  "float16 (v3)": { store: () => storeOf(v3Text("float16", String(NEAR_TIE)), 2), expected: () => numpyFloat16(NEAR_TIE) },
  "float16 (v2, <f2)": { store: () => storeOf(v2Text("<f2", String(NEAR_TIE)), 2, true), expected: () => numpyFloat16(NEAR_TIE) },
  "float8_e5m2 (v3)": {
    store: () => storeOf(v3Text("float8_e5m2", String(E5M2_NEAR_TIE)), 1),
    expected: () => valueOfCode("float8_e5m2", narrowReference("float8_e5m2", E5M2_NEAR_TIE)),
  },
  "bfloat16 (v3): through float32 first, as Eigen's bfloat16": {
    store: () => storeOf(v3Text("bfloat16", String(1 + 2 ** -8 + 2 ** -40)), 2),
    expected: () => valueOfCode("bfloat16", narrowReference("bfloat16", 1 + 2 ** -8 + 2 ** -40)),
  },
};

beforeAll(async () => {
  await ready();
  for (const [, zarr] of ZARRITAS) register(zarr.registry);
});

test("the cases are ones that rounding twice gets wrong", () => {
  expect(numpyFloat16(NEAR_TIE)).toBe(1 + 2 ** -10);
  expect(numpyFloat16(Math.fround(NEAR_TIE))).toBe(1); // through float32: a tie, to even
  expect(narrowReference("float8_e5m2", E5M2_NEAR_TIE)).toBe(0x3b);
  expect(narrowReference("float8_e5m2", Math.fround(E5M2_NEAR_TIE))).toBe(0x3a);
});

describe.each(Object.keys(CASES))("%s", (name) => {
  const t = CASES[name];
  let expected;
  beforeAll(() => {
    expected = t.expected();
  });

  test.each(ZARRITAS)("zarrita %s: read and zarr.get through withDataTypes fill the missing chunk with the writer's value", async (_version, zarr) => {
    const arr = await zarr.open(zarr.root(withDataTypes(t.store())).resolve("a"), { kind: "array" });
    const viaRead = (await read(arr)).data;
    const viaGet = (await zarr.get(arr)).data;
    for (const data of [viaRead, viaGet]) {
      expect([data[0], data[1]]).toEqual([0, 0]);
      expect([data[2], data[3]]).toEqual([expected, expected]);
    }
  });
});
