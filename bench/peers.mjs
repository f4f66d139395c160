// The JavaScript peers of every case the benchmark measures, in two kinds:
//   plain: the straightforward loop a JS library writes;
//   tuned: what a careful engineer who did not want wasm would write:
//          lookup tables, 32-bit words, several values per step.
// Each peer returns the same bytes as the wasm codec; the benchmark checks
// that before timing it. Little-endian host, as the codecs assume.

const isLittle = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
if (!isLittle) throw new Error("bench: the peers assume a little-endian host");

// ---- bytes, big-endian --------------------------------------------------------

/** 16-bit values, two per 32-bit word: swap the bytes of both halves. */
function swap16(src) {
  const n = src.length >> 1;
  const out = new Uint16Array(n);
  const words = n >> 1;
  if (src.byteOffset % 4 === 0) {
    const s = new Uint32Array(src.buffer, src.byteOffset, words);
    const d = new Uint32Array(out.buffer, 0, words);
    for (let i = 0; i < words; i++) {
      const x = s[i];
      d[i] = ((x & 0xff00ff00) >>> 8) | ((x & 0x00ff00ff) << 8);
    }
  }
  for (let i = (src.byteOffset % 4 === 0 ? words * 2 : 0); i < n; i++) out[i] = (src[2 * i] << 8) | src[2 * i + 1];
  return out;
}

const bswap32 = (x) => ((x << 24) | ((x & 0xff00) << 8) | ((x >>> 8) & 0xff00) | (x >>> 24)) >>> 0;

/** 32-bit values: one word swap each. */
function swap32(src) {
  const n = src.length >> 2;
  const s = new Uint32Array(src.buffer, src.byteOffset, n);
  const d = new Uint32Array(n);
  for (let i = 0; i < n; i++) d[i] = bswap32(s[i]);
  return d;
}

/** 64-bit values: two word swaps each, the words exchanged. */
function swap64(src) {
  const n = src.length >> 2;
  const s = new Uint32Array(src.buffer, src.byteOffset, n);
  const d = new Uint32Array(n);
  for (let i = 0; i < n; i += 2) {
    d[i] = bswap32(s[i + 1]);
    d[i + 1] = bswap32(s[i]);
  }
  return d;
}

export const byteswapPeers = {
  tuned: { int16: swap16, float32: swap32, float64: swap64 },
};

// ---- packbits -----------------------------------------------------------------

// bool: each packed byte's 8 bits as 8 bytes of 0/1: two 32-bit words from
// two 16-entry tables (low and high nibble).
const NIBBLE_WORDS = Uint32Array.from({ length: 16 }, (_, v) => (v & 1) | ((v >> 1) & 1) << 8 | ((v >> 2) & 1) << 16 | ((v >> 3) & 1) << 24);
// 4-bit: each packed byte as two bytes (low nibble first): one 16-bit word.
const NIBBLE_PAIRS = Uint16Array.from({ length: 256 }, (_, b) => (b & 15) | (b >> 4) << 8);

