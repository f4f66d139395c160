// Byte helpers the JS fuzzers share: building and damaging frames, and the
// store a worker reads from (every answer a copy, so that nothing the
// package does to a store's bytes reaches the fuzzer's own).

export const u32le = (v) => [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff];

/** A copy of `b` with `bytes` written at `at` (unchanged where they do not fit). */
export function put(b, at, bytes) {
  const out = b.slice();
  if (at >= 0 && at + bytes.length <= b.length) out.set(bytes, at);
  return out;
}

/** The parts one after another. */
export function cat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A store over a Map of key -> bytes, with ranges; every answer a copy. */
export function copyingStore(map) {
  return {
    get: async (key) => map.get(key)?.slice(),
    getRange: async (key, range) => {
      const bytes = map.get(key);
      if (!bytes) return undefined;
      if (range.suffixLength !== undefined) return bytes.slice(bytes.length - range.suffixLength);
      return bytes.slice(range.offset, range.offset + range.length);
    },
  };
}
