// `scale_offset` (zarr-extensions codecs/scale_offset): encode
// out = (in - offset) * scale, decode out = in / scale + offset, in the
// array's own data type (typed-arithmetic.js), keeping the data type.
// scale and offset are in the fill-value JSON encoding of that type; the
// fill goes through the same encode (getEncodedMeta, zarrita 0.7).
import { configurationOf } from "../codecs/arguments.js";
import { ZarrCodecError } from "../errors.js";
import { arrayCast, checkChunkData } from "./cast-arrays.js";
import { chunkData, metaFill, metaType } from "./chunk-meta.js";
import { showValue } from "./numeric-cast.js";
import { parseScalar } from "./scalar-json.js";
import { floatArrayLoop, scaleOffsetFunctions } from "./typed-arithmetic.js";
import { DECODE_DESCRIPTION } from "./decode-description.js";

const NAME = "scale_offset";

export class ScaleOffsetCodec {
  kind = "array_to_array";
  #type;
  #encodeArray;
  #decodeArray;
  #parameters;

  /**
   * @param {{scale?: unknown, offset?: unknown} | undefined} configuration
   * @param {{dataType?: string, data_type?: string, fillValue?: unknown}} meta
   */
  constructor(configuration, meta) {
    const config = configurationOf(NAME, configuration, ["scale", "offset"], "(expected scale and offset)");
    const type = metaType(NAME, meta);
    const one = type.big ? 1n : 1;
    const zero = type.big ? 0n : 0;
    const scale = config.scale === undefined ? one : parseScalar(`${NAME}: scale (${type.name})`, type, config.scale);
    const offset = config.offset === undefined ? zero : parseScalar(`${NAME}: offset (${type.name})`, type, config.offset);
    // Decoding divides by scale: zero (or NaN) cannot be undone.
    if (scale == 0 || (typeof scale === "number" && Number.isNaN(scale))) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: scale must be a non-zero number of ${type.name} (decoding divides by it), got ${showValue(scale)}`);
    }
    this.#type = type;
    this.#parameters = { scale, offset };
    const f = scaleOffsetFunctions(`${NAME} (${type.name})`, type, scale, offset);
    this.#encodeArray = floatArrayLoop(type, scale, offset, "encode", f.encode) ?? arrayCast(type, type, f.encode);
    this.#decodeArray = floatArrayLoop(type, scale, offset, "decode", f.decode) ?? arrayCast(type, type, f.decode);
    const fill = metaFill(type, meta);
    /** The fill after encode (zarrita 0.7 gives the fill; undefined otherwise). */
    this.encodedFill = undefined;
    if (fill !== undefined) {
      try {
        this.encodedFill = f.encode(fill);
      } catch (cause) {
        throw new ZarrCodecError("INVALID_METADATA", `${NAME}: the fill value ${showValue(fill)} cannot be encoded (${cause.message})`, { cause });
      }
    }
  }

  static fromConfig(configuration, meta) {
    return new ScaleOffsetCodec(configuration, meta);
  }

  /** What decode does, as data (read/decode/value-steps.js): in / scale + offset in `type`. */
  get [DECODE_DESCRIPTION]() {
    return { op: "scale_offset", type: this.#type.name, ...this.#parameters };
  }

  /** zarrita 0.7: the next codec sees the encoded fill. */
  getEncodedMeta(meta) {
    return this.encodedFill === undefined ? { ...meta } : { ...meta, fillValue: this.encodedFill };
  }

  decode(chunk) {
    const data = chunkData(`${NAME} decode`, chunk);
    checkChunkData(`${NAME} decode`, this.#type, data);
    return { data: this.#decodeArray(data), shape: chunk.shape, stride: chunk.stride };
  }

  encode(chunk) {
    const data = chunkData(`${NAME} encode`, chunk);
    checkChunkData(`${NAME} encode`, this.#type, data);
    return { data: this.#encodeArray(data), shape: chunk.shape, stride: chunk.stride };
  }
}
