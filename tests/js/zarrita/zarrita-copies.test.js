// diagnostics().zarritaCopies(): which zarrita copies read's arrays came
// from, and whether register() extended each one's registry. The four
// zarritas the package supports are four copies side by side here (npm
// aliases), as a library's nested zarrita is beside an app's
// (libraries-own-zarrita.test.js has the real libraries). Nothing is
// printed for a copy register() never saw: diagnostics tells, once per copy.
// (Jest gives this file its own module graph: nothing is registered before
// it registers.)
import { afterEach, beforeAll, expect, jest, test } from "@jest/globals";
import { diagnostics, read, ready, register } from "../../../js/index.js";
import { expectCodecRejection } from "../support/expect-error.js";
import { ZARRITAS } from "../support/zarritas.js";

const encode = (doc) => new TextEncoder().encode(JSON.stringify(doc));

/** A store of two uint8 arrays, /a and /b, of 4 values each in one chunk. */
function storeOf() {
  const doc = {
    zarr_format: 3,
    node_type: "array",
    shape: [4],
    data_type: "uint8",
    chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: 0,
    codecs: [{ name: "bytes" }],
    attributes: {},
  };
  return new Map([
    ["/a/zarr.json", encode(doc)],
    ["/a/c/0", Uint8Array.of(1, 2, 3, 4)],
    ["/b/zarr.json", encode(doc)],
    ["/b/c/0", Uint8Array.of(5, 6, 7, 8)],
  ]);
}

const open = (zarr, store, path) => zarr.open(zarr.root(store).resolve(path), { kind: "array" });
const printed = [];

beforeAll(async () => {
  await ready();
  for (const method of ["log", "info", "warn", "error", "debug"]) {
    jest.spyOn(console, method).mockImplementation((...args) => printed.push([method, ...args]));
  }
});

afterEach(() => {
  // No copy, registered or not, is ever reported on the console.
  expect(printed).toEqual([]);
});

const entry = (zarrita, registered, arrays, firstPath = "/a") => ({ registered, zarrita, arrays, firstPath });
const LABELS = { "0.5.4": "0.5 or 0.6", "0.6.1": "0.5 or 0.6", "0.6.2": "0.5 or 0.6", "0.7.5": "0.7 or later" };

test("no array read yet: no copy listed", async () => {
  expect(await diagnostics().zarritaCopies()).toEqual([]);
});

test("one entry per copy whose arrays reached read, first met first; each array counted once", async () => {
  const store = storeOf();
  for (const [, zarr] of ZARRITAS) {
    const a = await open(zarr, store, "a");
    expect(Array.from((await read(a)).data)).toEqual([1, 2, 3, 4]);
    await read(a); // the same array again: not another
  }
  const [, zarr07] = ZARRITAS.at(-1);
  expect(Array.from((await read(await open(zarr07, store, "b"))).data)).toEqual([5, 6, 7, 8]);
  expect(await diagnostics().zarritaCopies()).toEqual(
    ZARRITAS.map(([version]) => entry(LABELS[version], false, version === "0.7.5" ? 2 : 1)),
  );
});

test("registered is asked of each copy when diagnostics is: a register() after the first read counts", async () => {
  const registeredNow = new Set(["0.6.1", "0.7.5"]);
  for (const [version, zarr] of ZARRITAS) if (registeredNow.has(version)) register(zarr.registry);
  expect((await diagnostics().zarritaCopies()).map((c) => c.registered)).toEqual(ZARRITAS.map(([v]) => registeredNow.has(v)));
  // Registering does not change what read gives, nor adds a copy.
  const [, zarr05] = ZARRITAS[0];
  expect(Array.from((await read(await open(zarr05, storeOf(), "b"))).data)).toEqual([5, 6, 7, 8]);
  expect((await diagnostics().zarritaCopies()).map((c) => [c.zarrita, c.registered, c.arrays])).toEqual([
    ["0.5 or 0.6", false, 2],
    ["0.5 or 0.6", true, 1],
    ["0.5 or 0.6", false, 1],
    ["0.7 or later", true, 2],
  ]);
});

test("an array wrapped by a zarrita 0.7 array extension is of its copy", async () => {
  const [, zarr] = ZARRITAS.at(-1);
  const a = await open(zarr, storeOf(), "a");
  const wrapped = await zarr.extendArray(a, zarr.defineArrayExtension((inner) => ({ async getChunk(coords, options) { return inner.getChunk(coords, options); } })));
  expect(Array.from((await read(wrapped)).data)).toEqual([1, 2, 3, 4]);
  const copies = await diagnostics().zarritaCopies();
  expect(copies.length).toBe(4);
  expect(copies[3]).toEqual(entry("0.7 or later", true, 3));
});

test("the mark register() leaves in a registry is no codec: an array naming it reads nothing, with the package's error", async () => {
  const store = storeOf();
  const doc = JSON.parse(new TextDecoder().decode(store.get("/a/zarr.json")));
  store.set("/m/zarr.json", encode({ ...doc, codecs: [{ name: "zarr-codecs-wasm.registered" }] }));
  store.set("/m/c/0", Uint8Array.of(1, 2, 3, 4));
  const message = "zarr-codecs-wasm.registered is the mark register() leaves in a codec registry, not a codec: no array's metadata can name it";
  for (const [, zarr] of ZARRITAS.filter(([v]) => v === "0.6.1" || v === "0.7.5")) {
    const m = await open(zarr, store, "m");
    await expectCodecRejection(zarr.get(m), "INVALID_METADATA", message);
    await expectCodecRejection(read(m), "INVALID_METADATA", message);
  }
});
