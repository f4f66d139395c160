// Loads the wasm module once per JS realm (page, worker, Node process)
// behind one promise, as numcodecs.js does, and hands the codecs the loaded
// instance. The .wasm comes from the caller (`ready({ wasm })`: a URL, a
// Response, bytes or a compiled WebAssembly.Module) or, from the main
// entry only, from the package itself (wasm/package-wasm.js: its .wasm
// file where there is one, else the inlined copy). The Emscripten glue
// (its factory) comes from the entry too (index.js, slim.js). The glue
// never looks for the .wasm itself: it is always handed a compiled
// module, so it needs no URL of its own and bundles carry no path of the
// machine that built them.
import { describe, tagOf, ZarrCodecError } from "../errors.js";
import { ABI_VERSION } from "./abi-version.js";
import { attachIo } from "./io.js";

// (module (func (result v128) i32.const 0 i8x16.splat)): validates only where
// the engine has wasm SIMD.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6,
  0, 65, 0, 253, 15, 11,
]);

// What a failed source was, for a source with a fallback (preferring()):
// ABSENT, nothing there to load (a missing file, an HTTP error, a page
// that is not wasm, as servers answer for a file they lack); BROKEN, wasm
// that does not compile or is not this release's. Anything else (a
// Content-Security-Policy's refusal, no SIMD, a missing build) would fail
// the fallback alike, and is thrown.
const ABSENT = Symbol("absent");
const BROKEN = Symbol("broken");
// The alternatives of a source made by preferring().
const ALTERNATIVES = Symbol("alternatives");

let loading; // { source, promise } of the load under way
let instance;
let compiled;
let loadedFactory; // the Emscripten factory the instance came from (a promise)
// Counts the instances this realm has had: a codec bound to an older one
// binds again to the current one on its next use (instance.js).
let generation = 0;

/** True when this JavaScript engine runs WebAssembly SIMD. */
export function hasWasmSimd() {
  return typeof WebAssembly === "object" && WebAssembly.validate(SIMD_PROBE);
}

function loadFailed(message, cause, kind) {
  const error = new ZarrCodecError("WASM_LOAD_FAILED", `zarr-codecs-wasm: ${message}`, { cause });
  if (kind) Object.defineProperty(error, kind, { value: true });
  return error;
}

// Whether bytes (a buffer or a view) begin with "\0asm", as every wasm
// module does.
function startsAsWasm(bytes) {
  const head = new Uint8Array(bytes.buffer ?? bytes, bytes.byteOffset ?? 0, Math.min(4, bytes.byteLength));
  return head.length === 4 && head[0] === 0 && head[1] === 0x61 && head[2] === 0x73 && head[3] === 0x6d;
}

// An engine error from compiling or instantiating, in words that say what
// to do about it. `notWasm`: the bytes compiled were no wasm at all, as a
// server answers for a file it does not have (an HTML page), which is not
// a damaged module.
function explain(error, what, notWasm = false) {
  const text = String(error?.message ?? error);
  if (/unsafe-eval|Content Security Policy|CSP|Refused/i.test(text)) {
    return loadFailed(
      `the WebAssembly module could not be compiled (${text}); a Content-Security-Policy must allow script-src 'wasm-unsafe-eval'`,
      error,
    );
  }
  if (tagOf(error) === "CompileError" || error?.name === "CompileError") {
    return loadFailed(`${what} is not a WebAssembly module (${text})`, error, notWasm ? ABSENT : BROKEN);
  }
  if (error?.name === "LinkError") {
    return loadFailed(
      `${what} was built for another release of zarr-codecs-wasm (${text}); use the zarr-codecs-wasm/wasm file of the installed package`,
      error,
      BROKEN,
    );
  }
  return loadFailed(`${what} could not be loaded (${text})`, error);
}

