// numcodecs' Quantize filter (Zarr v2 `{"id": "quantize", "digits",
// "dtype", "astype"}`, v3 "numcodecs.quantize"): floats rounded to a
// multiple of a power of two fine enough for `digits` decimal digits.
//   encode: precision = 10 ** -digits; exp = log10(precision), floored
//           (ceiled when >= 0); bits = ceil(log2(10 ** -exp));
//           scale = 2 ** bits; around(scale * x) / scale in `dtype`
//           (ties to even), cast to `astype`. Lossy: what it drops is gone.
//   decode: the stored values cast to `dtype` (nothing to undo).
// The logarithms are computed as Python's math.log(x, base) computes them,
// log(x) / log(base), so `bits` is numcodecs' for every digits (checked in
// the tests against numcodecs' values).
import { describe, isPlainObject, ZarrCodecError } from "../errors.js";
import { arithmeticIn, roundHalfEven, scalarResultType } from "./numpy-arithmetic.js";
import { castArray, converter } from "./numpy-cast.js";
import { parseNumericType } from "./numpy-types.js";
import { checkInputType, chunkMetaOf, chunkWith, elementsOf, withEncoded } from "./filter-chunk.js";

const NAME = "quantize";

/** numcodecs' `bits` for `digits`: the scale is 2 ** bits. */
export function quantizeBits(digits) {
  const precision = 10 ** -digits;
  let exp = Math.log(precision) / Math.log(10);
  exp = exp < 0 ? Math.floor(exp) : Math.ceil(exp);
  return Math.ceil(Math.log(10 ** -exp) / Math.log(2));
}

/** One element's encoding for `dtype` data stored as `astype`. */
export function quantizer(dtype, astype, digits) {
  const scale = 2 ** quantizeBits(digits);
  // The scale is a Python float: its type counts by its range alone.
  const type = scalarResultType(dtype, scale, false);
  const { mul, div, scalar } = arithmeticIn(type);
  const s = scalar(scale);
  const toType = converter(dtype, type);
  const toOut = converter(type, astype);
  return (x) => toOut(div(roundHalfEven(mul(s, toType(x))), s));
}

function floatType(field, value) {
  const type = parseNumericType(NAME, field, value);
  if (type.kind !== "f") {
    throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: ${field} must be a floating-point dtype (numcodecs quantizes floats only), got ${describe(value)}`);
  }
  return type;
}

export class QuantizeCodec {
  kind = "array_to_array";
  #dtype;
  #astype;
  #encode;

  constructor(configuration, meta) {
    if (!isPlainObject(configuration)) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: expected a configuration object ({ digits, dtype, astype }), got ${describe(configuration)}`);
    }
    const { digits } = configuration;
    if (!Number.isInteger(digits) || Math.abs(digits) > 300) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: digits must be an integer in -300..300, got ${describe(digits)}`);
    }
    this.#dtype = floatType("dtype", configuration.dtype ?? chunkMetaOf(meta).dataType);
    checkInputType(NAME, "dtype", this.#dtype, meta);
    this.#astype = configuration.astype == null ? this.#dtype : floatType("astype", configuration.astype);
    this.#encode = quantizer(this.#dtype, this.#astype, digits);
  }

  static fromConfig(configuration, meta) {
    return new QuantizeCodec(configuration, meta);
  }

  getEncodedMeta(meta) {
    return withEncoded(meta, this.#astype.name, meta?.shape);
  }

  encode(chunk) {
    const x = elementsOf(NAME, chunk, this.#dtype);
    const out = new this.#astype.Array(x.length);
    for (let i = 0; i < x.length; i++) out[i] = this.#encode(x[i]);
    return chunkWith(chunk, out);
  }

  decode(chunk) {
    return chunkWith(chunk, castArray(elementsOf(NAME, chunk, this.#astype), this.#astype, this.#dtype));
  }
}