export const decodePeers = {
  plain: {
    "bool": (p, n) => {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = (p[i >> 3] >> (i & 7)) & 1;
      return out;
    },
    "uint8 4-bit": (p, n) => {
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i += 2) {
        const b = p[i >> 1];
        out[i] = b & 15;
        if (i + 1 < n) out[i + 1] = b >> 4;
      }
      return out;
    },
    "uint16 12-bit": (p, n) => {
      const out = new Uint16Array(n);
      for (let i = 0, j = 0; i < n; i += 2, j += 3) {
        out[i] = p[j] | ((p[j + 1] & 15) << 8);
        if (i + 1 < n) out[i + 1] = (p[j + 1] >> 4) | (p[j + 2] << 4);
      }
      return out;
    },
    // Bits 3..12 of int16: a 10-bit field shifted back and sign-extended.
    "int16 bits 3..12": (p, n) => {
      const out = new Int16Array(n);
      let acc = 0, have = 0, pos = 0;
      for (let i = 0; i < n; i++) {
        while (have < 10) {
          acc |= p[pos++] << have;
          have += 8;
        }
        out[i] = ((acc & 1023) << 22) >> 19; // to bit 3, sign from bit 12
        acc >>>= 10;
        have -= 10;
      }
      return out;
    },
  },
  tuned: {
    "bool": (p, n) => {
      const out = new Uint8Array((n + 7) & ~7);
      const w = new Uint32Array(out.buffer);
      for (let j = 0; j < p.length; j++) {
        const b = p[j];
        w[2 * j] = NIBBLE_WORDS[b & 15];
        w[2 * j + 1] = NIBBLE_WORDS[b >> 4];
      }
      return n % 8 ? out.subarray(0, n) : out;
    },
    "uint8 4-bit": (p, n) => {
      const out = new Uint8Array((n + 1) & ~1);
      const w = new Uint16Array(out.buffer);
      for (let j = 0; j < p.length; j++) w[j] = NIBBLE_PAIRS[p[j]];
      return n % 2 ? out.subarray(0, n) : out;
    },
    // Two values from each three bytes, read as one 32-bit word where four
    // bytes remain.
    "uint16 12-bit": (p, n) => {
      const out = new Uint16Array(n);
      const pairs = n >> 1;
      let j = 0, i = 0;
      for (; i < pairs - 1; i++, j += 3) {
        const x = p[j] | (p[j + 1] << 8) | (p[j + 2] << 16);
        out[2 * i] = x & 4095;
        out[2 * i + 1] = x >>> 12;
      }
      for (; 2 * i < n; i++, j += 3) {
        out[2 * i] = p[j] | ((p[j + 1] & 15) << 8);
        if (2 * i + 1 < n) out[2 * i + 1] = (p[j + 1] >> 4) | (p[j + 2] << 4);
      }
      return out;
    },
    // Four 10-bit fields from each five bytes: a 32-bit word and one byte.
    "int16 bits 3..12": (p, n) => {
      const out = new Int16Array(n);
      const quads = n >> 2;
      let j = 0;
      for (let q = 0; q < quads; q++, j += 5) {
        const lo = p[j] | (p[j + 1] << 8) | (p[j + 2] << 16) | (p[j + 3] << 24);
        const hi = p[j + 4];
        const o = 4 * q;
        out[o] = ((lo & 1023) << 22) >> 19;
        out[o + 1] = (((lo >>> 10) & 1023) << 22) >> 19;
        out[o + 2] = (((lo >>> 20) & 1023) << 22) >> 19;
        out[o + 3] = ((((lo >>> 30) | (hi << 2)) & 1023) << 22) >> 19;
      }
      let acc = 0, have = 0, pos = j;
      for (let i = quads * 4; i < n; i++) {
        while (have < 10) {
          acc |= p[pos++] << have;
          have += 8;
        }
        out[i] = ((acc & 1023) << 22) >> 19;
        acc >>>= 10;
        have -= 10;
      }
      return out;
    },
  },
};

// Bools to bits: a byte's 8 values, gathered from two 32-bit words.
function packBoolWords(v) {
  const n = v.length;
  const out = new Uint8Array(Math.ceil(n / 8));
  const whole = n >> 3;
  if (v.byteOffset % 4 === 0) {
    const w = new Uint32Array(v.buffer, v.byteOffset, whole * 2);
    for (let j = 0; j < whole; j++) {
      // Any non-zero byte is true: fold each byte to its lowest bit first.
      let a = w[2 * j], b = w[2 * j + 1];
      a = (a | (a >>> 4)) & 0x0f0f0f0f; a = (a | (a >>> 2)) & 0x03030303; a = (a | (a >>> 1)) & 0x01010101;
      b = (b | (b >>> 4)) & 0x0f0f0f0f; b = (b | (b >>> 2)) & 0x03030303; b = (b | (b >>> 1)) & 0x01010101;
      a = (a * 0x01020408) >>> 24; // byte k's bit to bit 24 + k
      b = (b * 0x01020408) >>> 24;
      out[j] = a | (b << 4);
    }
  }
  for (let i = (v.byteOffset % 4 === 0 ? whole * 8 : 0); i < n; i++) if (v[i]) out[i >> 3] |= 1 << (i & 7);
  return out;
}

