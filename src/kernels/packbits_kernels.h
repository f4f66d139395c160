// packbits kernels over a stream of components (complex types contribute two
// per element, packed one after the other with the same bit range). Bit j of
// the stream is bit j % 8 of byte j / 8, least significant first.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/implementation.h"

namespace zcw {

// What a kernel needs to know about one component.
struct PackBitsLayout {
  uint32_t first_bit = 0;        // lowest bit kept
  uint32_t bits = 1;             // b = last_bit - first_bit + 1, 1..64
  uint32_t component_bits = 1;   // N, the full width
  uint32_t container_bytes = 1;  // decoded bytes per component: 1, 2, 4, 8
  bool sign_extend = false;      // signed integers, from last_bit upwards
  bool is_bool = false;          // encode: any non-zero byte is true
};

// Unpacks `components` values from `packed` (which must hold at least
// ceil(components * bits / 8) bytes, and is read no further) into `out`.
void packbits_decode(Impl impl, const PackBitsLayout& layout,
                     const uint8_t* packed, uint8_t* out, size_t components);

// Packs `components` values into exactly ceil(components * bits / 8) bytes;
// the padding bits of the last byte are zero.
void packbits_encode(Impl impl, const PackBitsLayout& layout,
                     const uint8_t* in, uint8_t* packed, size_t components);

// The implementations, for the dispatcher and the tests.
namespace packbits_impl {
void decode_reference(const PackBitsLayout&, const uint8_t*, uint8_t*, size_t);
void encode_reference(const PackBitsLayout&, const uint8_t*, uint8_t*, size_t);
void decode_portable(const PackBitsLayout&, const uint8_t*, uint8_t*, size_t);
void encode_portable(const PackBitsLayout&, const uint8_t*, uint8_t*, size_t);
// SIMD kernels do the whole 8-component groups they have a kernel for and
// return how many components they did (a multiple of 8, maybe 0); the
// dispatcher hands the rest to the portable path.
size_t decode_simd(const PackBitsLayout&, const uint8_t*, uint8_t*, size_t);
size_t encode_simd(const PackBitsLayout&, const uint8_t*, uint8_t*, size_t);
}  // namespace packbits_impl

}  // namespace zcw
