// The zarrita copies whose arrays reached read, and whether register()
// extended each one's codec registry: diagnostics().zarritaCopies().
//
// A library that brings its own zarrita (ome-zarr.js 0.0.19 keeps 0.5.4,
// @fideus-labs/ngff-zarr 0.14.0 keeps 0.6.2 beside an app's 0.7.5) opens
// arrays with a copy that the app's register(zarr.registry) never sees:
// that copy's own decoding (getChunk, zarr.get, the library's rendering)
// lacks the package's codecs, while read, which decodes the chain itself
// with the codecs of the registries register() extended, reads them. No
// message is printed for it: diagnostics tells, one entry per copy.
//
// A copy is told apart by the symbol its arrays keep zarrita's context
// under ("zarrita.context": one symbol per loaded zarrita module, so one
// per copy, bundled twice or nested alike). Whether register() extended
// its registry is asked of the copy itself, when diagnostics asks (a
// register() after the first read counts): an array of the copy's own
// class is made in memory (no store is touched) whose one codec is the
// mark register() puts in a registry (registration.js), and its pipeline
// is asked to decode nothing: it fails with the mark's own error where
// the copy's registry has the mark, with zarrita's "Unknown codec" where
// it has not.
import { REGISTERED_MARK, RegisteredMarkError } from "./registration.js";

/** @type {Map<symbol, {symbol: symbol, ArrayClass: Function, zarrita: string, arrays: number, firstPath: string}>} */
const copies = new Map();
// Arrays counted (a plan made again after a failure counts once).
const counted = new WeakSet();

const PROBE_METADATA = Object.freeze({
  zarr_format: 3,
  node_type: "array",
  shape: [1],
  data_type: "uint8",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [1] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0,
  codecs: [{ name: REGISTERED_MARK }],
  attributes: {},
});

/**
 * Notes an array read reads, of the zarrita copy whose context `symbol`
 * keys (zarrita-array.js found both).
 */
export function noteZarritaArray(arr, symbol, context) {
  let copy = copies.get(symbol);
  if (!copy) {
    let ArrayClass;
    let path;
    try {
      ArrayClass = arr.constructor;
      path = arr.path;
    } catch {
      // an array that hides these: counted, never asked
    }
    copy = {
      symbol,
      ArrayClass,
      // zarrita 0.7 renamed the context's members to camelCase.
      zarrita: typeof context.getChunkBytes === "function" ? "0.7 or later" : "0.5 or 0.6",
      arrays: 0,
      firstPath: typeof path === "string" ? path : "",
    };
    copies.set(symbol, copy);
  }
  if (!counted.has(arr)) {
    counted.add(arr);
    copy.arrays += 1;
  }
}

// What the probe's decode failed with says: the mark's refusal to be made
// (where the copy's registry has it), or zarrita's unknown codec.
function registeredBy(error) {
  for (let e = error, depth = 0; e && depth < 4; e = e.cause, depth++) {
    if (e instanceof RegisteredMarkError) return true;
    if (e?.message === `Unknown codec: ${REGISTERED_MARK}`) return false;
  }
  return undefined;
}

/** true, false, or undefined where the copy could not be asked. */
async function registeredIn(copy) {
  if (typeof copy.ArrayClass !== "function") return undefined;
  let context;
  try {
    context = new copy.ArrayClass(new Map(), "/", PROBE_METADATA)[copy.symbol];
  } catch {
    return undefined;
  }
  if (typeof context?.codec?.decode !== "function") return undefined;
  try {
    await context.codec.decode(new Uint8Array(0));
  } catch (error) {
    return registeredBy(error);
  }
  return undefined;
}

/**
 * The zarrita copies whose arrays reached read, first met first:
 * `registered` (register() extended the copy's registry, asked now),
 * `zarrita` ("0.5 or 0.6" or "0.7 or later"), `arrays` (how many of its
 * arrays read has read) and `firstPath` (the path of the first).
 */
export async function zarritaCopies() {
  return Promise.all(
    [...copies.values()].map(async (copy) => ({
      registered: await registeredIn(copy),
      zarrita: copy.zarrita,
      arrays: copy.arrays,
      firstPath: copy.firstPath,
    })),
  );
}
