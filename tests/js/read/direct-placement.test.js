// Little-endian chunks placed from JavaScript, one copy per contiguous run:
// the runs worked out by hand for a few layouts, and reads that take the
// path held against the values written (hand-store.js encodes them).
import { beforeAll, describe, expect, test } from "@jest/globals";
import * as zarr from "zarrita";
import { read, ready } from "../../../js/index.js";
import { runsOf } from "../../../js/read/place/direct-placement.js";
import { writeArray, selectReference } from "../support/hand-store.js";
import { memoryStore } from "../support/memory-store.js";
import { pathsTaken } from "../support/read-compare.js";

beforeAll(() => ready());

describe("runs", () => {
  // A [4, 6] chunk of uint16 (row: 12 bytes).
  test("the whole chunk into an output of the chunk's width: one run of 48 bytes", () => {
    const layout = runsOf([{ from: 0, count: 4, step: 1, out: 0 }, { from: 0, count: 6, step: 1, out: 0 }], [4, 6], [12, 2], 2);
    expect(layout).toEqual({ run: 48, outer: [], src: 0, dst: 0 });
  });

  test("the whole chunk into a wider output (rows of 20 bytes): one run per row", () => {
    const layout = runsOf([{ from: 0, count: 4, step: 1, out: 2 }, { from: 0, count: 6, step: 1, out: 4 }], [4, 6], [20, 2], 2);
    expect(layout).toEqual({ run: 12, outer: [{ count: 4, src: 12, dst: 20 }], src: 0, dst: 2 * 20 + 4 * 2 });
  });

  test("columns 1..3 of rows 1..2: runs of 6 bytes, from byte 14 of the chunk", () => {
    const layout = runsOf([{ from: 1, count: 2, step: 1, out: 0 }, { from: 1, count: 3, step: 1, out: 0 }], [4, 6], [6, 2], 2);
    expect(layout).toEqual({ run: 6, outer: [{ count: 2, src: 12, dst: 6 }], src: 14, dst: 0 });
  });

  test("an integer index on the last axis: one element a run", () => {
    const layout = runsOf([{ from: 0, count: 4, step: 1, out: 0 }, { from: 5, count: 1, step: 1, out: 0 }], [4, 6], [2, 0], 2);
    expect(layout.run).toBe(2);
  });
});

test("a chunk-aligned tile of a little-endian image lands with one copy a chunk; fills too", async () => {
  const shape = [256, 384];
  const values = Uint16Array.from({ length: shape[0] * shape[1] }, (_, i) => (i * 7919) & 0xfff);
  const files = new Map();
  // The chunk at (1, 2) is missing: it reads as the fill, 4095.
  writeArray(files, "/image", { shape, chunkShape: [128, 128], dataType: "uint16", values, fillValue: 4095, fillElement: Uint16Array.of(4095), missing: ([r, c]) => r === 1 && c === 2 });
  const arr = await zarr.open(zarr.root(memoryStore([...files])).resolve("image"), { kind: "array" });
  const expected = values.slice();
  for (let y = 128; y < 256; y++) expected.fill(4095, y * 384 + 256, y * 384 + 384);
  for (const [selection, ref] of [
    [[zarr.slice(0, 128), zarr.slice(128, 256)], [[0, 128, 1], [128, 256, 1]]],
    [null, null],
    [[zarr.slice(100, 200), zarr.slice(200, 384)], [[100, 200, 1], [200, 384, 1]]],
  ]) {
    const into = new Uint16Array(ref ? (ref[0][1] - ref[0][0]) * (ref[1][1] - ref[1][0]) : values.length);
    const { value, taken } = await pathsTaken(() => read(arr, selection, { into }));
    expect(value.data).toBe(into);
    const want = selectReference(expected, shape, ref).data;
    expect(Buffer.from(into.buffer).equals(Buffer.from(want.buffer))).toBe(true);
    expect(taken.copied + taken.filled).toBeGreaterThan(0);
  }
});
