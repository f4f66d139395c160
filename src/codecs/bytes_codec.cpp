#include "codecs/bytes_codec.h"

#include <cstring>
#include <string>

#include "kernels/byteswap.h"
#include "kernels/low_bits.h"
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
                           std::string(endian->substr(0, 32)) + "\"");
      return;
    }
  }
  if (type_.swap_width() > 1 && !order) {
    status_ = Status(ErrorCode::kInvalidConfiguration,
                     "bytes: data type " + type_.name +
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
  swap_width_ = order == Endian::kBig ? type_.swap_width() : 1;
  const bool raw = type_.type_class == TypeClass::kRaw;
  // Raw bytes stream as bytes (an r<N> element may be megabytes long);
  // everything else one component at a time.
  const uint64_t per_element = raw ? type_.container_bytes : type_.component_count;
  value_bytes_ = presentation == Presentation::kFloat32 ? 4 : (raw ? 1 : type_.container_bytes);
  const uint32_t stored_value_bytes = raw ? 1 : type_.container_bytes;

  if (presentation == Presentation::kFloat32) {
    decode_step_ = encode_step_ = Step::kFloat;
  } else if (type_.sub_byte()) {
    decode_step_ = encode_step_ = Step::kLowBits;
  } else if (swap_width_ > 1) {
    decode_step_ = encode_step_ = Step::kSwap;
  } else if (type_.type_class == TypeClass::kBool) {
    // Decoding keeps bool bytes as stored (readers treat non-zero as true);
    // encoding writes any non-zero value as 0x01.
    encode_step_ = Step::kNormalizeBool;
  }

  Geometry g;
  if (!checked_mul(shape_.elements, per_element, &g.values)) {
    status_ = Status(ErrorCode::kSizeOverflow, "bytes: " + type_.name +
                                                   " shape " + shape_.text +
                                                   " needs more than 2^53 bytes");
    return;
  }
  uint64_t encoded = 0, decoded = 0;
  if (!checked_mul(g.values, stored_value_bytes, &encoded) ||
      !checked_mul(g.values, value_bytes_, &decoded)) {
    status_ = Status(ErrorCode::kSizeOverflow, "bytes: " + type_.name +
                                                   " shape " + shape_.text +
                                                   " needs more than 2^53 bytes");
    return;
  }
  g.units = g.values;
  g.values_per_unit = 1;
  g.encoded_unit = stored_value_bytes;
  g.mid_unit = stored_value_bytes;
  g.decoded_unit = value_bytes_;
  g.body_bytes = encoded;
  set_geometry(g, encoded);
}

void BytesCodec::decode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                              uint8_t* out, uint64_t, uint64_t values) const {
  switch (decode_step_) {
    case Step::kCopy:
    case Step::kNormalizeBool:
      std::memcpy(out, in, values * value_bytes_);
      return;
    case Step::kSwap:
      byteswap(impl, in, out, values, swap_width_);
      return;
    case Step::kLowBits:
      extend_low_bits(type_.component_bits, type_.is_signed(), in, out, values);
      return;
    case Step::kFloat: {
      const uint8_t* codes = in;
      if (swap_width_ > 1) {
        byteswap(impl, in, mid, values, swap_width_);
        codes = mid;
      }
      widen_to_float32(impl, *type_.format, codes, out, values);
      return;
    }
  }
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
  }
  return Status::Ok();
}

}  // namespace zcw
