// The array -> array filters of this folder by every name a zarrita
// registry looks them up by: the v3 names ("bitround", "reshape",
// "numcodecs.delta", ...) and the Zarr v2 filter ids, which zarrita 0.7
// prefixes with "numcodecs." and 0.5 and 0.6 pass bare ("delta").
// numcodecs' Shuffle is a bytes -> bytes codec (../shuffle.js).
import { AsTypeCodec } from "./astype.js";
import { BitroundCodec } from "./bitround.js";
import { DeltaCodec } from "./delta.js";
import { FixedScaleOffsetCodec } from "./fixed-scale-offset.js";
import { QuantizeCodec } from "./quantize.js";
import { ReshapeCodec } from "./reshape.js";

/** @type {Map<string, {new (configuration: unknown, meta: unknown): object}>} */
export const FILTER_CODECS = new Map([
  ["delta", DeltaCodec],
  ["numcodecs.delta", DeltaCodec],
  ["fixedscaleoffset", FixedScaleOffsetCodec],
  ["numcodecs.fixedscaleoffset", FixedScaleOffsetCodec],
  ["quantize", QuantizeCodec],
  ["numcodecs.quantize", QuantizeCodec],
  ["astype", AsTypeCodec],
  ["numcodecs.astype", AsTypeCodec],
  ["bitround", BitroundCodec],
  ["numcodecs.bitround", BitroundCodec],
  ["reshape", ReshapeCodec],
]);
