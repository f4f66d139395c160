// scale_offset's two formulas in the arithmetic of the array's own data
// type, as its page requires: float64 as doubles; float32 rounded after
// each operation (Math.fround); float16, bfloat16 and the narrow floats
// rounded to their grid (ties to even) after each operation, which is
// exact IEEE arithmetic since a double holds more than twice their
// precision; integers exact (number below 2^53, BigInt for 64 bits). A
// result the type cannot hold (an overflow, an integer division with a
// remainder, a NaN from numbers) is an error naming the value.
import { ZarrCodecError } from "../errors.js";
import { showValue } from "./numeric-cast.js";
import { roundToFormat } from "../floats/rounding.js";

function unrepresentable(where, type, input, result, why) {
  return new ZarrCodecError(
    "VALUE_OUT_OF_RANGE",
    `${where}: ${showValue(input)} gives ${showValue(result)}, which ${why} ${type.name} (expected every intermediate and final value to be one of ${type.name})`,
  );
}

// One float operation's result, rounded to the type; operands are values of it.
function floatStep(where, type, input) {
  const format = type.format;
  const native = type.bits === 64 ? (r) => r : type.bits === 32 && !type.codes ? Math.fround : (r) => roundToFormat(r, format, "nearest-even");
  // a and b are the operation's operands (no array per element: this runs per value).
  return (r, a, b) => {
    if (Number.isNaN(r)) {
      if ((Number.isNaN(a) || Number.isNaN(b)) && format.hasNaN) return r;
      throw unrepresentable(where, type, input(), r, "is no number of");
    }
    const rounded = Number.isFinite(r) ? native(r) : r;
    if (!Number.isFinite(rounded)) {
      if (!(Number.isFinite(a) && Number.isFinite(b)) && format.hasInfinity) return rounded;
      throw unrepresentable(where, type, input(), r, "overflows");
    }
    if (Math.abs(rounded) > format.largest || (!format.signed && !(rounded >= format.least))) {
      throw unrepresentable(where, type, input(), r, "lies outside the range of");
    }
    return rounded === 0 && !format.hasNegativeZero ? 0 : rounded;
  };
}

function integerStep(where, type, input) {
  const { min, max } = type;
  return (r) => {
    if (r < min || r > max) throw unrepresentable(where, type, input(), r, "lies outside the range of");
    return r;
  };
}

/**
 * The encode and decode of one value of `type`.
 * @returns {{encode: (x: number | bigint) => number | bigint, decode: (x: number | bigint) => number | bigint}}
 */
export function scaleOffsetFunctions(where, type, scale, offset) {
  let x0;
  const input = () => x0;
  if (type.kind === "float") {
    const encodeStep = floatStep(`${where} encode`, type, input);
    const decodeStep = floatStep(`${where} decode`, type, input);
    return {
      encode(x) {
        x0 = x;
        const d = encodeStep(x - offset, x, offset);
        return encodeStep(d * scale, d, scale);
      },
      decode(x) {
        x0 = x;
        const q = decodeStep(x / scale, x, scale);
        return decodeStep(q + offset, q, offset);
      },
    };
  }
  const encodeStep = integerStep(`${where} encode`, type, input);
  const decodeStep = integerStep(`${where} decode`, type, input);
  const decodeWhere = `${where} decode`;
  if (type.big) {
    return {
      encode(x) {
        x0 = x;
        return encodeStep(encodeStep(x - offset) * scale);
      },
      decode(x) {
        x0 = x;
        if (x % scale !== 0n) throw unrepresentable(decodeWhere, type, x, `${x}/${scale}`, "has a remainder: it is no integer of");
        // The quotient is an intermediate value: it must be one of the type too.
        return decodeStep(decodeStep(x / scale) + offset);
      },
    };
  }
  return {
    encode(x) {
      x0 = x;
      // Below 2^53 the product is exact; past it, it is out of every
      // 32-bit type's range whatever its rounding.
      return encodeStep(encodeStep(x - offset) * scale) + 0;
    },
    decode(x) {
      x0 = x;
      if (x % scale !== 0) throw unrepresentable(decodeWhere, type, x, `${x}/${scale}`, "has a remainder: it is no integer of");
      return decodeStep(decodeStep(x / scale) + offset) + 0;
    },
  };
}

/**
 * Whole chunks of float32 or float64 through one of the two formulas, in
 * plain loops (the per-value functions above cost a call and checks per
 * element). A value whose result is not finite goes through `exact`, the
 * per-value function, which returns what propagates (NaN, infinities in
 * the input) and throws for an overflow, so the answers are the same.
 * Undefined for other types.
 */
export function floatArrayLoop(type, scale, offset, direction, exact) {
  if (type.kind !== "float" || type.codes) return undefined;
  const Out = type.bits === 32 ? Float32Array : Float64Array;
  const f = type.bits === 32 ? Math.fround : (x) => x;
  if (direction === "encode") {
    return (data) => {
      const n = data.length;
      const out = new Out(n);
      for (let i = 0; i < n; i++) {
        const r = f(f(data[i] - offset) * scale);
        out[i] = r - r === 0 ? r : exact(data[i]);
      }
      return out;
    };
  }
  return (data) => {
    const n = data.length;
    const out = new Out(n);
    for (let i = 0; i < n; i++) {
      const r = f(f(data[i] / scale) + offset);
      out[i] = r - r === 0 ? r : exact(data[i]);
    }
    return out;
  };
}