export const encodePeers = {
  plain: {
    "bool": (v) => {
      const out = new Uint8Array(Math.ceil(v.length / 8));
      for (let i = 0; i < v.length; i++) if (v[i]) out[i >> 3] |= 1 << (i & 7);
      return out;
    },
    "uint8 4-bit": (v) => {
      const out = new Uint8Array(Math.ceil(v.length / 2));
      for (let i = 0; i < v.length; i += 2) {
        out[i >> 1] = (v[i] & 15) | (i + 1 < v.length ? (v[i + 1] & 15) << 4 : 0);
      }
      return out;
    },
    "uint16 12-bit": (v) => {
      const n = v.length;
      const out = new Uint8Array(Math.ceil((n * 12) / 8));
      for (let i = 0, j = 0; i < n; i += 2, j += 3) {
        const a = v[i] & 4095;
        const b = i + 1 < n ? v[i + 1] & 4095 : 0;
        out[j] = a & 255;
        out[j + 1] = (a >> 8) | ((b & 15) << 4);
        if (i + 1 < n) out[j + 2] = b >> 4;
      }
      return out;
    },
    "int16 bits 3..12": (v) => {
      const out = new Uint8Array(Math.ceil((v.length * 10) / 8));
      let acc = 0, have = 0, pos = 0;
      for (let i = 0; i < v.length; i++) {
        acc |= ((v[i] >> 3) & 1023) << have;
        have += 10;
        while (have >= 8) {
          out[pos++] = acc & 255;
          acc >>>= 8;
          have -= 8;
        }
      }
      if (have > 0) out[pos] = acc & 255;
      return out;
    },
  },
  tuned: {
    "bool": packBoolWords,
    // Two values per byte from one 16-bit word.
    "uint8 4-bit": (v) => {
      const n = v.length;
      const out = new Uint8Array(Math.ceil(n / 2));
      const pairs = n >> 1;
      if (v.byteOffset % 2 === 0) {
        const w = new Uint16Array(v.buffer, v.byteOffset, pairs);
        for (let j = 0; j < pairs; j++) {
          const x = w[j];
          out[j] = (x & 15) | ((x >> 4) & 0xf0);
        }
      }
      if (n % 2) out[pairs] = v[n - 1] & 15;
      return out;
    },
    // Two values into three bytes with one 24-bit word.
    "uint16 12-bit": (v) => {
      const n = v.length;
      const out = new Uint8Array(Math.ceil((n * 12) / 8));
      const pairs = n >> 1;
      for (let i = 0, j = 0; i < pairs; i++, j += 3) {
        const x = (v[2 * i] & 4095) | ((v[2 * i + 1] & 4095) << 12);
        out[j] = x;
        out[j + 1] = x >>> 8;
        out[j + 2] = x >>> 16;
      }
      if (n % 2) {
        const a = v[n - 1] & 4095;
        out[3 * pairs] = a & 255;
        out[3 * pairs + 1] = a >> 8;
      }
      return out;
    },
    // Four 10-bit fields into five bytes.
    "int16 bits 3..12": (v) => {
      const n = v.length;
      const out = new Uint8Array(Math.ceil((n * 10) / 8));
      const quads = n >> 2;
      let j = 0;
      for (let q = 0; q < quads; q++, j += 5) {
        const o = 4 * q;
        const a = (v[o] >> 3) & 1023, b = (v[o + 1] >> 3) & 1023, c = (v[o + 2] >> 3) & 1023, d = (v[o + 3] >> 3) & 1023;
        const lo = a | (b << 10) | (c << 20) | (d << 30);
        out[j] = lo;
        out[j + 1] = lo >>> 8;
        out[j + 2] = lo >>> 16;
        out[j + 3] = lo >>> 24;
        out[j + 4] = d >> 2;
      }
      let acc = 0, have = 0, pos = j;
      for (let i = quads * 4; i < n; i++) {
        acc |= ((v[i] >> 3) & 1023) << have;
        have += 10;
        while (have >= 8) {
          out[pos++] = acc & 255;
          acc >>>= 8;
          have -= 8;
        }
      }
      if (have > 0) out[pos] = acc & 255;
      return out;
    },
  },
};

