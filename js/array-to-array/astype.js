// numcodecs' AsType filter (Zarr v2 `{"id": "astype", "encode_dtype",
// "decode_dtype"}`, v3 "numcodecs.astype"): values stored as another
// numeric type, converted with numpy's astype both ways (numpy-cast.js:
// floats rounded to nearest even, floats to integers truncated, integers
// wrapped). Lossy where `encode_dtype` holds less than `decode_dtype`.
import { describe, isPlainObject, ZarrCodecError } from "../errors.js";
import { castArray } from "./numpy-cast.js";
import { parseNumericType } from "./numpy-types.js";
import { checkInputType, chunkMetaOf, chunkWith, elementsOf, withEncoded } from "./filter-chunk.js";

const NAME = "astype";

export class AsTypeCodec {
  kind = "array_to_array";
  #decoded;
  #encoded;

  constructor(configuration, meta) {
    if (!isPlainObject(configuration)) {
      throw new ZarrCodecError("INVALID_CONFIGURATION", `${NAME}: expected a configuration object ({ encode_dtype, decode_dtype }), got ${describe(configuration)}`);
    }
    this.#encoded = parseNumericType(NAME, "encode_dtype", configuration.encode_dtype);
    this.#decoded = parseNumericType(NAME, "decode_dtype", configuration.decode_dtype ?? chunkMetaOf(meta).dataType);
    checkInputType(NAME, "decode_dtype", this.#decoded, meta);
  }

  static fromConfig(configuration, meta) {
    return new AsTypeCodec(configuration, meta);
  }

  getEncodedMeta(meta) {
    return withEncoded(meta, this.#encoded.name, meta?.shape);
  }

  encode(chunk) {
    return chunkWith(chunk, castArray(elementsOf(NAME, chunk, this.#decoded), this.#decoded, this.#encoded));
  }

  decode(chunk) {
    return chunkWith(chunk, castArray(elementsOf(NAME, chunk, this.#encoded), this.#encoded, this.#decoded));
  }
}
