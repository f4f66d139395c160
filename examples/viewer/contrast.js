// The contrast window: its range (what the type can hold, robust
// percentiles of the data, or its finite extent), and the two scales the
// window can be drawn on. Linear
// maps [lo, hi] straight onto black..white. Symmetric log (symlog) maps
// through T(v) = sign(v) * ln(1 + |v| / C): about linear within ±C,
// logarithmic beyond, so that values spread over many octaves of both
// signs (float8 activations from ±2^-9 to ±240) keep their structure
// instead of collapsing onto the middle gray.

const SUB_BYTE = { int2: [-2, 1], uint2: [0, 3], int4: [-8, 7], uint4: [0, 15] };

// The automatic window's percentiles, and the slice size below which 0.5 %
// of the values is less than one value, so that the percentiles cannot
// leave out even one outlier (docs/viewer.md, "Contrast").
export const PERCENTILES = [0.5, 99.5];
export const SMALL_SLICE = 200;

/**
 * The p-th percentile (0..100) of ascending `sorted` values, as numpy's
 * default computes it: linear interpolation at position p / 100 * (n - 1),
 * a + (b - a) t below t = 0.5, b - (b - a) (1 - t) from it on.
 */
export function percentile(sorted, p) {
  const at = (p / 100) * (sorted.length - 1);
  const below = Math.floor(at);
  const above = Math.min(below + 1, sorted.length - 1);
  const a = sorted[below];
  const b = sorted[above];
  const t = at - below;
  if (a === b || t === 0) return a;
  const v = t < 0.5 ? a + (b - a) * t : b - (b - a) * (1 - t);
  // b - a overflows between values of opposite signs near the largest
  // double (1.8e308 fill sentinels): interpolate without the difference.
  return Number.isFinite(v) ? v : a * (1 - t) + b * t;
}

/** The finite values of a slice, ascending (NaN and infinities never move the window). */
function finiteSorted(values) {
  const out = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = Number(values[i]);
    if (Number.isFinite(v)) out[n++] = v;
  }
  return out.subarray(0, n).sort();
}

/**
 * The automatic window of `sorted` finite values: their 0.5th and 99.5th
 * percentiles; in a slice of fewer than SMALL_SLICE values each end is
 * also pulled in to Tukey's far-out fence (Q1 - 3 IQR, Q3 + 3 IQR) where
 * it lies beyond it. A window that comes out as one value, where the
 * values differ, widens to their extent.
 */
export function robustWindow(sorted) {
  const n = sorted.length;
  if (n === 0) return [0, 1];
  let lo = percentile(sorted, PERCENTILES[0]);
  let hi = percentile(sorted, PERCENTILES[1]);
  if (n < SMALL_SLICE) {
    const q1 = percentile(sorted, 25);
    const q3 = percentile(sorted, 75);
    const iqr = q3 - q1;
    lo = Math.max(lo, q1 - 3 * iqr);
    hi = Math.min(hi, q3 + 3 * iqr);
  }
  return lo < hi ? [lo, hi] : [sorted[0], sorted[n - 1]];
}

/**
 * The contrast window's range. `mode` "auto" (the default): what the
 * stored type can hold where that is narrow (bool, int2/4, uint2/4, the bit
 * range of a packbits integer), otherwise the robust window of the slice's
 * finite values (robustWindow), widened to whole numbers for integer
 * types. "minmax": the finite minimum and maximum of the slice.
 * @param {{presented: string, stored: unknown, bitRange?: {first: number, last: number}}} info
 * @param {ArrayLike<number | bigint>} values
 * @param {"auto" | "minmax"} [mode]
 */
export function valueRange(info, values, mode = "auto") {
  const sorted = finiteSorted(values);
  if (mode === "minmax") return sorted.length ? [sorted[0], sorted[sorted.length - 1]] : [0, 1];
  if (info.presented === "bool") return [0, 1];
  if (typeof info.stored === "string" && SUB_BYTE[info.stored]) return SUB_BYTE[info.stored];
  if (info.bitRange && /^u?int/.test(info.presented) && !info.presented.endsWith("64")) {
    const bits = (info.bitRange.last ?? Number.NaN) - info.bitRange.first + 1;
    if (bits > 0 && bits < 32) {
      return info.presented.startsWith("u") ? [0, 2 ** bits - 1] : [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
    }
  }
  const [lo, hi] = robustWindow(sorted);
  return /^float/.test(info.presented) ? [lo, hi] : [Math.floor(lo), Math.ceil(hi)];
}

/**
 * symlog's C by default: the smallest non-zero finite magnitude of the
 * slice, so that every octave present gets its share of the grays (1 where
 * there is none).
 */
export function smallestMagnitude(values) {
  let c = Infinity;
  for (let i = 0; i < values.length; i++) {
    const a = Math.abs(Number(values[i]));
    if (a > 0 && a < c) c = a;
  }
  return Number.isFinite(c) ? c : 1;
}

/**
 * T(v) of symlog. |v| / C can overflow (1e308 / 5e-324): ln(|v|) - ln(C)
 * is then the same to double precision.
 */
export function symlog(v, c) {
  if (v === 0 || Number.isNaN(v)) return v;
  const a = Math.abs(v);
  const r = a / c;
  return Math.sign(v) * (Number.isFinite(r) ? Math.log1p(r) : Math.log(a) - Math.log(c));
}

/** The inverse of symlog, for the sliders. */
export function symexp(t, c) {
  const a = Math.abs(t);
  const r = Math.expm1(a);
  return Math.sign(t) * (Number.isFinite(r) ? c * r : Math.exp(a + Math.log(c)));
}

/**
 * How slider positions 0..steps map onto the window's ends. Linear: one
 * step per value for narrow integer ranges, 1000 steps otherwise, evenly
 * in value. Symlog: 1000 steps evenly in T. Both ends are exact.
 * @returns {{steps: number, valueAt: (position: number | string) => number}}
 */
export function sliderScale(scale, [min, max], { integer, c }) {
  if (scale === "symlog") {
    const t0 = symlog(min, c);
    const t1 = symlog(max, c);
    const steps = 1000;
    return {
      steps,
      valueAt(position) {
        const p = Number(position);
        if (p <= 0) return min;
        if (p >= steps) return max;
        return Math.min(max, Math.max(min, symexp(t0 + (p * (t1 - t0)) / steps, c)));
      },
    };
  }
  const steps = integer && max - min <= 65535 ? Math.max(1, max - min) : 1000;
  return {
    steps,
    valueAt(position) {
      const p = Number(position);
      return p >= steps ? max : min + (p * (max - min)) / steps;
    },
  };
}
