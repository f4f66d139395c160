// Encoding chunks (compression.h) into frames numcodecs and zarr-python
// read back: zstd frames with their content size, gzip and zlib streams
// from libdeflate's compressor, numcodecs' LZ4 framing, c-blosc 1.x frames.
// Compiled apart from the decoders (compressor.cpp): the read module links
// no encoder; the encoder module (bindings/encode_exports.cpp) does.
#pragma once

#include <cstdint>

#include "common/status.h"
#include "compress/compression.h"

struct ZSTD_CCtx_s;
struct libdeflate_compressor;

namespace zcw {

// c-blosc's compressor codes (blosc.h); 3, snappy, is not built in.
enum class BloscInner : int { kBloscLz = 0, kLz4 = 1, kLz4Hc = 2, kZlib = 4, kZstd = 5 };

// numcodecs' Blosc shuffle values: -1 (AUTOSHUFFLE) is bit shuffle for a
// typesize of 1, byte shuffle otherwise.
enum class BloscShuffle : int { kAuto = -1, kNone = 0, kByte = 1, kBit = 2 };

struct CompressionOptions {
  // zstd: a zstd level, ZSTD_minCLevel() (negative: faster) to 22; 0 is
  // zstd's default, 3. gzip, zlib: zlib's 0 (stored) to 9, -1 is zlib's
  // default, 6; the same number is libdeflate's level, whose scale follows
  // zlib's (docs/architecture.md). blosc: clevel 0 (memcpyed) to 9.
  int level = 0;
  bool checksum = false;   // zstd: write the 32-bit content checksum
  int acceleration = 1;    // lz4: LZ4_compress_fast's; below 1 means 1, as in lz4
  BloscInner blosc_inner = BloscInner::kLz4;
  BloscShuffle blosc_shuffle = BloscShuffle::kByte;
  uint32_t typesize = 1;   // blosc: the element size the shuffle works on, 1 to 255
  uint64_t blocksize = 0;  // blosc: bytes per block, 0 for c-blosc's choice
};

class Compressor {
 public:
  Compressor() = default;
  ~Compressor();
  Compressor(const Compressor&) = delete;
  Compressor& operator=(const Compressor&) = delete;

  // The largest frame `in_size` bytes can take with these options: an
  // `out_capacity` that never fails for lack of room.
  static Status bound(Compression kind, const CompressionOptions& options, uint64_t in_size, uint64_t* bytes);

  // One frame of `in` into out[0, out_capacity); its length in `*written`.
  // INVALID_CONFIGURATION for options out of range, LENGTH_MISMATCH where
  // the frame does not fit, SIZE_OVERFLOW past a format's limit.
  Status compress(Compression kind, const CompressionOptions& options, const uint8_t* in, uint64_t in_size,
                  uint8_t* out, uint64_t out_capacity, uint64_t* written);

 private:
  Status deflate_context(int level, libdeflate_compressor** out);

  ZSTD_CCtx_s* zstd_ = nullptr;
  libdeflate_compressor* deflate_ = nullptr;  // for deflate_level_
  int deflate_level_ = -1;
};

}  // namespace zcw
