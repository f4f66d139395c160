// withN5(store, { axes }): N5 as Zarr v3 (zarr-extensions, codecs/n5_default,
// "N5 Default Store" and "Implicit Group Store"). A request for
// <prefix>zarr.json is answered from <prefix>attributes.json (attributes.js):
// an array where it has N5's array attributes, a group otherwise or where
// there is none (N5's implicit groups). An array refused (a compression
// with no Zarr codec, malformed attributes) throws for that array alone.
//
// With axes "reversed" (the default) an array's axes are presented in
// numpy's order, so a chunk key's grid position is N5's reversed: the key
// of each block is mapped back to its N5 path, for reads and writes. Every
// other key passes through. A block fetched is tagged with its N5 key, for
// the n5_default codec's messages and its padding (withN5's arrays fill
// with 0). The codec knows blocks, this wrapper knows metadata and keys (as
// zarrs_n5 splits them).
import { arrayName, describe, isPlainObject, ZarrCodecError } from "../errors.js";
import { stringify } from "../json/stringify.js";
import { delegate } from "../data-types/delegate.js";
import { isN5Array, n5ArrayMetadata, n5GroupMetadata } from "./attributes.js";
import { N5_BLOCK } from "./n5-default-codec.js";
import { noteChunk } from "../codecs/chunk-origin.js";

/**
 * Set on every withN5 store (and seen through wrappers that delegate):
 * its arrays' metadata is zarr.json (v3 with N5's "/" chunk keys), so a
 * reader that asks for it again (read) asks for nothing else.
 */
export const N5_CONTAINER = Symbol.for("zarr-codecs-wasm.withN5");

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const AXES = ["reversed", "n5"];
const GRID_INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * @param {{get: Function}} store an N5 container (its root) as a store
 * @param {{axes?: "reversed" | "n5"}} [options] axes: "reversed" (numpy's
 *   order, as zarr-python 2 and viewers have N5 arrays) or "n5" (N5's
 *   order, the n5_default page's)
 */
export function withN5(store, options) {
  if (typeof store?.get !== "function") {
    throw new ZarrCodecError("INVALID_INPUT", `withN5: expected a store (an object with get(key)), got ${describe(store)}`);
  }
  if (options !== undefined && !isPlainObject(options)) {
    throw new ZarrCodecError("INVALID_CONFIGURATION", `withN5: options must be an object ({ axes }), got ${describe(options)}`);
  }
  const axes = options?.axes === undefined ? "reversed" : options.axes;
  if (!AXES.includes(axes)) {
    throw new ZarrCodecError("INVALID_CONFIGURATION", `withN5: axes must be "reversed" or "n5", got ${describe(axes)}`);
  }
  // The arrays presented with reversed axes: their path (the prefix of
  // their keys) and rank, to know their chunk keys.
  const reversedArrays = new Map();
  const ranks = new Set();

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
    if (!isN5Array(attributes)) return encoder.encode(stringify(n5GroupMetadata(attributes)));
    const doc = n5ArrayMetadata(arrayName(path, store), attributes, axes);
    if (axes === "reversed" && doc.shape.length > 1) {
      reversedArrays.set(path, doc.shape.length);
      ranks.add(doc.shape.length);
    }
    return encoder.encode(stringify(doc));
  }

  // The N5 path of a chunk key: its grid position reversed where the key
  // is a chunk of an array presented with reversed axes.
  function n5Key(key) {
    if (reversedArrays.size === 0 || key.endsWith(".json")) return key;
    const parts = key.split("/");
    for (const rank of ranks) {
      if (parts.length < rank) continue;
      const head = parts.slice(0, parts.length - rank);
      const grid = parts.slice(parts.length - rank);
      if (grid.every((p) => GRID_INDEX.test(p)) && reversedArrays.get(head.join("/")) === rank) {
        return [...head, ...grid.reverse()].join("/");
      }
    }
    return key;
  }

  async function get(key, opts) {
    if (key === "zarr.json" || key.endsWith("/zarr.json")) return zarrJson(key, opts);
    const stored = n5Key(key);
    const bytes = await store.get(stored, opts);
    if (bytes instanceof Uint8Array && !key.endsWith(".json")) {
      Object.defineProperty(bytes, N5_BLOCK, { value: { key: stored }, configurable: true });
      noteChunk(bytes, stored, store);
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
    return store.set(n5Key(key), value);
  }

  const overrides = { get, [N5_CONTAINER]: true };
  if (typeof store.set === "function") overrides.set = set;
  return delegate(store, overrides);
}
