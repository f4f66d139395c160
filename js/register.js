// Plugging the codecs into a zarrita registry (a Map from codec name to an
// async loader). Nothing happens on import; the registry is an argument so
// that the user's own zarrita copy is the one extended. Works with zarrita
// 0.5, 0.6 and 0.7 (zarrita/meta.js). It sits beside the entries, above
// every layer it wires (codecs, compressors, N5, data types, and zarrita/'s
// adapters), so that no layer reaches up to another.
import { BytesCodec } from "./codecs/bytes.js";
import { NumcodecsPackBitsCodec } from "./codecs/numcodecs-packbits.js";
import { PackBitsCodec } from "./codecs/packbits.js";
import { Crc32cCodec } from "./codecs/crc32c.js";
import { COMPRESSOR_CLASSES } from "./compressors/codecs.js";
import { keepReplaced } from "./compressors/replaced-codecs.js";
import { VlenBytesCodec } from "./codecs/vlen-bytes.js";
import { N5DefaultCodec } from "./n5/n5-default-codec.js";
import { STORED_CODEC, storedCodec } from "./data-types/stored-codec.js";
import { describe, tagOf, ZarrCodecError } from "./errors.js";
import { zarritaContainers } from "./zarrita/containers.js";
import { coreDataType } from "./zarrita/core-data-type.js";
import { markRegistered } from "./zarrita/registration.js";
import { registerFilters, SHUFFLE_LOADER_CODEC } from "./zarrita/filter-loaders.js";
import { answeringProbes } from "./zarrita/pipeline-probe.js";
import { AmbiguousBoolPackBits } from "./zarrita/legacy-packbits.js";
import { arrayTypeOf, couldBeV2PackBitsFilter, metaForArrayToArray, metaForArrayToBytes, storeEncodedType } from "./zarrita/meta.js";
import { CastValueCodec } from "./array-to-array/cast-value.js";
import { ScaleOffsetCodec } from "./array-to-array/scale-offset.js";
import { v2FixedScaleOffset } from "./zarrita/v2-fixed-scale-offset.js";

// Marks our bytes and compressor loaders with the loader each replaced, so
// registering twice still falls back to zarrita's codec rather than to
// ourselves.
const REPLACED = Symbol("zarr-codecs-wasm replaced loader");

/** The data type our bytes codec reads for `meta` (core-data-type.js). */
function wasmType(meta) {
  return coreDataType(meta?.dataType ?? meta?.data_type);
}

/**
 * `bytes` as zarrita sees it. The spec requires `endian` for multi-byte
 * types; zarrita reads such metadata as little-endian. Registering must
 * never make zarrita read less than before, so a configuration our strict
 * codec refuses (and data types it does not handle) goes to the codec
 * `register` replaced; the class used directly stays strict.
 */
function zarritaBytes({ Fallback, containers }) {
  return {
    fromConfig(configuration, meta) {
      const chunkMeta = metaForArrayToBytes(meta);
      const type = wasmType(chunkMeta);
      if (Fallback && type === undefined) return Fallback.fromConfig(configuration, meta);
      try {
        return new BytesCodec(configuration, { ...chunkMeta, dataType: type ?? chunkMeta?.dataType, data_type: undefined }, containers);
      } catch (error) {
        if (Fallback && error?.code === "INVALID_CONFIGURATION") {
          try {
            return Fallback.fromConfig(configuration, chunkMeta);
          } catch {
            // zarrita refuses it too: ours says why more precisely.
          }
        }
        throw error;
      }
    },
  };
}

function zarritaPackBits({ containers }) {
  return {
    fromConfig(configuration, meta) {
      if (couldBeV2PackBitsFilter(configuration, meta)) {
        return new AmbiguousBoolPackBits(meta, containers);
      }
      return new PackBitsCodec(configuration, metaForArrayToBytes(meta), containers);
    },
  };
}

function zarritaNumcodecsPackBits({ containers }) {
  return {
    fromConfig(configuration, meta) {
      return new NumcodecsPackBitsCodec(configuration, meta, containers);
    },
  };
}

// vlen-bytes reads the same through every zarrita: its items need no
// zarrita container (a plain Array of Uint8Array).
function zarritaVlenBytes() {
  return {
    fromConfig(configuration, meta) {
      return new VlenBytesCodec(configuration, meta);
    },
  };
}

function zarritaN5Default({ containers }, registry) {
  return {
    fromConfig(configuration, meta) {
      return new N5DefaultCodec(configuration, meta, { ...containers, registry });
    },
  };
}

