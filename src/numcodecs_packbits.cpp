#include "numcodecs_packbits.h"

#include <algorithm>
#include <array>
#include <string>

#include "packbits_kernels.h"

namespace zcw {
namespace {

// MSB-first is LSB-first with each byte's bits reversed, so the packbits
// kernels do the work on bytes reversed through a small stack buffer.
constexpr std::array<uint8_t, 256> make_reversal_table() {
  std::array<uint8_t, 256> t{};
  for (unsigned i = 0; i < 256; ++i) {
    unsigned r = 0;
    for (unsigned b = 0; b < 8; ++b) r |= ((i >> b) & 1u) << (7 - b);
    t[i] = static_cast<uint8_t>(r);
  }
  return t;
}
constexpr std::array<uint8_t, 256> kReversed = make_reversal_table();

constexpr size_t kBlockBytes = 256;  // 2048 bools per kernel call

PackBitsLayout bool_layout() {
  PackBitsLayout l;
  l.is_bool = true;
  return l;
}

std::string describe(const NumcodecsPackBitsPlan& plan) {
  return "numcodecs.packbits: bool shape " + plan.shape.text;
}

}  // namespace

Status plan_numcodecs_packbits(std::string_view data_type,
                               std::vector<uint64_t> shape,
                               NumcodecsPackBitsPlan* out) {
  if (data_type != "bool") {
    return Status(ErrorCode::kUnsupportedDataType,
                  "numcodecs.packbits: only bool arrays can be packed, got " +
                      std::string(data_type.substr(0, 64)));
  }
  if (Status s = make_chunk_shape("numcodecs.packbits", std::move(shape),
                                  &out->shape);
      !s.ok()) {
    return s;
  }
  const uint64_t n = out->shape.elements;
  out->body_bytes = n / 8 + (n % 8 != 0);
  out->padding_bits = static_cast<uint32_t>(out->body_bytes * 8 - n);
  out->encoded_bytes = out->body_bytes + 1;
  return Status::Ok();
}

Status check_numcodecs_frame(const NumcodecsPackBitsPlan& plan,
                             const uint8_t* encoded, uint64_t length) {
  return check_numcodecs_frame(plan, length,
                               length == plan.encoded_bytes ? encoded[0] : 0);
}

Status check_numcodecs_frame(const NumcodecsPackBitsPlan& plan,
                             uint64_t length, uint8_t stored) {
  if (length != plan.encoded_bytes) {
    return Status(ErrorCode::kLengthMismatch,
                  describe(plan) + " needs " +
                      std::to_string(plan.encoded_bytes) +
                      " bytes (a padding-count byte, then the bits), got " +
                      std::to_string(length));
  }
  if (stored != plan.padding_bits) {
    return Status(ErrorCode::kPaddingMismatch,
                  describe(plan) + ": the padding-count byte says " +
                      std::to_string(stored) +
                      " padding bits, but the data has " +
                      std::to_string(plan.padding_bits));
  }
  return Status::Ok();
}

Status check_numcodecs_decoded(const NumcodecsPackBitsPlan& plan,
                               std::string_view what, uint64_t length) {
  if (length == plan.shape.elements) return Status::Ok();
  return Status(ErrorCode::kLengthMismatch,
                describe(plan) + " needs " +
                    std::to_string(plan.shape.elements) + " " +
                    std::string(what) + ", got " + std::to_string(length));
}

void unpack_msb_first(Impl impl, const uint8_t* packed, uint8_t* out,
                      size_t count) {
  const PackBitsLayout layout = bool_layout();
  uint8_t block[kBlockBytes];
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(count - done, kBlockBytes * 8);
    const size_t bytes = (n + 7) / 8;
    for (size_t i = 0; i < bytes; ++i) block[i] = kReversed[packed[done / 8 + i]];
    packbits_decode(impl, layout, block, out + done, n);
    done += n;
  }
}

void pack_msb_first(Impl impl, const uint8_t* in, uint8_t* packed,
                    size_t count) {
  const PackBitsLayout layout = bool_layout();
  uint8_t block[kBlockBytes];
  for (size_t done = 0; done < count;) {
    const size_t n = std::min(count - done, kBlockBytes * 8);
    const size_t bytes = (n + 7) / 8;
    packbits_encode(impl, layout, in + done, block, n);
    for (size_t i = 0; i < bytes; ++i) packed[done / 8 + i] = kReversed[block[i]];
    done += n;
  }
}

Status numcodecs_packbits_decode_chunk(const NumcodecsPackBitsPlan& plan,
                                       Impl impl, const uint8_t* src,
                                       size_t src_len, uint8_t* dst,
                                       size_t dst_len) {
  if (Status s = check_numcodecs_frame(plan, src, src_len); !s.ok()) return s;
  if (Status s = check_numcodecs_decoded(plan, "bytes of output", dst_len);
      !s.ok()) {
    return s;
  }
  unpack_msb_first(impl, src + 1, dst, dst_len);
  return Status::Ok();
}

Status numcodecs_packbits_encode_chunk(const NumcodecsPackBitsPlan& plan,
                                       Impl impl, const uint8_t* src,
                                       size_t src_len, uint8_t* dst,
                                       size_t dst_len) {
  if (Status s = check_numcodecs_decoded(plan, "bytes of input", src_len);
      !s.ok()) {
    return s;
  }
  if (Status s = check_encoded_output(describe(plan), plan.encoded_bytes, dst_len);
      !s.ok()) {
    return s;
  }
  dst[0] = static_cast<uint8_t>(plan.padding_bits);
  pack_msb_first(impl, src, dst + 1, src_len);
  return Status::Ok();
}

}  // namespace zcw
