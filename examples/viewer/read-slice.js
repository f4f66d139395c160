// Reads what the viewer shows of an array with read(), through zarrita
// with withDataTypes (and withN5 for N5 containers), and times the decode of
// each chunk under it. The page and the worker (bundled by
// scripts/build-viewer-worker.mjs) run this same module, so the two modes
// differ only in where the wasm runs. What it returns is plain data: it
// crosses postMessage.
import * as zarr from "zarrita";
import { diagnostics, isPresented, read, register, storedDataType, structFields } from "zarr-codecs-wasm";
import { dataTypeName } from "../data-type-name.mjs";
import { codecChain, findPackBits } from "./describe.js";
import { openStore, storedMetadata } from "./open-store.js";
import { stringTable, structTable } from "./tables.js";

register(zarr.registry);

// Browsers round performance.now() (to 0.1 ms here: no cross-origin
// isolation), so each chunk is decoded again and again after a warm-up
// until MIN_REPEAT decodes and MIN_MS have passed (at most MAX_REPEAT),
// and the mean is shown. At most MAX_TIMED chunks are timed.
export const MIN_REPEAT = 10;
export const MIN_MS = 2;
const MAX_REPEAT = 1000;
const MAX_TIMED = 64;
export const TABLE_ROWS = 20;

/**
 * Where the drawn slice lies in the presented array: the last two dimensions
 * of the stored array, index 0 of every other one, and of the trailing
 * dimension withDataTypes adds, component 0 (the real part of complex
 * values, the first byte of raw ones) or, for records, all of it (a
 * record's bytes, which structFields splits). A 1-D array is one row.
 */
