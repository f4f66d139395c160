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
    current = afterArrayToArray(entry, current);
  }
  return current;
}

// The meta after one array -> array codec of a legacy chain: what the
// codecs that change the data type or shape make of it.
function afterArrayToArray(entry, current) {
  if (entry?.name === "numcodecs.packbits" && Array.isArray(current.shape)) {
    const n = current.shape.reduce((a, b) => a * b, 1);
    return { ...current, data_type: "uint8", shape: [1 + Math.ceil(n / 8)] };
  }
  if (entry?.name === "cast_value" && entry.configuration?.data_type !== undefined) {
    return { ...current, data_type: entry.configuration.data_type };
  }
  return current;
}

/**
 * The meta the array -> array codec `name` with this `configuration`
 * should see. zarrita 0.5 and 0.6 give every codec the array's own data
 * type, so a codec after a cast_value (scale_offset on the stored type)
 * would compute in the wrong type. zarrita passes each entry's own
 * configuration object, which finds the codec's place in the chain; where
 * it does not (no configuration), the first entry of that name is taken.
 */
export function metaForArrayToArray(name, configuration, meta) {
  if (!isLegacyMeta(meta) || !Array.isArray(meta.codecs)) return meta;
  const entries = meta.codecs;
  let at = entries.findIndex((entry) => entry?.name === name && configuration !== undefined && entry.configuration === configuration);
  if (at < 0) at = entries.findIndex((entry) => entry?.name === name);
  let current = meta;
  for (let i = 0; i < at; i++) current = afterArrayToArray(entries[i], current);
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
