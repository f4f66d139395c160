// Rounding a number to an integer, or to a float format's grid, in the
// five modes of cast_value's `rounding` (IEEE 754's four and ties away
// from zero). Pure functions of (value, format, mode): the same answers a
// later wasm kernel must give. Every step is exact in doubles (the
// spacings are powers of two), and 64-bit integers round from their BigInt.
// The one rounding to a narrow grid: cast_value's and scale_offset's
// (array-to-array/), and a number fill's (fills/float-fill.js: nearest-even,
// as numpy and ml_dtypes narrow a double, where their rules are these).
import { binade, codeOfValue } from "./float-formats.js";

export const ROUNDING_MODES = ["nearest-even", "towards-zero", "towards-positive", "towards-negative", "nearest-away"];

/**
 * Whether to take the larger magnitude n + 1 over n, given the exact
 * remainder `rest` in [0, 1) of the magnitude over the step, the sign,
 * and for ties whether n + 1 is the even neighbour.
 */
function up(mode, rest, negative, upIsEven) {
  if (rest === 0) return false;
  switch (mode) {
    case "nearest-even":
      return rest > 0.5 || (rest === 0.5 && upIsEven());
    case "nearest-away":
      return rest >= 0.5;
    case "towards-zero":
      return false;
    case "towards-positive":
      return !negative;
    case "towards-negative":
      return negative;
  }
  throw new Error(`unknown rounding mode ${mode}`);
}

/** The finite number `x` rounded to an integer (a number; -0 kept). */
export function roundToInteger(x, mode) {
  const negative = x < 0;
  const a = Math.abs(x);
  const n = Math.floor(a);
  const r = up(mode, a - n, negative, () => n % 2 === 1) ? n + 1 : n;
  return negative ? -r : r;
}

/**
 * The finite number `x` rounded to `format`'s grid, ignoring its range
 * (the caller compares the result with format.largest). -0 stays -0, and
 * a value that rounds to zero keeps its sign.
 */
export function roundToFormat(x, format, mode) {
  if (x === 0) return x;
  if (mode === "nearest-even" && format.bits === 32) return Math.fround(x);
  if (format.bits === 64) return x;
  const negative = x < 0;
  const a = Math.abs(x);
  const step = a < format.minNormal ? format.least : 2 ** (binade(a) - format.mantissaBits);
  const q = a / step;
  const n = Math.floor(q);
  // Ties go to the even code; for formats with mantissa bits that is an
  // even n, for e8m0 (powers of two only) the code's own parity.
  const upIsEven = format.mantissaBits === 0 ? () => codeOfValue(format, (n + 1) * step) % 2 === 0 : () => n % 2 === 1;
  const magnitude = (up(mode, q - n, negative, upIsEven) ? n + 1 : n) * step;
  return negative ? -magnitude : magnitude;
}

function bitLength(v) {
  return v.toString(2).length;
}

/**
 * A BigInt rounded to `format`'s grid, as a number (exact: the result has
 * at most mantissaBits + 1 significant bits). Integers below 2^53 are
 * doubles already and round as numbers.
 */
export function roundBigIntToFormat(v, format, mode) {
  const negative = v < 0n;
  const a = negative ? -v : v;
  if (a < 2n ** 53n) return roundToFormat(Number(v), format, mode);
  const precision = format.mantissaBits + 1;
  const length = bitLength(a);
  if (length <= precision) return Number(v);
  const shift = BigInt(length - precision);
  const n = a >> shift;
  const rest = a - (n << shift);
  const half = 1n << (shift - 1n);
  // rest / 2^shift compared with one half, exactly.
  const fraction = rest === 0n ? 0 : rest < half ? 0.25 : rest === half ? 0.5 : 0.75;
  const q = up(mode, fraction, negative, () => n % 2n === 1n) ? n + 1n : n;
  const magnitude = Number(q) * 2 ** Number(shift);
  return negative ? -magnitude : magnitude;
}
