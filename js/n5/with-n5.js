// withN5(store): N5 as Zarr v3 (zarr-extensions, codecs/n5_default, "N5
// Default Store" and "Implicit Group Store"). A request for
// <prefix>zarr.json is answered from <prefix>attributes.json (attributes.js):
// an array where it has N5's array attributes, a group otherwise or where
// there is none (N5's implicit groups). Every other key passes through; a
// block fetched is tagged with its key, for the n5_default codec's messages
// and its padding (withN5's arrays fill with 0). An array refused (a compression
// with no Zarr codec, malformed attributes) throws for that array alone.
// The codec knows blocks, this wrapper knows metadata (as zarrs_n5 splits
// them).
import { describe, ZarrCodecError } from "../errors.js";
import { stringify } from "../json/stringify.js";
import { delegate } from "../data-types/delegate.js";
import { isN5Array, n5ArrayMetadata, n5GroupMetadata } from "./attributes.js";
import { N5_BLOCK } from "./n5-default-codec.js";

/**
 * Set on every withN5 store (and seen through wrappers that delegate):
 * its arrays' metadata is zarr.json (v3 with N5's "/" chunk keys), so a
 * reader that asks for it again (read) asks for nothing else.
 */
export const N5_CONTAINER = Symbol.for("zarr-codecs-wasm.withN5");

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * @param {{get: Function}} store an N5 container (its root) as a store
 */
export function withN5(store) {
  if (typeof store?.get !== "function") {
    throw new ZarrCodecError("INVALID_INPUT", `withN5: expected a store (an object with get(key)), got ${describe(store)}`);
  }

  async function zarrJson(key, opts) {
    const prefix = key.slice(0, -"zarr.json".length);
    const bytes = await store.get(`${prefix}attributes.json`, opts);
    let attributes;
    if (bytes !== undefined) {
      try {
        attributes = JSON.parse(decoder.decode(bytes));
      } catch (cause) {
        throw new ZarrCodecError("INVALID_METADATA", `withN5: ${prefix}attributes.json is not JSON (${cause.message})`, { cause });
      }
    }
    const path = prefix.replace(/\/$/, "");
    const doc = isN5Array(attributes) ? n5ArrayMetadata(path, attributes) : n5GroupMetadata(attributes);
    return encoder.encode(stringify(doc));
  }

  async function get(key, opts) {
    if (key === "zarr.json" || key.endsWith("/zarr.json")) return zarrJson(key, opts);
    const bytes = await store.get(key, opts);
    if (bytes instanceof Uint8Array && !key.endsWith(".json")) {
      Object.defineProperty(bytes, N5_BLOCK, { value: { key }, configurable: true });
    }
    return bytes;
  }

  async function set(key, value) {
    if (key === "zarr.json" || key.endsWith("/zarr.json")) {
      throw new ZarrCodecError(
        "INVALID_INPUT",
        `withN5: writing ${key} is not supported: withN5 reads N5 attributes.json as Zarr metadata but does not write it; ` +
          "create N5 arrays and groups with an N5 writer, then write their blocks through withN5",
      );
    }
    return store.set(key, value);
  }

  const overrides = { get, [N5_CONTAINER]: true };
  if (typeof store.set === "function") overrides.set = set;
  return delegate(store, overrides);
}
