// The encoder module (dist/zarr-codecs-wasm-encode.{mjs,wasm}): the
// compressors of src/compress/compressor.h as plain wasm exports, in a
// module of their own so that a page that only reads never downloads them.
// No embind: its JS reads the status through the exports below.
//
//   double zcw_compress(int kind, int level, int checksum, int acceleration,
//                       int blosc_cname, int blosc_shuffle, int blosc_typesize,
//                       double blosc_blocksize,
//                       const uint8_t* in, double in_len, uint8_t* out, double out_cap)
//     One frame of in[0, in_len) into out[0, out_cap). Returns its length,
//     or -1 (the status exports say why). kind as in the read module:
//     0 zstd, 1 gzip, 2 zlib, 3 lz4, 4 blosc. The options (compressor.h,
//     CompressionOptions; each kind reads its own and ignores the rest):
//       level          zstd: -131072..22 (0: zstd's default, 3);
//                      gzip, zlib: -1..9 (-1: 6); blosc: clevel 0..9
//       checksum       zstd: 1 writes the content checksum
//       acceleration   lz4: numcodecs' LZ4(acceleration), below 1 means 1
//       blosc_cname    0 blosclz, 1 lz4, 2 lz4hc, 4 zlib, 5 zstd
//       blosc_shuffle  -1 auto (bit for typesize 1, else byte), 0 none, 1 byte, 2 bit
//       blosc_typesize 1..255; blosc_blocksize: bytes, 0 for c-blosc's choice
//
//   double zcw_compress_bound(int kind, ...the same options..., double in_len)
//     The largest frame in_len bytes can take: an out_cap that never fails
//     for lack of room. -1 for options out of range (the status says why).
//
//   const char* zcw_compress_status_code()     the last call's error code, a
//   const char* zcw_compress_status_message()  NUL-terminated UTF-8 string in
//     wasm memory ("OK" and "" after a success): the package's error codes
//     (INVALID_CONFIGURATION, LENGTH_MISMATCH, SIZE_OVERFLOW, OUT_OF_MEMORY,
//     INVALID_INPUT) and a message naming the codec, the expected and the found.
//
//   int zcw_abi_version()   the module's interface version (js/wasm/abi-version.js)
//   malloc, free            for the buffers in and out
//
// One Compressor per module instance (zstd's context, libdeflate's
// compressor for the last level, kept between calls). Nothing here throws
// or aborts.
#include <emscripten/emscripten.h>

#include <cmath>
#include <cstdint>
#include <string>

#include "common/status.h"
#include "compress/compressor.h"

#ifndef ZCW_ABI_VERSION
#error "ZCW_ABI_VERSION comes from js/wasm/abi-version.js (CMakeLists.txt)"
#endif

namespace {

zcw::Compressor& compressor() {
  static zcw::Compressor c;
  return c;
}

zcw::Status& status() {
  static zcw::Status s;
  return s;
}

bool byte_count(double v) { return std::isfinite(v) && v >= 0 && v <= 4294967296.0 && v == std::floor(v); }

zcw::Status options_from(int kind, int level, int checksum, int acceleration, int blosc_cname, int blosc_shuffle,
                         int blosc_typesize, double blosc_blocksize, zcw::Compression* compression,
                         zcw::CompressionOptions* o) {
  if (!zcw::compression_from_int(kind, compression)) {
    return zcw::Status(zcw::ErrorCode::kInvalidInput, "compress: unknown compression kind " + std::to_string(kind));
  }
  if (!byte_count(blosc_blocksize) || blosc_typesize < 0) {
    return zcw::Status(zcw::ErrorCode::kInvalidConfiguration, "blosc: blocksize and typesize must be whole numbers");
  }
  o->level = level;
  o->checksum = checksum != 0;
  o->acceleration = acceleration;
  o->blosc_inner = static_cast<zcw::BloscInner>(blosc_cname);
  o->blosc_shuffle = static_cast<zcw::BloscShuffle>(blosc_shuffle);
  o->typesize = static_cast<uint32_t>(blosc_typesize);
  o->blocksize = static_cast<uint64_t>(blosc_blocksize);
  return zcw::Status::Ok();
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE double zcw_compress(int kind, int level, int checksum, int acceleration, int blosc_cname,
                                         int blosc_shuffle, int blosc_typesize, double blosc_blocksize,
                                         const uint8_t* in, double in_len, uint8_t* out, double out_cap) {
  zcw::Compression compression;
  zcw::CompressionOptions options;
  zcw::Status s = options_from(kind, level, checksum, acceleration, blosc_cname, blosc_shuffle, blosc_typesize,
                               blosc_blocksize, &compression, &options);
  if (s.ok() && (!byte_count(in_len) || !byte_count(out_cap) || (in == nullptr && in_len != 0) || out == nullptr)) {
    s = zcw::Status(zcw::ErrorCode::kInvalidInput, std::string(zcw::compression_name(compression)) + ": bad call");
  }
  uint64_t written = 0;
  if (s.ok()) {
    s = compressor().compress(compression, options, in, static_cast<uint64_t>(in_len), out,
                              static_cast<uint64_t>(out_cap), &written);
  }
  status() = std::move(s);
  return status().ok() ? static_cast<double>(written) : -1;
}

EMSCRIPTEN_KEEPALIVE double zcw_compress_bound(int kind, int level, int checksum, int acceleration, int blosc_cname,
                                               int blosc_shuffle, int blosc_typesize, double blosc_blocksize,
                                               double in_len) {
  zcw::Compression compression;
  zcw::CompressionOptions options;
  zcw::Status s = options_from(kind, level, checksum, acceleration, blosc_cname, blosc_shuffle, blosc_typesize,
                               blosc_blocksize, &compression, &options);
  if (s.ok() && !byte_count(in_len)) s = zcw::Status(zcw::ErrorCode::kInvalidInput, "compress: bad length");
  uint64_t bound = 0;
  if (s.ok()) s = zcw::Compressor::bound(compression, options, static_cast<uint64_t>(in_len), &bound);
  status() = std::move(s);
  return status().ok() ? static_cast<double>(bound) : -1;
}

EMSCRIPTEN_KEEPALIVE const char* zcw_compress_status_code() { return zcw::error_code_name(status().code()); }

EMSCRIPTEN_KEEPALIVE const char* zcw_compress_status_message() { return status().message().c_str(); }

EMSCRIPTEN_KEEPALIVE int zcw_abi_version() { return ZCW_ABI_VERSION; }

}  // extern "C"
