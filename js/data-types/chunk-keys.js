// Chunk keys of arrays with a trailing dimension (complex, raw bytes,
// records): zarrita asks for the presented key, with the trailing
// dimension's coordinate (always 0); the store has the stored key without
// it.

/** The stored key for `rest` (the key after the array's path), or undefined. */
export function storedChunkKey(p, path, rest) {
  const { name, separator } = p.encoding;
  let coords;
  if (name === "default") {
    if (rest !== "c" && !rest.startsWith(`c${separator}`)) return undefined;
    coords = rest === "c" ? [] : rest.slice(2).split(separator);
  } else {
    coords = rest.split(separator);
  }
  if (coords.length !== p.rank || coords[coords.length - 1] !== "0") return undefined;
  coords.pop();
  // The same encoding, over the stored coordinates.
  return presentedChunkKey(p, path, coords);
}

/** The presented key of the chunk at `coords` (presented coordinates). */
export function presentedChunkKey(p, path, coords) {
  const { name, separator } = p.encoding;
  const rest = name === "default" ? ["c", ...coords].join(separator) : coords.join(separator) || "0";
  return `${path}/${rest}`;
}
