// The two shapes of `meta` zarrita hands a codec's fromConfig:
//   zarrita 0.7:      { dataType, shape, codecs, fillValue }, with the data
//                     type already changed by array -> array codecs before
//                     (getEncodedMeta);
//   zarrita 0.5, 0.6: { data_type, shape, codecs }, the same object for
//                     every codec of the chain.
// The codecs read either (codecs/data-type.js); what 0.5 and 0.6 leave out
// is recovered here from the chain itself.

import { FILTER_CODECS } from "../array-to-array/filters.js";

const ARRAY_TO_BYTES = new Set(["bytes", "endian", "packbits", "sharding_indexed"]);

/** Whether zarrita 0.5 or 0.6 built this meta. */
export function isLegacyMeta(meta) {
  return meta !== null && typeof meta === "object" && meta.dataType === undefined && meta.data_type !== undefined;
}

// What zarrita 0.5 or 0.6 first put in a chunk meta ({ data_type, shape }):
// the filters' loaders set its data_type to the type they store
// (filter-loaders.js), and the chain is worked out again from this.
const ORIGINAL = new WeakMap();

function originalOf(meta) {
  let original = ORIGINAL.get(meta);
  if (!original) {
    original = { data_type: meta.data_type, shape: meta.shape };
    ORIGINAL.set(meta, original);
  }
  return original;
}

/**
 * The { data_type, shape } the array -> array codecs of a zarrita 0.5 or
 * 0.6 chain make of the array's, through the entries before index `end`
 * (all of them by default): numcodecs.packbits (zarr-python 3's layout,
 * before the array -> bytes codec), cast_value (its data_type) and the
 * filters of array-to-array/ (anywhere: zarrita 0.5 lists a v2
 * array's big-endian bytes codec before its filters). A filter whose configuration
 * ours refuse is passed over: its own fromConfig says why.
 */
export function encodedLegacyMeta(meta, end = Infinity) {
  let current = { ...meta, ...originalOf(meta) };
  const codecs = Array.isArray(meta.codecs) ? meta.codecs : [];
  let beforeBytes = true;
  for (let i = 0; i < Math.min(end, codecs.length); i++) {
    const entry = codecs[i];
    if (ARRAY_TO_BYTES.has(entry?.name)) beforeBytes = false;
    if (beforeBytes && entry?.name === "numcodecs.packbits" && Array.isArray(current.shape)) {
      const n = current.shape.reduce((a, b) => a * b, 1);
      current = { ...current, data_type: "uint8", shape: [1 + Math.ceil(n / 8)] };
    }
    if (entry?.name === "cast_value" && entry.configuration?.data_type !== undefined) {
      current = { ...current, data_type: entry.configuration.data_type };
      continue;
    }
    const Filter = FILTER_CODECS.get(entry?.name);
    if (!Filter) continue;
    try {
      current = new Filter(entry.configuration, current).getEncodedMeta?.(current) ?? current;
    } catch {
      // refused: its own loader reports it
    }
  }
  return current;
}

/**
 * On zarrita 0.5 and 0.6, the one meta of a chain told the type its array
 * -> array codecs store (so the codecs after them that read it, zarrita's
 * own bytes codec and the compressors' decoded sizes, see that type); the
 * array's own is kept aside (arrayTypeOf). A no-op on zarrita 0.7.
 */
export function storeEncodedType(meta) {
  if (isLegacyMeta(meta)) meta.data_type = encodedLegacyMeta(meta).data_type;
}

/** The array's own data type of a chain's meta (on zarrita 0.5 and 0.6 as zarrita first put it there). */
export function arrayTypeOf(meta) {
  if (!isLegacyMeta(meta)) return meta?.dataType;
  return ORIGINAL.get(meta)?.data_type ?? meta.data_type;
}

/**
 * The meta an array -> bytes codec should see. zarrita 0.5 and 0.6 do not
 * thread array -> array codecs' changes through the chain, so a `bytes`
 * after `numcodecs.packbits` (zarr-python 3's layout) would be told the
 * chunk is bool [n] while it holds the uint8 [1 + ceil(n / 8)] PackBits
 * made of it, and one after delta with an astype the array's type.
 */
export function metaForArrayToBytes(meta) {
  if (!isLegacyMeta(meta) || !Array.isArray(meta.codecs)) return meta;
  return encodedLegacyMeta(meta);
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
  return encodedLegacyMeta(meta, at);
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
