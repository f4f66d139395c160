// What the bytes codec does to a record's leaf values besides ordering
// their bytes: each leaf follows the rule its type follows as a plain
// array, so that a record never stores a value a plain array of the same
// type would refuse. On encode, sub-byte leaves (int2, int4, uint2, uint4,
// float4, float6) must fit their bits, string leaves must hold Unicode
// scalar values, and bools are written as 0 or 1; on decode, sub-byte
// leaves keep their low bits, sign-extended or zero-extended (the upper
// bits are ignored, as the types' pages say). Other leaf types take any
// bytes. Prepared once per record layout; every rule works on records in
// the presented layout (multi-byte leaves little-endian), and the one-byte
// leaves sit at the same offsets in either layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "types/data_type.h"

namespace zcw {

class RecordValues {
 public:
  explicit RecordValues(const RecordLayout& layout);

  // No leaf has a rule: records pass as they are.
  bool none() const { return leaves_.empty(); }

  // Refuses the first leaf value of `count` presented records (the first
  // is record `first` of the chunk) that a plain encode of the leaf's type
  // would refuse: VALUE_OUT_OF_RANGE, "<who>: leaf field 1 (int4) of record
  // 3: value 9 is outside int4's range -8..7".
  Status check(const uint8_t* records, size_t count, uint64_t first,
               const std::string& who) const;

  // Bool leaves written as 0 or 1, in place.
  void normalize_bools(uint8_t* records, size_t count) const;

  // Sub-byte leaves sign- or zero-extended from their low bits, in place.
  void extend_low_bits(uint8_t* records, size_t count) const;

 private:
  enum class Rule : uint8_t { kLowBits, kScalarValues, kBool };
  struct Leaf {
    size_t index;     // the leaf's position among the record's leaves
    Rule rule;
    uint64_t offset;  // bytes from the record's start
    uint64_t values;  // container values of the leaf in one record
    const DataType* type;
  };

  uint64_t record_bytes_;
  std::vector<Leaf> leaves_;
};

}  // namespace zcw
