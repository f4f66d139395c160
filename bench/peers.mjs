// The plain-JS peers: straightforward loops a JS library would write for
// each packbits case, least significant bit first as the spec says. The
// benchmark checks that each gives the same bytes as the wasm codec before
// timing it.

export const decodePeers = {
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
      out[i] = (((acc & 1023) << 22) >> 19); // to bit 3, sign from bit 12
      acc >>>= 10;
      have -= 10;
    }
    return out;
  },
};

export const encodePeers = {
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
};

/** The packbits configuration and container of each case. */
export const packbitsCases = {
  "bool": { dataType: "bool", config: {}, ArrayType: Uint8Array },
  "uint8 4-bit": { dataType: "uint8", config: { last_bit: 3 }, ArrayType: Uint8Array },
  "uint16 12-bit": { dataType: "uint16", config: { last_bit: 11 }, ArrayType: Uint16Array },
  "int16 bits 3..12": { dataType: "int16", config: { first_bit: 3, last_bit: 12 }, ArrayType: Int16Array },
};
