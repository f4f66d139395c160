// How pixels are drawn: the window [lo, hi] of the 12-bit values mapped to
// 0..255 gray, and masked pixels blended half-way to red.
export function renderRGBA(image, mask, { lo, hi, overlay }, out) {
  const scale = 255 / Math.max(1, hi - lo);
  for (let i = 0; i < image.length; i++) {
    const gray = Math.min(255, Math.max(0, Math.round((image[i] - lo) * scale)));
    const j = 4 * i;
    if (overlay && mask[i]) {
      out[j] = Math.round((gray + 255) / 2);
      out[j + 1] = Math.round(gray / 2);
      out[j + 2] = Math.round(gray / 2);
    } else {
      out[j] = out[j + 1] = out[j + 2] = gray;
    }
    out[j + 3] = 255;
  }
  return out;
}
