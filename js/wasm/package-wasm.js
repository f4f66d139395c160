// Where the main entry's ready() finds the wasm with nothing set up: the
// package's .wasm file, compiled while it streams, wherever it sits beside
// the package's JavaScript; else the copy inlined in the package
// (wasm/inline.js), imported only then, so a page that loads the file
// never fetches the inlined copy.
//
// `new URL("<file>", import.meta.url)` is the form Vite and webpack 5
// recognise: they emit the file as an asset and put its URL here, with no
// plugin or configuration. Node reads it from disk (wasm/load.js); a page
// that imports the package's files as they are fetches it beside them. The
// expression holds no path of the machine that built a bundle (webpack
// writes a raw import.meta.url as the source file's file: URL, so there is
// no other use of import.meta here).
import { inlineWasm } from "./inline.js";
import { preferring } from "./load.js";

const FILE = "/dist/zarr-codecs-wasm.wasm";

/** The main entry's source: the .wasm file where there is one, else the inlined copy. */
export const packageWasm = preferring(wasmFile, inlineWasm);

/**
 * The .wasm file's URL, or undefined where no file can be there, to load
 * the inlined copy without a failed request (which a browser's console
 * shows as an error).
 * @returns {URL | undefined}
 */
function wasmFile() {
  // A Web Worker takes the inlined copy (or, better, the page's compiled
  // module: compiledWasm()). Vite bundles workers as one iife file by
  // default, which carries the inlined copy whatever this code does; it
  // must not fetch the file too.
  if (typeof WorkerGlobalScope === "function" && globalThis instanceof WorkerGlobalScope) return undefined;
  let url;
  try {
    url = new URL("../../dist/zarr-codecs-wasm.wasm", import.meta.url);
  } catch {
    return undefined; // an iife bundle, whose import.meta is empty (esbuild)
  }
  // A bundler configured to inline assets: never fetch a data: URL (a
  // Content-Security-Policy's connect-src refuses it).
  if (url.protocol === "data:") return undefined;
  // A bundler emitted the file under a name of its own (Vite, webpack), or
  // Node, which reads it from disk (a missing file falls back silently).
  if (url.protocol === "file:" || !url.pathname.endsWith(FILE)) return url;
  // The path is as written: either the package's files are served as they
  // are (no bundler, or a dev server), and this module was fetched from
  // beside the file; or a bundler that emits no assets (esbuild) left
  // import.meta.url as the bundle's URL, and nothing is there.
  return loadedFrom(new URL("../js/wasm/package-wasm.js", url)) ? url : undefined;
}

// Whether the page fetched `url` (its Resource Timing entries; a dev
// server may add a query).
function loadedFrom(url) {
  const entries = globalThis.performance?.getEntriesByType?.("resource") ?? [];
  return entries.some((entry) => entry.name.replace(/[?#].*$/, "") === url.href);
}
