// The packbits spec, literally and one bit at a time: the yardstick every
// other implementation is tested against. Not fast, on purpose.
#include "kernels/packbits_kernels.h"

namespace zcw::packbits_impl {
namespace {

uint64_t load_component(const uint8_t* p, uint32_t bytes) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < bytes; ++i) v |= uint64_t{p[i]} << (8 * i);
  return v;
}

void store_component(uint8_t* p, uint32_t bytes, uint64_t v) {
  for (uint32_t i = 0; i < bytes; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace

void encode_reference(const PackBitsLayout& l, const uint8_t* in,
                      uint8_t* packed, size_t components) {
  const uint64_t total_bits = uint64_t{components} * l.bits;
  for (uint64_t i = 0; i < (total_bits + 7) / 8; ++i) packed[i] = 0;
  for (size_t c = 0; c < components; ++c) {
    // "each component is first encoded as an N-bit value"
    uint64_t v = load_component(in + c * l.container_bytes, l.container_bytes);
    if (l.is_bool) v = v != 0;
    // "the b bits from first_bit to last_bit are then extracted"
    for (uint32_t j = 0; j < l.bits; ++j) {
      uint64_t bit = (v >> (l.first_bit + j)) & 1;
      uint64_t pos = uint64_t{c} * l.bits + j;
      packed[pos / 8] |= static_cast<uint8_t>(bit << (pos % 8));
    }
  }
}

void decode_reference(const PackBitsLayout& l, const uint8_t* packed,
                      uint8_t* out, size_t components) {
  const uint32_t last_bit = l.first_bit + l.bits - 1;
  const uint32_t container_bits = 8 * l.container_bytes;
  for (size_t c = 0; c < components; ++c) {
    // "the b encoded bits are first shifted to first_bit"
    uint64_t v = 0;
    for (uint32_t j = 0; j < l.bits; ++j) {
      uint64_t pos = uint64_t{c} * l.bits + j;
      uint64_t bit = (packed[pos / 8] >> (pos % 8)) & 1;
      v |= bit << (l.first_bit + j);
    }
    // "then sign-extended (signed integers) or zero-extended" up to the
    // container, one bit at a time.
    if (l.sign_extend && ((v >> last_bit) & 1)) {
      for (uint32_t j = last_bit + 1; j < container_bits; ++j) v |= uint64_t{1} << j;
    }
    store_component(out + c * l.container_bytes, l.container_bytes, v);
  }
}

}  // namespace zcw::packbits_impl
