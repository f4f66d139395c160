#include "codecs/bytes_codec.h"

#include <cstring>
#include <string>

#include "kernels/byteswap.h"
#include "kernels/low_bits.h"
#include "kernels/utf32.h"
#include "kernels/widen.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the core assumes little-endian memory, as wasm has");

namespace zcw {

BytesCodec::BytesCodec(std::string_view data_type,
                       std::optional<std::string_view> endian,
                       std::vector<uint64_t> shape, Presentation presentation)
    : Codec("bytes") {
  presentation_ = presentation;
  if (status_ = lookup_data_type("bytes", data_type, &type_); !status_.ok()) {
    return;
  }
  std::optional<Endian> order;
  if (endian) {
    if (*endian == "little") {
      order = Endian::kLittle;
    } else if (*endian == "big") {
      order = Endian::kBig;
    } else {
      status_ = Status(ErrorCode::kInvalidConfiguration,
                       "bytes: endian must be \"big\" or \"little\", got \"" +
                           utf8_prefix(*endian, 32) + "\"");
      return;
    }
  }
  if (type_.has_byte_order() && !order) {
    status_ = Status(ErrorCode::kInvalidConfiguration,
                     "bytes: data type " + type_.label() +
                         " is multi-byte, so the \"endian\" option is "
                         "required (\"big\" or \"little\")");
    return;
  }
  if (status_ = check_presentation("bytes", type_, presentation);
      !status_.ok()) {
    return;
  }
  if (status_ = make_chunk_shape("bytes", std::move(shape), &shape_);
      !status_.ok()) {
    return;
  }
  big_endian_ = order == Endian::kBig;
  swap_width_ = big_endian_ ? type_.swap_width() : 1;
  const TypeClass kind = type_.type_class;
  const bool raw = kind == TypeClass::kRaw;

  if (presentation == Presentation::kFloat32) {
    decode_step_ = encode_step_ = Step::kFloat;
  } else if (kind == TypeClass::kString) {
    decode_step_ = encode_step_ = Step::kStrings;
  } else if (kind == TypeClass::kRecord) {
    records_ = std::make_shared<RecordSwapper>(*type_.record, big_endian_);
    record_values_ = std::make_shared<RecordValues>(*type_.record);
    if (!records_->swaps_nothing() || !record_values_->none()) {
      decode_step_ = encode_step_ = Step::kRecords;
    }
  } else if (type_.sub_byte()) {
    decode_step_ = encode_step_ = Step::kLowBits;
  } else if (swap_width_ > 1) {
    decode_step_ = encode_step_ = Step::kSwap;
  } else if (kind == TypeClass::kBool) {
    // Decoding keeps bool bytes as stored (readers treat non-zero as true);
    // encoding writes any non-zero value as 0x01.
    encode_step_ = Step::kNormalizeBool;
  }

  // The unit a block holds a whole number of: a value, a raw byte (an
  // r<N> element may be megabytes long) or a record (at most
  // kMaxElementBytes).
  Geometry g;
  uint64_t stored_unit = type_.container_bytes, decoded_unit = 0;
  uint64_t per_element = type_.component_count;
  if (raw) {
    stored_unit = 1;
    per_element = type_.container_bytes;
  } else if (kind == TypeClass::kRecord) {
    stored_unit = type_.element_bytes();
    per_element = 1;
  }
  value_bytes_ = presentation == Presentation::kFloat32 ? 4
                 : (raw || kind == TypeClass::kRecord) ? 1
                                                       : type_.container_bytes;
  uint64_t values_per_unit = 1;
  if (kind == TypeClass::kRecord) values_per_unit = type_.element_bytes();
  decoded_unit = values_per_unit * value_bytes_;
  uint64_t units = 0, encoded = 0, decoded = 0;
  if (!checked_mul(shape_.elements, per_element, &units) ||
      !checked_mul(units, values_per_unit, &g.values) ||
      !checked_mul(units, stored_unit, &encoded) ||
      !checked_mul(units, decoded_unit, &decoded)) {
    status_ = size_overflow();
    return;
  }
  g.units = units;
  g.values_per_unit = values_per_unit;
  g.encoded_unit = stored_unit;
  g.mid_unit = stored_unit;
  g.decoded_unit = decoded_unit;
  g.body_bytes = encoded;
  set_geometry(g, encoded);
}

Status BytesCodec::size_overflow() const {
  return Status(ErrorCode::kSizeOverflow, "bytes: " + type_.label() +
                                              " shape " + shape_.text +
                                              " needs more than 2^53 bytes");
}

Status BytesCodec::check_code_units(bool decoding, const uint8_t* units,
                                    uint64_t first, uint64_t values) const {
  const size_t bad = decoding ? first_invalid_code_unit(units, values)
                              : first_non_scalar_value(units, values);
  if (bad == values) return Status::Ok();
  const uint64_t per = type_.component_count;
  const std::string where = " of string " + std::to_string((first + bad) / per) +
                            " (code point " + std::to_string((first + bad) % per) + ")";
  if (decoding) {
    return Status(ErrorCode::kInvalidInput,
                  describe() + ": stored " + invalid_code_unit_text(units, bad, where));
  }
  return Status(ErrorCode::kValueOutOfRange,
                describe() + ": " + invalid_code_unit_text(units, bad, where));
}

Status BytesCodec::decode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                                uint8_t* out, uint64_t first,
                                uint64_t values) const {
  switch (decode_step_) {
    case Step::kCopy:
    case Step::kNormalizeBool:
      std::memcpy(out, in, values * value_bytes_);
      return Status::Ok();
    case Step::kSwap:
      byteswap(impl, in, out, values, swap_width_);
      return Status::Ok();
    case Step::kLowBits:
      extend_low_bits(type_.component_bits, type_.is_signed(), in, out, values);
      return Status::Ok();
    case Step::kFloat: {
      const uint8_t* codes = in;
      if (swap_width_ > 1) {
        byteswap(impl, in, mid, values, swap_width_);
        codes = mid;
      }
      widen_to_float32(impl, *type_.format, codes, out, values);
      return Status::Ok();
    }
    case Step::kRecords: {
      const uint64_t records = values / type_.element_bytes();
      records_->run(impl, in, out, records);
      record_values_->extend_low_bits(out, records);
      return Status::Ok();
    }
    case Step::kStrings:
      if (big_endian_) {
        byteswap(impl, in, out, values, 4);
      } else {
        std::memcpy(out, in, 4 * values);
      }
      return check_code_units(true, out, first, values);
  }
  return Status::Ok();
}

