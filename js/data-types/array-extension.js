// zarrita 0.7's array extension of withDataTypes (applied by zarr.open):
// every array it presents reads its missing chunks here, as the fill value
// (missing-chunk.js), sharded arrays' missing inner chunks included; an
// array whose metadata a consolidated document held but withDataTypes
// refused throws at open.
//
// zarrita fills a missing chunk itself with one number, allocating the
// whole chunk: wrong for a fill whose parts differ (a complex fill, record
// or raw bytes), wrong for byte values no JSON fill_value gives zarrita
// (variable-length bytes: each element its own view), and as costly as
// the chunk for a read of one element. The chunk's bytes come from
// zarrita's own per-array context (its getChunkBytes finds inner chunks of
// shards, and answers undefined for a missing one), marked so that the
// store knows the extension fills what is missing (with-data-types.js
// refuses such reads otherwise: zarrita 0.5 and 0.6 have no array
// extensions).
import { arrayName, hasOwn } from "../errors.js";
import { normalizePath } from "./catalog.js";
import { delegate } from "./delegate.js";
import { broadcastBytes, broadcastChunk, wholeChunk } from "./missing-chunk.js";
import { unfillable } from "./shard-index.js";
import { withCodecContext } from "../zarrita/unknown-codec.js";

/** An option of store requests the extension makes: it fills what is missing. */
export const FILLS_MISSING = Symbol("zarr-codecs-wasm.fills missing chunks");

/** zarrita's per-array context: the own symbol property it describes "zarrita.context". */
function contextOf(array) {
  for (const symbol of Object.getOwnPropertySymbols(array)) {
    if (symbol.description === "zarrita.context") return array[symbol];
  }
  return undefined;
}

/**
 * Whether getChunk is called as zarr.get calls it (0.7.5: the coordinates,
 * { signal }, { useSharedArrayBuffer }): zarr.get copies from the chunk
 * honouring its stride, so a broadcast chunk serves it. Every other
 * caller (zarr.set's read of a partly written chunk, a viewer's own
 * getChunk) gets the chunk written out.
 */
function calledByGet(opts) {
  return opts !== null && typeof opts === "object" && hasOwn(opts, "useSharedArrayBuffer");
}

/**
 * zarrita 0.7's CodecPipelineError ("Failed to decode chunk via codec
 * ..."), which has a chunkPath that zarr.get leaves unset (its codecs get
 * the bytes alone), given the key of the chunk at `coords` as zarrita
 * itself words it (" at <key>"); any other error as it is.
 */
function withChunkPath(error, context, path, coords) {
  if (error?.name !== "CodecPipelineError" || error.chunkPath !== undefined || !Array.isArray(coords)) return error;
  try {
    const key = `${path}/${context.encodeChunkKey(coords)}`;
    error.chunkPath = key;
    error.message = `${error.message} at ${key}`;
  } catch {
    // an error that keeps its message: it is thrown as it is
  }
  return error;
}

/**
 * @param {object} array zarrita's Array
 * @param {import("./catalog.js").ArrayCatalog} catalog
 */
export function fillMissingChunks(array, catalog) {
  const path = normalizePath(String(array.path ?? ""));
  const p = catalog.get(path);
  if (p?.refused) throw p.refused;
  const context = contextOf(array);
  const name = arrayName(path, array.store);
  const where = `withDataTypes: array ${name}`;
  // zarrita's "Unknown codec" (at the first read) named with the array and
  // what registers the codec; a codec's failure with the chunk's key.
  const explained = (read) => async (...args) => {
    try {
      return await read(...args);
    } catch (error) {
      throw withCodecContext(withChunkPath(error, context, path, args[0]), "withDataTypes", name);
    }
  };
  // Not presented, a presentation whose fill zarrita writes right itself
  // (byte strings of a UTF-8 fill), or a zarrita whose context this does
  // not know: zarrita reads it, and the store refuses what it would fill
  // wrongly.
  const fills = (p?.fillElement || p?.objectFill) && typeof context?.getChunkBytes === "function" && typeof context.codec?.decode === "function";
  if (!fills) {
    if (typeof array.getChunk !== "function") return array;
    const getChunk = explained((...args) => array.getChunk(...args));
    return delegate(array, { getChunk });
  }
  return delegate(array, {
    getChunk: explained(async (coords, options, opts) => {
      const marked = { ...(options !== null && typeof options === "object" ? options : {}), [FILLS_MISSING]: true };
      const bytes = await context.getChunkBytes(coords, marked);
      if (bytes !== undefined && bytes !== null) return context.codec.decode(bytes);
      const shape = context.chunkShape;
      if (p.objectFill) {
        // Byte values: every element its own (variable-length bytes), or
        // none zarrita can hold (byte strings whose fill is no UTF-8).
        if (p.objectFill.bytes && calledByGet(opts)) return broadcastBytes(p.objectFill.bytes, shape);
        if (p.objectFill.chunk) return p.objectFill.chunk({ ...p, chunkShape: shape });
        const key = typeof context.encodeChunkKey === "function" ? `${path}/${context.encodeChunkKey(coords)}` : `[${coords.join(", ")}]`;
        throw unfillable(`chunk ${key}`, name, "is missing", p.objectFill.shown, p.objectFill.why);
      }
      return calledByGet(opts) ? broadcastChunk(p, shape) : wholeChunk(where, p, shape);
    }),
  });
}
