// The compressors decoded in the package's own wasm, by the names zarrita
// gives them: v3's codec names and Zarr v2's numcodecs ids (zarrita 0.7
// names a v2 compressor `numcodecs.<id>`, 0.5 and 0.6 `<id>`). `kind` is
// the core's number for it (bindings/compress_exports.h).
export const COMPRESSIONS = [
  { name: "zstd", kind: 0 },
  { name: "gzip", kind: 1 },
  { name: "zlib", kind: 2 },
  { name: "lz4", kind: 3 },
  { name: "blosc", kind: 4 },
];

/** The compression of a registry name ("zstd", "numcodecs.zstd"), or undefined. */
export function compressionNamed(name) {
  const bare = typeof name === "string" ? name.replace(/^numcodecs\./, "") : undefined;
  return COMPRESSIONS.find((c) => c.name === bare);
}

/** Every registry name the compressors take. */
export const COMPRESSOR_NAMES = COMPRESSIONS.flatMap((c) => [c.name, `numcodecs.${c.name}`]);
