// numcodecs' PackBits filter (Zarr v2, and `numcodecs.packbits` in v3): bool
// values, one leading byte with the number of padding bits, then the bits in
// numpy's packbits order, most significant bit first.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "codecs/codec.h"

namespace zcw {

class NumcodecsPackBitsCodec final : public Codec {
 public:
  NumcodecsPackBitsCodec(std::string_view data_type,
                         std::vector<uint64_t> shape);

  uint32_t padding_bits() const { return padding_bits_; }

 private:
  Status decode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                      uint8_t* out, uint64_t first,
                      uint64_t values) const override;
  Status encode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                      uint8_t* out, uint64_t first,
                      uint64_t values) const override;

  uint32_t padding_bits_ = 0;  // 8 * ceil(n / 8) - n
};

}  // namespace zcw
