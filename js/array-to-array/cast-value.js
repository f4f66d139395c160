// `cast_value` (zarr-extensions codecs/cast_value): an array -> array
// codec from the array's data type to `configuration.data_type`, value by
// value (numeric-cast.js), encode and decode. The fill is cast with the
// same rules, and must come back to itself through decode: a fill that
// does not survive the round trip is an error when the codec is made.
import { configurationOf } from "../codecs/arguments.js";
import { describe, isPlainObject, ZarrCodecError } from "../errors.js";
import { arrayCast, checkChunkData } from "./cast-arrays.js";
import { chunkData, metaFill, metaType, numericTypeOf, sameScalar } from "./chunk-meta.js";
import { castFunction, scalarMap, showValue } from "./numeric-cast.js";
import { ROUNDING_MODES } from "../floats/rounding.js";
import { parseScalar } from "./scalar-json.js";
import { DECODE_DESCRIPTION } from "./decode-description.js";

const NAME = "cast_value";

function oneOf(member, value, allowed) {
  if (value === undefined || allowed.includes(value)) return value;
  throw new ZarrCodecError(
    "INVALID_CONFIGURATION",
    `${NAME}: ${member} must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}, got ${describe(value)}`,
  );
}

// scalar_map.encode or .decode: [[input, output], ...], each scalar in the
// fill-value encoding of its side's data type.
function mapEntries(direction, entries, from, to) {
  if (entries === undefined) return [];
  if (!Array.isArray(entries)) {
    throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: scalar_map.${direction} must be an array of [input, output] pairs, got ${describe(entries)}`);
  }
  return entries.map((pair, i) => {
    if (!Array.isArray(pair) || pair.length !== 2) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: scalar_map.${direction}[${i}] must be an [input, output] pair, got ${describe(pair)}`);
    }
    return [
      parseScalar(`${NAME}: scalar_map.${direction}[${i}][0] (${from.name})`, from, pair[0]),
      parseScalar(`${NAME}: scalar_map.${direction}[${i}][1] (${to.name})`, to, pair[1]),
    ];
  });
}

export class CastValueCodec {
  kind = "array_to_array";
  #arrayType;
  #encodedType;
  #encodeValue;
  #decodeValue;
  #encodeArray;
  #decodeArray;
  #rules;

  /**
   * @param {{data_type: string, rounding?: string, out_of_range?: string,
   *   scalar_map?: {encode?: unknown[][], decode?: unknown[][]}}} configuration
   * @param {{dataType?: string, data_type?: string, fillValue?: unknown}} meta
   *   the array's data type (this codec's input), and in zarrita 0.7 its fill
   */
  constructor(configuration, meta) {
    const config = configurationOf(NAME, configuration, ["data_type", "rounding", "out_of_range", "scalar_map"], "(expected data_type, rounding, out_of_range and scalar_map)");
    if (config.data_type === undefined) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: configuration.data_type is required (the data type to cast to)`);
    }
    const arrayType = metaType(NAME, meta);
    const encodedType = numericTypeOf(NAME, "configuration.data_type", config.data_type);
    const rounding = oneOf("rounding", config.rounding, ROUNDING_MODES) ?? "nearest-even";
    const outOfRange = oneOf("out_of_range", config.out_of_range, ["clamp", "wrap"]);
    let map = config.scalar_map;
    if (map !== undefined) {
      if (!isPlainObject(map)) throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: scalar_map must be an object { encode, decode }, got ${describe(map)}`);
      map = configurationOf(`${NAME}: scalar_map`, map, ["encode", "decode"], "(expected encode and decode)");
    }
    // wrap is modular arithmetic on two's complement integers: the page
    // permits it only where data_type is one. (The array's type may be a
    // float, as in the page's NumPy example; decoding into a float has no
    // wrap, so a value out of its range there is an error.)
    if (outOfRange === "wrap" && encodedType.kind !== "int") {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: out_of_range "wrap" needs an integer data_type, got ${encodedType.name} (expected "clamp" or none)`);
    }
    const encodeMap = scalarMap(mapEntries("encode", map?.encode, arrayType, encodedType));
    const decodeMap = scalarMap(mapEntries("decode", map?.decode, encodedType, arrayType));
    this.#arrayType = arrayType;
    this.#encodedType = encodedType;
    this.#rules = { rounding, outOfRange, decodeMapped: decodeMap !== undefined };
    const encodeWhere = `${NAME} (encode ${arrayType.name} -> ${encodedType.name})`;
    const decodeWhere = `${NAME} (decode ${encodedType.name} -> ${arrayType.name})`;
    this.#encodeValue = castFunction(encodeWhere, arrayType, encodedType, { rounding, outOfRange, map: encodeMap });
    this.#decodeValue = castFunction(decodeWhere, encodedType, arrayType, { rounding, outOfRange, map: decodeMap });
    this.#encodeArray = arrayCast(arrayType, encodedType, this.#encodeValue);
    this.#decodeArray = arrayCast(encodedType, arrayType, this.#decodeValue);
    /** The fill cast to data_type (zarrita 0.7 gives the fill; undefined otherwise). */
    this.encodedFill = this.#checkFill(meta);
  }

  static fromConfig(configuration, meta) {
    return new CastValueCodec(configuration, meta);
  }

  /** The data type decode reads and encode writes (configuration.data_type). */
  get encodedDataType() {
    return this.#encodedType.name;
  }

  // The page: the fill is cast with the element rules, and a fill that
  // does not survive encode then decode is an error.
  #checkFill(meta) {
    const fill = metaFill(this.#arrayType, meta);
    if (fill === undefined) return undefined;
    let encoded, back;
    try {
      encoded = this.#encodeValue(fill);
      back = this.#decodeValue(encoded);
    } catch (cause) {
      throw new ZarrCodecError("INVALID_METADATA", `${NAME}: the fill value ${showValue(fill)} cannot be cast to ${this.#encodedType.name} and back (${cause.message})`, { cause });
    }
    if (!sameScalar(fill, back)) {
      throw new ZarrCodecError(
        "INVALID_METADATA",
        `${NAME}: the fill value ${showValue(fill)} does not survive the round trip through ${this.#encodedType.name} (it comes back as ${showValue(back)}); expected a fill the configuration casts exactly, or a scalar_map entry for it`,
      );
    }
    return encoded;
  }

  /**
   * What decode does, as data (read's value steps, read/decode/value-steps.js,
   * run the casts that are plain IEEE conversions in wasm).
   */
  get [DECODE_DESCRIPTION]() {
    return { op: "cast", from: this.#encodedType.name, to: this.#arrayType.name, ...this.#rules };
  }

  /** zarrita 0.7: what the next codec sees (the encoded type and fill). */
  getEncodedMeta(meta) {
    const fillValue = this.encodedFill !== undefined ? this.encodedFill : meta?.fillValue;
    return { ...meta, dataType: this.#encodedType.name, fillValue };
  }

  /** @param {{data: ArrayLike<number | bigint>, shape: number[], stride: number[]}} chunk of the encoded type */
  decode(chunk) {
    const data = chunkData(`${NAME} decode`, chunk);
    checkChunkData(`${NAME} decode`, this.#encodedType, data);
    return { data: this.#decodeArray(data), shape: chunk.shape, stride: chunk.stride };
  }

  /** @param {{data: ArrayLike<number | bigint>, shape: number[], stride: number[]}} chunk of the array's type */
  encode(chunk) {
    const data = chunkData(`${NAME} encode`, chunk);
    checkChunkData(`${NAME} encode`, this.#arrayType, data);
    return { data: this.#encodeArray(data), shape: chunk.shape, stride: chunk.stride };
  }
}