async function fromResponse(response, what) {
  if (!response.ok) {
    throw loadFailed(`could not fetch ${what}: HTTP ${response.status} ${response.statusText}`.trim(), undefined, ABSENT);
  }
  if (typeof WebAssembly.compileStreaming === "function") {
    // Compiles while the bytes arrive; a server that labels .wasm with
    // another MIME type gets the non-streaming path instead.
    const spare = response.clone();
    try {
      return await WebAssembly.compileStreaming(response);
    } catch (error) {
      if (!/MIME/i.test(String(error?.message))) {
        // A TypeError here: the network failed while the bytes streamed in.
        if (error?.name === "TypeError") throw loadFailed(`${what} could not be loaded (${error.message})`, error, ABSENT);
        throw explain(error, what);
      }
      response = spare;
    }
  }
  let bytes;
  try {
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    throw explain(error, what);
  }
  return compileBytes(bytes, what);
}

async function fromUrl(url) {
  const href = String(url);
  if (href.startsWith("file:")) {
    // Node: fetch() has no file: URLs. getBuiltinModule keeps node:fs out
    // of browser bundles.
    const fs = globalThis.process?.getBuiltinModule?.("node:fs/promises");
    if (!fs) throw loadFailed(`cannot read ${href} here; pass the file's bytes instead`, undefined, ABSENT);
    let bytes;
    try {
      bytes = await fs.readFile(new URL(href));
    } catch (error) {
      throw loadFailed(`could not read ${href} (${error.message})`, error, ABSENT);
    }
    return compileBytes(bytes, href);
  }
  let response;
  try {
    response = await fetch(href);
  } catch (error) {
    throw loadFailed(`could not fetch ${href} (${error.message})`, error, ABSENT);
  }
  return fromResponse(response, href);
}

async function compileBytes(bytes, what) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (error) {
    throw explain(error, what, !startsAsWasm(bytes));
  }
}

// Any accepted source -> a compiled WebAssembly.Module.
export async function compileSource(source) {
  return compile(source);
}

async function compile(source) {
  if (typeof source === "function") return compile(await source());
  if (source && typeof source.then === "function") return compile(await source);
  const kind = tagOf(source);
  if (kind === "WebAssembly.Module" || source instanceof WebAssembly.Module) return source;
  if (kind === "Response") return fromResponse(source, source.url || "the Response");
  if (kind === "URL" || typeof source === "string") return fromUrl(source);
  if (kind === "ArrayBuffer" || kind === "SharedArrayBuffer" || ArrayBuffer.isView(source)) {
    return compileBytes(source, "the bytes given");
  }
  throw loadFailed(
    `ready({ wasm }) takes a URL or string, a Response, bytes or a WebAssembly.Module, got ${describe(source)}`,
  );
}

function otherRelease(what, abi) {
  return loadFailed(
    `${what} was built for another release of zarr-codecs-wasm (interface ${abi ?? "unknown"}, this package needs ${ABI_VERSION}); use the zarr-codecs-wasm/wasm file of the installed package`,
    undefined,
    BROKEN,
  );
}

/**
 * An instance of an Emscripten factory on a compiled module. Internal: the
 * benchmark also instantiates the build without SIMD.
 */
export async function instantiate(factory, wasmModule, what = "the .wasm") {
  let module;
  try {
    module = await new Promise((resolve, reject) => {
      factory({
        instantiateWasm(imports, receive) {
          WebAssembly.instantiate(wasmModule, imports).then((wasmInstance) => {
            // The glue reads the exports it expects without checks; a
            // module of another release makes it throw here, which would
            // otherwise leave the factory's promise pending forever.
            try {
              receive(wasmInstance, wasmModule);
            } catch {
              reject(otherRelease(what, undefined));
            }
          }, reject);
          return {};
        },
      }).then(resolve, reject);
    });
  } catch (error) {
    throw error instanceof ZarrCodecError ? error : explain(error, what);
  }
  // Export names are minified, so the version is read through the glue.
  const abi = typeof module._zcw_abi_version === "function" ? module._zcw_abi_version() : undefined;
  if (abi !== ABI_VERSION) throw otherRelease(what, abi);
  attachIo(module);
  return module;
}

/**
 * A source for readyWith: `preferred()` (a source, or undefined where there
 * is none to try), else `fallback` where the preferred one is absent (not
 * there, or no wasm at all: silently) or broken (wasm that does not
 * compile or is not this release's: with a console warning). The main
 * entry's own .wasm file, else its inlined copy (wasm/package-wasm.js).
 * @param {() => unknown} preferred
 * @param {unknown} fallback
 */
