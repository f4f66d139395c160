// Plugging the codecs into a zarrita registry (a Map from codec name to an
// async loader). Nothing happens on import; the registry is an argument so
// that the user's own zarrita copy is the one extended.
import { BytesCodec } from "./bytes.js";
import { describe, ZarrCodecError } from "./errors.js";
import { ready, wasm } from "./module.js";
import { NumcodecsPackBitsCodec } from "./numcodecs-packbits.js";
import { PackBitsCodec } from "./packbits.js";

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

/** The codec class a loader resolves to: `Base` with zarrita's containers. */
function forZarrita(Base, { Fallback, wrapBool }, handles = () => true) {
  const adapter = { wrapBool };
  return class extends Base {
    static fromConfig(configuration, meta) {
      if (Fallback && !handles(meta)) {
        return Fallback.fromConfig(configuration, meta);
      }
      return new this(configuration, meta, adapter);
    }
  };
}

// The wasm bytes codec handles every fixed-size type of the specs; zarrita's
// string types stay with zarrita.
const bytesHandles = (meta) =>
  typeof meta?.dataType !== "string" ||
  wasm().dataTypeInfo("bytes", meta.dataType).code === "OK";

/** A loader that resolves once, on first use. */
function once(load) {
  let loading;
  return () => {
    loading ??= load();
    return loading;
  };
}

/**
 * Sets "bytes", "endian", "packbits" and "numcodecs.packbits" in a zarrita
 * codec registry to loaders of the wasm codecs. The wasm module loads on
 * first use. Returns the registry.
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
  const current = registry.get("bytes");
  const replaced = current?.[REPLACED] ?? current;
  const context = once(async () => {
    await ready();
    const Fallback = replaced ? await replaced() : undefined;
    return { Fallback, wrapBool: boolWrapperFrom(Fallback) };
  });
  const bytes = once(async () =>
    forZarrita(BytesCodec, await context(), bytesHandles),
  );
  bytes[REPLACED] = replaced;
  const packbits = once(async () => {
    const { wrapBool } = await context();
    return forZarrita(PackBitsCodec, { wrapBool });
  });
  const numcodecsPackbits = once(async () => {
    const { wrapBool } = await context();
    return forZarrita(NumcodecsPackBitsCodec, { wrapBool });
  });
  registry.set("bytes", bytes);
  registry.set("endian", bytes);
  registry.set("packbits", packbits);
  registry.set("numcodecs.packbits", numcodecsPackbits);
  return registry;
}
