// The two shapes of `meta` zarrita hands a codec's fromConfig:
//   zarrita 0.7:      { dataType, shape, codecs, fillValue }, with the data
//                     type already changed by array -> array codecs before
//                     (getEncodedMeta);
//   zarrita 0.5, 0.6: { data_type, shape, codecs }, the same object for
//                     every codec of the chain.
// The codecs read either (codecs/data-type.js); what 0.5 and 0.6 leave out
// is recovered here from the chain itself.

const ARRAY_TO_BYTES = new Set(["bytes", "endian", "packbits", "sharding_indexed"]);

/** Whether zarrita 0.5 or 0.6 built this meta. */
export function isLegacyMeta(meta) {
  return meta !== null && typeof meta === "object" && meta.dataType === undefined && meta.data_type !== undefined;
}

/**
 * The meta an array -> bytes codec should see. zarrita 0.5 and 0.6 do not
 * thread array -> array codecs' changes through the chain, so a `bytes`
 * after `numcodecs.packbits` (zarr-python 3's layout) would be told the
 * chunk is bool [n] while it holds the uint8 [1 + ceil(n / 8)] PackBits
 * made of it.
 */
export function metaForArrayToBytes(meta) {
  if (!isLegacyMeta(meta) || !Array.isArray(meta.codecs)) return meta;
  let current = meta;
  for (const entry of meta.codecs) {
    if (ARRAY_TO_BYTES.has(entry?.name)) break;
    if (entry?.name === "numcodecs.packbits" && Array.isArray(current.shape)) {
      const n = current.shape.reduce((a, b) => a * b, 1);
      current = { ...current, data_type: "uint8", shape: [1 + Math.ceil(n / 8)] };
    }
  }
  return current;
}

/**
 * zarrita 0.5 and 0.6 name a Zarr v2 filter by its id alone, so numcodecs'
 * PackBits filter ({"id": "packbits"}) reaches the registry as "packbits"
 * with an empty configuration, exactly like a v3 packbits codec written
 * with `"configuration": {}`. True where a meta and configuration could be
 * either.
 */
export function couldBeV2PackBitsFilter(configuration, meta) {
  return (
    isLegacyMeta(meta) &&
    (meta.data_type === "bool") &&
    configuration !== null &&
    typeof configuration === "object" &&
    !Array.isArray(configuration) &&
    Object.keys(configuration).length === 0
  );
}
