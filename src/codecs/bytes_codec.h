// The `bytes` codec (and its legacy name `endian`): each element in its
// little- or big-endian byte layout, elements in C order. Types narrower
// than a byte take one byte per value, as zarr-extensions defines.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "codecs/codec.h"

namespace zcw {

enum class Endian { kLittle, kBig };

class BytesCodec final : public Codec {
 public:
  // `endian` is the configuration's member, std::nullopt when absent (or
  // null); required for multi-byte types, ignored for the others.
  BytesCodec(std::string_view data_type,
             std::optional<std::string_view> endian,
             std::vector<uint64_t> shape, Presentation presentation);

  bool decode_is_copy() const override { return decode_step_ == Step::kCopy; }
  bool encode_is_copy() const override { return encode_step_ == Step::kCopy; }

 private:
  enum class Step { kCopy, kSwap, kLowBits, kNormalizeBool, kFloat };

  void decode_block(Impl impl, const uint8_t* in, uint8_t* mid, uint8_t* out,
                    uint64_t first, uint64_t values) const override;
  Status encode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                      uint8_t* out, uint64_t first,
                      uint64_t values) const override;

  unsigned swap_width_ = 1;  // bytes reversed per component; 1: none
  Step decode_step_ = Step::kCopy;
  Step encode_step_ = Step::kCopy;
};

}  // namespace zcw
