// A scalar reference for narrowing a double to the narrow float formats as
// their Python writers do, in exact rational arithmetic (BigInt), sharing
// no code with the package. Every format's values are decoded from its
// definition (zarr-extensions' data-type pages; ml_dtypes' float8.h and
// mxfloat.h for the layouts); a double is rounded to the nearest of them
// by comparing exact rationals, ties to the even code. What lies past the
// largest value, and float8_e8m0fnu's rounding, follow ml_dtypes' scalar
// constructor from a Python float (`T(double)`: ConvertImpl<double, T>,
// non-saturating) as ml_dtypes/include/float8.h states it at commit
// b793a6e2864ce20b6680df2fd480a5cd2a75fa82 (read, not run: ml_dtypes has
// no Debian package; v0.5.4's older ConvertImpl reads the same for
// float8_e8m0fnu's rules below). bfloat16 is Eigen's: a double is first
// rounded to float32 (`static_cast<float>`), then to bfloat16
// (Eigen/src/Core/arch/Default/BFloat16.h, `bfloat16(T val)`).

/**
 * Layouts: exponent and mantissa bits, bias, and kind: "ieee" (all-ones
 * exponent is infinity or NaN), "fnuz" (one NaN, 0x80; no -0; no
 * infinity), "fn" (finite: every code a number), "e8m0" (no sign, no
 * zero, 2^(code - 127), 0xFF NaN).
 */
export const FORMATS = {
  float32: { exponentBits: 8, mantissaBits: 23, bias: 127, kind: "ieee" }, // only as bfloat16's first step
  float16: { exponentBits: 5, mantissaBits: 10, bias: 15, kind: "ieee" },
  bfloat16: { exponentBits: 8, mantissaBits: 7, bias: 127, kind: "ieee", viaFloat32: true },
  float8_e3m4: { exponentBits: 3, mantissaBits: 4, bias: 3, kind: "ieee" },
  float8_e4m3: { exponentBits: 4, mantissaBits: 3, bias: 7, kind: "ieee" },
  float8_e5m2: { exponentBits: 5, mantissaBits: 2, bias: 15, kind: "ieee" },
  float8_e4m3fnuz: { exponentBits: 4, mantissaBits: 3, bias: 8, kind: "fnuz" },
  float8_e4m3b11fnuz: { exponentBits: 4, mantissaBits: 3, bias: 11, kind: "fnuz" },
  float8_e5m2fnuz: { exponentBits: 5, mantissaBits: 2, bias: 16, kind: "fnuz" },
  float8_e8m0fnu: { exponentBits: 8, mantissaBits: 0, bias: 127, kind: "e8m0" },
  float6_e2m3fn: { exponentBits: 2, mantissaBits: 3, bias: 1, kind: "fn" },
  float6_e3m2fn: { exponentBits: 3, mantissaBits: 2, bias: 3, kind: "fn" },
  float4_e2m1fn: { exponentBits: 2, mantissaBits: 1, bias: 1, kind: "fn" },
};

// An exact dyadic rational: m * 2^e (m a BigInt, may be 0n).
const dyadic = (m, e) => ({ m: BigInt(m), e });

function compare(a, b) {
  const e = Math.min(a.e, b.e);
  const x = a.m << BigInt(a.e - e);
  const y = b.m << BigInt(b.e - e);
  return x < y ? -1 : x > y ? 1 : 0;
}

const add = (a, b) => {
  const e = Math.min(a.e, b.e);
  return dyadic((a.m << BigInt(a.e - e)) + (b.m << BigInt(b.e - e)), e);
};

/** The exact value of a finite double (its sign apart): m * 2^e. */
export function doubleMagnitude(x) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const field = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return field === 0 ? dyadic(fraction, -1074) : dyadic(fraction | (1n << 52n), field - 1075);
}

/** The double of an exact dyadic rational that a double holds. */
function toDouble(d) {
  return Number(d.m) * 2 ** d.e;
}

const signBit = (f) => (f.kind === "e8m0" ? 0 : 1 << (f.exponentBits + f.mantissaBits));

