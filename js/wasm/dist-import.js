// The built files of dist/ (the Emscripten glue, the inlined .wasm), which
// git does not hold: a copy installed from the sources without building
// them (npm install --ignore-scripts of a clone or folder, or a clone whose
// `npm install` never ran) has none. The main entry imports them lazily,
// so such a copy still imports, and its first ready() fails with the
// package's error saying how to build, not a bare ERR_MODULE_NOT_FOUND.
import { ZarrCodecError } from "../errors.js";

// Node's "Cannot find module", browsers' failed fetch of a module URL.
const MISSING = /ERR_MODULE_NOT_FOUND|Cannot find module|Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed/i;

/**
 * `load()` (an import() of `file`), with its failure as WASM_LOAD_FAILED.
 * @template T
 * @param {string} file the file's path in the package, for the message
 * @param {() => Promise<T>} load
 * @returns {Promise<T>}
 */
export async function importDist(file, load) {
  try {
    return await load();
  } catch (cause) {
    const text = String(cause?.message ?? cause);
    if (cause?.code === "ERR_MODULE_NOT_FOUND" || MISSING.test(text)) {
      throw new ZarrCodecError(
        "WASM_LOAD_FAILED",
        `zarr-codecs-wasm: ${file} is missing: this copy of the package was installed from its sources without building the ` +
          "WebAssembly module (as npm install --ignore-scripts does, or a clone where npm install never ran). Build it: " +
          "run npm install in the clone (it builds the wasm with Emscripten; npm run build rebuilds it), then install that " +
          'folder or the tarball npm pack makes there; see "Install" in the README',
        { cause },
      );
    }
    throw new ZarrCodecError("WASM_LOAD_FAILED", `zarr-codecs-wasm: could not import ${file} (${text})`, { cause });
  }
}