export function sliceOf(presentedShape, storedRank, { wholeTrailing = false } = {}) {
  const selection = presentedShape.map((_, i) =>
    i >= storedRank ? (wholeTrailing ? null : 0) : i >= storedRank - 2 ? null : 0);
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

async function timeChunks(arr, selection) {
  const chunkMs = [];
  for (const coords of chunksUnder(arr.shape, arr.chunks, selection).slice(0, MAX_TIMED)) {
    await arr.getChunk(coords); // warm-up, and the bytes fetched
    let n = 0;
    const t0 = performance.now();
    let elapsed = 0;
    while (n < MIN_REPEAT || (elapsed < MIN_MS && n < MAX_REPEAT)) {
      await arr.getChunk(coords);
      n++;
      elapsed = performance.now() - t0;
    }
    chunkMs.push({ coords, ms: elapsed / n, decodes: n });
  }
  return chunkMs;
}

// read (as zarr.get) returns a 0-d array's value itself: as a one-element result.
function asResult(got) {
  if (got !== null && typeof got === "object" && "data" in got) return got;
  const data = typeof got === "bigint" ? BigInt64Array.of(got)
    : typeof got === "boolean" ? Uint8Array.of(got ? 1 : 0)
    : typeof got === "number" ? Float64Array.of(got)
    : [got];
  return { data, shape: [], stride: [] };
}

// zarrita's BoolArray is not a TypedArray; its bytes are.
const plain = (data) => (ArrayBuffer.isView(data) ? data : new Uint8Array(data.buffer, data.byteOffset, data.length));
const isRecord = (stored) => Array.isArray(stored) || stored?.name === "struct" || stored?.name === "structured";

/**
 * Opens `arrayPath` of the store at `storeUrl` and reads its slice.
 * Returns { kind, info, height, width, chunkMs, gridColumns, requests } and by kind:
 *   "image":   values (one per pixel)
 *   "struct":  table (its first records) and fields (each numeric field's
 *              values, one per pixel)
 *   "strings": table (its first values)
 * info: stored and presented types, the codec chain, shapes, the bit
 * range a packbits chunk holds. chunkMs: per chunk its coords, the mean
 * decode time here, and the pool's worker that decoded it in the read
 * (null: this thread). requests: what the read's store calls cost
 * (diagnostics().requests()'s figures of it: requests, bytes,
 * overReadBytes, retries, sharedRequests), or null.
 * @param {{format?: "auto" | "zarr" | "n5", rows?: number, pool?: object}} [options]
 *   pool: read through this read pool (createReadPool)
 */
export async function readSlice(storeUrl, arrayPath, { format = "auto", rows = TABLE_ROWS, pool } = {}) {
  const opened = await openStore(storeUrl, format);
  const path = arrayPath.replace(/^\/+|\/+$/g, "");
  const stored = await storedMetadata(opened, path ? `/${path}` : "");
  const location = zarr.root(opened.typed).resolve(path);
  const open = stored.version === 3 ? zarr.open.v3 : zarr.open.v2; // no probing for the other version
  const arr = await open(location, { kind: "array" });
  const storedShape = stored.doc.shape;
  const storedType = storedDataType(arr) ?? arr.dtype; // as the metadata names it
  const record = isRecord(storedType);
  const { selection, height, width } = sliceOf(arr.shape, storedShape.length, { wholeTrailing: record });
  // zarr.get's result, chunks decoded into place: here, or by the pool's
  // workers, each chunk's worker noted as it lands.
  const decodedBy = new Map();
  const onProgress = ({ chunk, worker }) => decodedBy.set(chunk.join(","), worker);
  const result = asResult(await read(arr, selection, pool ? { pool, onProgress } : {}));
  const requests = requestsOf(arr.path); // before the timing below reads anything
  const chunkMs = (await timeChunks(arr, selection)).map((c) => ({ ...c, worker: decodedBy.get(c.coords.join(",")) ?? null }));

  // The array index of the k-th element of the slice: the slice's own
  // dimensions counted row-major, the others at 0.
  const sliceDims = storedShape.length >= 2 ? [height, width] : storedShape.length === 1 ? [width] : [];
  const indexOf = (k) => {
    const own = [];
    for (let d = sliceDims.length - 1; d >= 0; d--) {
      own.unshift(k % sliceDims[d]);
      k = Math.floor(k / sliceDims[d]);
    }
    return selection.slice(0, storedShape.length).map((s) => (s === null ? own.shift() : s)).join(", ");
  };

  const packbits = stored.version === 3 ? findPackBits(stored.doc.codecs) : undefined;
  const info = {
    format: opened.format === "n5" ? "N5 (read as Zarr v3 through withN5)" : `Zarr v${stored.version}`,
    stored: storedType,
    storedType: dataTypeName(storedType),
    native: !isPresented(arr),
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
  const common = { info, height, width, chunkMs, gridColumns, requests };

  if (record) {
    const { table, fields } = structTable(structFields(result, arr), storedType, height * width, rows, indexOf);
    return { ...common, kind: "struct", table, fields };
  }
  const first = result.data.length ? (typeof result.data.get === "function" ? result.data.get(0) : result.data[0]) : undefined;
  if (typeof first === "string" || /^(v2:[US]|string$)/.test(arr.dtype)) {
    return { ...common, kind: "strings", table: stringTable(result.data, rows, indexOf) };
  }
  return { ...common, kind: "image", values: plain(result.data) };
}

/**
 * The figures of the last read of the array at `path` (read keeps the last
 * reads' own: diagnostics().requests().recent), as plain data, or null.
 */
export function requestsOf(path) {
  const { recent } = diagnostics().requests();
  for (let i = recent.length - 1; i >= 0; i--) {
    if (recent[i].path === path) {
      const { requests, bytes, overReadBytes, retries, sharedRequests } = recent[i];
      return { requests, bytes, overReadBytes, retries, sharedRequests };
    }
  }
  return null;
}

/** The buffers of a readSlice result, for postMessage's transfer list. */
export function buffersOf(result) {
  const views = [result.values, ...(result.fields ?? []).map((f) => f.values)].filter(Boolean);
  return [...new Set(views.map((v) => v.buffer))];
}
