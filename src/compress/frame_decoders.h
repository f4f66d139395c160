// The per-format decoders behind Decompressor (decompressor.cpp), one file
// each: zstd_frames.cpp, deflate_frames.cpp (gzip, zlib), lz4_frames.cpp,
// blosc_frames.cpp. Internal to src/compress.
#pragma once

#include <cstdint>

#include "common/status.h"
#include "compress/malloc_bytes.h"

struct ZSTD_DCtx_s;
struct libdeflate_decompressor;

namespace zcw::compress_internal {

// What a decode into at most `capacity` bytes did.
struct Filled {
  uint64_t bytes = 0;     // decoded bytes written
  bool overflow = false;  // the data decodes to more than `capacity` (it stopped there)
};

// The formats without a trustworthy size in their header decode into a
// capacity: the exact decode gives them the chunk's size, the bounded one a
// growing buffer. OK with `overflow` is not an error here; every other
// failure is the frame's, with the codec named.
Status zstd_fill(ZSTD_DCtx_s* dctx, const uint8_t* in, uint64_t in_size, uint8_t* out,
                 uint64_t capacity, Filled* filled);
Status gzip_fill(libdeflate_decompressor* d, const uint8_t* in, uint64_t in_size, uint8_t* out,
                 uint64_t capacity, Filled* filled);
Status zlib_fill(libdeflate_decompressor* d, const uint8_t* in, uint64_t in_size, uint8_t* out,
                 uint64_t capacity, Filled* filled);

// What zstd frames declare they decode to, all of them together: `*known`
// false where a frame does not say (a streaming writer's). Refuses input
// that does not start with a frame header, and (where every size is
// known) frames that are truncated or followed by other bytes.
Status zstd_declared_size(const uint8_t* in, uint64_t in_size, bool* known, uint64_t* bytes);

// The ISIZE of the last gzip member (its size modulo 2^32): a first guess
// for a bounded decode, never trusted. False where the input is too short.
bool gzip_last_member_size(const uint8_t* in, uint64_t in_size, uint64_t* bytes);

// lz4 and blosc declare their decoded size in a header: checked against
// the frame before anything is decoded.
Status lz4_declared_size(const uint8_t* in, uint64_t in_size, uint64_t* bytes);
Status lz4_decode(const uint8_t* in, uint64_t in_size, uint8_t* out, uint64_t out_size);
// blosc's nbytes, settled from the frame's whole structure before anything
// is allocated: the header, the layout, every block offset and stream
// length within the frame, and nbytes and each stream's size within what
// the bytes can decode to at the inner codec's ratio (CORRUPT_DATA where
// not). blosc_decode settles the frame the same way first.
Status blosc_settled_size(const uint8_t* in, uint64_t in_size, uint64_t* bytes);

// What a blosc frame's streams decode with: the Decompressor's zstd and
// libdeflate contexts, and its scratch (one block to unshuffle from, two
// to bit-unshuffle, none without a shuffle; grown to the largest seen,
// which is at most a chunk's size, and kept).
struct BloscContexts {
  ZSTD_DCtx_s* zstd;
  libdeflate_decompressor* deflate;
  MallocBytes* scratch;
};
Status blosc_decode(const BloscContexts& contexts, const uint8_t* in, uint64_t in_size, uint8_t* out,
                    uint64_t out_size);

// A pointer the C libraries may be given for an empty buffer.
inline uint8_t* nonnull(uint8_t* p) {
  static uint8_t empty[1];
  return p ? p : empty;
}
inline const uint8_t* nonnull(const uint8_t* p) {
  static const uint8_t empty[1] = {0};
  return p ? p : empty;
}

}  // namespace zcw::compress_internal
