#include "codecs/packbits_codec.h"

#include <string>

#include "kernels/widen.h"

namespace zcw {
namespace {

const char* padding_name(PaddingEncoding p) {
  switch (p) {
    case PaddingEncoding::kNone: return "none";
    case PaddingEncoding::kFirstByte: return "first_byte";
    case PaddingEncoding::kLastByte: return "last_byte";
  }
  return "none";
}

}  // namespace

PackBitsCodec::PackBitsCodec(std::string_view data_type,
                             std::optional<int64_t> first_bit,
                             std::optional<int64_t> last_bit,
                             std::optional<std::string_view> padding,
                             std::vector<uint64_t> shape,
                             Presentation presentation)
    : Codec("packbits") {
  presentation_ = presentation;
  if (status_ = lookup_data_type("packbits", data_type, &type_); !status_.ok()) {
    return;
  }
  if (type_.type_class == TypeClass::kRaw ||
      type_.type_class == TypeClass::kString ||
      type_.type_class == TypeClass::kRecord) {
    // The packbits page defines components of numeric and bool types only;
    // the raw_bytes, fixed_length_utf32 and struct pages name the bytes
    // codec alone.
    status_ = Status(ErrorCode::kUnsupportedDataType,
                     "packbits: data type " + type_.label() + " is " +
                         (type_.type_class == TypeClass::kRaw ? "raw bytes"
                          : type_.type_class == TypeClass::kString
                              ? "a fixed-length string"
                              : "a record") +
                         " with no bit layout; use the bytes codec");
    return;
  }
  const int64_t n_bits = type_.component_bits;
  const int64_t first = first_bit.value_or(0);
  const int64_t last = last_bit.value_or(n_bits - 1);
  for (auto [name, value] : {std::pair{"first_bit", first}, {"last_bit", last}}) {
    if (value < 0 || value >= n_bits) {
      status_ = Status(ErrorCode::kInvalidConfiguration,
                       std::string("packbits: ") + name + " must be in 0.." +
                           std::to_string(n_bits - 1) + " for " + type_.label() +
                           " (" + std::to_string(n_bits) +
                           " bits per component), got " + std::to_string(value));
      return;
    }
  }
  if (last < first) {
    status_ = Status(ErrorCode::kInvalidConfiguration,
                     "packbits: last_bit (" + std::to_string(last) +
                         ") must not be less than first_bit (" +
                         std::to_string(first) + ")");
    return;
  }
  if (!padding || *padding == "none") {
    padding_ = PaddingEncoding::kNone;
  } else if (*padding == "first_byte") {
    padding_ = PaddingEncoding::kFirstByte;
  } else if (*padding == "last_byte") {
    padding_ = PaddingEncoding::kLastByte;
  } else {
    status_ = Status(ErrorCode::kInvalidConfiguration,
                     "packbits: padding_encoding must be \"none\", "
                     "\"first_byte\" or \"last_byte\", got \"" +
                         std::string(padding->substr(0, 32)) + "\"");
    return;
  }
  if (status_ = check_presentation("packbits", type_, presentation);
      !status_.ok()) {
    return;
  }
  layout_.first_bit = static_cast<uint32_t>(first);
  layout_.bits = static_cast<uint32_t>(last - first + 1);
  layout_.component_bits = type_.component_bits;
  layout_.container_bytes = type_.container_bytes;
  layout_.sign_extend = type_.is_signed();
  layout_.is_bool = type_.type_class == TypeClass::kBool;
  value_bytes_ = presentation == Presentation::kFloat32 ? 4 : type_.container_bytes;

  if (status_ = make_chunk_shape("packbits", std::move(shape), &shape_);
      !status_.ok()) {
    return;
  }
  const uint64_t elements = shape_.elements;
  const uint64_t cc = type_.component_count;
  Geometry g;
  uint64_t decoded = 0;
  if (!checked_mul(elements, cc, &g.values) ||
      !checked_mul(g.values, value_bytes_, &decoded)) {
    status_ = Status(ErrorCode::kSizeOverflow,
                     describe() + " decodes to more than 2^53 bytes");
    return;
  }
  // Sizes are counted in bits before bytes, so the bit count has the limit.
  if (!body_bytes_for(elements, &body_bytes_)) {
    status_ = Status(ErrorCode::kSizeOverflow,
                     describe() + " packs into more than 2^53 bits");
    return;
  }
  padding_bits_ = static_cast<uint32_t>(
      body_bytes_ * 8 - elements * cc * layout_.bits);
  // Eight elements are a whole number of bytes on both sides.
  g.units = (elements + 7) / 8;
  g.values_per_unit = 8 * cc;
  g.encoded_unit = cc * layout_.bits;
  g.mid_unit = 8 * cc * type_.container_bytes;
  g.decoded_unit = 8 * cc * value_bytes_;
  g.body_offset = padding_ == PaddingEncoding::kFirstByte ? 1 : 0;
  g.body_bytes = body_bytes_;
  length_noun_ = "bytes";
  if (padding_ != PaddingEncoding::kNone) {
    const std::string name = padding_name(padding_);
    padding_byte_ = PaddingByte{padding_ == PaddingEncoding::kFirstByte,
                                static_cast<uint8_t>(padding_bits_),
                                "the " + name + " padding byte",
                                " (with the " + name + " padding byte)"};
  }
  set_geometry(g, body_bytes_ + (padding_ == PaddingEncoding::kNone ? 0 : 1));
}

bool PackBitsCodec::body_bytes_for(uint64_t elements, uint64_t* out) const {
  uint64_t total_bits = 0;
  if (!checked_mul(elements,
                   uint64_t{type_.component_count} * layout_.bits,
                   &total_bits)) {
    return false;
  }
  *out = total_bits / 8 + (total_bits % 8 != 0);
  return true;
}

std::string PackBitsCodec::describe() const {
  std::string range;
  if (layout_.bits != layout_.component_bits) {
    range = " bits " + std::to_string(layout_.first_bit) + ".." +
            std::to_string(layout_.first_bit + layout_.bits - 1);
  }
  return "packbits: " + type_.label() + range + " shape " + shape_.text;
}

Status PackBitsCodec::encoded_size_for(uint64_t decoded_byte_length,
                                       uint64_t* out) const {
  if (!status_.ok()) return status_;
  const uint64_t element_bytes = uint64_t{type_.component_count} * value_bytes_;
  if (decoded_byte_length % element_bytes != 0) {
    return Status(ErrorCode::kInvalidInput,
                  describe() + ": " + std::to_string(decoded_byte_length) +
                      " decoded bytes are not a whole number of " +
                      std::to_string(element_bytes) + "-byte elements");
  }
  uint64_t body = 0;
  if (!body_bytes_for(decoded_byte_length / element_bytes, &body)) {
    return Status(ErrorCode::kSizeOverflow,
                  describe() + ": " + std::to_string(decoded_byte_length) +
                      " decoded bytes pack into more than 2^53 bits");
  }
  *out = body + (padding_ == PaddingEncoding::kNone ? 0 : 1);
  return Status::Ok();
}

Status PackBitsCodec::decode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                                   uint8_t* out, uint64_t,
                                   uint64_t values) const {
  if (presentation_ == Presentation::kFloat32) {
    packbits_decode(impl, layout_, in, mid, values);
    widen_to_float32(impl, *type_.format, mid, out, values);
  } else {
    packbits_decode(impl, layout_, in, out, values);
  }
  return Status::Ok();
}

Status PackBitsCodec::encode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                                   uint8_t* out, uint64_t first,
                                   uint64_t values) const {
  const uint8_t* components = in;
  if (presentation_ == Presentation::kFloat32) {
    if (Status s = narrow_block(in, mid, first, values); !s.ok()) return s;
    components = mid;
  } else if (type_.sub_byte()) {
    if (Status s = check_low_bits(in, first, values); !s.ok()) return s;
  }
  packbits_encode(impl, layout_, components, out, values);
  return Status::Ok();
}

}  // namespace zcw
