// Independent JS references the tests compare the wasm codecs against. They
// follow the spec texts directly and share no code with the package.

/** Reverses each `width`-byte group (the bytes codec's big-endian layout). */
export function swapGroups(bytes, width) {
  const out = new Uint8Array(bytes.length);
  for (let g = 0; g < bytes.length; g += width) {
    for (let i = 0; i < width; i++) out[g + i] = bytes[g + width - 1 - i];
  }
  return out;
}

/** Deterministic pseudo-random bytes (xorshift32), so failures reproduce. */
export function randomBytes(n, seed) {
  let x = seed >>> 0 || 1;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

/** The bytes behind any TypedArray-like value. */
export function bytesOf(data) {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

export function hex(data) {
  return Buffer.from(bytesOf(data)).toString("hex");
}
