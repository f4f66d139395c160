// zarr-codecs-wasm/slim: everything the main entry has, without the copy of
// the wasm inlined in the package, so a bundle that loads the .wasm file
// (zarr-codecs-wasm/wasm) carries no second copy, in a page or in a worker
// bundled as one file (Vite's default iife workers cannot split off the
// main entry's lazy import). Call ready({ wasm }) first.
import createZarrCodecsModule from "../dist/zarr-codecs-wasm.mjs";
import { ZarrCodecError } from "./errors.js";
import { readyWith } from "./wasm/load.js";
import { registerUsing } from "./register.js";
import { withDataTypesUsing } from "./data-types/with-data-types.js";
import { readUsing } from "./read/read.js";

export * from "./exports.js";

function noSource() {
  throw new ZarrCodecError(
    "NOT_READY",
    "zarr-codecs-wasm/slim has no inlined wasm: call ready({ wasm }) with the " +
      "zarr-codecs-wasm/wasm file (a URL, Response, bytes or compiled module) first",
  );
}

/**
 * Resolves once the wasm module is loaded from `options.wasm` (a URL or
 * string, a Response, bytes or a compiled WebAssembly.Module); without it,
 * resolves if a module is already loaded.
 * @param {{wasm?: unknown}} [options]
 */
export function ready(options) {
  return readyWith(options, noSource, glue);
}

// A static import: a worker bundled as one file (Vite's iife) carries it,
// and nothing is split off for a page to fetch later.
const glue = async () => createZarrCodecsModule;

export function register(registry, options) {
  return registerUsing(registry, ready, options);
}

export function withDataTypes(store, options) {
  return withDataTypesUsing(store, options, ready);
}

export function read(arr, selection, options) {
  return readUsing(arr, selection, options, ready);
}
