#include "packbits_codec.h"

#include <string>

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

// "packbits: uint16 shape [10]", with the bit range where it is not all bits.
std::string describe(const PackBitsPlan& plan) {
  const PackBitsLayout& l = plan.layout;
  std::string range;
  if (l.bits != l.component_bits) {
    range = " bits " + std::to_string(l.first_bit) + ".." +
            std::to_string(l.first_bit + l.bits - 1);
  }
  return "packbits: " + plan.type.name + range + " shape " + plan.shape.text;
}

}  // namespace

Status plan_packbits(std::string_view data_type,
                     std::optional<int64_t> first_bit,
                     std::optional<int64_t> last_bit,
                     std::optional<std::string_view> padding,
                     std::vector<uint64_t> shape, PackBitsPlan* out) {
  if (Status s = lookup_data_type("packbits", data_type, &out->type); !s.ok()) {
    return s;
  }
  const DataType& type = out->type;
  if (type.type_class == TypeClass::kRaw) {
    return Status(ErrorCode::kUnsupportedDataType,
                  "packbits: data type " + type.name +
                      " is raw bytes with no bit layout; use the bytes codec");
  }
  const int64_t n_bits = type.component_bits;
  const int64_t first = first_bit.value_or(0);
  const int64_t last = last_bit.value_or(n_bits - 1);
  for (auto [name, value] : {std::pair{"first_bit", first}, {"last_bit", last}}) {
    if (value < 0 || value >= n_bits) {
      return Status(ErrorCode::kInvalidConfiguration,
                    std::string("packbits: ") + name + " must be in 0.." +
                        std::to_string(n_bits - 1) + " for " + type.name +
                        " (" + std::to_string(n_bits) +
                        " bits per component), got " + std::to_string(value));
    }
  }
  if (last < first) {
    return Status(ErrorCode::kInvalidConfiguration,
                  "packbits: last_bit (" + std::to_string(last) +
                      ") must not be less than first_bit (" +
                      std::to_string(first) + ")");
  }
  if (!padding || *padding == "none") {
    out->padding = PaddingEncoding::kNone;
  } else if (*padding == "first_byte") {
    out->padding = PaddingEncoding::kFirstByte;
  } else if (*padding == "last_byte") {
    out->padding = PaddingEncoding::kLastByte;
  } else {
    return Status(ErrorCode::kInvalidConfiguration,
                  "packbits: padding_encoding must be \"none\", "
                  "\"first_byte\" or \"last_byte\", got \"" +
                      std::string(padding->substr(0, 32)) + "\"");
  }

  PackBitsLayout& l = out->layout;
  l.first_bit = static_cast<uint32_t>(first);
  l.bits = static_cast<uint32_t>(last - first + 1);
  l.component_bits = type.component_bits;
  l.container_bytes = type.container_bytes;
  l.sign_extend = type.is_signed();
  l.is_bool = type.type_class == TypeClass::kBool;

  if (Status s = make_chunk_shape("packbits", std::move(shape), &out->shape);
      !s.ok()) {
    return s;
  }
  const uint64_t elements = out->shape.elements;
  out->bits_per_element = uint64_t{type.component_count} * l.bits;
  uint64_t total_bits = 0;
  if (!checked_mul(elements, type.component_count, &out->components) ||
      !checked_mul(elements, out->bits_per_element, &total_bits) ||
      !checked_mul(elements, type.element_bytes(), &out->decoded_bytes)) {
    return Status(ErrorCode::kSizeOverflow,
                  describe(*out) + " needs more than 2^53 bytes");
  }
  out->body_bytes = total_bits / 8 + (total_bits % 8 != 0);
  out->padding_bits = static_cast<uint32_t>(out->body_bytes * 8 - total_bits);
  out->encoded_bytes =
      out->body_bytes + (out->padding == PaddingEncoding::kNone ? 0 : 1);
  return Status::Ok();
}

Status check_packbits_frame(const PackBitsPlan& plan, const uint8_t* encoded,
                            uint64_t length) {
  uint8_t stored = 0;
  if (length == plan.encoded_bytes && plan.padding != PaddingEncoding::kNone) {
    stored = plan.padding == PaddingEncoding::kFirstByte ? encoded[0]
                                                         : encoded[length - 1];
  }
  return check_packbits_frame(plan, length, stored);
}

Status check_packbits_frame(const PackBitsPlan& plan, uint64_t length,
                            uint8_t stored) {
  if (length != plan.encoded_bytes) {
    std::string framing =
        plan.padding == PaddingEncoding::kNone
            ? ""
            : " (with the " + std::string(padding_name(plan.padding)) +
                  " padding byte)";
    return Status(ErrorCode::kLengthMismatch,
                  describe(plan) + " needs " + std::to_string(plan.encoded_bytes) +
                      " bytes" + framing + ", got " + std::to_string(length));
  }
  if (plan.padding == PaddingEncoding::kNone) return Status::Ok();
  if (stored != plan.padding_bits) {
    return Status(ErrorCode::kPaddingMismatch,
                  describe(plan) + ": the " + padding_name(plan.padding) +
                      " padding byte says " + std::to_string(stored) +
                      " padding bits, but the data has " +
                      std::to_string(plan.padding_bits));
  }
  return Status::Ok();
}

Status check_packbits_decoded(const PackBitsPlan& plan, std::string_view what,
                              uint64_t length) {
  if (length == plan.decoded_bytes) return Status::Ok();
  return Status(ErrorCode::kLengthMismatch,
                describe(plan) + " needs " +
                    std::to_string(plan.decoded_bytes) + " " +
                    std::string(what) + ", got " + std::to_string(length));
}

Status packbits_decode_chunk(const PackBitsPlan& plan, Impl impl,
                       const uint8_t* src, size_t src_len, uint8_t* dst,
                       size_t dst_len) {
  if (Status s = check_packbits_frame(plan, src, src_len); !s.ok()) return s;
  if (Status s = check_packbits_decoded(plan, "bytes of output", dst_len);
      !s.ok()) {
    return s;
  }
  packbits_decode(impl, plan.layout, src + plan.body_offset(), dst,
                  plan.components);
  return Status::Ok();
}

Status packbits_encode_chunk(const PackBitsPlan& plan, Impl impl,
                       const uint8_t* src, size_t src_len, uint8_t* dst,
                       size_t dst_len) {
  if (Status s = check_packbits_decoded(plan, "bytes of input", src_len);
      !s.ok()) {
    return s;
  }
  if (Status s = check_encoded_output(describe(plan), plan.encoded_bytes, dst_len);
      !s.ok()) {
    return s;
  }
  packbits_encode(impl, plan.layout, src, dst + plan.body_offset(),
                  plan.components);
  if (plan.padding == PaddingEncoding::kFirstByte) dst[0] = plan.padding_bits;
  if (plan.padding == PaddingEncoding::kLastByte) {
    dst[dst_len - 1] = static_cast<uint8_t>(plan.padding_bits);
  }
  return Status::Ok();
}

}  // namespace zcw
