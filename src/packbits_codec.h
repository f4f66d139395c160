// The `packbits` codec: each component's bits first_bit..last_bit, packed
// into one continuous bit stream, optionally framed by a padding-count byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "chunk_shape.h"
#include "data_type.h"
#include "implementation.h"
#include "packbits_kernels.h"
#include "status.h"

namespace zcw {

enum class PaddingEncoding { kNone, kFirstByte, kLastByte };

struct PackBitsPlan {
  DataType type;
  ChunkShape shape;
  PackBitsLayout layout;
  PaddingEncoding padding = PaddingEncoding::kNone;
  uint64_t components = 0;      // elements * component_count
  uint64_t bits_per_element = 0;  // k = component_count * b
  uint64_t body_bytes = 0;      // ceil(elements * k / 8)
  uint32_t padding_bits = 0;    // 8 * body_bytes - elements * k
  uint64_t encoded_bytes = 0;   // body plus the padding byte, if any
  uint64_t decoded_bytes = 0;   // elements * element_bytes
  uint64_t body_offset() const {
    return padding == PaddingEncoding::kFirstByte ? 1 : 0;
  }
};

// first_bit / last_bit: std::nullopt when omitted or null. `padding`: the
// padding_encoding member, std::nullopt when omitted or null.
Status plan_packbits(std::string_view data_type,
                     std::optional<int64_t> first_bit,
                     std::optional<int64_t> last_bit,
                     std::optional<std::string_view> padding,
                     std::vector<uint64_t> shape, PackBitsPlan* out);

// The exact length, and the padding-count byte where one is encoded.
// `stored_padding` is that byte's value (ignored for padding "none"); the
// pointer form reads it from the buffer.
Status check_packbits_frame(const PackBitsPlan& plan, uint64_t length,
                            uint8_t stored_padding);
Status check_packbits_frame(const PackBitsPlan& plan, const uint8_t* encoded,
                            uint64_t length);

// A decoded buffer of the right size.
Status check_packbits_decoded(const PackBitsPlan& plan, std::string_view what,
                              uint64_t length);

// A whole chunk, frame checked.
Status packbits_decode_chunk(const PackBitsPlan& plan, Impl impl,
                             const uint8_t* src, size_t src_len, uint8_t* dst,
                             size_t dst_len);
Status packbits_encode_chunk(const PackBitsPlan& plan, Impl impl,
                             const uint8_t* src, size_t src_len, uint8_t* dst,
                             size_t dst_len);

}  // namespace zcw
