#include "common/chunk_shape.h"

namespace zcw {

bool checked_mul(uint64_t a, uint64_t b, uint64_t* out) {
  if (a != 0 && b > kMaxByteLength / a) return false;
  *out = a * b;
  return true;
}

Status check_encoded_output(std::string_view described, uint64_t expected,
                            uint64_t got) {
  if (got == expected) return Status::Ok();
  return Status(ErrorCode::kLengthMismatch,
                std::string(described) + " encodes to " +
                    std::to_string(expected) + " bytes, but the output holds " +
                    std::to_string(got));
}

std::string shape_text(const std::vector<uint64_t>& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) text += ", ";
    text += std::to_string(dims[i]);
  }
  return text + "]";
}

Status make_chunk_shape(std::string_view codec, std::vector<uint64_t> dims,
                        ChunkShape* out) {
  out->text = shape_text(dims);
  uint64_t elements = 1;
  for (uint64_t d : dims) {
    if (!checked_mul(elements, d, &elements)) {
      return Status(ErrorCode::kSizeOverflow,
                    std::string(codec) + ": shape " + out->text +
                        " has more than 2^53 elements");
    }
  }
  out->elements = elements;
  out->dims = std::move(dims);
  return Status::Ok();
}

}  // namespace zcw
