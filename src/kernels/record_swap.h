// Reversing the byte order of every multi-byte field of packed records: the
// bytes codec's work for a big-endian struct (an involution, so decode and
// encode are the same call). Built once per record layout.
//
// The SIMD path treats one record's swaps as a byte permutation: each
// output byte comes from at most 7 bytes away (fields are at most 8 bytes
// wide), so a 16-byte output vector is two shuffles of the input vectors
// 8 bytes before and after it, with shuffle tables that repeat every
// lcm(record, 16) bytes. Records up to kMaxSimdRecord bytes get tables;
// longer records swap field by field (few fields per byte there).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/implementation.h"
#include "types/data_type.h"

namespace zcw {

class RecordSwapper {
 public:
  static constexpr uint32_t kMaxSimdRecord = 256;

  // The swaps of `layout` for a codec whose order is big (or not).
  RecordSwapper(const RecordLayout& layout, bool codec_big);

  bool swaps_nothing() const { return swaps_.empty(); }

  // `records` whole records from `in` to `out` (which must not overlap),
  // every swap applied. Reads nothing outside [in, in + records * bytes).
  void run(Impl impl, const uint8_t* in, uint8_t* out, size_t records) const;

 private:
  void run_reference(const uint8_t* in, uint8_t* out, size_t begin,
                     size_t end) const;
  void run_by_field(const uint8_t* in, uint8_t* out, size_t records) const;
  void run_simd(const uint8_t* in, uint8_t* out, size_t records) const;

  uint32_t record_bytes_;
  std::vector<RecordLayout::Swap> swaps_;
  std::vector<uint32_t> source_;  // byte i of a record comes from source_[i]
  // Per vector of the period: shuffle indices into the input 8 bytes
  // before (low) and after (high) it; 0x80 selects zero.
  std::vector<uint8_t> low_, high_;
  uint32_t period_ = 0;  // vectors before the tables repeat
};

}  // namespace zcw
