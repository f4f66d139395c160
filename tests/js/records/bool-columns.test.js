// structFields gives a bool field as zarrita's BoolArray (what zarr.get
// gives for a bool array) from the first call in a process, whatever was
// read before: 0.4.0 gave a Uint8Array until some zarr.get had loaded
// zarrita's bytes codec, so `data[i]` and `.get(i)` depended on history.
// This file is its own process state (Jest isolates modules per file):
// nothing but read runs before structFields.
import { expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { read, register, structFields, withDataTypes } from "../../../js/index.js";
import { memoryStore, v3Array } from "../support/memory-store.js";

test("a bool field is a BoolArray on the first structFields, after read alone", async () => {
  register(zarr.registry);
  // Records { n: uint8, ok: bool }: (5, true), (6, false).
  const store = memoryStore([
    ["/r/zarr.json", v3Array({
      shape: [2], data_type: { name: "struct", configuration: { fields: [{ name: "n", data_type: "uint8" }, { name: "ok", data_type: "bool" }] } },
      chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } }, fill_value: { n: 0, ok: false },
    })],
    ["/r/c/0", Uint8Array.of(5, 1, 6, 0)],
  ]);
  const arr = await zarr.open(zarr.root(withDataTypes(store)).resolve("r"), { kind: "array" });
  const { n, ok } = structFields(await read(arr), arr);
  expect(Array.from(n.data)).toEqual([5, 6]);
  expect(ok.data).toBeInstanceOf(zarr.BoolArray);
  expect([ok.data.get(0), ok.data.get(1)]).toEqual([true, false]);
});
