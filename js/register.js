// Plugging the codecs into a zarrita registry (a Map from codec name to an
// async loader). Nothing happens on import; the registry is an argument so
// that the user's own zarrita copy is the one extended.
import { BytesCodec } from "./bytes.js";
import { describe, ZarrCodecError } from "./errors.js";
import { ready, wasm } from "./module.js";

// Marks our loaders with the loader they replaced, so registering twice
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
      { dataType: "bool", shape: [1] },
    ).decode(new Uint8Array(1)).data;
    const BoolArray = probe?.constructor;
    if (typeof probe?.get === "function" && BoolArray !== Uint8Array) {
      return (bytes) =>
        new BoolArray(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
  } catch {
    // Not zarrita's BytesCodec: keep Uint8Array.
  }
  return undefined;
}

/** Our BytesCodec, deferring to `Fallback` for types we do not handle. */
function zarritaBytesCodec(Fallback) {
  const adapter = { wrapBool: boolWrapperFrom(Fallback) };
  return class ZarritaBytesCodec extends BytesCodec {
    static fromConfig(configuration, meta) {
      const known =
        typeof meta?.dataType === "string" &&
        wasm().dataTypeInfo("bytes", meta.dataType).code === "OK";
      if (!known && Fallback) return Fallback.fromConfig(configuration, meta);
      return new ZarritaBytesCodec(configuration, meta, adapter);
    }
  };
}

function loaderFor(registry, name, build) {
  const replaced = registry.get(name);
  const fallbackLoader = replaced?.[REPLACED] ?? replaced;
  let loading;
  const loader = () => {
    loading ??= (async () => {
      await ready();
      const Fallback = fallbackLoader ? await fallbackLoader() : undefined;
      return build(Fallback);
    })();
    return loading;
  };
  loader[REPLACED] = fallbackLoader;
  return loader;
}

/**
 * Sets "bytes" and "endian" in a zarrita codec registry to the wasm codecs.
 * The wasm module loads on first use. Returns the registry.
 * @template {Map<string, () => Promise<unknown>>} R
 * @param {R} registry
 * @returns {R}
 */
export function register(registry) {
  if (
    typeof registry?.get !== "function" ||
    typeof registry?.set !== "function"
  ) {
    throw new ZarrCodecError(
      "INVALID_REGISTRY",
      `register: expected a codec registry (a Map such as zarr.registry), got ${describe(registry)}`,
    );
  }
  const bytes = loaderFor(registry, "bytes", zarritaBytesCodec);
  registry.set("bytes", bytes);
  registry.set("endian", bytes);
  return registry;
}