/** The finite magnitude of a code with its sign bit clear, or undefined (NaN, infinity). */
function magnitudeOf(f, code) {
  const M = f.mantissaBits;
  const field = code >> M;
  const fraction = code & ((1 << M) - 1);
  const top = (1 << f.exponentBits) - 1;
  if (f.kind === "e8m0") return code === 0xff ? undefined : dyadic(1, code - f.bias);
  if (f.kind === "ieee" && field === top) return undefined;
  if (field === 0) return dyadic(fraction, 1 - f.bias - M);
  return dyadic((1 << M) | fraction, field - f.bias - M);
}

// The positive finite values of a format in increasing order, with codes.
const tables = new Map();
export function positiveValues(name) {
  if (tables.has(name)) return tables.get(name);
  const f = FORMATS[name];
  const all = [];
  const limit = f.kind === "e8m0" ? 256 : signBit(f);
  for (let code = 0; code < limit; code++) {
    const v = magnitudeOf(f, code);
    if (v !== undefined && v.m !== 0n) all.push({ code, value: v });
  }
  // fnuz: 0x80 is NaN, not -0; its positive codes all lie below it.
  all.sort((a, b) => compare(a.value, b.value));
  tables.set(name, all);
  return all;
}

const infinityCode = (f) => ((1 << f.exponentBits) - 1) << f.mantissaBits;
const nanCodeOf = (f) => (f.kind === "fnuz" ? 0x80 : f.kind === "e8m0" ? 0xff : undefined);

/**
 * The code ml_dtypes' (numpy's, for float16) scalar constructor gives the
 * double `x`; float32 gives its IEEE single code.
 */
export function narrowReference(name, x) {
  const f = FORMATS[name];
  if (f.viaFloat32) x = toFloat32(x);
  if (Number.isNaN(x)) throw new Error("the reference narrows numbers only");
  const negative = x < 0 || Object.is(x, -0);
  if (f.kind === "e8m0") return e8m0Reference(f, x);
  const sign = negative ? signBit(f) : 0;
  if (!Number.isFinite(x)) return f.kind === "ieee" ? sign | infinityCode(f) : overflow(f, sign);
  const a = doubleMagnitude(x);
  if (a.m === 0n) return f.kind === "fnuz" ? 0 : sign;
  const values = positiveValues(name);
  const largest = values[values.length - 1];
  // Past the largest value, the next value of an unbounded exponent range
  // (the largest plus its spacing): what round-to-nearest overflows into.
  const spacing = dyadic(1, Math.max(1 - f.bias, floorLog2(largest.value)) - f.mantissaBits);
  const beyond = { code: undefined, value: add(largest.value, spacing) };
  // lo <= a < hi among 0, the values and `beyond`.
  // Binary search: the first value above a.
  let left = 0;
  let right = values.length;
  while (left < right) {
    const mid = (left + right) >> 1;
    if (compare(values[mid].value, a) <= 0) left = mid + 1;
    else right = mid;
  }
  const lo = left === 0 ? { code: 0, value: dyadic(0, 0) } : values[left - 1];
  const hi = left === values.length ? beyond : values[left];
  if (compare(a, beyond.value) >= 0) return overflow(f, sign);
  let chosen;
  if (compare(lo.value, a) === 0) chosen = lo;
  else {
    const c = compare(dyadic(a.m, a.e + 1), add(lo.value, hi.value));
    // A tie goes to the even code; `beyond` is the carry past the
    // largest (odd) code, so it is the even one.
    if (c < 0) chosen = lo;
    else if (c > 0) chosen = hi;
    else chosen = hi.code === undefined || hi.code % 2 === 0 ? hi : lo;
  }
  if (chosen.code === undefined) return overflow(f, sign);
  if (chosen.code === 0) return f.kind === "fnuz" ? 0 : sign;
  return sign | chosen.code;
}

/**
 * float32's value nearest `x`, ties to the even significand, by integer
 * arithmetic on the exact value (float32 has too many codes to list):
 * the significand at float32's spacing for |x|, rounded, then scaled back.
 */
function toFloat32(x) {
  if (!Number.isFinite(x) || x === 0) return x;
  const f = FORMATS.float32;
  const a = doubleMagnitude(x);
  const spacing = Math.max(floorLog2(a), 1 - f.bias) - f.mantissaBits;
  let q;
  if (a.e >= spacing) q = a.m << BigInt(a.e - spacing);
  else {
    const shift = BigInt(spacing - a.e);
    q = a.m >> shift;
    const rest = a.m - (q << shift);
    const half = 1n << (shift - 1n);
    if (rest > half || (rest === half && q % 2n === 1n)) q += 1n;
  }
  // Past float32's largest value (2^128 - 2^104) it is infinity.
  const value = toDouble(dyadic(q, spacing));
  const largest = toDouble(dyadic((1n << 24n) - 1n, 127 - 23));
  const magnitude = value > largest ? Infinity : value;
  return x < 0 ? -magnitude : magnitude;
}

