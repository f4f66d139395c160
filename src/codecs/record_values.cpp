#include "codecs/record_values.h"

#include "codecs/codec.h"
#include "kernels/low_bits.h"
#include "kernels/utf32.h"

namespace zcw {

RecordValues::RecordValues(const RecordLayout& layout)
    : record_bytes_(layout.bytes) {
  for (size_t k = 0; k < layout.leaves.size(); ++k) {
    const RecordLeaf& leaf = layout.leaves[k];
    const DataType& t = leaf.type;
    const uint64_t values = leaf.count * t.component_count;
    if (t.sub_byte()) {
      leaves_.push_back({k, Rule::kLowBits, leaf.offset, values, &t});
    } else if (t.type_class == TypeClass::kString) {
      leaves_.push_back({k, Rule::kScalarValues, leaf.offset, values, &t});
    } else if (t.type_class == TypeClass::kBool) {
      leaves_.push_back({k, Rule::kBool, leaf.offset, values, &t});
    }
  }
}

Status RecordValues::check(const uint8_t* records, size_t count,
                           uint64_t first, const std::string& who) const {
  for (size_t r = 0; r < count; ++r) {
    const uint8_t* record = records + r * record_bytes_;
    for (const Leaf& leaf : leaves_) {
      const uint8_t* at = record + leaf.offset;
      std::string why;
      if (leaf.rule == Rule::kLowBits) {
        const size_t bad = find_out_of_range(leaf.type->component_bits,
                                             leaf.type->is_signed(), at, leaf.values);
        if (bad == leaf.values) continue;
        why = low_bits_refusal(*leaf.type, at[bad]);
        if (leaf.values > 1) why += " (value " + std::to_string(bad) + " of the field)";
      } else if (leaf.rule == Rule::kScalarValues) {
        const size_t bad = first_non_scalar_value(at, leaf.values);
        if (bad == leaf.values) continue;
        const uint32_t n = leaf.type->component_count;
        why = invalid_code_unit_text(
            at, bad,
            leaf.values > n ? " (string " + std::to_string(bad / n) +
                                  ", code point " + std::to_string(bad % n) + ")"
                            : " (code point " + std::to_string(bad) + ")");
      } else {
        continue;
      }
      return Status(ErrorCode::kValueOutOfRange,
                    who + ": leaf field " + std::to_string(leaf.index) + " (" +
                        leaf.type->label() + ") of record " +
                        std::to_string(first + r) + ": " + why);
    }
  }
  return Status::Ok();
}

void RecordValues::normalize_bools(uint8_t* records, size_t count) const {
  for (const Leaf& leaf : leaves_) {
    if (leaf.rule != Rule::kBool) continue;
    for (size_t r = 0; r < count; ++r) {
      uint8_t* at = records + r * record_bytes_ + leaf.offset;
      for (uint64_t i = 0; i < leaf.values; ++i) at[i] = at[i] != 0;
    }
  }
}

void RecordValues::extend_low_bits(uint8_t* records, size_t count) const {
  for (const Leaf& leaf : leaves_) {
    if (leaf.rule != Rule::kLowBits) continue;
    for (size_t r = 0; r < count; ++r) {
      uint8_t* at = records + r * record_bytes_ + leaf.offset;
      zcw::extend_low_bits(leaf.type->component_bits, leaf.type->is_signed(), at,
                           at, leaf.values);
    }
  }
}

}  // namespace zcw
