// read()'s contract beyond the values: `into` (filled and returned; the
// wrong length or container refused with nothing written), selections
// (zarrita's rules, and its refusals as the package's error), abort,
// the caller's queue, shared memory, hostile chunks and failing stores
// (the package's error naming the chunk, the array still readable), Zarr v2
// in Fortran order, consolidated metadata, an array extension of the
// caller's, and bands: a read larger than wasm's band budget, whose chunks
// span several bands, with wasm memory bounded.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { deflateSync } from "node:zlib";
import * as zarr from "zarrita";
import * as zarr05 from "zarrita-0.5";
import { diagnostics, read, ready, register, withDataTypes, withN5, ZarrCodecError } from "../../../js/index.js";
import FileSystemStore from "@zarrita/storage/fs";
import { fixturePath } from "../support/fixtures.js";
import { expectCodecRejection } from "../support/expect-error.js";
import { selectReference, writeArray } from "../support/hand-store.js";
import { memoryStore } from "../support/memory-store.js";
import { difference, pathsTaken } from "../support/read-compare.js";
import { bytesOf, randomBytes, swapGroups } from "../support/reference.js";
import { vlenBytesEncodeReference } from "../support/vlen-bytes-reference.js";

const encoder = new TextEncoder();
const product = (v) => v.reduce((a, b) => a * b, 1);

beforeAll(async () => {
  await ready();
  register(zarr.registry);
  register(zarr05.registry);
});

// A 12-bit image in packbits chunks, and the values written.
function imageStore(shape = [50, 70], chunkShape = [16, 16], missing = () => false) {
  const values = new Uint16Array(randomBytes(2 * product(shape), 42).buffer).map((v) => v & 0xfff);
  const store = memoryStore();
  writeArray(store, "/image", {
    values, shape, chunkShape, dataType: "uint16", fillValue: 0, fillElement: Uint16Array.of(0),
    arrayToBytes: { name: "packbits", bits: 12 }, missing,
  });
  return { store, values, shape };
}

async function openImage(z = zarr, made = imageStore()) {
  return { ...made, arr: await z.open(z.root(made.store).resolve("image"), { kind: "array" }) };
}

