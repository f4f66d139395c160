// Widening bit patterns to Float32Array, for viewers: float16 and bfloat16
// (decoded as Uint16Array bit patterns) and the sub-byte floats float4_e2m1fn,
// float6_e2m3fn, float6_e3m2fn (decoded as Uint8Array, pattern in the low
// bits). Exact: every value of these formats is a float32.
import { describe, ZarrCodecError } from "./errors.js";

function checkInput(name, values, ArrayType) {
  if (!(values instanceof ArrayType) && Object.prototype.toString.call(values) !== `[object ${ArrayType.name}]`) {
    throw new ZarrCodecError(
      "INVALID_INPUT",
      `${name}: expected a ${ArrayType.name} of bit patterns, got ${describe(values)}`,
    );
  }
}

/**
 * A table of every value of a small float format with `e` exponent bits and
 * `m` mantissa bits, a sign bit above them, bias 2^(e-1) - 1, subnormals and
 * no infinities or NaN (the "fn" formats: finite, no negative-zero tricks).
 */
function finiteFormatTable(e, m) {
  const bias = 2 ** (e - 1) - 1;
  const size = 2 ** (1 + e + m);
  const table = new Float32Array(size);
  for (let code = 0; code < size; code++) {
    const sign = code >> (e + m) ? -1 : 1;
    const exponent = (code >> m) & (2 ** e - 1);
    const mantissa = code & (2 ** m - 1);
    const magnitude = exponent === 0
      ? (mantissa / 2 ** m) * 2 ** (1 - bias)
      : (1 + mantissa / 2 ** m) * 2 ** (exponent - bias);
    table[code] = sign * magnitude;
  }
  return table;
}

const FLOAT4_E2M1FN = finiteFormatTable(2, 1);
const FLOAT6_E2M3FN = finiteFormatTable(2, 3);
const FLOAT6_E3M2FN = finiteFormatTable(3, 2);

function fromTable(name, table, mask) {
  return (values) => {
    checkInput(name, values, Uint8Array);
    const out = new Float32Array(values.length);
    for (let i = 0; i < values.length; i++) out[i] = table[values[i] & mask];
    return out;
  };
}

/** float4_e2m1fn bit patterns (low 4 bits of each byte) to Float32Array. */
export const float4E2m1fnToFloat32 = fromTable("float4E2m1fnToFloat32", FLOAT4_E2M1FN, 0x0f);
/** float6_e2m3fn bit patterns (low 6 bits of each byte) to Float32Array. */
export const float6E2m3fnToFloat32 = fromTable("float6E2m3fnToFloat32", FLOAT6_E2M3FN, 0x3f);
/** float6_e3m2fn bit patterns (low 6 bits of each byte) to Float32Array. */
export const float6E3m2fnToFloat32 = fromTable("float6E3m2fnToFloat32", FLOAT6_E3M2FN, 0x3f);

/** bfloat16 bit patterns to Float32Array: the top half of a float32. */
export function bfloat16ToFloat32(values) {
  checkInput("bfloat16ToFloat32", values, Uint16Array);
  const bits = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) bits[i] = values[i] << 16;
  return new Float32Array(bits.buffer);
}

/**
 * float16 bit patterns to Float32Array, re-biasing the exponent in integer
 * arithmetic so that NaN payloads, infinities, signed zeros and subnormals
 * come out exact.
 */
export function float16ToFloat32(values) {
  checkInput("float16ToFloat32", values, Uint16Array);
  const bits = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const h = values[i];
    const sign = (h & 0x8000) << 16;
    const exponent = (h >> 10) & 0x1f;
    let mantissa = h & 0x3ff;
    if (exponent === 0x1f) {
      bits[i] = sign | 0x7f800000 | (mantissa << 13); // inf, NaN (payload kept)
    } else if (exponent !== 0) {
      bits[i] = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa === 0) {
      bits[i] = sign; // signed zero
    } else {
      // Subnormal: normalise; the float32 exponent is 113 minus the shift.
      let e = 113;
      while ((mantissa & 0x400) === 0) {
        mantissa <<= 1;
        e--;
      }
      bits[i] = sign | (e << 23) | ((mantissa & 0x3ff) << 13);
    }
  }
  return new Float32Array(bits.buffer);
}
