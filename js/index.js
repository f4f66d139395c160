// zarr-codecs-wasm: the Zarr v3 `bytes` and `packbits` codecs in
// WebAssembly, and every Zarr data type through zarrita. This entry loads
// the package's own wasm (its .wasm file where a bundler or server put it,
// else the inlined copy: wasm/package-wasm.js) unless ready({ wasm }) says
// otherwise; zarr-codecs-wasm/slim is the same without either.
import { importDist } from "./wasm/dist-import.js";
import { readyWith } from "./wasm/load.js";
import { packageWasm } from "./wasm/package-wasm.js";
import { registerUsing } from "./register.js";
import { withDataTypesUsing } from "./data-types/with-data-types.js";
import { readUsing } from "./read/read.js";

export * from "./exports.js";

/**
 * Resolves once the wasm module is loaded: from `options.wasm` (a URL or
 * string, a Response, bytes or a compiled WebAssembly.Module) or else the
 * package's own (its .wasm file, or the inlined copy where there is no
 * file). The first successful call wins.
 * @param {{wasm?: unknown}} [options]
 */
export function ready(options) {
  return readyWith({ wasm: options?.wasm ?? packageWasm }, undefined, glue);
}

// Imported when first needed, so that a copy whose wasm was never built
// still imports and says how to build (wasm/dist-import.js).
function glue() {
  return importDist("dist/zarr-codecs-wasm.mjs", () => import("../dist/zarr-codecs-wasm.mjs")).then((m) => m.default);
}

/** register(zarr.registry): see register.js. */
export function register(registry, options) {
  return registerUsing(registry, ready, options);
}

/** withDataTypes(store, { floats }): see data-types/with-data-types.js. */
export function withDataTypes(store, options) {
  return withDataTypesUsing(store, options, ready);
}

/** read(arr, selection, { into }): see read/read.js and docs/read.md. */
export function read(arr, selection, options) {
  return readUsing(arr, selection, options, ready);
}
