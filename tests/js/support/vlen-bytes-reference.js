// The vlen-bytes layout as the codec page (zarr-extensions codecs/vlen-bytes)
// and numcodecs' VLenBytes define it, written without the package: a u32
// little-endian item count, then per item a u32 little-endian length and its
// bytes. The tests' independent encoder and decoder.

/** Items (Uint8Arrays) -> the chunk's bytes. */
export function vlenBytesEncodeReference(items) {
  const total = items.reduce((n, item) => n + 4 + item.length, 4);
  const out = new Uint8Array(total);
  const put = (at, v) => {
    for (let k = 0; k < 4; k++) out[at + k] = (v >>> (8 * k)) & 0xff;
  };
  put(0, items.length);
  let at = 4;
  for (const item of items) {
    put(at, item.length);
    out.set(item, at + 4);
    at += 4 + item.length;
  }
  return out;
}

/** The chunk's bytes -> items (copies), or null where the layout does not hold for `n` items. */
export function vlenBytesDecodeReference(bytes, n) {
  const u32 = (at) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] * 2 ** 24);
  if (bytes.length < 4 || u32(0) !== n) return null;
  const items = [];
  let at = 4;
  for (let i = 0; i < n; i++) {
    if (bytes.length - at < 4) return null;
    const length = u32(at);
    at += 4;
    if (bytes.length - at < length) return null;
    items.push(bytes.slice(at, at + length));
    at += length;
  }
  return at === bytes.length ? items : null;
}
