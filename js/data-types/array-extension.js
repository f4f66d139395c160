// zarrita 0.7's array extension of withDataTypes (applied by zarr.open):
// arrays whose fill zarrita cannot express with one number (a complex fill
// whose parts differ, record or raw bytes that differ, byte values no JSON
// fill_value gives zarrita) get their missing chunks filled here, element
// by element; an array whose metadata a consolidated document held but
// withDataTypes refused throws at open.
import { containerFor } from "../codecs/containers.js";
import { cOrderStrides } from "../codecs/chunk.js";
import { presentedChunkKey } from "./chunk-keys.js";
import { normalizePath } from "./catalog.js";
import { delegate } from "./delegate.js";

/**
 * An option that hands a chunk's bytes, fetched already, to the store's
 * get() of the same request (so nothing is fetched twice or kept).
 */
export const PREFETCHED = Symbol("zarr-codecs-wasm.prefetched chunk");

/** A chunk of the presented chunk shape, each element the fill's parts. */
function filledChunk(p) {
  const size = p.chunkShape.reduce((a, b) => a * b, 1);
  const data = new (containerFor(p.presented))(size);
  const parts = p.fillParts;
  for (let i = 0; i < size; i++) data[i] = parts[i % parts.length];
  return { data, shape: p.chunkShape, stride: cOrderStrides(p.chunkShape) };
}

/**
 * @param {object} array zarrita's Array
 * @param {import("./catalog.js").ArrayCatalog} catalog
 * @param {(key: string) => {storedKey: string} | undefined} locate
 * @param {(key: string, options: unknown) => Promise<Uint8Array | undefined>} fetch
 */
export function fillMissingChunks(array, catalog, locate, fetch) {
  const path = normalizePath(String(array.path ?? ""));
  const p = catalog.get(path);
  if (p?.refused) throw p.refused;
  // Sharded arrays: their shards are checked as zarrita reads them.
  const fill = p?.objectFill ? p.objectFill.chunk : p?.fillParts && filledChunk;
  if (!fill || p.shardIndex) return array;
  return delegate(array, {
    async getChunk(coords, options, opts) {
      const { storedKey } = locate(presentedChunkKey(p, path, coords));
      const bytes = await fetch(storedKey, options);
      if (bytes === undefined) return fill(p);
      return array.getChunk(coords, { ...options, [PREFETCHED]: bytes }, opts);
    },
  });
}
