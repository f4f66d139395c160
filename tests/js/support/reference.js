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

/**
 * packbits, straight from the spec, one bit at a time with BigInt.
 * `layout`: { containerBytes, firstBit, bits, signed, isBool }; values are
 * the little-endian bytes of the component stream.
 */
export function packBitsEncodeReference(layout, valueBytes) {
  const { containerBytes, firstBit, bits, isBool } = layout;
  const components = valueBytes.length / containerBytes;
  const out = new Uint8Array(Math.ceil((components * bits) / 8));
  for (let c = 0; c < components; c++) {
    let v = 0n;
    for (let i = 0; i < containerBytes; i++) {
      v |= BigInt(valueBytes[c * containerBytes + i]) << BigInt(8 * i);
    }
    if (isBool) v = v !== 0n ? 1n : 0n;
    for (let j = 0; j < bits; j++) {
      if ((v >> BigInt(firstBit + j)) & 1n) {
        const pos = c * bits + j;
        out[pos >> 3] |= 1 << (pos & 7);
      }
    }
  }
  return out;
}

export function packBitsDecodeReference(layout, packed, components) {
  const { containerBytes, firstBit, bits, signed } = layout;
  const out = new Uint8Array(components * containerBytes);
  const width = BigInt(8 * containerBytes);
  for (let c = 0; c < components; c++) {
    let v = 0n;
    for (let j = 0; j < bits; j++) {
      const pos = c * bits + j;
      if ((packed[pos >> 3] >> (pos & 7)) & 1) v |= 1n << BigInt(firstBit + j);
    }
    const last = BigInt(firstBit + bits - 1);
    if (signed && (v >> last) & 1n) {
      v |= ((1n << width) - 1n) & ~((1n << (last + 1n)) - 1n);
    }
    for (let i = 0; i < containerBytes; i++) {
      out[c * containerBytes + i] = Number((v >> BigInt(8 * i)) & 0xffn);
    }
  }
  return out;
}
