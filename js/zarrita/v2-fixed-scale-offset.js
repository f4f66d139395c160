// zarrita 0.7 turns a Zarr v2 fixedscaleoffset filter into the v3 pair
// scale_offset + cast_value (cast_value left out where astype is the
// dtype) inside its own metadata conversion, before the registry is asked,
// so the package's FixedScaleOffset codec is never called for it. The
// pair's pages compute in the array's data type (float32 rounded at each
// step), and numcodecs, which wrote the data, in numpy's (enc / scale in
// float64, then cast to the dtype): the values differ. Such a chain is
// told apart by what a v3 array cannot lack, an array -> bytes codec
// (zarrita adds none for a little-endian v2 array), with every entry as
// zarrita's conversion writes it (convertedFromV2). Read so, scale_offset
// decodes the stored values as numcodecs does (FixedScaleOffsetCodec) and
// cast_value passes them through; a big-endian v2 array (zarrita adds a
// big-endian bytes codec) cannot be told from a v3 one and is read as the
// pages say.
import { DECODE_DESCRIPTION } from "../array-to-array/decode-description.js";
import { FixedScaleOffsetCodec } from "../array-to-array/fixed-scale-offset.js";

const ARRAY_TO_BYTES = new Set(["bytes", "endian", "packbits", "sharding_indexed", "n5_default"]);

const hasKeys = (object, keys) => object !== null && typeof object === "object" && Object.keys(object).sort().join() === [...keys].sort().join();

// The entries zarrita 0.7.5's conversion writes (util.js v2ToV3ArrayMetadata),
// and nothing else: scale_offset with number scale and offset, and the
// cast_value after it (where astype is not the dtype) with exactly its
// data_type, "nearest-even" and "wrap".
function zarritasScaleOffset(entry) {
  return entry?.name === "scale_offset" && hasKeys(entry.configuration, ["scale", "offset"]) && typeof entry.configuration.scale === "number" && typeof entry.configuration.offset === "number";
}
function zarritasCastValue(entry) {
  const c = entry?.configuration;
  return entry?.name === "cast_value" && hasKeys(c, ["data_type", "rounding", "out_of_range"]) && c.rounding === "nearest-even" && c.out_of_range === "wrap";
}

/**
 * Whether `meta` (zarrita 0.7's) is a chain zarrita made of a v2 array's
 * filters with at least one fixedscaleoffset: no array -> bytes codec of
 * any name a v3 array could use before its compressors (every one but
 * numcodecs' filters and compressors and zarrita's conversion's own
 * entries), each scale_offset as zarrita writes it, and each cast_value
 * as zarrita writes it right after one.
 */
function convertedFromV2(meta) {
  const codecs = meta?.codecs;
  if (!Array.isArray(codecs) || meta.dataType === undefined || codecs.some((c) => ARRAY_TO_BYTES.has(c?.name))) return false;
  let pairs = 0;
  for (let i = 0; i < codecs.length; i++) {
    const c = codecs[i];
    if (c?.name === "scale_offset") {
      if (!zarritasScaleOffset(c)) return false;
      pairs++;
    } else if (c?.name === "cast_value") {
      if (!zarritasCastValue(c) || codecs[i - 1]?.name !== "scale_offset") return false;
    } else if (c?.name !== "transpose" && !String(c?.name).startsWith("numcodecs.")) {
      return false;
    }
  }
  return pairs > 0;
}

/**
 * The codec zarrita 0.7 should use for `name` ("scale_offset" or
 * "cast_value") with `configuration`, where the chain is a converted v2
 * fixedscaleoffset filter; undefined elsewhere.
 */
export function v2FixedScaleOffset(name, configuration, meta) {
  if (!convertedFromV2(meta)) return undefined;
  const codecs = meta.codecs;
  const at = codecs.findIndex((c) => c?.name === name && c.configuration === configuration);
  if (at < 0) return undefined;
  if (name === "cast_value") {
    // The pair's second half: the stored values pass through to
    // scale_offset, which casts them itself; the bytes codec after it is
    // told the stored type as ever.
    // (zarrita writes out_of_range "wrap" for a float astype too, which the
    // page allows for integers only: numpy's cast, here scale_offset's.)
    if (codecs[at - 1]?.name !== "scale_offset") return undefined;
    const stored = configuration?.data_type;
    return { kind: "array_to_array", [DECODE_DESCRIPTION]: { op: "identity" }, getEncodedMeta: (m) => ({ ...m, dataType: stored }), decode: (chunk) => chunk, encode: (chunk) => chunk };
  }
  const next = codecs[at + 1];
  const astype = next?.name === "cast_value" ? next.configuration?.data_type : meta.dataType;
  const fso = FixedScaleOffsetCodec.fromConfig({ scale: configuration?.scale, offset: configuration?.offset, dtype: meta.dataType, astype }, meta);
  // getEncodedMeta: the stored type is cast_value's to tell (or the dtype).
  return { kind: "array_to_array", [DECODE_DESCRIPTION]: fso[DECODE_DESCRIPTION], getEncodedMeta: (m) => m, decode: (chunk) => fso.decode(chunk), encode: (chunk) => fso.encode(chunk) };
}