function floorLog2(d) {
  return d.e + d.m.toString(2).length - 1;
}

// ml_dtypes' non-saturating overflow: the format's infinity(), which is
// infinity (IEEE), the NaN code (fnuz), the largest value (fn: float4 and
// float6 name it their infinity).
function overflow(f, sign) {
  if (f.kind === "ieee") return sign | infinityCode(f);
  if (f.kind === "fnuz") return nanCodeOf(f);
  return sign | ((1 << (f.exponentBits + f.mantissaBits)) - 1);
}

// float8_e8m0fnu as ml_dtypes' ConvertImpl computes it: zero and negative
// numbers give NaN; from 2^-126 up, 2^k when x < 1.5 * 2^k, else 2^(k+1)
// (its significand's rounding bit is the implicit one, so halfway rounds
// up); below 2^-126 its subnormal path rounds x / 2^-126 to 0 or 1, ties
// to 0, and code 0 stands for 2^-127: 2^-127 for x <= 2^-127, 2^-126 for
// anything above. Past 2^127: NaN.
function e8m0Reference(f, x) {
  if (!(x > 0)) return 0xff;
  if (!Number.isFinite(x)) return 0xff;
  const a = doubleMagnitude(x);
  const k = floorLog2(a);
  let exponent;
  if (k >= -126) {
    const threeHalves = dyadic(3, k - 1);
    exponent = compare(a, threeHalves) < 0 ? k : k + 1;
  } else {
    exponent = compare(a, dyadic(1, -127)) <= 0 ? -127 : -126;
  }
  return exponent > 127 ? 0xff : exponent + f.bias;
}

/** The double value of a finite positive code (for building cases). */
export function valueOfCode(name, code) {
  const v = magnitudeOf(FORMATS[name], code);
  return v === undefined ? undefined : toDouble(v);
}

/** The double next above (`+1`) or below (`-1`) a positive finite double. */
export function nextDouble(x, step) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + BigInt(step));
  return view.getFloat64(0);
}

/**
 * Doubles that probe the rounding between and around a format's values:
 * neighbouring values, their midpoints and one double ulp either side, a
 * quarter of the way; below the least value; the overflow threshold; each
 * with both signs.
 */
export function roundingProbes(name) {
  const values = positiveValues(name).map((v) => valueOfCode(name, v.code));
  // Every neighbouring pair of an 8-bit or narrower format; for 16-bit
  // formats the smallest, those around the subnormal/normal boundary and
  // 1.0, the largest, and a spread between.
  let pairs = values.slice(0, -1).map((v, i) => [v, values[i + 1]]);
  if (pairs.length > 1000) {
    const M = FORMATS[name].mantissaBits;
    const one = values.indexOf(1);
    const keep = new Set();
    const around = (i, n) => {
      for (let k = Math.max(0, i - n); k < Math.min(pairs.length, i + n); k++) keep.add(k);
    };
    around(0, 24);
    around((1 << M) - 1, 24);
    around(one, 24);
    around(pairs.length - 1, 24);
    for (let k = 0; k < pairs.length; k += 97) keep.add(k);
    pairs = [...keep].map((k) => pairs[k]);
  }
  const out = [];
  for (const [lo, hi] of pairs) {
    const mid = (lo + hi) / 2; // exact: both have a few significant bits
    out.push(lo, mid, nextDouble(mid, 1), nextDouble(mid, -1), lo + (hi - lo) / 4);
  }
  const least = values[0];
  const largest = values[values.length - 1];
  const top = largest - values[values.length - 2]; // the spacing at the top (e8m0: half of it)
  const threshold = largest + (FORMATS[name].kind === "e8m0" ? largest : top) / 2;
  out.push(least / 2, nextDouble(least / 2, 1), nextDouble(least / 2, -1), least / 4, 5e-324, 0);
  out.push(largest, threshold, nextDouble(threshold, 1), nextDouble(threshold, -1), largest * 2, 1e300, Number.MAX_VALUE);
  return [...out, ...out.map((x) => -x)];
}
