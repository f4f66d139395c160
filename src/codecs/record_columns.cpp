#include "codecs/record_columns.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "kernels/gather.h"
#include "kernels/low_bits.h"
#include "kernels/utf32.h"
#include "kernels/widen.h"

namespace zcw {

RecordColumns::RecordColumns(std::string_view descriptor, bool float32) {
  if (status_ = lookup_data_type("structFields", descriptor, &type_);
      !status_.ok()) {
    return;
  }
  if (type_.type_class != TypeClass::kRecord) {
    status_ = Status(ErrorCode::kInvalidInput,
                     "structFields: data type " + type_.label() +
                         " is not a struct");
    return;
  }
  uint64_t widest = type_.element_bytes();
  for (const RecordLeaf& leaf : type_.record->leaves) {
    const DataType& t = leaf.type;
    Column c{&leaf, Step::kCopy, Presentation::kStored, 0, t.container_bytes};
    if (t.type_class == TypeClass::kRaw) {
      c.values = leaf.count * t.container_bytes;
      c.value_bytes = 1;
    } else {
      c.values = leaf.count * t.component_count;
    }
    if (t.format && float32) {
      c.step = Step::kWiden;
      c.presentation = Presentation::kFloat32;
      c.value_bytes = 4;
    } else if (t.sub_byte()) {
      c.step = Step::kLowBits;
    } else if (t.type_class == TypeClass::kString) {
      c.step = Step::kCodeUnits;
    }
    widest = std::max(widest, c.values * c.value_bytes);
    columns_.push_back(c);
  }
  if (widest > Scratch::kBytes) {
    status_ = Status(ErrorCode::kUnsupportedDataType,
                     "structFields: a " + type_.label() + " record has a field of " +
                         std::to_string(widest) +
                         " bytes once split, more than the " +
                         std::to_string(Scratch::kBytes) +
                         " bytes this package supports");
    return;
  }
  records_per_block_ = Scratch::kBytes / widest;
}

const DataType& RecordColumns::leaf_type(size_t leaf) const {
  return columns_[leaf].leaf->type;
}
Presentation RecordColumns::leaf_presentation(size_t leaf) const {
  return columns_[leaf].presentation;
}
uint64_t RecordColumns::leaf_values_per_record(size_t leaf) const {
  return columns_[leaf].values;
}
uint64_t RecordColumns::leaf_bytes_per_record(size_t leaf) const {
  return columns_[leaf].values * columns_[leaf].value_bytes;
}

Status RecordColumns::split(ByteSource& in, uint64_t in_length,
                            const std::vector<ByteSink*>& outs,
                            const std::vector<uint64_t>& out_lengths,
                            Scratch& scratch, Impl impl) const {
  if (!status_.ok()) return status_;
  const uint64_t r = record_bytes();
  const std::string what = "structFields: " + type_.label();
  if (in_length % r != 0) {
    return Status(ErrorCode::kLengthMismatch,
                  what + ": " + std::to_string(in_length) +
                      " bytes are not a whole number of " +
                      std::to_string(r) + "-byte records");
  }
  const uint64_t records = in_length / r;
  if (outs.size() != columns_.size() || out_lengths.size() != columns_.size()) {
    return Status(ErrorCode::kInvalidInput,
                  what + " has " + std::to_string(columns_.size()) +
                      " leaf fields, got " + std::to_string(outs.size()) +
                      " outputs");
  }
  for (size_t k = 0; k < columns_.size(); ++k) {
    const uint64_t want = records * leaf_bytes_per_record(k);
    if (out_lengths[k] != want) {
      return Status(ErrorCode::kLengthMismatch,
                    what + ": leaf field " + std::to_string(k) + " of " +
                        std::to_string(records) + " records needs " +
                        std::to_string(want) + " bytes of output, got " +
                        std::to_string(out_lengths[k]));
    }
  }
  for (uint64_t first = 0; first < records; first += records_per_block_) {
    const uint64_t n = std::min(records_per_block_, records - first);
    in.read(first * r, n * r, scratch.in);
    for (size_t k = 0; k < columns_.size(); ++k) {
      const Column& c = columns_[k];
      const DataType& t = c.leaf->type;
      const uint64_t stored = c.leaf->bytes();
      const uint64_t values = n * c.values;
      uint8_t* gathered = c.step == Step::kCopy || c.step == Step::kCodeUnits
                              ? scratch.out
                              : scratch.mid;
      gather_field(impl, scratch.in, r, c.leaf->offset, stored, n, gathered);
      switch (c.step) {
        case Step::kCopy:
          break;
        case Step::kLowBits:
          extend_low_bits(t.component_bits, t.is_signed(), gathered,
                          scratch.out, values);
          break;
        case Step::kWiden:
          widen_to_float32(impl, *t.format, gathered, scratch.out, values);
          break;
        case Step::kCodeUnits: {
          const size_t bad = first_invalid_code_unit(scratch.out, values);
          if (bad != values) {
            return Status(ErrorCode::kInvalidInput,
                          what + ": leaf field " + std::to_string(k) +
                              " of record " +
                              std::to_string(first + bad / c.values) + ": " +
                              invalid_code_unit_text(
                                  scratch.out, bad,
                                  " (code point " +
                                      std::to_string(bad % t.component_count) +
                                      ")"));
          }
          break;
        }
      }
      outs[k]->write(first * leaf_bytes_per_record(k), scratch.out,
                     n * leaf_bytes_per_record(k));
    }
  }
  return Status::Ok();
}

}  // namespace zcw
