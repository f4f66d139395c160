// numcodecs' Delta filter (Zarr v2 `{"id": "delta", "dtype", "astype"}`,
// v3 "numcodecs.delta"): each element stored as the difference from the one
// before it, the first as itself, over the chunk's elements in memory order
// (numcodecs' reshape(-1, order="A")).
//   encode: enc[0] = x[0]; enc[i] = x[i] - x[i-1] computed in `dtype`
//           (integers wrap around, float32 rounds), then cast to `astype`;
//   decode: numpy's cumsum(enc, out=dec): a running sum kept in the type
//           numpy promotes `astype` and `dtype` to (float64 for int32 into
//           float32), each partial sum cast to `dtype`.
import { isPlainObject, ZarrCodecError, describe } from "../errors.js";
import { arithmeticIn, promoteTypes } from "./numpy-arithmetic.js";
import { castArray, converter } from "./numpy-cast.js";
import { parseNumericType } from "./numpy-types.js";
import { checkInputType, chunkMetaOf, chunkWith, elementsOf, withEncoded } from "./filter-chunk.js";

const NAME = "delta";

/** x[i] - x[i-1] in `type`, the first element as itself. */
export function differences(x, type) {
  const out = new type.Array(x.length);
  const { sub } = arithmeticIn(type);
  // The first element as it is, bit for bit (a signalling NaN read into a
  // JavaScript number would be quieted; numpy copies it).
  if (x.length) new Uint8Array(out.buffer, out.byteOffset, type.size).set(new Uint8Array(x.buffer, x.byteOffset, type.size));
  for (let i = 1; i < x.length; i++) out[i] = sub(x[i], x[i - 1]);
  return out;
}

/**
 * The running sum of `enc` (of type `from`), kept in `sum`, each partial
 * sum stored as `to`.
 */
export function runningSum(enc, from, sum, to) {
  const out = new to.Array(enc.length);
  const { add } = arithmeticIn(sum);
  const toSum = converter(from, sum);
  const toOut = converter(sum, to);
  let total;
  for (let i = 0; i < enc.length; i++) {
    total = i === 0 ? toSum(enc[0]) : add(total, toSum(enc[i]));
    out[i] = toOut(total);
  }
  // numpy's cumsum copies the first element as it is: a float read into a
  // JavaScript number is quieted where it is a signalling NaN, so where
  // nothing is cast its bits are copied.
  if (enc.length && from === sum && sum === to && to.kind === "f") {
    new Uint8Array(out.buffer, out.byteOffset, to.size).set(new Uint8Array(enc.buffer, enc.byteOffset, to.size));
  }
  return out;
}

export class DeltaCodec {
  kind = "array_to_array";
  #dtype;
  #astype;

  /**
   * @param {{dtype?: string, astype?: string}} configuration
   * @param {{dataType?: string, data_type?: string}} [meta]
   */
  constructor(configuration, meta) {
    if (!isPlainObject(configuration)) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: expected a configuration object ({ dtype, astype }), got ${describe(configuration)}`);
    }
    // Zarr v2 requires dtype; a v3 chain says the type itself.
    const given = configuration.dtype ?? chunkMetaOf(meta).dataType;
    this.#dtype = parseNumericType(NAME, "dtype", given);
    checkInputType(NAME, "dtype", this.#dtype, meta);
    this.#astype = configuration.astype == null ? this.#dtype : parseNumericType(NAME, "astype", configuration.astype);
  }

  static fromConfig(configuration, meta) {
    return new DeltaCodec(configuration, meta);
  }

  getEncodedMeta(meta) {
    return withEncoded(meta, this.#astype.name, meta?.shape);
  }

  encode(chunk) {
    const x = elementsOf(NAME, chunk, this.#dtype);
    const diff = differences(x, this.#dtype);
    return chunkWith(chunk, this.#astype === this.#dtype ? diff : castArray(diff, this.#dtype, this.#astype));
  }

  decode(chunk) {
    const enc = elementsOf(NAME, chunk, this.#astype);
    return chunkWith(chunk, runningSum(enc, this.#astype, promoteTypes(this.#astype, this.#dtype), this.#dtype));
  }
}
