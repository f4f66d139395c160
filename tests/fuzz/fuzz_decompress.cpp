// Compressed chunks (src/compress/): any bytes as any kind of frame.
// Input: a kind byte (mod 5: zstd, gzip, zlib, lz4, blosc), the chunk's
// decoded size as 4 little-endian bytes (mod 256 KiB + 1), then the frame
// (the seeds in tests/fuzz/corpus/decompress are numcodecs' frames,
// scripts/make-compressed-fixtures.py). Checks, besides ASan and UBSan
// watching every byte written (the output is exactly the chunk's size):
// a successful decode gives exactly the chunk's bytes, and the exact and
// bounded decodes agree (a bounded decode of exactly the chunk's size
// succeeds with the same bytes exactly when the exact one does). One
// Decompressor serves every input, as one serves every chunk in wasm.
// Blosc frames that decode are decoded again by c-blosc's own decoder
// (blosc_decompress_ctx, linked natively for the encoders), which must give
// the same bytes: our walk over the frame (src/compress/blosc_frames.cpp)
// against upstream's.
#include <blosc.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "compress/decompressor.h"
#include "fuzz_input.h"

using namespace zcw;
using fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Decompressor decompressor;
  if (size < 5) return 0;
  const auto kind = static_cast<Compression>(data[0] % kCompressionKinds);
  const uint64_t claimed = uint64_t{data[1]} | uint64_t{data[2]} << 8 | uint64_t{data[3]} << 16 | uint64_t{data[4]} << 24;
  const uint64_t out_size = claimed % ((uint64_t{1} << 18) + 1);
  const std::vector<uint8_t> frame(data + 5, data + size);

  // Exactly out_size bytes: ASan reports any write past them.
  std::vector<uint8_t> out(out_size);
  const Status exact = decompressor.decompress(kind, frame.data(), frame.size(), out.data(), out.size());
  check(exact.ok() || exact.code() != ErrorCode::kOk);
  check(!exact.message().empty() || exact.ok());

  MallocBytes bounded;
  const Status b = decompressor.decompress_bounded(kind, frame.data(), frame.size(), out_size, &bounded);
  check(b.ok() || bounded.size() == 0);
  check(bounded.size() <= out_size);
  if (exact.ok()) {
    check(b.ok() && bounded.size() == out_size);
    if (kind == Compression::kBlosc) {
      std::vector<uint8_t> upstream(out_size + 1);
      const int r = blosc_decompress_ctx(frame.data(), upstream.data(), out_size, 1);
      check(r >= 0 && static_cast<uint64_t>(r) == out_size);
      check(out_size == 0 || std::memcmp(upstream.data(), out.data(), out_size) == 0);
    }
    check(out_size == 0 || std::memcmp(bounded.data(), out.data(), out_size) == 0);
  } else if (b.ok()) {
    check(bounded.size() != out_size);
  }
  return 0;
}
