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

// The narrow float formats of zarr-extensions, from their pages: [exponent
// bits, mantissa bits, bias, special codes]. "ieee": exponent all ones is
// infinity (mantissa 0) or NaN; "fnuz": 0x80 is NaN, no infinity, no -0;
// "e8m0": powers of two, 0xFF NaN; "fn": every code a number.
export const FLOAT_FORMATS = {
  float16: [5, 10, 15, "ieee"],
  bfloat16: [8, 7, 127, "ieee"],
  float8_e3m4: [3, 4, 3, "ieee"],
  float8_e4m3: [4, 3, 7, "ieee"],
  float8_e5m2: [5, 2, 15, "ieee"],
  float8_e4m3fnuz: [4, 3, 8, "fnuz"],
  float8_e4m3b11fnuz: [4, 3, 11, "fnuz"],
  float8_e5m2fnuz: [5, 2, 16, "fnuz"],
  float8_e8m0fnu: [8, 0, 127, "e8m0"],
  float6_e2m3fn: [2, 3, 1, "fn"],
  float6_e3m2fn: [3, 2, 3, "fn"],
  float4_e2m1fn: [2, 1, 1, "fn"],
};

/** A code's value, from the format's definition (NaN where it says NaN). */
export function floatFormatValue(name, code) {
  const [E, M, bias, kind] = FLOAT_FORMATS[name];
  if (kind === "e8m0") return code === 0xff ? NaN : 2 ** (code - 127);
  if (kind === "fnuz" && code === 0x80) return NaN;
  const sign = code >> (E + M) ? -1 : 1;
  const e = (code >> M) & (2 ** E - 1);
  const m = code & (2 ** M - 1);
  if (kind === "ieee" && e === 2 ** E - 1) return m ? NaN : sign * Infinity;
  return sign * (e === 0 ? (m / 2 ** M) * 2 ** (1 - bias) : (1 + m / 2 ** M) * 2 ** (e - bias));
}

/** The bits of a format's codes: 1 + E + M (8 for float8_e8m0fnu). */
export function floatFormatBits(name) {
  const [E, M, , kind] = FLOAT_FORMATS[name];
  return kind === "e8m0" ? 8 : 1 + E + M;
}

// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), bit by bit.
export function crc32c(bytes) {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