describe("into", () => {
  test("is filled in C order and returned as data", async () => {
    const { arr, values, shape } = await openImage();
    const into = new Uint16Array(20 * 30).fill(0xffff);
    const out = await read(arr, [zarr.slice(10, 30), zarr.slice(5, 35)], { into });
    expect(out.data).toBe(into);
    expect(out.shape).toEqual([20, 30]);
    expect(out.stride).toEqual([30, 1]);
    expect(Array.from(into)).toEqual(Array.from(selectReference(values, shape, [[10, 30, 1], [5, 35, 1]]).data));
  });

  test("of zarrita's BoolArray for bool", async () => {
    const store = memoryStore();
    const values = randomBytes(40 * 30, 3).map((v) => v & 1);
    writeArray(store, "/mask", { values, shape: [40, 30], chunkShape: [16, 8], dataType: "bool", fillValue: false, fillElement: Uint8Array.of(0), arrayToBytes: { name: "packbits", bits: 1, isBool: true } });
    const arr = await zarr.open(zarr.root(store).resolve("mask"), { kind: "array" });
    const into = new zarr.BoolArray(new ArrayBuffer(40 * 30), 0, 40 * 30);
    const out = await read(arr, null, { into });
    expect(out.data).toBe(into);
    expect(Array.from(new Uint8Array(into.buffer))).toEqual(Array.from(values));
    await expectCodecRejection(read(arr, null, { into: new Uint8Array(40 * 30) }), "INVALID_INPUT", /^read: into must be a BoolArray \(what zarr\.get returns for this array\), got a Uint8Array$/);
  });

  test.each([
    ["a shorter array", () => new Uint16Array(599), /^read: into must hold exactly the selection's 600 elements, got 599$/],
    ["a longer array", () => new Uint16Array(601), /^read: into must hold exactly the selection's 600 elements, got 601$/],
    ["another container", () => new Int16Array(600), /^read: into must be a Uint16Array \(what zarr\.get returns for this array\), got an Int16Array$/],
    ["not an array", () => ({ length: 600 }), /^read: into must be a Uint16Array .*, got an object$/],
  ])("of %s is refused and nothing is written", async (_, make, message) => {
    const { arr } = await openImage();
    const into = make();
    if (typeof into.fill === "function") into.fill(7);
    await expectCodecRejection(read(arr, [zarr.slice(10, 30), zarr.slice(5, 35)], { into }), "INVALID_INPUT", message);
    if (typeof into.every === "function") expect(into.every((v) => v === 7)).toBe(true);
  });

  test("with a selection of integers only (one value) is refused", async () => {
    const { arr, values } = await openImage();
    expect(await read(arr, [3, 4])).toBe(values[3 * 70 + 4]);
    await expectCodecRejection(read(arr, [3, 4], { into: new Uint16Array(1) }), "INVALID_INPUT", /one value, which read returns as it is; into needs a region/);
  });
});

describe("selections", () => {
  test("as zarrita takes them: negative indices and bounds, steps, empty slices, null", async () => {
    const { arr } = await openImage();
    for (const selection of [
      [-1, zarr.slice(-20, null)],
      [zarr.slice(-100, 100, 7), zarr.slice(3, 4)],
      [zarr.slice(null, null, 4), -70],
      [null, zarr.slice(69, 70, 5)],
    ]) {
      expect(difference(await read(arr, selection), await zarr.get(arr, selection))).toBe("");
    }
  });

  test("an empty slice gives an empty output (where zarrita 0.7.5's zarr.get throws)", async () => {
    const { arr } = await openImage();
    const out = await read(arr, [zarr.slice(40, 10), null]);
    expect(out.shape).toEqual([0, 70]);
    expect(out.data).toBeInstanceOf(Uint16Array);
    expect(out.data.length).toBe(0);
    await expect(zarr.get(arr, [zarr.slice(40, 10), null])).rejects.toThrow("Input contains an empty iterator");
  });

  test("a selection shorter than the array takes the remaining axes whole, as numpy does", async () => {
    const { arr } = await openImage();
    expect(difference(await read(arr, [zarr.slice(2, 9)]), await read(arr, [zarr.slice(2, 9), null]))).toBe("");
  });

  test.each([
    [[0, 0, 0], /^read: too many indices for array; expected 2, got 3$/],
    [[50, 0], /^read: axis 0: index 50 is out of bounds for dimension with length 50$/],
    [[-51, 0], /^read: axis 0: index -51 is out of bounds for dimension with length 50$/],
    [[zarr.slice(0, 10, 0), 0], /^read: axis 0: slice step cannot be zero$/],
    [[zarr.slice(10, 0, -1), 0], /^read: axis 0: only slices with step >= 1 are supported, got -1$/],
    [[NaN, 0], /^read: axis 0: an index must be an integer, got NaN$/],
    [[zarr.slice(0.5, 3), 0], /^read: axis 0: slice bounds must be integers or null, got 0\.5$/],
    [["1", 0], /^read: axis 0: expected an integer, null or zarr\.slice\(start, stop, step\), got "1" \(lists of indices are not supported\)$/],
    [7, /^read: a selection is null or an array with one entry per axis, got 7$/],
  ])("%j is refused with INVALID_SELECTION", async (selection, message) => {
    const { arr } = await openImage();
    await expectCodecRejection(read(arr, selection), "INVALID_SELECTION", message);
  });
});

describe("abort and queues", () => {
  test("an aborted signal rejects with its reason, before and during the read", async () => {
    const { arr } = await openImage();
    const before = new AbortController();
    before.abort(new Error("stop"));
    await expect(read(arr, null, { signal: before.signal })).rejects.toThrow("stop");
    // A store that answers slowly: abort while chunks are on their way.
    const slow = imageStore();
    const get = slow.store.get.bind(slow.store);
    slow.store.get = async (key, opts) => {
      await new Promise((r) => setTimeout(r, 5));
      opts?.signal?.throwIfAborted();
      return get(key, opts);
    };
    const { arr: slowArr } = await openImage(zarr, slow);
    const during = new AbortController();
    const reading = read(slowArr, null, { signal: during.signal });
    setTimeout(() => during.abort(new Error("later")), 2);
    await expect(reading).rejects.toThrow("later");
    // The store and the module are fine after it.
    expect(difference(await read(slowArr), await zarr.get(slowArr))).toBe("");
  });

  test("a signal that is only { aborted } (the AbortSignalLike of the types) is checked, not called", async () => {
    const { arr } = await openImage();
    // No throwIfAborted, no addEventListener: read looks at aborted.
    expect(difference(await read(arr, null, { signal: { aborted: false } }), await zarr.get(arr))).toBe("");
    const reason = new Error("stopped by the caller");
    await expect(read(arr, null, { signal: { aborted: true, reason } })).rejects.toBe(reason);
    await expect(read(arr, null, { signal: { aborted: true } })).rejects.toMatchObject({ name: "AbortError" });
    // Aborted while the chunks are read: seen at read's next check.
    const like = { aborted: false, reason: new Error("later") };
    const slow = imageStore();
    const get = slow.store.get.bind(slow.store);
    slow.store.get = async (key, opts) => {
      if (key.includes("/c")) like.aborted = true;
      return get(key, opts);
    };
    const { arr: slowArr } = await openImage(zarr, slow);
    await expect(read(slowArr, null, { signal: like })).rejects.toBe(like.reason);
    for (const signal of [5, "abort", { aborted: "no" }]) {
      await expectCodecRejection(read(arr, null, { signal }), "INVALID_INPUT", /^read: signal must be an AbortSignal \(an object with a boolean aborted\), got /);
    }
  });

  test("the caller's queue runs every chunk (here one at a time)", async () => {
    const { arr } = await openImage();
    let added = 0;
    let running = 0;
    let most = 0;
    const createQueue = () => {
      let chain = Promise.resolve();
      return {
        add(fn) {
          added += 1;
          chain = chain.then(async () => {
            most = Math.max(most, ++running);
            await fn();
            running -= 1;
          });
        },
        onIdle: () => chain,
      };
    };
    const out = await read(arr, null, { createQueue });
    expect(added).toBe(4 * 5);
    expect(most).toBe(1);
    expect(difference(out, await zarr.get(arr))).toBe("");
  });

  test("useSharedArrayBuffer gives an output on shared memory", async () => {
    const { arr } = await openImage();
    const out = await read(arr, null, { useSharedArrayBuffer: true });
    expect(Object.prototype.toString.call(out.data.buffer)).toBe("[object SharedArrayBuffer]");
    expect(difference(out, await zarr.get(arr))).toBe("");
  });
});

describe("failures", () => {
  test("a truncated chunk is the package's error naming the chunk; the rest of the array reads", async () => {
    const made = imageStore();
    const key = "/image/c/1/2";
    made.store.files.set(key, made.store.files.get(key).subarray(1));
    const { arr, values, shape } = await openImage(zarr, made);
    await expectCodecRejection(read(arr), "LENGTH_MISMATCH", /^read: chunk c\/1\/2 of array \/image: packbits: uint16 .* needs 384 bytes, got 383$/);
    const out = await read(arr, [zarr.slice(0, 16), null]);
    expect(Array.from(out.data)).toEqual(Array.from(selectReference(values, shape, [[0, 16, 1], [0, 70, 1]]).data));
  });

  test("a corrupt gzip chunk is the package's error (decoded in wasm: CORRUPT_DATA), the rest still reads", async () => {
    const store = memoryStore();
    const values = new Int16Array(randomBytes(2 * 12 * 12, 5).buffer);
    writeArray(store, "/g", { values, shape: [12, 12], chunkShape: [6, 6], dataType: "int16", fillValue: 0, fillElement: Int16Array.of(0), arrayToBytes: { name: "bytes", endian: "big" }, compressors: ["gzip"] });
    const good = await store.get("/g/c/0/1");
    store.set("/g/c/0/1", good.map((b, i) => (i > 10 ? b ^ 0x5a : b)));
    const arr = await zarr.open(zarr.root(store).resolve("g"), { kind: "array" });
    let error;
    try {
      await read(arr);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ZarrCodecError);
    expect(error.code).toBe("CORRUPT_DATA");
    expect(error.message).toMatch(/^read: chunk c\/0\/1 of array \/g: gzip: /);
    expect(difference(await read(arr, [zarr.slice(0, 6), zarr.slice(0, 6)]), await zarr.get(arr, [zarr.slice(0, 6), zarr.slice(0, 6)]))).toBe("");
  });

  test("a store's own error reaches the caller as it is", async () => {
    const made = imageStore();
    const get = made.store.get.bind(made.store);
    made.store.get = async (key, opts) => {
      if (key.endsWith("c/2/2")) throw new TypeError("network down");
      return get(key, opts);
    };
    const { arr } = await openImage(zarr, made);
    await expect(read(arr)).rejects.toThrow(new TypeError("network down"));
  });
});

describe("arrays of every origin", () => {
  test("Zarr v2, big-endian in Fortran order with zlib and a missing chunk, as zarr-python writes it", async () => {
    // An int32 array of shape [7, 10] in chunks of [4, 4], order F: each
    // chunk's bytes are its values column by column, big-endian, zlib'd.
    const shape = [7, 10];
    const values = new Int32Array(randomBytes(4 * 70, 9).buffer);
    const store = memoryStore();
    store.set("/v2/.zarray", encoder.encode(JSON.stringify({
      zarr_format: 2, shape, chunks: [4, 4], dtype: ">i4", order: "F", compressor: { id: "zlib", level: 1 }, filters: null, fill_value: -9,
    })));
    for (let ci = 0; ci < 2; ci++) {
      for (let cj = 0; cj < 3; cj++) {
        if (ci === 1 && cj === 1) {
          for (let i = 4; i < 7; i++) for (let j = 4; j < 8; j++) values[i * 10 + j] = -9;
          continue;
        }
        const chunk = new Int32Array(16);
        for (let j = 0; j < 4; j++) {
          for (let i = 0; i < 4; i++) {
            const [gi, gj] = [ci * 4 + i, cj * 4 + j];
            chunk[j * 4 + i] = gi < 7 && gj < 10 ? values[gi * 10 + gj] : 0;
          }
        }
        store.set(`/v2/${ci}.${cj}`, new Uint8Array(deflateSync(swapGroups(bytesOf(chunk), 4))));
      }
    }
    for (const z of [zarr, zarr05]) {
      const arr = await z.open(z.root(store).resolve("v2"), { kind: "array" });
      const { value: out, taken } = await pathsTaken(() => read(arr));
      expect(Array.from(out.data)).toEqual(Array.from(values));
      expect(taken).toMatchObject({ decoded: 5, filled: 1, viaZarrita: 0 });
      expect(difference(out, await z.get(arr))).toBe("");
    }
  });

  test("consolidated metadata (zarrita 0.7's withConsolidatedMetadata)", async () => {
    const made = imageStore();
    const doc = JSON.parse(new TextDecoder().decode(await made.store.get("/image/zarr.json")));
    made.store.set("/zarr.json", encoder.encode(JSON.stringify({
      zarr_format: 3, node_type: "group", attributes: {}, consolidated_metadata: { kind: "inline", must_understand: false, metadata: { image: doc } },
    })));
    const consolidated = await zarr.withConsolidatedMetadata(made.store);
    const arr = await zarr.open(zarr.root(consolidated).resolve("image"), { kind: "array" });
    const { value, taken } = await pathsTaken(() => read(arr));
    expect(Array.from(value.data)).toEqual(Array.from(made.values));
    expect(taken.decoded).toBe(20);
  });

  test("an array extension that replaces getChunk is honoured (its chunks go through it)", async () => {
    const { arr } = await openImage();
    const doubled = await zarr.extendArray(arr, zarr.defineArrayExtension((a) => ({
      async getChunk(coords, options) {
        const chunk = await a.getChunk(coords, options);
        return { ...chunk, data: chunk.data.map((v) => 2 * v) };
      },
    })));
    const { value, taken } = await pathsTaken(() => read(doubled));
    expect(taken.viaZarrita).toBe(20);
    expect(difference(value, await zarr.get(doubled))).toBe("");
  });

  test("variable-length strings (zarrita's arrays of JS values) go through zarrita and are placed value by value", async () => {
    // vlen-utf8 chunks by hand: a u32 count, then per string its u32
    // length and UTF-8 bytes.
    const strings = ["a", "", "😀x", "naïve", "z\u0000y", "end", "7", "ok"];
    const chunk = (items) => vlenBytesEncodeReference(items.map((t) => encoder.encode(t)));
    const store = memoryStore();
    store.set("/s/zarr.json", encoder.encode(JSON.stringify({
      zarr_format: 3, node_type: "array", shape: [2, 4], data_type: "string", fill_value: "",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [1, 3] } }, chunk_key_encoding: { name: "default" },
      codecs: [{ name: "vlen-utf8" }],
    })));
    store.set("/s/c/0/0", chunk(strings.slice(0, 3)));
    store.set("/s/c/0/1", chunk([strings[3], "pad", "pad"]));
    store.set("/s/c/1/0", chunk(strings.slice(4, 7)));
    store.set("/s/c/1/1", chunk([strings[7], "pad", "pad"]));
    const arr = await zarr.open(zarr.root(store).resolve("s"), { kind: "array" });
    const { value, taken } = await pathsTaken(() => read(arr));
    expect(value.data).toEqual(strings);
    expect(taken.viaZarrita).toBe(4);
    const part = await read(arr, [1, zarr.slice(1, 4, 2)]);
    expect(part.data).toEqual([strings[5], strings[7]]);
    expect(difference(part, await zarr.get(arr, [1, zarr.slice(1, 4, 2)]))).toBe("");
    await expectCodecRejection(read(arr, null, { into: new Uint8Array(8) }), "INVALID_INPUT", /^read: into must be an Array \(what zarr\.get returns for this array\), got a Uint8Array$/);
  });

  test("the metadata is asked for once at most: never for a plain store's unsharded array (zarrita's pipeline tells) or through withDataTypes (the document it gave zarrita), once in the array's own version through withN5", async () => {
    // Every request a store sees while read plans and reads each array.
    const logged = (store) => {
      const keys = [];
      return {
        keys,
        store: new Proxy(store, {
          get(t, prop) {
            if (prop === "get") return (key, opts) => (keys.push(key), t.get(key, opts));
            const v = Reflect.get(t, prop, t);
            return typeof v === "function" ? v.bind(t) : v;
          },
        }),
      };
    };
    const zarrayOf = () => memoryStore([["/b/.zarray", encoder.encode(JSON.stringify({ zarr_format: 2, shape: [4], chunks: [2], dtype: ">u2", order: "C", compressor: null, filters: null, fill_value: 0 }))]]);
    const v3 = logged(imageStore().store);
    const n5 = logged(new FileSystemStore(fixturePath("n5-store.n5")));
    const v2 = logged(zarrayOf());
    const v2Typed = logged(zarrayOf());
    // Plain stores, v3 and v2: the codecs zarrita built the array's
    // pipeline from, no request; a v2 array whose metadata withDataTypes
    // read: the document it gave zarrita, no request. N5 (withN5): one
    // document, in the array's own version, no 404 a browser would log.
    for (const [{ keys, store }, path, asked, never, wrap] of [
      [v3, "image", [], "zarr.json", (s) => s],
      [n5, "types/uint16", ["/types/uint16/attributes.json"], ".zarray", withN5],
      [v2Typed, "b", [], ".zarray", withDataTypes],
      [v2, "b", [], ".zarray", (s) => s],
    ]) {
      const arr = await zarr.open(zarr.root(wrap(store)).resolve(path), { kind: "array" });
      const opened = keys.length;
      await read(arr);
      const during = keys.slice(opened);
      for (const key of asked) expect(during.filter((k) => k === key)).toHaveLength(1);
      if (never) expect(during.some((k) => k.endsWith(never))).toBe(false);
      await read(arr);
      for (const key of asked) expect(keys.slice(opened).filter((k) => k === key)).toHaveLength(1); // the plan is kept
    }
  });

  test("concurrent reads of one array", async () => {
    const { arr } = await openImage();
    const selections = [null, [zarr.slice(3, 40), zarr.slice(1, 69, 2)], [7, null], [zarr.slice(0, 50, 5), 33]];
    const results = await Promise.all(selections.map((s) => read(arr, s)));
    for (let i = 0; i < selections.length; i++) expect(difference(results[i], await zarr.get(arr, selections[i]))).toBe("");
  });
});

