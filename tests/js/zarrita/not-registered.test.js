// withDataTypes and withN5 without register(zarr.registry): the first
// mistake a newcomer makes. zarrita alone would say "Unknown codec:
// zarr-codecs-wasm.stored" (or n5_default); the package says what to do.
// (This file never calls register: Jest gives it its own module graph.)
import { beforeAll, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import FileSystemStore from "@zarrita/storage/fs";
import { ready, withDataTypes, withN5, ZarrCodecError } from "../../../js/index.js";
import { fixturePath } from "../support/fixtures.js";

beforeAll(() => ready());

async function errorOf(promise) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  return undefined;
}

test("withDataTypes: an int4 array names register(zarr.registry)", async () => {
  const store = withDataTypes(new FileSystemStore(fixturePath("v3-data-types.zarr")));
  const error = await errorOf(zarr.open(zarr.root(store).resolve("int4_packbits"), { kind: "array" }));
  expect(error).toBeInstanceOf(ZarrCodecError);
  expect(error.code).toBe("NOT_REGISTERED");
  expect(error.message).toBe(
    "withDataTypes: array /int4_packbits: its stored int4 values are read through the codec zarr-codecs-wasm.stored, " +
      "which zarrita finds only once this package's codecs are registered: call register(zarr.registry) on the zarrita that opens the store, before opening it",
  );
});

test("withDataTypes: types that need no conversion still open (complex64 as float32 pairs)", async () => {
  const store = withDataTypes(new FileSystemStore(fixturePath("v3-data-types.zarr")));
  const arr = await zarr.open(zarr.root(store).resolve("complex64_be"), { kind: "array" });
  expect(arr.dtype).toBe("float32");
});

test("withN5: an N5 array names register(zarr.registry)", async () => {
  const store = withN5(new FileSystemStore(fixturePath("n5-store.n5")));
  const error = await errorOf(zarr.open(zarr.root(store).resolve("types/uint8"), { kind: "array" }));
  expect(error?.code).toBe("NOT_REGISTERED");
  expect(error.message).toMatch(/^withN5: array \/types\/uint8: its blocks are read through the codec n5_default, which zarrita finds only once/);
});
