// The encoder module (dist/zarr-codecs-wasm-encode.{mjs,wasm}): the
// compressors' encoders, in a module of their own so that a page that only
// reads never downloads them (bindings/encode_exports.cpp). It loads on the
// first encode, once per realm: its glue by a dynamic import (a chunk of
// its own in a bundle), its .wasm from beside the package (Node reads the
// file; Vite and webpack emit it as an asset from the new URL(...) below).
import { ZarrCodecError } from "../errors.js";
import { importDist } from "../wasm/dist-import.js";
import { compileSource, instantiate } from "../wasm/load.js";

let loading;

/** The encoder module, loaded on first use; a failed load is tried again next time. */
export function encoderModule() {
  loading ??= load().catch((error) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load() {
  const url = new URL("../../dist/zarr-codecs-wasm-encode.wasm", import.meta.url);
  const glue = importDist("dist/zarr-codecs-wasm-encode.mjs", () => import("../../dist/zarr-codecs-wasm-encode.mjs")).then((m) => m.default);
  const [factory, compiled] = await Promise.all([glue, compileSource(url)]);
  return instantiate(factory, compiled, "the encoder module (zarr-codecs-wasm-encode.wasm)");
}

function text(module, at) {
  const heap = module.HEAPU8;
  let end = at;
  while (heap[end] !== 0) end++;
  return new TextDecoder().decode(heap.subarray(at, end));
}

function failure(module, name) {
  const code = text(module, module._zcw_compress_status_code());
  const message = text(module, module._zcw_compress_status_message());
  return new ZarrCodecError(code, `${name}: ${message.replace(/^[a-z0-9_]+: /, "")}`);
}

// The options as the exports take them (encode_exports.cpp).
function args(kind, options, typesize) {
  return [
    kind,
    options.level ?? options.clevel ?? 0,
    options.checksum ? 1 : 0,
    options.acceleration ?? 1,
    options.cname ?? 0,
    options.shuffle ?? -1,
    options.typesize ?? typesize ?? 1,
    options.blocksize ?? 0,
  ];
}

/**
 * One frame of `bytes`, compressed as `compression` ({ name, kind }) with
 * `options`; `typesize` the element size blosc shuffles by where the
 * configuration names none.
 * @returns {Promise<Uint8Array>}
 */
export async function compressWith(compression, options, bytes, typesize) {
  const module = await encoderModule();
  const a = args(compression.kind, options, typesize);
  const bound = module._zcw_compress_bound(...a, bytes.byteLength);
  if (bound < 0) throw failure(module, compression.name);
  const inAt = module._malloc(Math.max(1, bytes.byteLength));
  const outAt = module._malloc(Math.max(1, bound));
  if (!inAt || !outAt) {
    if (inAt) module._free(inAt);
    if (outAt) module._free(outAt);
    throw new ZarrCodecError("OUT_OF_MEMORY", `${compression.name}: the encoder module cannot grow by ${bytes.byteLength + bound} bytes`);
  }
  try {
    module.HEAPU8.set(bytes, inAt);
    const length = module._zcw_compress(...a, inAt, bytes.byteLength, outAt, bound);
    if (length < 0) throw failure(module, compression.name);
    return module.HEAPU8.slice(outAt, outAt + length);
  } finally {
    module._free(inAt);
    module._free(outAt);
  }
}
