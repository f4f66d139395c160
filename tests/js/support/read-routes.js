// The ways of calling read that a store's fault must reach alike (the
// network fault suites run each case through every one): plain, into the
// caller's buffer, uncoalesced, through a read pool, through a chunk
// cache; and the values a window of a row-major image holds, to check
// what each returns.
import { createChunkCache, read } from "../../../js/index.js";

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

/** Rows r0..r1, columns c0..c1 of a `side` x `side` row-major image, as a list. */
export function windowOf(values, side, r0, r1, c0, c1) {
  const out = [];
  for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) out.push(values[r * side + c]);
  return out;
}
