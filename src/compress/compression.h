// The compressed-chunk formats the package decodes and encodes: Zarr's
// bytes -> bytes compressors as numcodecs and zarr-python write them.
#pragma once

#include <cstdint>

namespace zcw {

// The values are the `kind` of the wasm exports (bindings/compress_exports.h):
// stable, never renumbered.
enum class Compression : int {
  kZstd = 0,   // one or more zstd frames (RFC 8878), content size known or not
  kGzip = 1,   // one or more gzip members (RFC 1952)
  kZlib = 2,   // one zlib stream (RFC 1950)
  kLz4 = 3,    // numcodecs' LZ4: a 4-byte little-endian decoded size, then one LZ4 block
  kBlosc = 4,  // a c-blosc 1.x frame (format version 2): blosclz, lz4, lz4hc, zlib or zstd
               // inside; no shuffle, byte shuffle or bit shuffle; or memcpyed
};

inline constexpr int kCompressionKinds = 5;

// The numcodecs id: "zstd", "gzip", "zlib", "lz4", "blosc".
inline const char* compression_name(Compression kind) {
  switch (kind) {
    case Compression::kZstd: return "zstd";
    case Compression::kGzip: return "gzip";
    case Compression::kZlib: return "zlib";
    case Compression::kLz4: return "lz4";
    case Compression::kBlosc: return "blosc";
  }
  return "?";
}

// A `kind` from outside (the wasm exports, a fuzz input) checked.
inline bool compression_from_int(int value, Compression* out) {
  if (value < 0 || value >= kCompressionKinds) return false;
  *out = static_cast<Compression>(value);
  return true;
}

}  // namespace zcw
