// "zarr-codecs-wasm.stored": the array -> bytes codec withDataTypes puts in
// the metadata it presents to zarrita, where the stored data type differs
// from the one zarrita sees (an int4 array presented as int8, float8 as
// float32). Its configuration carries the original codec and the stored
// type; it decodes the stored bytes straight into the presented container
// (widening floats in the same pass) and encodes them back.
//
//   { "name": "zarr-codecs-wasm.stored",
//     "configuration": { "codec": { "name": "packbits", "configuration": {...} },
//                        "data_type": "int4", "floats": "float32" } }
//
// For Zarr v2 arrays it arrives as a filter ({ "id": ..., same members }),
// which zarrita names "numcodecs.zarr-codecs-wasm.stored" (0.7) or
// "zarr-codecs-wasm.stored" (0.5, 0.6).
import { BytesCodec } from "../codecs/bytes.js";
import { PackBitsCodec } from "../codecs/packbits.js";
import { describe, ZarrCodecError } from "../errors.js";

export const STORED_CODEC = "zarr-codecs-wasm.stored";

const INNER = { bytes: BytesCodec, endian: BytesCodec, packbits: PackBitsCodec };

/**
 * The codec class zarrita sees under STORED_CODEC, with zarrita's bool
 * container.
 */
export function storedTypeCodec(adapter) {
  return {
    fromConfig(configuration, meta) {
      const inner = configuration?.codec;
      const Codec = INNER[inner?.name];
      if (!Codec) {
        throw new ZarrCodecError(
          "INVALID_CONFIGURATION",
          `${STORED_CODEC}: codec must be bytes or packbits, got ${describe(inner?.name)}`,
        );
      }
      const presentation = configuration.floats === "float32" ? "float32" : "native";
      return new Codec(
        inner.configuration,
        { dataType: configuration.data_type, shape: meta.shape },
        { ...adapter, presentation },
      );
    },
  };
}
