// How pixels are drawn, and the legend of what their colours mean: finite
// values through the contrast window [lo, hi] on its scale (contrast.js)
// to 0..255 gray, clipped at black and white; NaN, +Inf and -Inf each in a
// colour of its own (never the window's ends, where they would pass for
// the largest or smallest value); pixels of the overlay mask blended
// half-way to red. int64 values are drawn as the nearest Number.
import { symlog } from "./contrast.js";

export const NAN_RGB = [255, 0, 255]; // magenta
export const POS_INF_RGB = [255, 170, 0]; // amber
export const NEG_INF_RGB = [0, 150, 255]; // azure
export const OVERLAY_RGB = [255, 0, 0]; // masked pixels go half-way to it

/**
 * Draws `values` into `out` (RGBA bytes). `view`: { lo, hi, overlay,
 * scale: "linear" | "symlog", c: symlog's linear range }. Returns how many
 * pixels took each special colour, for the legend.
 */
export function renderRGBA(values, mask, { lo, hi, overlay, scale = "linear", c = 1 }, out) {
  const log = scale === "symlog";
  const t0 = log ? symlog(lo, c) : lo;
  const t1 = log ? symlog(hi, c) : hi;
  const k = t1 > t0 ? 255 / (t1 - t0) : 0;
  const counts = { nan: 0, posInf: 0, negInf: 0, masked: 0 };
  for (let i = 0; i < values.length; i++) {
    const v = Number(values[i]);
    const j = 4 * i;
    out[j + 3] = 255;
    let special;
    if (Number.isNaN(v)) (special = NAN_RGB), counts.nan++;
    else if (v === Infinity) (special = POS_INF_RGB), counts.posInf++;
    else if (v === -Infinity) (special = NEG_INF_RGB), counts.negInf++;
    if (special) {
      [out[j], out[j + 1], out[j + 2]] = special;
      continue;
    }
    const gray = Math.min(255, Math.max(0, Math.round(((log ? symlog(v, c) : v) - t0) * k)));
    if (overlay && mask && mask[i]) {
      counts.masked++;
      out[j] = Math.round((gray + OVERLAY_RGB[0]) / 2);
      out[j + 1] = Math.round((gray + OVERLAY_RGB[1]) / 2);
      out[j + 2] = Math.round((gray + OVERLAY_RGB[2]) / 2);
    } else {
      out[j] = out[j + 1] = out[j + 2] = gray;
    }
  }
  return counts;
}

/**
 * The legend: the gray ramp and every special colour the drawing used,
 * each { key, label, colors } (colors: CSS colours of its swatch, two for
 * the ramp's ends). `format` prints a value.
 */
export function legendOf(counts, { lo, hi, scale = "linear", c = 1 }, finite, format) {
  const rgb = (v) => `rgb(${v.join(", ")})`;
  const pixels = (n) => `${n} pixel${n === 1 ? "" : "s"}`;
  const entries = [];
  if (finite > 0) {
    const how = scale === "symlog" ? `symmetric log, linear within ±${format(c)}` : "linear";
    entries.push({
      key: "window",
      label: `${format(lo)} (black) to ${format(hi)} (white), ${how}; values beyond the window clip to black or white`,
      colors: [rgb([0, 0, 0]), rgb([255, 255, 255])],
    });
  }
  if (counts.masked) entries.push({ key: "overlay", label: `mask overlay: ${pixels(counts.masked)} blended half-way to red`, colors: [rgb(OVERLAY_RGB)] });
  if (counts.nan) entries.push({ key: "nan", label: `NaN: ${pixels(counts.nan)}`, colors: [rgb(NAN_RGB)] });
  if (counts.posInf) entries.push({ key: "posInf", label: `+Infinity: ${pixels(counts.posInf)}`, colors: [rgb(POS_INF_RGB)] });
  if (counts.negInf) entries.push({ key: "negInf", label: `-Infinity: ${pixels(counts.negInf)}`, colors: [rgb(NEG_INF_RGB)] });
  return entries;
}
