// Decoding compressed chunks (compression.h) with the upstream C libraries:
// zstd, libdeflate (gzip, zlib), lz4 and c-blosc.
//
// A chunk's decoded size is known from the array's metadata, so the main
// entry point decodes to exactly that size: any frame that declares or
// yields another size, is truncated, carries bytes after its end, fails its
// checksum or has a header that disagrees with its data is an error, and a
// frame never makes it write past `out_size` or allocate what it claims.
// Where the caller does not know the size (a compressor after another, an
// inner chunk whose size the chain computes later), the bounded entry point
// decodes at most `max_out` bytes, allocating no more than that.
//
// Errors are Status values (never exceptions): LENGTH_MISMATCH (the frame's
// size is not the chunk's), CORRUPT_DATA, CHECKSUM_MISMATCH,
// UNSUPPORTED_CODEC (snappy in blosc, a zstd frame that needs a
// dictionary), SIZE_OVERFLOW, OUT_OF_MEMORY, INVALID_INPUT; each message
// names the codec, what was expected and what was found. A failure leaves
// the Decompressor usable for the next chunk.
#pragma once

#include <cstdint>

#include "common/status.h"
#include "compress/compression.h"
#include "compress/malloc_bytes.h"

struct ZSTD_DCtx_s;
struct libdeflate_decompressor;

namespace zcw {

class Decompressor {
 public:
  Decompressor() = default;
  ~Decompressor();
  Decompressor(const Decompressor&) = delete;
  Decompressor& operator=(const Decompressor&) = delete;

  // Decodes `in` into exactly `out_size` bytes at `out`. On failure, `out`
  // may hold partial output (never more than `out_size` bytes written).
  Status decompress(Compression kind, const uint8_t* in, uint64_t in_size, uint8_t* out,
                    uint64_t out_size);

  // Decodes `in` whatever its decoded size, as long as it is at most
  // `max_out` bytes; `*out` holds exactly the decoded bytes on success
  // (emptied on failure). Size claims in the frame (zstd's content size,
  // blosc's nbytes, lz4's header) above `max_out` (LENGTH_MISMATCH) or
  // above what the frame's bytes can decode to (CORRUPT_DATA; the ratios
  // of src/compress/decoded_bound.h, for blosc its inner codec's, with its
  // header, layout and every stream checked first) are refused before
  // anything is allocated; where there is no claim (gzip's ISIZE is only a
  // hint) the output grows as the decoder needs it, up to `max_out` and
  // what the bytes can decode to.
  Status decompress_bounded(Compression kind, const uint8_t* in, uint64_t in_size, uint64_t max_out,
                            MallocBytes* out);

 private:
  Status zstd_context(ZSTD_DCtx_s** out);
  Status deflate_context(libdeflate_decompressor** out);
  Status overflow_status(Compression kind, const uint8_t* in, uint64_t in_size, uint64_t out_size);

  // Allocated at first use, kept for every later chunk: no allocation per
  // chunk (blosc's scratch grows to the largest block and stays).
  ZSTD_DCtx_s* zstd_ = nullptr;
  libdeflate_decompressor* deflate_ = nullptr;
  MallocBytes blosc_scratch_;  // a blosc block to unshuffle from, and one more to bit-unshuffle
};

}  // namespace zcw
