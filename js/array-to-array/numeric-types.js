// The data types cast_value and scale_offset take (the integer and float
// types their zarr-extensions pages list), with what the conversions need
// of each: integer bounds, the float format, and the JavaScript array that
// holds a chunk of it (the containers bytes decodes into: 64-bit integers
// as BigInt, float16 in Float16Array where the runtime has one and else as
// Uint16Array bit codes, bfloat16 and the narrow floats as bit codes).
import { FLOAT_FORMATS } from "../floats/float-formats.js";

/** float32 as a format: the platform rounds to it (Math.fround) but floats/rounding.js also needs its grid. */
export const FLOAT32 = {
  bits: 32, mantissaBits: 23, kind: "ieee", hasNaN: true, hasInfinity: true, hasNegativeZero: true, signed: true,
  largest: 3.4028234663852886e38, least: 2 ** -149, minNormal: 2 ** -126,
};
export const FLOAT64 = {
  bits: 64, mantissaBits: 52, kind: "ieee", hasNaN: true, hasInfinity: true, hasNegativeZero: true, signed: true,
  largest: Number.MAX_VALUE, least: 2 ** -1074, minNormal: 2 ** -1022,
};

const INTEGERS = [
  ["int2", 2, true, Int8Array], ["int4", 4, true, Int8Array], ["int8", 8, true, Int8Array],
  ["int16", 16, true, Int16Array], ["int32", 32, true, Int32Array], ["int64", 64, true, BigInt64Array],
  ["uint2", 2, false, Uint8Array], ["uint4", 4, false, Uint8Array], ["uint8", 8, false, Uint8Array],
  ["uint16", 16, false, Uint16Array], ["uint32", 32, false, Uint32Array], ["uint64", 64, false, BigUint64Array],
];

/**
 * @typedef {object} NumericType
 * @property {string} name
 * @property {"int" | "float"} kind
 * @property {number} bits
 * @property {boolean} big  64-bit integers: values are BigInt
 * @property {number | bigint} [min]  integers' bounds (BigInt when big)
 * @property {number | bigint} [max]
 * @property {boolean} [signed]
 * @property {object} [format]  floats: their grid (floats/float-formats.js, FLOAT32, FLOAT64)
 * @property {boolean} [codes]  floats held as bit codes (valueOfCode/codeOfValue)
 * @property {() => Function} container  the array a chunk of it is held in
 */

const TYPES = new Map();
for (const [name, bits, signed, Array] of INTEGERS) {
  const big = bits === 64;
  const min = signed ? -(2n ** BigInt(bits - 1)) : 0n;
  const max = (signed ? 2n ** BigInt(bits - 1) : 2n ** BigInt(bits)) - 1n;
  TYPES.set(name, {
    name, kind: "int", bits, signed, big,
    min: big ? min : Number(min), max: big ? max : Number(max),
    container: () => Array,
  });
}
TYPES.set("float32", { name: "float32", kind: "float", bits: 32, big: false, format: FLOAT32, container: () => Float32Array });
TYPES.set("float64", { name: "float64", kind: "float", bits: 64, big: false, format: FLOAT64, container: () => Float64Array });
for (const [name, format] of FLOAT_FORMATS) {
  const Codes = format.bits === 16 ? Uint16Array : Uint8Array;
  const native = name === "float16" ? () => globalThis.Float16Array : () => undefined;
  TYPES.set(name, { name, kind: "float", bits: format.bits, big: false, format, codes: true, native, container: () => native() ?? Codes });
}

/** The names cast_value and scale_offset take, for messages. */
export const NUMERIC_TYPE_NAMES = [...TYPES.keys()];

/** The NumericType of `name`, or undefined for a type these codecs do not take. */
export function numericType(name) {
  return typeof name === "string" ? TYPES.get(name) : undefined;
}
