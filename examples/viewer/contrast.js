// The contrast window: its range (what the type can hold, or the data's
// finite extent), and the two scales the window can be drawn on. Linear
// maps [lo, hi] straight onto black..white. Symmetric log (symlog) maps
// through T(v) = sign(v) * ln(1 + |v| / C): about linear within ±C,
// logarithmic beyond, so that values spread over many octaves of both
// signs (float8 activations from ±2^-9 to ±240) keep their structure
// instead of collapsing onto the middle gray.

const SUB_BYTE = { int2: [-2, 1], uint2: [0, 3], int4: [-8, 7], uint4: [0, 15] };

/**
 * The contrast window's range: what the stored type can hold where that is
 * narrow (bool, int2/4, uint2/4, the bit range of a packbits integer),
 * otherwise the finite minimum and maximum of the slice.
 * @param {{presented: string, stored: unknown, bitRange?: {first: number, last: number}}} info
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
