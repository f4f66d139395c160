// The ways of calling read that a store's fault must reach alike (the
// network fault suites run each case through every one): plain, into the
// caller's buffer, uncoalesced, through a read pool, through a chunk
// cache; the values a window of a row-major image holds, to check what
// each returns; and zarr.get's outcome on such a store, which may refuse
// but never give other values.
import { expect } from "@jest/globals";
import { createChunkCache, read } from "../../../js/index.js";
import { selectReference } from "./hand-store.js";

/**
 * @param {() => object} poolOf  the suite's read pool (made in its beforeAll)
 * @returns {Record<string, (arr: object, selection: {start: number, stop: number}[], options: object) => Promise<object>>}
 */
export function readRoutes(poolOf) {
  return {
    read: (arr, sel, o) => read(arr, sel, o),
    "read into": (arr, sel, o) => read(arr, sel, { ...o, into: new Uint16Array(sel.reduce((n, a) => n * (a.stop - a.start), 1)) }),
    "read, uncoalesced": (arr, sel, o) => read(arr, sel, { ...o, coalesce: false }),
    "read pool": (arr, sel, o) => read(arr, sel, { ...o, pool: poolOf() }),
    "chunk cache": (arr, sel, o) => read(arr, sel, { ...o, cache: createChunkCache() }),
  };
}

/** Each route, without and with a read scheduler: [route, scheduled]. */
export const withAndWithoutScheduler = (routes) => Object.keys(routes).flatMap((route) => [[route, false], [route, true]]);

/** Rows r0..r1, columns c0..c1 of a `side` x `side` row-major image, as a list (hand-store.js selectReference). */
export function windowOf(values, side, r0, r1, c0, c1) {
  return Array.from(selectReference(values, [side, side], [[r0, r1, 1], [c0, c1, 1]]).data);
}

/** zarr.get's `promise` on a faulty store: "refused", or "right" once its values are `want` (others fail the test). */
export async function neverWrong(promise, want) {
  let got;
  try {
    got = await promise;
  } catch {
    return "refused";
  }
  expect(Array.from(got.data)).toEqual(want);
  return "right";
}
