// structFields' split: packed little-endian records (what the bytes codec
// decodes a struct to) into one column per leaf field, each converted as
// withDataTypes presents that field's type (int4 sign-extended, float8
// widened to float32 or its bits cleared, strings checked). Prepared once
// per record type and presentation; records stream through the scratch
// blocks like a codec's chunk.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "codecs/codec.h"
#include "codecs/io.h"
#include "common/implementation.h"
#include "common/status.h"
#include "types/data_type.h"

namespace zcw {

class RecordColumns {
 public:
  // `descriptor` is a struct's ("struct:..."); `float32` says whether the
  // narrow float leaves widen to float32 (else they give their bits).
  RecordColumns(std::string_view descriptor, bool float32);

  const Status& status() const { return status_; }
  const DataType& type() const { return type_; }
  uint64_t record_bytes() const { return type_.element_bytes(); }
  size_t leaves() const { return columns_.size(); }
  // A leaf's column: its type, how it is presented, and its decoded values
  // (container values) and bytes per record.
  const DataType& leaf_type(size_t leaf) const;
  Presentation leaf_presentation(size_t leaf) const;
  uint64_t leaf_values_per_record(size_t leaf) const;
  uint64_t leaf_bytes_per_record(size_t leaf) const;

  // Splits `in_length` bytes of records (a whole number of them) into
  // `outs` (one per leaf, each exactly records * its bytes per record).
  Status split(ByteSource& in, uint64_t in_length,
               const std::vector<ByteSink*>& outs,
               const std::vector<uint64_t>& out_lengths, Scratch& scratch,
               Impl impl) const;

 private:
  enum class Step { kCopy, kLowBits, kWiden, kCodeUnits };
  struct Column {
    const RecordLeaf* leaf;
    Step step;
    Presentation presentation;
    uint64_t values;       // container values per record
    uint32_t value_bytes;  // bytes per container value
  };

  Status status_;
  DataType type_{};
  std::vector<Column> columns_;
  uint64_t records_per_block_ = 1;
};

}  // namespace zcw