Status BytesCodec::encode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                                uint8_t* out, uint64_t first,
                                uint64_t values) const {
  switch (encode_step_) {
    case Step::kCopy:
      std::memcpy(out, in, values * value_bytes_);
      return Status::Ok();
    case Step::kNormalizeBool:
      normalize_bool(impl, in, out, values);
      return Status::Ok();
    case Step::kSwap:
      byteswap(impl, in, out, values, swap_width_);
      return Status::Ok();
    case Step::kLowBits: {
      if (Status s = check_low_bits(in, first, values); !s.ok()) return s;
      std::memcpy(out, in, values);
      return Status::Ok();
    }
    case Step::kFloat: {
      uint8_t* codes = swap_width_ > 1 ? mid : out;
      if (Status s = narrow_block(in, codes, first, values); !s.ok()) {
        return s;
      }
      if (swap_width_ > 1) byteswap(impl, mid, out, values, swap_width_);
      return Status::Ok();
    }
    case Step::kRecords: {
      const uint64_t bytes = type_.element_bytes();
      const uint64_t records = values / bytes;
      if (Status s = record_values_->check(in, records, first / bytes, describe());
          !s.ok()) {
        return s;
      }
      records_->run(impl, in, out, records);
      record_values_->normalize_bools(out, records);
      return Status::Ok();
    }
    case Step::kStrings:
      if (Status s = check_code_units(false, in, first, values); !s.ok()) return s;
      if (big_endian_) {
        byteswap(impl, in, out, values, 4);
      } else {
        std::memcpy(out, in, 4 * values);
      }
      return Status::Ok();
  }
  return Status::Ok();
}

}  // namespace zcw
