// A sharded array's shard shape, asked of zarrita itself, so that read
// need not fetch the array's zarr.json again on a plain store.
//
// zarrita keeps the metadata it opened private; its pipeline knows the
// inner chunks' codecs and shape (pipeline-probe.js), not the shards. But
// its sharded chunk getter (zarrita 0.5, 0.6 and 0.7 alike) turns an inner
// chunk's coordinates into its shard's key with the shard shape, and
// resolves that key against the array (`location.resolve(key)`) before
// it fetches anything. read asks the getter for inner chunks along each
// axis, with `resolve` answering by throwing the key back: no request is
// made, and the smallest coordinate whose shard key differs from chunk
// 0's is the number of inner chunks per shard along that axis.
//
// What the getter does not show is how the index is stored: read takes
// what zarr-python, zarrs and TensorStore write by default (at the shard's
// end, little-endian, with a crc32c: zarrita 0.5 and 0.6 read no other) and
// verifies it on every index it fetches; where it does not hold, read
// reads the document after all (fetch/chunk-source.js).

const LIMIT = 1 << 24; // inner chunks per shard along one axis, searched up to

class KeyAnswer {
  constructor(key) {
    this.key = key;
  }
}

/**
 * The inner chunks per shard along each axis, or undefined where the
 * getter cannot be asked (not zarrita's, or the array not extensible).
 * @param {object} arr the zarrita Array
 * @param {import("./zarrita-array.js").ZarritaArray} za
 * @returns {number[] | undefined}
 */
export function innerChunksPerShard(arr, za) {
  if (!za.sharded || !za.chunkBytes || !Object.isExtensible(arr) || Object.getOwnPropertyDescriptor(arr, "resolve") !== undefined) return undefined;
  // The getter is asynchronous: the thrown key rejects its promise,
  // handled here; `resolve` saw the key first, synchronously.
  const ask = (coords) => {
    try {
      za.chunkBytes(coords)?.catch?.(() => {});
    } catch {
      // A getter that threw at once: the key, if any, was seen.
    }
  };
  let asked;
  Object.defineProperty(arr, "resolve", {
    configurable: true,
    value(key) {
      asked = key;
      throw new KeyAnswer(key);
    },
  });
  try {
    const rank = za.shape.length;
    const keyAt = (axis, x) => {
      asked = undefined;
      const coords = new Array(rank).fill(0);
      coords[axis] = x;
      ask(coords);
      return asked;
    };
    const origin = keyAt(0, 0);
    if (typeof origin !== "string") return undefined;
    const perShard = [];
    for (let axis = 0; axis < rank; axis++) {
      // Doubling, then halving: the smallest x whose shard is not 0's.
      let hi = 1;
      while (hi <= LIMIT && keyAt(axis, hi) === origin) hi *= 2;
      if (hi > LIMIT) return undefined;
      let lo = hi / 2; // its shard is 0's (or lo is 0.5 for hi = 1)
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (keyAt(axis, mid) === origin) lo = mid;
        else hi = mid;
      }
      perShard.push(hi);
    }
    return perShard;
  } finally {
    delete arr.resolve;
  }
}
