// Plugging the codecs into a zarrita registry (a Map from codec name to an
// async loader). Nothing happens on import; the registry is an argument so
// that the user's own zarrita copy is the one extended. Works with zarrita
// 0.5, 0.6 and 0.7 (zarrita/meta.js).
import { BytesCodec } from "../codecs/bytes.js";
import { dataTypeName } from "../codecs/data-type.js";
import { NumcodecsPackBitsCodec } from "../codecs/numcodecs-packbits.js";
import { PackBitsCodec } from "../codecs/packbits.js";
import { describe, ZarrCodecError } from "../errors.js";
import { wasm } from "../wasm/load.js";
import { AmbiguousBoolPackBits } from "./legacy-packbits.js";
import { couldBeV2PackBitsFilter, metaForArrayToBytes } from "./meta.js";
import { STORED_CODEC, storedTypeCodec } from "./stored-type-codec.js";

// Marks our bytes loader with the loader it replaced, so registering twice
// still falls back to zarrita's codec rather than to ourselves.
const REPLACED = Symbol("zarr-codecs-wasm replaced loader");

/**
 * zarrita decodes bool chunks into its BoolArray. We take that class from the
 * registry's own `bytes` codec (so it is the caller's zarrita copy), by
 * decoding one byte with it; without one, bool stays a Uint8Array.
 */
function boolWrapperFrom(Fallback) {
  try {
    const probe = Fallback?.fromConfig(
      { endian: "little" },
      { dataType: "bool", data_type: "bool", shape: [1] },
    ).decode(new Uint8Array(1)).data;
    const BoolArray = probe?.constructor;
    if (typeof probe?.get === "function" && BoolArray !== Uint8Array) {
      return (bytes) => new BoolArray(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
  } catch {
    // Not zarrita's BytesCodec: keep Uint8Array.
  }
  return undefined;
}

// The wasm bytes codec handles every fixed-size type of the specs; zarrita's
// string types stay with zarrita.
function wasmHandles(meta) {
  let name;
  try {
    name = dataTypeName("bytes", meta?.dataType ?? meta?.data_type);
  } catch {
    return true; // a malformed data type: our codec says precisely why
  }
  return wasm().dataTypeInfo(name).code === "OK";
}

/**
 * `bytes` as zarrita sees it. The spec requires `endian` for multi-byte
 * types; zarrita reads such metadata as little-endian. Registering must
 * never make zarrita read less than before, so a configuration our strict
 * codec refuses (and data types it does not handle) goes to the codec
 * `register` replaced; the class used directly stays strict.
 */
function zarritaBytes({ Fallback, wrapBool }) {
  const adapter = { wrapBool };
  return {
    fromConfig(configuration, meta) {
      const chunkMeta = metaForArrayToBytes(meta);
      if (Fallback && !wasmHandles(chunkMeta)) return Fallback.fromConfig(configuration, meta);
      try {
        return new BytesCodec(configuration, chunkMeta, adapter);
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

function zarritaPackBits({ wrapBool }) {
  const adapter = { wrapBool };
  return {
    fromConfig(configuration, meta) {
      if (couldBeV2PackBitsFilter(configuration, meta)) {
        return new AmbiguousBoolPackBits(meta, adapter);
      }
      return new PackBitsCodec(configuration, metaForArrayToBytes(meta), adapter);
    },
  };
}

function zarritaNumcodecsPackBits({ wrapBool }) {
  const adapter = { wrapBool };
  return {
    fromConfig(configuration, meta) {
      return new NumcodecsPackBitsCodec(configuration, meta, adapter);
    },
  };
}

/** A loader that resolves once, on first use. */
function once(load) {
  let loading;
  return () => {
    loading ??= load();
    return loading;
  };
}

/**
 * Sets "bytes", "endian", "packbits", "numcodecs.packbits" and the codec
 * withDataTypes presents stored types through in a zarrita codec registry
 * to loaders of the wasm codecs. The module loads on first use, through
 * `ensureReady` (the entry's ready()). Returns the registry.
 * @template {Map<string, () => unknown>} R
 * @param {R} registry
 * @param {() => Promise<void>} ensureReady
 * @returns {R}
 */
export function registerUsing(registry, ensureReady) {
  if (typeof registry?.get !== "function" || typeof registry?.set !== "function") {
    throw new ZarrCodecError(
      "INVALID_REGISTRY",
      `register: expected a codec registry (a Map such as zarr.registry), got ${describe(registry)}`,
    );
  }
  const current = registry.get("bytes");
  const replaced = current?.[REPLACED] ?? current;
  const context = once(async () => {
    await ensureReady();
    const Fallback = replaced ? await replaced() : undefined;
    return { Fallback, wrapBool: boolWrapperFrom(Fallback) };
  });
  const loader = (make) => once(async () => make(await context()));
  const bytes = loader(zarritaBytes);
  bytes[REPLACED] = replaced;
  const stored = loader(({ wrapBool }) => storedTypeCodec({ wrapBool }));
  registry.set("bytes", bytes);
  registry.set("endian", bytes);
  registry.set("packbits", loader(zarritaPackBits));
  registry.set("numcodecs.packbits", loader(zarritaNumcodecsPackBits));
  registry.set(STORED_CODEC, stored);
  // Zarr v2 filters reach the registry as `numcodecs.<id>` (0.7) or `<id>`.
  registry.set(`numcodecs.${STORED_CODEC}`, stored);
  return registry;
}
