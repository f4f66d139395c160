// Names for opened frames: the wasm side keeps the last frame's decoded
// bytes under its token (bindings/read_chain.h), so a chunk placed into a
// second band is not decompressed again.
// One sequence for every decoder, so no two frames share a name.
let last = 0;

/** A token no other open frame has (never 0, which names nothing). */
export function nextToken() {
  last = (last % 2 ** 52) + 1;
  return last;
}
