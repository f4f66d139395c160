// The most a compressed format's bytes can decode to, from the format's own
// structure. A size a frame claims (zstd's content size, blosc's nbytes,
// lz4's header) beyond it is refused before anything is allocated, and a
// decode without a claim never grows its output past it: wasm memory never
// shrinks, so a 32 KiB frame must not hold a claim of 1 GiB for the rest
// of a session. Each bound is a ratio, the most decoded bytes one
// compressed byte can stand for; real frames stay far below it. Internal
// to src/compress.
#pragma once

#include <cstdint>

namespace zcw::compress_internal {

// An LZ4 block: a sequence of 3 + k bytes (token, 2-byte offset, k bytes
// of match length, each 255 but the last) yields at most 19 + 255 k - 1
// bytes, fewer than 255 per byte; a literal is a byte for a byte.
inline constexpr uint64_t kLz4Ratio = 255;
// blosclz (c-blosc's FastLZ): a match of k + 2 bytes (control byte, k
// bytes of length, each 255 but the last, distance byte) yields at most
// 255 k + 8 bytes, fewer than 255 per byte.
inline constexpr uint64_t kBloscLzRatio = 255;
// DEFLATE (gzip, zlib): a match of 258 bytes takes at least 2 bits.
inline constexpr uint64_t kDeflateRatio = 1032;
// zstd: a block takes at least 4 bytes (an RLE block: its 3-byte header
// and the byte) and yields at most 128 KiB.
inline constexpr uint64_t kZstdRatio = uint64_t{1} << 15;

// `bytes` compressed bytes at `ratio`: the most they decode to (saturating).
inline uint64_t most_decoded(uint64_t bytes, uint64_t ratio) {
  return bytes > UINT64_MAX / ratio ? UINT64_MAX : bytes * ratio;
}

}  // namespace zcw::compress_internal
