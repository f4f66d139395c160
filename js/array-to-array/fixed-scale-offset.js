// numcodecs' FixedScaleOffset filter (Zarr v2 `{"id": "fixedscaleoffset",
// "offset", "scale", "dtype", "astype"}`, v3 "numcodecs.fixedscaleoffset",
// the legacy codec the zarr-extensions scale_offset page records):
//   encode: around((x - offset) * scale) cast to `astype`;
//   decode: (enc / scale + offset) cast to `dtype`;
// each operation in the type numpy 1.24 gives an array and a Python scalar
// (numpy-arithmetic.js): float32 data with a small scale stays float32 and
// rounds at each step, integer data divided gives float64, `around` is
// ties-to-even, casts are numpy's (numpy-cast.js: integers wrap).
import { describe, isPlainObject, ZarrCodecError } from "../errors.js";
import { arithmeticIn, divisionType, roundHalfEven, scalarResultType } from "./numpy-arithmetic.js";
import { converter } from "./numpy-cast.js";
import { parseNumericType } from "./numpy-types.js";
import { checkInputType, chunkMetaOf, chunkWith, elementsOf, withEncoded } from "./filter-chunk.js";
import { DECODE_DESCRIPTION } from "./decode-description.js";
import { writtenAsFloat } from "../json/lossless.js";

const NAME = "fixedscaleoffset";

// A scale or offset, and whether numpy sees a Python int: an integral
// number, unless the metadata's text wrote it as a float ("10.0": read
// reads the .zarray's text, json/lossless.js; zarrita's JSON.parse cannot
// tell, so zarr.get takes such numbers as ints).
function scalarField(configuration, field) {
  const value = configuration[field];
  if (typeof value === "number" && Number.isFinite(value)) return { value, integral: Number.isInteger(value) && !writtenAsFloat(configuration, field) };
  throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: ${field} must be a finite number, got ${describe(value)}`);
}

// numpy's type for `e / scale` (e of astype), and for adding offset to it.
function decodeTypes(astype, scale, offset) {
  const divided = astype.kind === "f" ? scalarResultType(astype, scale.value, scale.integral) : divisionType(astype, scale.value);
  return { divided, added: scalarResultType(divided, offset.value, offset.integral) };
}

/**
 * One element's decoding: `(e / scale + offset)` as numpy computes it for
 * `e` of `astype`, cast to `dtype`. Returns the per-element function.
 * `scale` and `offset`: { value, integral } (scalarField).
 */
function scaleOffsetDecoder(astype, dtype, scale, offset) {
  const { divided, added } = decodeTypes(astype, scale, offset);
  const d = arithmeticIn(divided);
  const a = arithmeticIn(added);
  const toDivided = converter(astype, divided);
  const toAdded = converter(divided, added);
  const toOut = converter(added, dtype);
  const s = d.scalar(scale.value);
  const o = a.scalar(offset.value);
  return (e) => toOut(a.add(toAdded(d.div(toDivided(e), s)), o));
}

/** One element's encoding: around((x - offset) * scale) cast to `astype`. */
function scaleOffsetEncoder(dtype, astype, scale, offset) {
  const subtracted = scalarResultType(dtype, offset.value, offset.integral);
  const scaled = scalarResultType(subtracted, scale.value, scale.integral);
  const s1 = arithmeticIn(subtracted);
  const s2 = arithmeticIn(scaled);
  const toSubtracted = converter(dtype, subtracted);
  const toScaled = converter(subtracted, scaled);
  const toOut = converter(scaled, astype);
  const o = s1.scalar(offset.value);
  const s = s2.scalar(scale.value);
  // around() of an integer array is the array itself.
  const round = scaled.kind === "f" ? roundHalfEven : (v) => v;
  return (x) => toOut(round(s2.mul(toScaled(s1.sub(toSubtracted(x), o)), s)));
}

function mapped(input, Out, f) {
  const out = new Out(input.length);
  for (let i = 0; i < input.length; i++) out[i] = f(input[i]);
  return out;
}

export class FixedScaleOffsetCodec {
  kind = "array_to_array";
  #dtype;
  #astype;
  #encode;
  #decode;
  #parameters;

  constructor(configuration, meta) {
    if (!isPlainObject(configuration)) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: expected a configuration object ({ offset, scale, dtype, astype }), got ${describe(configuration)}`);
    }
    const offset = scalarField(configuration, "offset");
    const scale = scalarField(configuration, "scale");
    this.#dtype = parseNumericType(NAME, "dtype", configuration.dtype ?? chunkMetaOf(meta).dataType);
    checkInputType(NAME, "dtype", this.#dtype, meta);
    this.#astype = configuration.astype == null ? this.#dtype : parseNumericType(NAME, "astype", configuration.astype);
    this.#decode = scaleOffsetDecoder(this.#astype, this.#dtype, scale, offset);
    this.#parameters = { scale, offset };
    this.#encode = scaleOffsetEncoder(this.#dtype, this.#astype, scale, offset);
  }

  static fromConfig(configuration, meta) {
    return new FixedScaleOffsetCodec(configuration, meta);
  }

  /**
   * What decode does, as data (read/decode/value-steps.js): e of astype,
   * divided by scale in `divided` (numpy's type for it), offset added in
   * `added`, cast to dtype.
   */
  get [DECODE_DESCRIPTION]() {
    const { scale, offset } = this.#parameters;
    const { divided, added } = decodeTypes(this.#astype, scale, offset);
    return { op: "fixedscaleoffset", astype: this.#astype.name, divided: divided.name, added: added.name, dtype: this.#dtype.name, scale: scale.value, offset: offset.value };
  }

  getEncodedMeta(meta) {
    return withEncoded(meta, this.#astype.name, meta?.shape);
  }

  encode(chunk) {
    return chunkWith(chunk, mapped(elementsOf(NAME, chunk, this.#dtype), this.#astype.Array, this.#encode));
  }

  decode(chunk) {
    return chunkWith(chunk, mapped(elementsOf(NAME, chunk, this.#astype), this.#dtype.Array, this.#decode));
  }
}
