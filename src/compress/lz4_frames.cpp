// numcodecs' LZ4 chunks: a 4-byte little-endian decoded size, then one LZ4
// block (numcodecs/lz4.pyx). The header is a claim, checked against the
// chunk's size before anything is decoded; LZ4_decompress_safe then never
// writes past it and must produce exactly that many bytes.
#include <lz4.h>

#include <climits>
#include <string>

#include "compress/frame_decoders.h"

namespace zcw::compress_internal {

Status lz4_declared_size(const uint8_t* in, uint64_t in_size, uint64_t* bytes) {
  if (in == nullptr || in_size < 5) {
    return Status(ErrorCode::kCorruptData, "lz4: the chunk has " + std::to_string(in_size) +
                                               " bytes, expected a 4-byte size header and an LZ4 block");
  }
  *bytes = uint64_t{in[0]} | uint64_t{in[1]} << 8 | uint64_t{in[2]} << 16 | uint64_t{in[3]} << 24;
  return Status::Ok();
}

Status lz4_decode(const uint8_t* in, uint64_t in_size, uint8_t* out, uint64_t out_size) {
  uint64_t declared = 0;
  Status s = lz4_declared_size(in, in_size, &declared);
  if (!s.ok()) return s;
  if (declared != out_size) {
    return Status(ErrorCode::kLengthMismatch, "lz4: the header says it decodes to " + std::to_string(declared) +
                                                  " bytes, the chunk's decoded size is " + std::to_string(out_size) +
                                                  " bytes");
  }
  if (in_size - 4 > LZ4_MAX_INPUT_SIZE || out_size > INT_MAX) {
    return Status(ErrorCode::kSizeOverflow, "lz4: blocks of more than 2 GiB are not supported (" +
                                                std::to_string(in_size) + " bytes decoding to " +
                                                std::to_string(out_size) + ")");
  }
  const int r = LZ4_decompress_safe(reinterpret_cast<const char*>(in + 4), reinterpret_cast<char*>(nonnull(out)),
                                    static_cast<int>(in_size - 4), static_cast<int>(out_size));
  if (r < 0) {
    return Status(ErrorCode::kCorruptData, "lz4: the block is corrupt, truncated, or decodes to more than its header's " +
                                               std::to_string(declared) + " bytes");
  }
  if (static_cast<uint64_t>(r) != out_size) {
    return Status(ErrorCode::kLengthMismatch, "lz4: the block decodes to " + std::to_string(r) +
                                                  " bytes, where its header and the chunk's decoded size say " +
                                                  std::to_string(out_size));
  }
  return Status::Ok();
}

}  // namespace zcw::compress_internal
