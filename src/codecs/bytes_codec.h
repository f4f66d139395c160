// The `bytes` codec (and its legacy name `endian`): each element in its
// little- or big-endian byte layout, elements in C order. Types narrower
// than a byte take one byte per value, as zarr-extensions defines; records
// swap each field by its own size and hold each leaf to its type's rules
// (record_values.h); fixed-length strings swap code units.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "codecs/codec.h"
#include "codecs/record_values.h"
#include "kernels/record_swap.h"

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
  enum class Step {
    kCopy,
    kSwap,
    kLowBits,
    kNormalizeBool,
    kFloat,
    kRecords,  // each field by its own size, each leaf by its type's rules
    kStrings,  // code units swapped or copied, and checked
  };

  Status decode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                      uint8_t* out, uint64_t first,
                      uint64_t values) const override;
  Status encode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                      uint8_t* out, uint64_t first,
                      uint64_t values) const override;

  // The first refused code unit among `values` code units from `first`:
  // past U+10FFFF when decoding (INVALID_INPUT: the stored bytes are no
  // string), and a surrogate too when encoding (VALUE_OUT_OF_RANGE).
  Status check_code_units(bool decoding, const uint8_t* units, uint64_t first,
                          uint64_t values) const;
  Status size_overflow() const;

  unsigned swap_width_ = 1;  // bytes reversed per component; 1: none
  bool big_endian_ = false;
  Step decode_step_ = Step::kCopy;
  Step encode_step_ = Step::kCopy;
  std::shared_ptr<const RecordSwapper> records_;   // records' byte order
  std::shared_ptr<const RecordValues> record_values_;  // records' leaf rules
};

}  // namespace zcw
