// The numeric data types numcodecs' filters name in their configurations
// (numpy's dtype strings: "<f8", "|u1", ">i2") and zarrita names chunks by
// ("float64", "uint8"), as one description the filters compute with. The
// byte order a dtype string gives is not consulted: a filter works on the
// values the array -> bytes codec before it decoded, in the array's byte
// order (zarr-python 2 writes the filters' dtypes in the array's order).
// float16 is left out: no TypedArray holds it on every runtime zarrita
// supports, so a filter on it goes to zarrita's own codec where there is one.
import { describe, ZarrCodecError } from "../errors.js";

/**
 * @typedef {object} NumericType
 * @property {string} name   zarrita's name ("float32")
 * @property {"i" | "u" | "f"} kind  numpy's kind
 * @property {1 | 2 | 4 | 8} size  bytes per element
 * @property {boolean} big   whether elements are BigInt (64-bit integers)
 * @property {new (n: number) => any} Array  the TypedArray zarrita uses for it
 */

const TYPES = new Map(
  [
    ["int8", "i", 1, Int8Array],
    ["int16", "i", 2, Int16Array],
    ["int32", "i", 4, Int32Array],
    ["int64", "i", 8, BigInt64Array],
    ["uint8", "u", 1, Uint8Array],
    ["uint16", "u", 2, Uint16Array],
    ["uint32", "u", 4, Uint32Array],
    ["uint64", "u", 8, BigUint64Array],
    ["float32", "f", 4, Float32Array],
    ["float64", "f", 8, Float64Array],
  ].map(([name, kind, size, Array]) => [name, Object.freeze({ name, kind, size, big: kind !== "f" && size === 8, Array })]),
);

const KIND_NAMES = { i: "int", u: "uint", f: "float" };

/** A type by zarrita's name, or undefined for one the filters do not take. */
export function typeNamed(name) {
  return typeof name === "string" ? TYPES.get(name) : undefined;
}

/** The type of `kind` and `size` ("f", 4 -> float32). */
export function typeOf(kind, size) {
  return TYPES.get(`${KIND_NAMES[kind]}${size * 8}`);
}

/**
 * A numpy dtype string ("<f8", "|u1", "i2") or zarrita name ("float64")
 * from a filter's configuration, as a NumericType.
 * @param {string} codec  the codec, for the message
 * @param {string} field  the configuration field
 * @param {unknown} value
 * @returns {NumericType}
 */
export function parseNumericType(codec, field, value) {
  const named = typeNamed(value);
  if (named) return named;
  const m = typeof value === "string" ? /^[<>|=]?([iuf])([1248])$/.exec(value) : null;
  const type = m ? typeOf(m[1], Number(m[2])) : undefined;
  if (type) return type;
  throw new ZarrCodecError(
    "INVALID_CONFIGURATION",
    `${codec}: ${field} must be a numeric dtype (int8..int64, uint8..uint64, float32 or float64, ` +
      `as numpy writes them: "<i2", "<f8"...), got ${describe(value)}`,
  );
}
