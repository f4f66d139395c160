// The `packbits` codec: each component's bits first_bit..last_bit, packed
// into one continuous bit stream, optionally framed by a padding-count byte.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "codecs/codec.h"
#include "kernels/packbits_kernels.h"

namespace zcw {

enum class PaddingEncoding { kNone, kFirstByte, kLastByte };

class PackBitsCodec final : public Codec {
 public:
  // first_bit / last_bit / padding: std::nullopt when omitted or null.
  PackBitsCodec(std::string_view data_type, std::optional<int64_t> first_bit,
                std::optional<int64_t> last_bit,
                std::optional<std::string_view> padding,
                std::vector<uint64_t> shape, Presentation presentation);

  const PackBitsLayout& layout() const { return layout_; }
  PaddingEncoding padding() const { return padding_; }
  uint32_t padding_bits() const { return padding_bits_; }

  Status encoded_size_for(uint64_t decoded_byte_length,
                          uint64_t* out) const override;

 private:
  std::string describe() const override;
  Status decode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                      uint8_t* out, uint64_t first,
                      uint64_t values) const override;
  Status encode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                      uint8_t* out, uint64_t first,
                      uint64_t values) const override;
  // Body bytes for `elements` elements, false past 2^53.
  bool body_bytes_for(uint64_t elements, uint64_t* out) const;

  PackBitsLayout layout_;
  PaddingEncoding padding_ = PaddingEncoding::kNone;
  uint32_t padding_bits_ = 0;  // 8 * body bytes - elements * k
  uint64_t body_bytes_ = 0;
};

}  // namespace zcw
