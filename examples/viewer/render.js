// How pixels are drawn: the window [lo, hi] of the values mapped to 0..255
// gray (int64 values as the nearest Number), NaN in magenta, and pixels of
// the overlay mask blended half-way to red.
export const NAN_RGB = [255, 0, 255];

export function renderRGBA(values, mask, { lo, hi, overlay }, out) {
  const scale = hi > lo ? 255 / (hi - lo) : 0;
  for (let i = 0; i < values.length; i++) {
    const v = Number(values[i]);
    const j = 4 * i;
    out[j + 3] = 255;
    if (Number.isNaN(v)) {
      [out[j], out[j + 1], out[j + 2]] = NAN_RGB;
      continue;
    }
    const gray = Math.min(255, Math.max(0, Math.round((v - lo) * scale)));
    if (overlay && mask && mask[i]) {
      out[j] = Math.round((gray + 255) / 2);
      out[j + 1] = Math.round(gray / 2);
      out[j + 2] = Math.round(gray / 2);
    } else {
      out[j] = out[j + 1] = out[j + 2] = gray;
    }
  }
  return out;
}

const SUB_BYTE = { int2: [-2, 1], uint2: [0, 3], int4: [-8, 7], uint4: [0, 15] };

/**
 * The contrast window's range: what the stored type can hold where that is
 * narrow (bool, int2/4, uint2/4, the bit range of a packbits integer),
 * otherwise the finite minimum and maximum of the slice.
 */
export function valueRange(info, values) {
  if (info.presented === "bool") return [0, 1];
  if (typeof info.stored === "string" && SUB_BYTE[info.stored]) return SUB_BYTE[info.stored];
  if (info.bitRange && /^u?int/.test(info.presented) && !info.presented.endsWith("64")) {
    const bits = (info.bitRange.last ?? Number.NaN) - info.bitRange.first + 1;
    if (bits > 0 && bits < 32) {
      return info.presented.startsWith("u") ? [0, 2 ** bits - 1] : [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
    }
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = Number(values[i]);
    if (!Number.isFinite(v)) continue; // NaN and infinities never move the window
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : [0, 1];
}
