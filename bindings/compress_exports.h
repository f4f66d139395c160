// The read module's decompression exports (src/compress/decompressor.h):
// plain wasm exports over buffers in wasm memory, for the JS layer's
// compressors and for read's chain (fetched bytes copied in once, decoded
// there, then placed). Included once, by bindings.cpp.
//
//   int zcw_decompress(int kind, const uint8_t* in, double in_len,
//                      uint8_t* out, double out_len)
//     Decodes the frame at in[0, in_len) into exactly out_len bytes at out.
//     0: done. 1: failed, decompressStatus() says why ({ code, message },
//     the package's error codes: LENGTH_MISMATCH, CORRUPT_DATA,
//     CHECKSUM_MISMATCH, UNSUPPORTED_CODEC, ...). Never writes outside
//     out[0, out_len), whatever the frame says.
//
//   double zcw_decompress_bounded(int kind, const uint8_t* in, double in_len,
//                                 double max_out)
//     For a frame whose decoded size the caller does not know: decodes at
//     most max_out bytes into memory of the module's own, allocating no
//     more than that. Returns the decoded length, or -1 (decompressStatus()
//     says why). The bytes then wait at zcw_decompressed_take().
//
//   uint8_t* zcw_decompressed_take()
//     The address of the last bounded decode's bytes, handed to the caller:
//     read them (HEAPU8), then free them with zcw_free. Bytes not taken are
//     freed by the next zcw_decompress_bounded. 0 where there are none (a
//     failure, an empty result, or already taken).
//
//   kind: 0 zstd, 1 gzip, 2 zlib, 3 lz4 (numcodecs' framing), 4 blosc
//   (src/compress/compression.h). Lengths are whole numbers of bytes as
//   float64s (the JS layer's numbers), checked here.
//
// One Decompressor per module instance: its contexts (zstd's, libdeflate's)
// are allocated at first use and reused by every later chunk. A failure
// leaves it usable.
#pragma once

#include <emscripten/emscripten.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "common/status.h"
#include "compress/decompressor.h"

namespace zcw::bindings {

inline Decompressor& decompressor() {
  static Decompressor d;
  return d;
}

// The last decompression export's outcome (decompressStatus()).
inline Status& decompress_status() {
  static Status status;
  return status;
}

// The last bounded decode's bytes, until taken.
inline MallocBytes& decompressed() {
  static MallocBytes bytes;
  return bytes;
}

inline bool byte_count(double v) { return std::isfinite(v) && v >= 0 && v <= 4294967296.0 && v == std::floor(v); }

inline Status decompress_arguments(int kind, const uint8_t* in, double in_len, double out_len,
                                   Compression* compression) {
  if (!compression_from_int(kind, compression)) {
    return Status(ErrorCode::kInvalidInput, "decompress: unknown compression kind " + std::to_string(kind));
  }
  if (!byte_count(in_len) || !byte_count(out_len) || (in == nullptr && in_len != 0)) {
    return Status(ErrorCode::kInvalidInput, std::string(compression_name(*compression)) + ": bad call");
  }
  return Status::Ok();
}

}  // namespace zcw::bindings

extern "C" {

EMSCRIPTEN_KEEPALIVE int zcw_decompress(int kind, const uint8_t* in, double in_len, uint8_t* out, double out_len) {
  using namespace zcw::bindings;
  zcw::Compression compression;
  zcw::Status s = decompress_arguments(kind, in, in_len, out_len, &compression);
  if (s.ok() && out == nullptr && out_len != 0) s = zcw::Status(zcw::ErrorCode::kInvalidInput, "decompress: bad call");
  if (s.ok()) {
    s = decompressor().decompress(compression, in, static_cast<uint64_t>(in_len), out, static_cast<uint64_t>(out_len));
  }
  decompress_status() = std::move(s);
  return decompress_status().ok() ? 0 : 1;
}

EMSCRIPTEN_KEEPALIVE double zcw_decompress_bounded(int kind, const uint8_t* in, double in_len, double max_out) {
  using namespace zcw::bindings;
  zcw::Compression compression;
  zcw::Status s = decompress_arguments(kind, in, in_len, max_out, &compression);
  decompressed().resize(0);
  if (s.ok()) {
    s = decompressor().decompress_bounded(compression, in, static_cast<uint64_t>(in_len),
                                          static_cast<uint64_t>(max_out), &decompressed());
  }
  decompress_status() = std::move(s);
  return decompress_status().ok() ? static_cast<double>(decompressed().size()) : -1;
}

EMSCRIPTEN_KEEPALIVE uint8_t* zcw_decompressed_take() { return zcw::bindings::decompressed().release(); }

}  // extern "C"
