// numcodecs' PackBits filter (Zarr v2, and `numcodecs.packbits` in v3): bool
// values, one leading byte with the number of padding bits, then the bits in
// numpy's packbits order, most significant bit first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "chunk_shape.h"
#include "implementation.h"
#include "status.h"

namespace zcw {

struct NumcodecsPackBitsPlan {
  ChunkShape shape;
  uint64_t body_bytes = 0;     // ceil(elements / 8)
  uint32_t padding_bits = 0;   // 8 * body_bytes - elements
  uint64_t encoded_bytes = 0;  // 1 + body_bytes
};

Status plan_numcodecs_packbits(std::string_view data_type,
                               std::vector<uint64_t> shape,
                               NumcodecsPackBitsPlan* out);

// The exact length and the padding-count byte (`stored_padding`, the first
// byte's value; the pointer form reads it from the buffer).
Status check_numcodecs_frame(const NumcodecsPackBitsPlan& plan,
                             uint64_t length, uint8_t stored_padding);
Status check_numcodecs_frame(const NumcodecsPackBitsPlan& plan,
                             const uint8_t* encoded, uint64_t length);

// A bool buffer (one byte per value) of the right size.
Status check_numcodecs_decoded(const NumcodecsPackBitsPlan& plan,
                               std::string_view what, uint64_t length);

// `count` bools from / to MSB-first bits; starts on a byte boundary.
void unpack_msb_first(Impl impl, const uint8_t* packed, uint8_t* out,
                      size_t count);
void pack_msb_first(Impl impl, const uint8_t* in, uint8_t* packed,
                    size_t count);

// A whole chunk, frame checked.
Status numcodecs_packbits_decode_chunk(const NumcodecsPackBitsPlan& plan,
                                       Impl impl, const uint8_t* src,
                                       size_t src_len, uint8_t* dst,
                                       size_t dst_len);
Status numcodecs_packbits_encode_chunk(const NumcodecsPackBitsPlan& plan,
                                       Impl impl, const uint8_t* src,
                                       size_t src_len, uint8_t* dst,
                                       size_t dst_len);

}  // namespace zcw
