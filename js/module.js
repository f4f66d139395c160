// Loads the wasm module once per JS realm (page, worker, Node process) behind
// one promise, as numcodecs.js does, and hands the codecs the loaded instance.
import createZarrCodecsModule from "../dist/zarr-codecs-wasm.mjs";
import { ZarrCodecError } from "./errors.js";
import { allocateScratch } from "./heap.js";

// (module (func (result v128) i32.const 0 i8x16.splat)): validates only where
// the engine has wasm SIMD.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6,
  0, 65, 0, 253, 15, 11,
]);

let loading;
let instance;

/** True when this JavaScript engine runs WebAssembly SIMD. */
export function hasWasmSimd() {
  return (
    typeof WebAssembly === "object" && WebAssembly.validate(SIMD_PROBE)
  );
}

async function load() {
  if (!hasWasmSimd()) {
    throw new ZarrCodecError(
      "NO_WASM_SIMD",
      "zarr-codecs-wasm needs WebAssembly SIMD, which this JavaScript engine " +
        "lacks (it needs Node >= 16.4, Chrome/Edge 91+, Firefox 89+ or " +
        "Safari 16.4+)",
    );
  }
  try {
    instance = await instantiate(createZarrCodecsModule);
  } catch (cause) {
    throw new ZarrCodecError(
      "WASM_LOAD_FAILED",
      `zarr-codecs-wasm: the WebAssembly module could not be compiled (${cause?.message ?? cause}); ` +
        "a Content-Security-Policy must allow script-src 'wasm-unsafe-eval'",
      { cause },
    );
  }
  return instance;
}

/**
 * A module instance with its scratch region, from an Emscripten factory.
 * Internal: the benchmark also instantiates the build without SIMD.
 */
export async function instantiate(factory) {
  const module = await factory();
  module.scratch = allocateScratch(module);
  return module;
}

/**
 * Resolves once the wasm module is loaded; the codec classes can be used
 * directly from then on. Safe to call any number of times.
 * @returns {Promise<void>}
 */
export async function ready() {
  loading ??= load().catch((error) => {
    loading = undefined; // a later call may try again
    throw error;
  });
  await loading;
}

/** The loaded module; throws a clear error before ready() has resolved. */
export function wasm() {
  if (!instance) {
    throw new ZarrCodecError(
      "NOT_READY",
      "zarr-codecs-wasm: the wasm module is not loaded yet; await ready() " +
        "before using the codec classes directly",
    );
  }
  return instance;
}
