// Reads the 2-D slice the viewer draws, through zarrita with withDataTypes,
// and times the decode of each chunk under it. The page and the worker
// (bundled by scripts/build-viewer-worker.mjs) run this same module, so the
// two modes differ only in where the wasm runs.
import * as zarr from "zarrita";
import { register, storedDataType, withDataTypes } from "zarr-codecs-wasm";

register(zarr.registry);

// Browsers round performance.now() to 0.1 ms here (no cross-origin
// isolation): each chunk is decoded REPEAT times after a warm-up and the
// mean is shown. At most MAX_TIMED chunks are timed.
export const REPEAT = 10;
const MAX_TIMED = 64;

// Chunk bytes are fetched once, so the time per chunk is decoding.
function cached(store) {
  const bytes = new Map();
  return {
    async get(key, options) {
      if (!bytes.has(key)) bytes.set(key, await store.get(key, options));
      return bytes.get(key);
    },
  };
}

const decoder = new TextDecoder();
async function storedMetadata(store, path) {
  const v3 = await store.get(`${path}/zarr.json`);
  if (v3) return { version: 3, doc: JSON.parse(decoder.decode(v3)) };
  const v2 = await store.get(`${path}/.zarray`);
  if (v2) return { version: 2, doc: JSON.parse(decoder.decode(v2)) };
  throw new Error(`no array at ${path || "/"} (neither zarr.json nor .zarray)`);
}

// "packbits {"last_bit":11} -> gzip {"level":5}", as the metadata says.
function describeCodec({ name, configuration }) {
  if (name === "sharding_indexed") {
    const inner = configuration.codecs.map(describeCodec).join(" -> ");
    return `sharding_indexed ${JSON.stringify(configuration.chunk_shape)} [${inner}]`;
  }
  const config = configuration && Object.keys(configuration).length ? ` ${JSON.stringify(configuration)}` : "";
  return `${name}${config}`;
}

export function codecChain({ version, doc }) {
  if (version === 3) return doc.codecs.map(describeCodec).join(" -> ");
  const parts = (doc.filters ?? []).map(({ id, ...config }) => describeCodec({ name: id, configuration: config }));
  if (doc.compressor) {
    const { id, ...config } = doc.compressor;
    parts.push(describeCodec({ name: id, configuration: config }));
  }
  return parts.length ? `v2: ${parts.join(" -> ")}` : "v2: no filters or compressor";
}

/**
 * Where the drawn slice lies in the presented array: the last two dimensions
 * of the stored array, index 0 of every other one, and component 0 (the real
 * part, the first byte) of the trailing dimension withDataTypes adds for
 * complex and r* types. A 1-D array is drawn as one row.
 */
export function sliceOf(presentedShape, storedRank) {
  const selection = presentedShape.map((_, i) => (i >= storedRank ? 0 : i >= storedRank - 2 ? null : 0));
  const dims = presentedShape.slice(Math.max(0, storedRank - 2), storedRank);
  const [height, width] = dims.length === 2 ? dims : [1, dims[0] ?? 1];
  return { selection, height, width };
}

// The chunk coordinates under the slice, in row-major order.
function chunksUnder(shape, chunks, selection) {
  let coords = [[]];
  selection.forEach((s, i) => {
    const count = s === null ? Math.ceil(shape[i] / chunks[i]) : 1;
    const index = s === null ? null : Math.floor(s / chunks[i]);
    coords = coords.flatMap((c) => Array.from({ length: count }, (_, k) => [...c, index ?? k]));
  });
  return coords;
}

// zarrita's BoolArray is not a TypedArray; its bytes are.
const plain = (data) => (ArrayBuffer.isView(data) ? data : new Uint8Array(data.buffer, data.byteOffset, data.length));

/**
 * Opens `arrayPath` of the store at `storeUrl` and reads the slice.
 * Returns { values, height, width, info, chunkMs, gridColumns } where info is plain
 * data (it crosses postMessage): stored and presented types, the codec
 * chain, shapes, the bit range a packbits chunk holds.
 */
export async function readSlice(storeUrl, arrayPath) {
  const raw = cached(new zarr.FetchStore(storeUrl));
  const path = arrayPath.replace(/^\/+|\/+$/g, "");
  const stored = await storedMetadata(raw, path ? `/${path}` : "");
  const location = zarr.root(withDataTypes(raw)).resolve(path);
  const open = stored.version === 3 ? zarr.open.v3 : zarr.open.v2; // no probing for the other version
  const arr = await open(location, { kind: "array" });
  const storedShape = stored.doc.shape;
  const { selection, height, width } = sliceOf(arr.shape, storedShape.length);
  const { data } = await zarr.get(arr, selection);
  const values = plain(data);

  const chunkMs = [];
  for (const coords of chunksUnder(arr.shape, arr.chunks, selection).slice(0, MAX_TIMED)) {
    await arr.getChunk(coords);
    const t0 = performance.now();
    for (let i = 0; i < REPEAT; i++) await arr.getChunk(coords);
    chunkMs.push({ coords, ms: (performance.now() - t0) / REPEAT });
  }
  const packbits = stored.version === 3 ? findPackBits(stored.doc.codecs) : undefined;
  const presentedAs = storedDataType(arr); // undefined where zarrita reads the type itself
  const info = {
    stored: presentedAs ?? arr.dtype,
    native: presentedAs === undefined,
    storedName: stored.version === 3 ? stored.doc.data_type : stored.doc.dtype,
    presented: arr.dtype,
    codecs: codecChain(stored),
    storedShape,
    presentedShape: arr.shape,
    chunks: arr.chunks,
    selection: selection.map((s) => (s === null ? ":" : String(s))).join(", "),
    bitRange: packbits && { first: packbits.first_bit ?? 0, last: packbits.last_bit },
  };
  const last = storedShape.length - 1; // chunks per row of the drawn grid
  const gridColumns = last < 0 ? 1 : Math.ceil(arr.shape[last] / arr.chunks[last]);
  return { values, height, width, info, chunkMs, gridColumns };
}

function findPackBits(codecs) {
  for (const { name, configuration } of codecs) {
    if (name === "packbits") return configuration ?? {};
    if (name === "sharding_indexed") return findPackBits(configuration.codecs);
  }
  return undefined;
}