/** The packbits configuration and container of each case. */
export const packbitsCases = {
  "bool": { dataType: "bool", config: {}, ArrayType: Uint8Array },
  "uint8 4-bit": { dataType: "uint8", config: { last_bit: 3 }, ArrayType: Uint8Array },
  "uint16 12-bit": { dataType: "uint16", config: { last_bit: 11 }, ArrayType: Uint16Array },
  "int16 bits 3..12": { dataType: "int16", config: { first_bit: 3, last_bit: 12 }, ArrayType: Int16Array },
};

// ---- widening to float32 ---------------------------------------------------------

/**
 * A table of every code's float32 bits, for the tuned peers, from the
 * format's definition (as a careful JS engineer would build it once).
 */
export function widenTable(exponentBits, mantissaBits, bias, kind) {
  const size = 2 ** (1 + exponentBits + mantissaBits);
  const f = new Float32Array(size);
  const bits = new Uint32Array(f.buffer);
  for (let c = 0; c < size; c++) {
    const sign = c >> (exponentBits + mantissaBits) ? -1 : 1;
    const e = (c >> mantissaBits) & (2 ** exponentBits - 1);
    const m = c & (2 ** mantissaBits - 1);
    if (kind === "ieee" && e === 2 ** exponentBits - 1) {
      // Infinity, or NaN with its payload at the top of the mantissa (the
      // codec keeps payloads; the table does too, so both give the same bits).
      bits[c] = (sign < 0 ? 0x80000000 : 0) | 0x7f800000 | (m << (23 - mantissaBits));
    } else {
      f[c] = sign * (e === 0 ? (m / 2 ** mantissaBits) * 2 ** (1 - bias) : (1 + m / 2 ** mantissaBits) * 2 ** (e - bias));
    }
  }
  return bits;
}

const E4M3 = widenTable(4, 3, 7, "ieee");
const E2M1 = widenTable(2, 1, 1, "fn");
// float4 packed two per byte: each packed byte's two values as one table
// entry of two 32-bit words.
const E2M1_PAIRS = (() => {
  const t = new Uint32Array(512);
  for (let b = 0; b < 256; b++) {
    t[2 * b] = E2M1[b & 15];
    t[2 * b + 1] = E2M1[b >> 4];
  }
  return t;
})();

/** Tuned JS widening: 32-bit table lookups, bit patterns as integers. */
export const widenPeers = {
  "bfloat16 (bytes)": {
    dataType: "bfloat16", codec: "bytes", config: { endian: "little" }, codeBytes: 2,
    tuned: (src) => {
      const n = src.length >> 1;
      const s = new Uint16Array(src.buffer, src.byteOffset, n);
      const out = new Uint32Array(n);
      for (let i = 0; i < n; i++) out[i] = s[i] << 16;
      return out;
    },
  },
  "float8_e4m3 (bytes)": {
    dataType: "float8_e4m3", codec: "bytes", config: {}, codeBytes: 1,
    tuned: (src) => {
      const out = new Uint32Array(src.length);
      for (let i = 0; i < src.length; i++) out[i] = E4M3[src[i]];
      return out;
    },
  },
  "float4_e2m1fn (packbits)": {
    dataType: "float4_e2m1fn", codec: "packbits", config: {}, codeBytes: 0.5,
    tuned: (src) => {
      const out = new Uint32Array(src.length * 2);
      for (let j = 0; j < src.length; j++) {
        const b = src[j];
        out[2 * j] = E2M1_PAIRS[2 * b];
        out[2 * j + 1] = E2M1_PAIRS[2 * b + 1];
      }
      return out;
    },
  },
};