describe("bands", () => {
  test("a read past the band budget, its chunks spanning several bands, keeps wasm memory bounded", async () => {
    // Rows of 12 MB: one row of chunks (4 rows) is 48 MB, more than a band
    // may hold (32 MiB), so it is split, and each chunk placed in two bands.
    const shape = [4, 12_000_000];
    const store = memoryStore();
    const present = new Uint8Array(randomBytes(4 * 3_000_000, 11));
    const values = new Uint8Array(product(shape)).fill(9);
    for (let i = 0; i < 4; i++) values.set(present.subarray(i * 3_000_000, (i + 1) * 3_000_000), i * 12_000_000 + 3_000_000);
    store.set("/big/zarr.json", encoder.encode(JSON.stringify({
      zarr_format: 3, node_type: "array", shape, data_type: "uint8", fill_value: 9,
      chunk_grid: { name: "regular", configuration: { chunk_shape: [4, 3_000_000] } },
      chunk_key_encoding: { name: "default" }, codecs: [{ name: "bytes" }],
    })));
    store.set("/big/c/0/1", present);
    const arr = await zarr.open(zarr.root(store).resolve("big"), { kind: "array" });
    const memory = diagnostics().wasmMemoryBytes();
    const { value, taken } = await pathsTaken(() => read(arr));
    expect(taken).toMatchObject({ copied: 1, filled: 3, viaZarrita: 0 });
    expect(Buffer.compare(Buffer.from(value.data.buffer), Buffer.from(values.buffer))).toBe(0);
    // A band of at most 32 MiB alive (one band, past the 16 MiB budget),
    // beside what the module held before.
    expect(diagnostics().wasmMemoryBytes() - memory).toBeLessThanOrEqual(40 << 20);
  });
});