export function preferring(preferred, fallback) {
  return { [ALTERNATIVES]: { preferred, fallback } };
}

// The loaded instance of `source` (anything compile() takes).
async function loadFrom(source, factory, what) {
  const [wasmModule, glue] = await Promise.all([compile(source), factory]);
  return { wasmModule, module: await instantiate(glue, wasmModule, what) };
}

async function load(source, glue) {
  if (!hasWasmSimd()) {
    throw new ZarrCodecError(
      "NO_WASM_SIMD",
      "zarr-codecs-wasm needs WebAssembly SIMD, which this JavaScript engine " +
        "lacks (it needs Node >= 16.4, Chrome/Edge 91+, Firefox 89+ or " +
        "Safari 16.4+)",
    );
  }
  // The glue and the .wasm load side by side (the main entry imports both lazily).
  const factory = glue();
  factory.catch(() => {}); // awaited below, whichever source is used
  let loaded;
  const alternatives = source?.[ALTERNATIVES];
  if (alternatives) {
    const preferred = alternatives.preferred();
    if (preferred !== undefined) {
      try {
        loaded = await loadFrom(preferred, factory, String(preferred));
      } catch (error) {
        if (!error?.[ABSENT] && !error?.[BROKEN]) throw error;
        if (error[BROKEN]) {
          console.warn(`${error.message}; zarr-codecs-wasm uses the copy inlined in the package instead`);
        }
      }
    }
    loaded ??= await loadFrom(alternatives.fallback, factory, "the .wasm");
  } else {
    loaded = await loadFrom(source, factory, "the .wasm");
  }
  compiled = loaded.wasmModule;
  loadedFactory = factory;
  instance = loaded.module;
  generation += 1;
}

/**
 * Loads the module from `options.wasm`, once: the first successful call
 * wins and later calls resolve to it. A call made while another load is
 * under way waits for it; if that load fails, the call fails with it where
 * it asked for the same source, and tries its own source otherwise. After
 * a failure a later call tries again. `noSource` is what to throw when
 * nothing is loaded and no source was given (an entry without an inlined
 * copy). `glue` resolves to the Emscripten factory.
 * @param {{wasm?: unknown} | undefined} options
 * @param {() => never} noSource
 * @param {() => Promise<Function>} glue
 */
export async function readyWith(options, noSource, glue) {
  const source = options?.wasm;
  for (;;) {
    if (instance) return;
    const current = loading;
    if (!current) break;
    try {
      await current.promise;
    } catch (error) {
      if (source === undefined || source === current.source) throw error;
    }
  }
  if (source === undefined) noSource?.();
  const attempt = { source, promise: undefined };
  attempt.promise = load(source, glue).finally(() => {
    if (loading === attempt) loading = undefined;
  });
  loading = attempt;
  await attempt.promise;
}

/** Whether a module is loaded (ready() has resolved). */
export function isLoaded() {
  return instance !== undefined && instance !== null;
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

/**
 * The compiled WebAssembly.Module in use, to post to workers: each calls
 * ready({ wasm: module }) and skips downloading and compiling.
 * @returns {WebAssembly.Module}
 */
export function compiledWasm() {
  wasm();
  return compiled;
}

/** Which instance is current: it changes when replaceInstance() runs. */
export function instanceGeneration() {
  return generation;
}

/**
 * A new instance of the loaded module (the same compiled
 * WebAssembly.Module, a memory of its own), not yet in use; undefined
 * before anything is loaded. Internal: wasm/recycle.js.
 */
export async function freshInstance() {
  if (!instance) return undefined;
  return instantiate(await loadedFactory, compiled);
}

/**
 * Makes `fresh` (from freshInstance()) the instance every later use gets,
 * with the kernels' implementation of the one it replaces; the old one is
 * left to the garbage collector. Internal: wasm/recycle.js, which calls it
 * only when nothing holds the old one's memory.
 */
export function replaceInstance(fresh) {
  const implementation = instance.implementation();
  if (fresh.implementation() !== implementation) fresh.setImplementation(implementation);
  instance = fresh;
  generation += 1;
}
