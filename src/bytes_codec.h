// The `bytes` codec (and its legacy name `endian`): each element in its
// little- or big-endian byte layout, elements in C order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "chunk_shape.h"
#include "data_type.h"
#include "implementation.h"
#include "status.h"

namespace zcw {

enum class Endian { kLittle, kBig };

// A codec resolved against a data type and a chunk shape: everything the
// kernels need, validated once.
struct BytesPlan {
  DataType type;
  std::optional<Endian> endian;  // absent only where it does not matter
  ChunkShape shape;
  uint64_t byte_length = 0;      // encoded and decoded sizes are equal
  unsigned swap_width = 1;       // 1: bytes are copied, never reordered
  bool normalize_bool = false;   // encode writes any non-zero bool as 0x01
};

// `endian` is the configuration's member, std::nullopt when absent.
Status plan_bytes(std::string_view data_type,
                  std::optional<std::string_view> endian,
                  std::vector<uint64_t> shape, BytesPlan* out);

// A length check with the expected and found sizes in its message; `what`
// names the buffer ("encoded bytes").
Status check_bytes_length(const BytesPlan& plan, std::string_view what,
                          uint64_t length);

// Encoded -> decoded and back; buffer sizes are checked.
Status bytes_decode(const BytesPlan& plan, Impl impl, const uint8_t* src,
                    size_t src_len, uint8_t* dst, size_t dst_len);
Status bytes_encode(const BytesPlan& plan, Impl impl, const uint8_t* src,
                    size_t src_len, uint8_t* dst, size_t dst_len);

// The kernel alone, for callers that stream a chunk in blocks: transforms
// `bytes` (whole elements). Decode and encode are the same byte permutation.
void bytes_transform(Impl impl, unsigned swap_width, bool normalize_bool,
                     const uint8_t* src, uint8_t* dst, size_t bytes);

}  // namespace zcw
