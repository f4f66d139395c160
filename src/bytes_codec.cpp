#include "bytes_codec.h"

#include <cstring>
#include <string>

#include "byteswap.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the core assumes little-endian memory, as wasm has");

namespace zcw {

Status plan_bytes(std::string_view data_type,
                  std::optional<std::string_view> endian,
                  std::vector<uint64_t> shape, BytesPlan* out) {
  const std::string codec = "bytes";
  if (Status s = lookup_data_type(codec, data_type, &out->type); !s.ok()) {
    return s;
  }
  const DataType& type = out->type;
  if (!type.byte_addressable()) {
    return Status(ErrorCode::kUnsupportedDataType,
                  "bytes: data type " + type.name + " is " +
                      std::to_string(type.component_bits) +
                      " bits per component, not a whole number of bytes; "
                      "use the packbits codec");
  }
  if (endian) {
    if (*endian == "little") {
      out->endian = Endian::kLittle;
    } else if (*endian == "big") {
      out->endian = Endian::kBig;
    } else {
      return Status(ErrorCode::kInvalidConfiguration,
                    "bytes: endian must be \"big\" or \"little\", got \"" +
                        std::string(endian->substr(0, 32)) + "\"");
    }
  } else {
    out->endian.reset();
  }
  out->swap_width = type.swap_width();
  if (out->swap_width > 1 && !out->endian) {
    return Status(ErrorCode::kInvalidConfiguration,
                  "bytes: data type " + type.name +
                      " is multi-byte, so the \"endian\" option is required "
                      "(\"big\" or \"little\")");
  }
  if (out->endian != Endian::kBig) out->swap_width = 1;
  out->normalize_bool = type.type_class == TypeClass::kBool;
  if (Status s = make_chunk_shape(codec, std::move(shape), &out->shape);
      !s.ok()) {
    return s;
  }
  if (!checked_mul(out->shape.elements, type.element_bytes(),
                   &out->byte_length)) {
    return Status(ErrorCode::kSizeOverflow,
                  "bytes: " + type.name + " shape " + out->shape.text +
                      " needs more than 2^53 bytes");
  }
  return Status::Ok();
}

Status check_bytes_length(const BytesPlan& plan, std::string_view what,
                          uint64_t length) {
  if (length == plan.byte_length) return Status::Ok();
  return Status(ErrorCode::kLengthMismatch,
                "bytes: " + plan.type.name + " shape " + plan.shape.text +
                    " needs " + std::to_string(plan.byte_length) + " " +
                    std::string(what) + ", got " + std::to_string(length));
}

void bytes_transform(Impl impl, unsigned swap_width, bool normalize_bool,
                     const uint8_t* src, uint8_t* dst, size_t bytes) {
  if (normalize_bool) {
    zcw::normalize_bool(impl, src, dst, bytes);
    return;
  }
  byteswap(impl, src, dst, bytes / swap_width, swap_width);
}

Status bytes_decode(const BytesPlan& plan, Impl impl, const uint8_t* src,
                    size_t src_len, uint8_t* dst, size_t dst_len) {
  if (Status s = check_bytes_length(plan, "encoded bytes", src_len); !s.ok()) {
    return s;
  }
  if (Status s = check_bytes_length(plan, "bytes of output", dst_len);
      !s.ok()) {
    return s;
  }
  // Decoding keeps bool bytes as stored: readers treat non-zero as true.
  bytes_transform(impl, plan.swap_width, false, src, dst, src_len);
  return Status::Ok();
}

Status bytes_encode(const BytesPlan& plan, Impl impl, const uint8_t* src,
                    size_t src_len, uint8_t* dst, size_t dst_len) {
  if (Status s = check_bytes_length(plan, "bytes of input", src_len);
      !s.ok()) {
    return s;
  }
  if (Status s = check_bytes_length(plan, "bytes of output", dst_len);
      !s.ok()) {
    return s;
  }
  bytes_transform(impl, plan.swap_width, plan.normalize_bool, src, dst,
                  src_len);
  return Status::Ok();
}

}  // namespace zcw
