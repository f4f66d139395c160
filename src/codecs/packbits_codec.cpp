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
  if (type_.type_class == TypeClass::kRaw) {
    status_ = Status(ErrorCode::kUnsupportedDataType,
                     "packbits: data type " + type_.name +
                         " is raw bytes with no bit layout; use the bytes codec");
    return;
  }
  const int64_t n_bits = type_.component_bits;
  const int64_t first = first_bit.value_or(0);
  const int64_t last = last_bit.value_or(n_bits - 1);
  for (auto [name, value] : {std::pair{"first_bit", first}, {"last_bit", last}}) {
    if (value < 0 || value >= n_bits) {
      status_ = Status(ErrorCode::kInvalidConfiguration,
                       std::string("packbits: ") + name + " must be in 0.." +
                           std::to_string(n_bits - 1) + " for " + type_.name +
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
      !body_bytes_for(elements, &body_bytes_) ||
      !checked_mul(g.values, value_bytes_, &decoded)) {
    status_ = Status(ErrorCode::kSizeOverflow,
                     describe() + " needs more than 2^53 bytes");
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
  return "packbits: " + type_.name + range + " shape " + shape_.text;
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
                      " decoded bytes encode to more than 2^53 bytes");
  }
  *out = body + (padding_ == PaddingEncoding::kNone ? 0 : 1);
  return Status::Ok();
}

Status PackBitsCodec::check_encoded(ByteSource& in, uint64_t length) const {
  if (length != encoded_bytes()) {
    const std::string framing =
        padding_ == PaddingEncoding::kNone
            ? ""
            : " (with the " + std::string(padding_name(padding_)) +
                  " padding byte)";
    return Status(ErrorCode::kLengthMismatch,
                  describe() + " needs " + std::to_string(encoded_bytes()) +
                      " bytes" + framing + ", got " + std::to_string(length));
  }
  if (padding_ == PaddingEncoding::kNone) return Status::Ok();
  uint8_t stored = 0;
  in.read(padding_ == PaddingEncoding::kFirstByte ? 0 : length - 1, 1, &stored);
  if (stored != padding_bits_) {
    return Status(ErrorCode::kPaddingMismatch,
                  describe() + ": the " + padding_name(padding_) +
                      " padding byte says " + std::to_string(stored) +
                      " padding bits, but the data has " +
                      std::to_string(padding_bits_));
  }
  return Status::Ok();
}

void PackBitsCodec::write_framing(ByteSink& out) const {
  const uint8_t count = static_cast<uint8_t>(padding_bits_);
  if (padding_ == PaddingEncoding::kFirstByte) out.write(0, &count, 1);
  if (padding_ == PaddingEncoding::kLastByte) out.write(body_bytes_, &count, 1);
}

void PackBitsCodec::decode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                                 uint8_t* out, uint64_t,
                                 uint64_t values) const {
  if (presentation_ == Presentation::kFloat32) {
    packbits_decode(impl, layout_, in, mid, values);
    widen_to_float32(impl, *type_.format, mid, out, values);
  } else {
    packbits_decode(impl, layout_, in, out, values);
  }
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
