// The arithmetic numcodecs' filters do, as numpy 1.24 does it: the type an
// operation between an array and a Python scalar runs in (numpy's
// value-based promotion: a float32 array minus 3 stays float32, minus
// 100000 becomes float64), and + - * / in that type (float32 rounds at
// every step, integers wrap around at their width). Pure functions a wasm
// kernel can replace.
//
// JSON does not say whether a scale written `10` was the Python int 10 or
// the float 10.0 (`10.0` parses to the same number): an integral value is
// taken as an int, which is what numcodecs' own configurations hold unless
// the user passed a float. The two differ only for integer arrays and for
// float32 arrays with an integral scalar beyond -32768..65535.
import { typeOf } from "./numpy-types.js";

const FLOAT32_MAX = 3.4028234663852886e38;

/** numpy's promote_types for two numeric types. */
export function promoteTypes(a, b) {
  if (a.kind === "f" && b.kind === "f") return a.size >= b.size ? a : b;
  if (a.kind === "f" || b.kind === "f") {
    const [f, i] = a.kind === "f" ? [a, b] : [b, a];
    // The smallest float wider than the integer (int64 and uint64: float64).
    return typeOf("f", Math.max(f.size, Math.min(8, i.size * 2)));
  }
  if (a.kind === b.kind) return a.size >= b.size ? a : b;
  const [u, i] = a.kind === "u" ? [a, b] : [b, a];
  if (i.size > u.size) return i;
  return u.size < 8 ? typeOf("i", u.size * 2) : typeOf("f", 8);
}

// The smallest integer type that holds v: unsigned where v >= 0 and the
// array is unsigned, signed otherwise (numpy's min_scalar_type with its
// "small unsigned" rule for signed arrays).
function smallestIntegerType(v, signed) {
  for (const size of [1, 2, 4, 8]) {
    const bits = size * 8;
    if (!signed && v >= 0 && v < 2 ** bits) return typeOf("u", size);
    if (signed && v >= -(2 ** (bits - 1)) && v < 2 ** (bits - 1)) return typeOf("i", size);
  }
  return v >= 0 ? typeOf("u", 8) : typeOf("f", 8);
}

/**
 * The type of `array <op> scalar` for an array of `type` and a Python
 * scalar (a JSON number): numpy 1.24's value-based promotion. Integer
 * arrays divided (true division) always give float64: use divisionType.
 * `integral`: whether the scalar is a Python int (JSON: an integral number).
 */
export function scalarResultType(type, scalar, integral = Number.isInteger(scalar)) {
  if (type.kind === "f") {
    if (type.size === 8) return type;
    if (integral) return promoteTypes(type, smallestIntegerType(scalar, scalar < 0));
    // A float scalar counts by its range only (float16 up to 65504).
    return Math.abs(scalar) <= FLOAT32_MAX || !Number.isFinite(scalar) ? type : typeOf("f", 8);
  }
  if (!integral) return typeOf("f", 8);
  const scalarType = smallestIntegerType(scalar, type.kind === "i" || scalar < 0);
  return scalarType.kind === "f" ? scalarType : promoteTypes(type, scalarType);
}

/** The type of `array / scalar` (numpy's true_divide). */
export function divisionType(type, scalar) {
  return type.kind === "f" ? scalarResultType(type, scalar) : typeOf("f", 8);
}

/**
 * + - * / on elements of `type`, and a scalar (a JSON number) or another
 * type's element as one of `type`.
 * @param {import("./numpy-types.js").NumericType} type
 */
export function arithmeticIn(type) {
  if (type.kind === "f") {
    const r = type.size === 4 ? Math.fround : (x) => x;
    // x86 (numpy's SSE and AVX loops) answers a NaN operand with the first
    // operand's NaN, else the second's, sign and payload kept; a JavaScript
    // engine may swap the operands of + and *, so NaNs are picked here.
    const nan = (a, b) => (a !== a ? a : b);
    return {
      scalar: (v) => r(v),
      add: (a, b) => (a !== a || b !== b ? nan(a, b) : r(a + b)),
      sub: (a, b) => (a !== a || b !== b ? nan(a, b) : r(a - b)),
      mul: (a, b) => (a !== a || b !== b ? nan(a, b) : r(a * b)),
      div: (a, b) => (a !== a || b !== b ? nan(a, b) : r(a / b)),
    };
  }
  if (type.big) {
    const wrap = type.kind === "i" ? (x) => BigInt.asIntN(64, x) : (x) => BigInt.asUintN(64, x);
    return {
      scalar: (v) => wrap(BigInt(v)),
      add: (a, b) => wrap(a + b),
      sub: (a, b) => wrap(a - b),
      mul: (a, b) => wrap(a * b),
      div: undefined,
    };
  }
  // Up to 32 bits: exact in doubles but for products (Math.imul keeps their
  // low 32 bits); a TypedArray of the type keeps the low bits on assignment.
  const bits = type.size * 8;
  const wrap =
    type.kind === "i"
      ? bits === 32 ? (x) => x | 0 : (x) => (x << (32 - bits)) >> (32 - bits)
      : bits === 32 ? (x) => x >>> 0 : (x) => x & ((1 << bits) - 1);
  return {
    scalar: (v) => wrap(Number(BigInt.asIntN(32, BigInt(v)))),
    add: (a, b) => wrap(a + b),
    sub: (a, b) => wrap(a - b),
    mul: (a, b) => wrap(Math.imul(a, b)),
    div: undefined,
  };
}

/** numpy's around (rint): to the nearest integer, ties to even. */
export function roundHalfEven(x) {
  if (!Number.isFinite(x)) return x;
  const r = Math.round(x);
  // Math.round takes ties up; a tie whose upward neighbour is odd goes down.
  return r - x === 0.5 && r % 2 !== 0 ? r - 1 : r === 0 && x < 0 ? -0 : r;
}