/**
 * An array -> array codec of ours as zarrita sees it: told its place's
 * data type on zarrita 0.5 and 0.6, and the chain's meta then told the
 * type it stores, for the codecs after it (zarrita/meta.js). Registering
 * must never make zarrita read less, so a configuration, data type or fill
 * ours refuses (a fill that does not survive cast_value's round trip: a
 * NaN fill cast to an integer type without a scalar_map) goes to the
 * loader `register` replaced (zarrita 0.7's own cast_value and
 * scale_offset, with their rules), where there is one and it takes it.
 */
function zarritaArrayToArray(name, Codec, replaced) {
  return async () => {
    const Fallback = replaced ? await replaced() : undefined;
    return {
      fromConfig(configuration, meta) {
        try {
          const v2 = v2FixedScaleOffset(name, configuration, meta);
          if (v2) return v2;
          const codec = Codec.fromConfig(configuration, metaForArrayToArray(name, configuration, meta));
          storeEncodedType(meta);
          return codec;
        } catch (error) {
          const refused = error?.code === "INVALID_CONFIGURATION" || error?.code === "UNSUPPORTED_DATA_TYPE" || error?.code === "INVALID_METADATA";
          if (!refused || typeof Fallback?.fromConfig !== "function") throw error;
          const wrong = readsWrong(name, configuration, meta);
          if (wrong) throw new ZarrCodecError(error.code, `${error.message}. ${wrong}`, { cause: error });
          try {
            return Fallback.fromConfig(configuration, meta);
          } catch {
            // zarrita refuses it too: ours says why more precisely.
          }
          throw error;
        }
      },
    };
  };
}

// zarrita 0.7's cast_value and scale_offset hold float16 in zarrita's
// container for it, a Uint16Array of bit codes where the runtime has no
// Float16Array, and compute on those codes as numbers (1.0 reads as
// 15360); bfloat16 is always bit codes to them. Where a chain ours refuses
// involves such a type, falling back to them would read wrong values with
// no error: the refusal stands. What says so, or undefined.
function readsWrong(name, configuration, meta) {
  const types = [arrayTypeOf(meta), configuration?.data_type];
  const codes = types.filter((t) => t === "bfloat16" || (t === "float16" && typeof globalThis.Float16Array !== "function"));
  if (codes.length === 0) return undefined;
  return `zarrita's own ${name}, which register() replaced, is not used instead: it would read ${codes[0]} bit codes as numbers ` +
    `(${codes[0] === "float16" ? "this runtime has no Float16Array" : "it has no bfloat16 arithmetic"}) and give wrong values with no error`;
}

/**
 * A loader that resolves once, on first use; a failed load (the wasm not
 * loaded yet with the slim entry, a transient WASM_LOAD_FAILED) is not
 * kept, so a later read tries again. Its codecs answer read's probe for
 * the chain zarrita built (zarrita/pipeline-probe.js).
 */
