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

/**
 * float32 -> a narrow format's code by the write rules of docs/data-types.md's
 * table, found by listing every finite value and taking the nearest (ties
 * to the even code) rather than by bit arithmetic; null where the format
 * cannot hold the value (float4/float6 NaN and infinities; e8m0 zero and
 * negatives).
 */
export function narrowReference(name, x) {
  const [E, M, , kind] = FLOAT_FORMATS[name];
  const bits = floatFormatBits(name);
  const signBit = kind === "e8m0" ? 0 : 2 ** (bits - 1);
  x = Math.fround(x);
  if (Number.isNaN(x)) return kind === "fn" ? null : nanCodeOf(name);
  if (kind === "e8m0" && (x < 0 || Object.is(x, -0) || x === 0)) return null;
  if (!Number.isFinite(x)) {
    if (kind === "fn") return null;
    if (kind === "ieee") return (x < 0 ? signBit : 0) | ((2 ** E - 1) * 2 ** M);
    return nanCodeOf(name);
  }
  // Finite magnitudes of the format, ascending, with their codes.
  const mags = [];
  for (let c = 0; c < (kind === "e8m0" ? 255 : signBit); c++) {
    const v = floatFormatValue(name, c);
    if (Number.isFinite(v)) mags.push([v, c]);
  }
  const [max, maxCode] = mags[mags.length - 1];
  const step = kind === "e8m0" ? max : max - mags[mags.length - 2][0];
  mags.push([max + step, maxCode + 1]); // where rounding overflows
  const a = Math.abs(x);
  let best = mags[0];
  for (const m of mags) {
    const d = Math.abs(a - m[0]);
    const bd = Math.abs(a - best[0]);
    if (d < bd || (d === bd && m[1] % 2 === 0)) best = m;
  }
  const sign = x < 0 || Object.is(x, -0) ? signBit : 0;
  if (best[1] === maxCode + 1) {
    if (kind === "ieee") return sign | ((2 ** E - 1) * 2 ** M);
    if (kind === "fn") return sign | maxCode;
    return nanCodeOf(name);
  }
  if (kind === "fnuz" && best[1] === 0) return 0; // no -0
  return sign | best[1];
}

const NAN_CODES = {
  float16: 0x7e00, bfloat16: 0x7fc0, float8_e3m4: 0x78, float8_e4m3: 0x7c, float8_e5m2: 0x7e,
  float8_e4m3fnuz: 0x80, float8_e4m3b11fnuz: 0x80, float8_e5m2fnuz: 0x80, float8_e8m0fnu: 0xff,
};
/** The "NaN" fill code of each format's zarr-extensions page. */
export const nanCodeOf = (name) => NAN_CODES[name];
