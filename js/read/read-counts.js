// How many chunks each of read's paths has taken in this realm, for
// diagnostics().reads(): tests prove with it that the fast path ran, and a
// viewer can tell why a read is slower than it should be.
// `decompressed` counts, besides its path, each chunk whose compressed
// frame was decoded in wasm on its way into place (the chain in wasm).
// `cached` counts chunks a read took from a chunk cache that already had
// them (or had them on their way: cache/cached-chunk.js).
const counts = { decoded: 0, n5: 0, copied: 0, filled: 0, viaZarrita: 0, decompressed: 0, cached: 0 };

/** @param {"decoded" | "n5" | "copied" | "filled" | "viaZarrita" | "decompressed" | "cached"} path */
export function countRead(path) {
  counts[path] += 1;
}

// The path each of read's decoders (decode/chunk-decoder.js's kinds) counts
// a chunk it decoded as.
const DECODER_PATHS = { codec: "decoded", values: "decoded", n5: "n5", copy: "copied" };

/** The count a chunk decoded by read's decoder of `kind` (in this thread or a pool's worker) goes to. */
export function decodedPath(kind) {
  return DECODER_PATHS[kind];
}

/** Counts a chunk decoded by read's decoder of `kind`. */
export function countDecodedBy(kind) {
  counts[decodedPath(kind)] += 1;
}

/** A snapshot of the counts. */
export function readCounts() {
  return { ...counts };
}