function once(load) {
  let loading;
  return () => {
    loading ??= load().then(answeringProbes, (error) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}

/**
 * Refuses what is not a codec registry before calling anything of it:
 * zarrita's registry is a Map in every version (of any realm), and its
 * module namespace also has `get` and `set` (zarr.get and zarr.set, which
 * return promises that would reject unhandled, one per codec name).
 */
function checkRegistry(registry) {
  const tag = registry !== null && typeof registry === "object" ? tagOf(registry) : undefined;
  if (tag === "Map") return;
  let got = describe(registry);
  if (tag === "Module") got = 'a module namespace: pass zarr.registry, not the module itself (import * as zarr from "zarrita")';
  else if (tag !== undefined && typeof registry.get === "function" && typeof registry.set === "function") got = `${got} with get and set, which is not a Map: pass zarr.registry`;
  throw new ZarrCodecError("INVALID_REGISTRY", `register: expected a codec registry (a Map such as zarr.registry), got ${got}`);
}

/**
 * Sets "bytes", "endian", "packbits", "numcodecs.packbits", "n5_default",
 * "vlen-bytes" (also as "numcodecs.vlen-bytes", its name as a Zarr v2
 * filter in zarrita 0.7) and the codec withDataTypes presents stored types
 * through in a zarrita codec registry to loaders of the wasm codecs. The module loads on first
 * use, through `ensureReady` (the entry's ready()). Returns the registry.
 * With `options.compressors` not false it also sets the compressors the
 * package decodes in its own wasm (zstd, blosc, gzip, zlib, lz4 and their
 * numcodecs.* names), replacing zarrita's (numcodecs.js, and its gzip and
 * zlib through DecompressionStream).
 * @template {Map<string, () => unknown>} R
 * @param {R} registry
 * @param {() => Promise<void>} ensureReady
 * @param {{compressors?: boolean}} [options]
 * @returns {R}
 */
export function registerUsing(registry, ensureReady, options) {
  checkRegistry(registry);
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw new ZarrCodecError("INVALID_INPUT", `register: options must be an object ({ compressors }), got ${describe(options)}`);
  }
  const compressors = options?.compressors ?? true;
  if (typeof compressors !== "boolean") {
    throw new ZarrCodecError("INVALID_INPUT", `register: compressors must be true or false, got ${describe(compressors)}`);
  }
  const current = registry.get("bytes");
  const replaced = current?.[REPLACED] ?? current;
  // zarrita's own bytes loader hands out its class at once: its containers
  // (BoolArray for structFields' bool columns) are known from now on, not
  // only after the first read.
  try {
    const Fallback = replaced?.();
    if (typeof Fallback?.fromConfig === "function") zarritaContainers(Fallback);
    // An async loader's promise, asked again on first use: a failure then is that read's.
    else if (typeof Fallback?.then === "function") Fallback.then(undefined, () => {});
  } catch {
    // a loader of another kind: probed on first use
  }
  const context = once(async () => {
    await ensureReady();
    const Fallback = replaced ? await replaced() : undefined;
    return { Fallback, containers: zarritaContainers(Fallback) };
  });
  const loader = (make) => once(async () => make(await context(), registry));
  const bytes = loader(zarritaBytes);
  bytes[REPLACED] = replaced;
  const stored = loader(({ containers }) => storedCodec(containers));
  registry.set("bytes", bytes);
  registry.set("endian", bytes);
  registry.set("packbits", loader(zarritaPackBits));
  registry.set("numcodecs.packbits", loader(zarritaNumcodecsPackBits));
  registry.set("n5_default", loader(zarritaN5Default));
  const vlenBytes = loader(zarritaVlenBytes);
  registry.set("vlen-bytes", vlenBytes);
  registry.set("numcodecs.vlen-bytes", vlenBytes);
  registry.set(STORED_CODEC, stored);
  // numcodecs' Shuffle by its configured element size, where numcodecs
  // runs it (zarrita/filter-loaders.js).
  const shuffle = once(async () => SHUFFLE_LOADER_CODEC);
  registry.set("shuffle", shuffle);
  registry.set("numcodecs.shuffle", shuffle);
  // cast_value and scale_offset as their pages define them (zarrita 0.7's
  // own round once in doubles and read float16 bit codes as numbers):
  // pure JavaScript, so they load with no wasm (the slim entry before ready()).
  for (const [name, Codec] of [["cast_value", CastValueCodec], ["scale_offset", ScaleOffsetCodec]]) {
    const previous = registry.get(name);
    const kept = previous && REPLACED in previous ? previous[REPLACED] : previous;
    const load = once(zarritaArrayToArray(name, Codec, kept));
    load[REPLACED] = kept;
    registry.set(name, load);
  }
  // numcodecs' filters and the v3 array -> array codecs bitround and
  // reshape, replacing zarrita 0.7's delta and bitround (kept as fallbacks).
  registerFilters(registry);
  // crc32c that checks the checksum (zarrita's drops it unread).
  registry.set("crc32c", once(async () => Crc32cCodec));
  // Zarr v2 filters reach the registry as `numcodecs.<id>` (0.7) or `<id>`.
  registry.set(`numcodecs.${STORED_CODEC}`, stored);
  if (compressors) {
    // The compressors in the package's wasm, where zarrita's are
    // numcodecs.js (its own wasm, no SIMD) and DecompressionStream. Those
    // are kept for the frames ours do not take (snappy inside blosc, a
    // zstd dictionary): they load only when such a frame arrives.
    for (const [name, Codec] of COMPRESSOR_CLASSES) {
      const previous = registry.get(name);
      const kept = previous?.[REPLACED] ?? previous;
      keepReplaced(name, kept);
      const load = once(async () => (await context(), Codec));
      load[REPLACED] = kept;
      registry.set(name, load);
    }
  }
  markRegistered(registry);
  return registry;
}
