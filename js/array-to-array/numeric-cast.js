// One value of a numeric type to another, by cast_value's procedure
// (zarr-extensions codecs/cast_value): scalar_map first, then the exact
// value, then rounding and the out_of_range rule; NaN propagated where
// both types have it, signed zero kept where the target has one, and an
// error where nothing applies. `castFunction` is a pure function of
// (source type, target type, configuration), so the loops around it (and
// a later wasm kernel) can take it over unchanged.
//
// Values are numbers, or BigInt for int64 and uint64.
import { ZarrCodecError } from "../errors.js";
import { roundBigIntToFormat, roundToFormat, roundToInteger } from "../floats/rounding.js";

/** How a value is named in messages: 3, -0, NaN, 12345678901234567890n. */
export function showValue(value) {
  if (typeof value === "bigint") return `${value}`;
  return Object.is(value, -0) ? "-0" : String(value);
}

/**
 * A lookup of a scalar_map: the first entry of each key wins; NaN keys
 * match NaN; keys compare by numeric value (0 matches -0).
 * @param {[number | bigint, number | bigint][]} entries parsed pairs
 */
export function scalarMap(entries) {
  const map = new Map();
  let nan;
  for (const [key, value] of entries) {
    if (typeof key === "number" && Number.isNaN(key)) {
      if (nan === undefined) nan = { value };
    } else if (!map.has(key)) {
      map.set(key, value);
    }
  }
  if (map.size === 0 && nan === undefined) return undefined;
  return (x) => (typeof x === "number" && Number.isNaN(x) ? nan : map.has(x) ? { value: map.get(x) } : undefined);
}

function outOfRange(where, value, target, range) {
  return new ZarrCodecError(
    "VALUE_OUT_OF_RANGE",
    `${where}: ${showValue(value)} is outside ${target.name}'s range ${range} and no out_of_range is configured ` +
      '(expected a value in range, or out_of_range "clamp" or "wrap")',
  );
}

function special(where, value, target) {
  return new ZarrCodecError(
    "VALUE_OUT_OF_RANGE",
    `${where}: ${showValue(value)} cannot be ${target.name}, which has no ${Number.isNaN(value) ? "NaN" : "infinities"} ` +
      "(expected a finite value, or a scalar_map entry for it)",
  );
}

// Wrapping modulo 2^bits into the target's two's complement range.
function wrapNumber(r, target) {
  const m = 2 ** target.bits;
  let w = ((r % m) + m) % m;
  if (target.signed && w > target.max) w -= m;
  return w;
}

function wrapBigInt(r, target) {
  return target.signed ? BigInt.asIntN(target.bits, r) : BigInt.asUintN(target.bits, r);
}

// An integer target: `r` is an integer (a number or BigInt).
function integerCast(where, target, outOfRangeRule) {
  const { min, max, big } = target;
  const range = `${min}..${max}`;
  return (r, original) => {
    // 64-bit bounds are no doubles (2^63 - 1 rounds to 2^63): those compare as BigInt.
    if (typeof r === "number" && !big && (r === 0 || (r >= min && r <= max))) {
      return r === 0 ? 0 : r;
    }
    const v = big || typeof r === "bigint" ? BigInt(r) : r;
    if (v >= min && v <= max) return big ? BigInt(v) : Number(v);
    if (outOfRangeRule === "clamp") return v < min ? min : max;
    if (outOfRangeRule === "wrap") {
      if (typeof v === "bigint") {
        const w = wrapBigInt(v, target);
        return big ? w : Number(w);
      }
      return wrapNumber(v, target);
    }
    throw outOfRange(where, original, target, range);
  };
}

// A float target: `r` is on the target's grid, possibly past its largest value.
function floatRange(where, target, outOfRangeRule) {
  const { largest, least } = target.format;
  const positiveOnly = !target.format.signed;
  return (r, original) => {
    const a = Math.abs(r);
    if (positiveOnly ? r >= least && r <= largest : a <= largest) {
      // A zero the target cannot sign (fnuz) is its one zero.
      return r === 0 && !target.format.hasNegativeZero ? 0 : r;
    }
    if (outOfRangeRule === "clamp") {
      if (positiveOnly) return r < least ? least : largest;
      if (target.format.hasInfinity) return r < 0 ? -Infinity : Infinity;
      return r < 0 ? -largest : largest;
    }
    const range = positiveOnly ? `${least}..${largest}` : `-${largest}..${largest}`;
    throw outOfRange(where, original, target, range);
  };
}

/**
 * The cast of one value from `source` to `target` (numeric-types.js).
 * @param {string} where the codec and direction, for messages
 * @param {import("./numeric-types.js").NumericType} source
 * @param {import("./numeric-types.js").NumericType} target
 * @param {{rounding: string, outOfRange?: "clamp" | "wrap",
 *   map?: (x: number | bigint) => {value: number | bigint} | undefined}} config
 * @returns {(x: number | bigint) => number | bigint}
 */
export function castFunction(where, source, target, { rounding, outOfRange: rule, map }) {
  let base;
  if (target.kind === "int") {
    const range = integerCast(where, target, rule);
    if (source.kind === "int") {
      base = (x) => range(x, x);
    } else {
      base = (x) => {
        if (!Number.isFinite(x)) throw special(where, x, target);
        return range(roundToInteger(x, rounding), x);
      };
    }
  } else {
    const range = floatRange(where, target, rule);
    const format = target.format;
    const hasNaN = format.hasNaN;
    const hasInfinity = format.hasInfinity;
    if (source.big) {
      base = (x) => range(roundBigIntToFormat(x, format, rounding), x);
    } else {
      base = (x) => {
        if (Number.isNaN(x)) {
          // The NaN itself: its sign and payload go as far as the target
          // holds them (its top bits into float32, as hardware and the
          // wasm core narrow it; a code format's NaN code).
          if (hasNaN) return x;
          throw special(where, x, target);
        }
        if (x === Infinity || x === -Infinity) {
          if (hasInfinity) return x;
          throw special(where, x, target);
        }
        return range(roundToFormat(x, format, rounding), x);
      };
    }
  }
  if (!map) return base;
  return (x) => {
    const hit = map(x);
    return hit ? hit.value : base(x);
  };
}
