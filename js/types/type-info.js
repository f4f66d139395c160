// What the core knows of a data type (bindings: dataTypeInfo): its class,
// component bits and count, container bytes, float format. One table for
// the whole package, so JS and C++ can never disagree about a type.
import { wasm } from "../wasm/load.js";

// Plain names repeat (a store has a few types), so their answers are kept;
// a bound keeps names from hostile metadata from piling up.
const cache = new Map();
const CACHE_LIMIT = 1024;

/**
 * The core's description of a data type descriptor (src/types/
 * data_type.h), `{ code, message, name, typeClass, componentBits,
 * componentCount, containerBytes, floatFormat, ... }`; code "OK" if known.
 * @param {string} descriptor
 */
export function typeInfo(descriptor) {
  const known = cache.get(descriptor);
  if (known) return known;
  const info = wasm().dataTypeInfo(descriptor);
  if (info.code === "OK" && !descriptor.startsWith("struct:") && cache.size < CACHE_LIMIT) {
    cache.set(descriptor, info);
  }
  return info;
}

/** Bytes of one element of a known type. */
export function elementBytes(info) {
  return info.containerBytes * info.componentCount;
}
