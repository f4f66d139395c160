// The array -> array filters (array-to-array/) as zarrita registry
// loaders, on zarrita 0.5, 0.6 and 0.7.
//
// zarrita 0.7 threads the chunk meta through the chain: each codec's
// fromConfig sees the type and shape the codecs before it made
// (getEncodedMeta). zarrita 0.5 and 0.6 hand every codec the one meta
// object, the array's, and build their own bytes codec from it where the
// chain names none (every little-endian Zarr v2 array): a filter that
// stores another type (delta's or fixedscaleoffset's astype) would have its
// bytes read as the array's type. So on those, each filter's input is
// worked out from the chain (meta.js's encodedLegacyMeta), and the meta's
// data_type is set to the type the filters store, before zarrita builds its
// bytes codec from it. That meta object belongs to one array's pipeline;
// the type zarrita first put there is kept aside, so building the chain
// again (zarrita 0.5 and 0.6 may, for chunks decoded at once) sees the same.
//
// Registering never reads less: where ours refuse a configuration or data
// type (float16, say), the codec the registry held before (zarrita 0.7's
// delta, bitround) is used.
import { FILTER_CODECS } from "../array-to-array/filters.js";
import { ShuffleFilterCodec } from "../array-to-array/shuffle-filter.js";
import { ShuffleCodec } from "../codecs/shuffle.js";
import { encodedLegacyMeta, isLegacyMeta, storeEncodedType } from "./meta.js";

const REPLACED = Symbol("zarr-codecs-wasm replaced filter loader");

function legacyInput(meta, configuration) {
  const at = Array.isArray(meta.codecs) ? meta.codecs.findIndex((c) => c?.configuration === configuration) : -1;
  return encodedLegacyMeta(meta, at === -1 ? 0 : at);
}

function adapterFor(Codec, Theirs) {
  return {
    fromConfig(configuration, meta) {
      const legacy = isLegacyMeta(meta);
      const input = legacy ? legacyInput(meta, configuration) : meta;
      let codec;
      try {
        codec = new Codec(configuration, input);
      } catch (error) {
        const refused = ["INVALID_CONFIGURATION", "UNSUPPORTED_DATA_TYPE"].includes(error?.code);
        if (!refused || typeof Theirs?.fromConfig !== "function") throw error;
        try {
          return Theirs.fromConfig(configuration, meta);
        } catch {
          throw error; // theirs refuses it too: ours says why more precisely
        }
      }
      storeEncodedType(meta);
      return codec;
    },
  };
}

// zarrita awaits a loader, then calls fromConfig synchronously: the codec
// replaced is loaded first, once, so that falling back needs no await.
function loaderFor(Codec, replaced) {
  let loading;
  const load = () => {
    loading ??= (async () => {
      let Theirs;
      try {
        Theirs = replaced ? await replaced() : undefined;
      } catch {
        // a fallback that does not load: ours alone
      }
      return adapterFor(Codec, Theirs);
    })();
    return loading;
  };
  load[REPLACED] = replaced;
  return load;
}

/**
 * Sets the filters' names in a zarrita registry, keeping the loaders they
 * replace as fallbacks (registering twice keeps zarrita's, not ours).
 * @param {Map<string, () => unknown>} registry
 */
export function registerFilters(registry) {
  for (const [name, Codec] of FILTER_CODECS) {
    const previous = registry.get(name);
    // A loader of ours keeps what it replaced (undefined where zarrita had
    // none): registering twice falls back to zarrita's, never to ours.
    const replaced = previous && REPLACED in previous ? previous[REPLACED] : previous;
    registry.set(name, loaderFor(Codec, replaced));
  }
}

// The filters a v2 list may hold after a shuffle (zarrita 0.7 names them
// numcodecs.<id>, and a fixedscaleoffset as scale_offset + cast_value).
const FILTER_IDS = new Set(["delta", "fixedscaleoffset", "quantize", "bitround", "astype", "scale_offset", "cast_value"]);

/**
 * numcodecs' Shuffle as zarrita builds it: the bytes -> bytes codec (by
 * its configured element size: zarrita 0.7's takes the data type's, 0.5
 * and 0.6 have none), or, where a v2 filter list has it before another
 * filter, the array -> array step numcodecs then runs after that filter
 * (array-to-array/shuffle-filter.js): zarrita runs every bytes -> bytes
 * codec after every array -> array one.
 */
export const SHUFFLE_LOADER_CODEC = {
  fromConfig(configuration, meta) {
    const codecs = Array.isArray(meta?.codecs) ? meta.codecs : [];
    let at = codecs.findIndex((c) => c?.configuration === configuration && /shuffle$/.test(String(c?.name)));
    if (at < 0) at = codecs.findIndex((c) => /shuffle$/.test(String(c?.name)));
    const beforeFilter = at >= 0 && codecs.slice(at + 1).some((c) => FILTER_IDS.has(String(c?.name).replace(/^numcodecs\./, "")));
    return beforeFilter ? ShuffleFilterCodec.fromConfig(configuration) : ShuffleCodec.fromConfig(configuration);
  },
};
