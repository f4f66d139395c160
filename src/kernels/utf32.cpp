#include "kernels/utf32.h"

#include <cstdio>
#include <cstring>

#include "simd/v128.h"

namespace zcw {
namespace {

constexpr uint32_t kSurrogateTop = 0xD800 >> 11;  // 0x1B: 0xD800..0xDFFF >> 11

inline uint32_t unit_at(const uint8_t* units, size_t i) {
  uint32_t u;
  std::memcpy(&u, units + 4 * i, 4);
  return u;
}

// Blocks of 16 units are checked with no branch per unit; the block with a
// refused unit (and the tail) is searched one unit at a time.
template <bool kScalarValues>
size_t first_refused(const uint8_t* units, size_t n) {
  size_t i = 0;
#if defined(ZCW_V128_AVAILABLE)
  // A unit is a code point when its top 16 bits are at most 0x10, and a
  // surrogate when its bits above the low 11 are 0x1B.
  const simd::v128 limit = simd::splat_u32(kMaxCodePoint >> 16);
  const simd::v128 surrogate = simd::splat_u32(kSurrogateTop);
  for (; i + 16 <= n; i += 16) {
    simd::v128 bad = simd::zero();
    for (size_t k = 0; k < 16; k += 4) {
      const simd::v128 u = simd::load(units + 4 * (i + k));
      bad = simd::or_(bad, simd::lt_s32(limit, simd::shr_u32<16>(u)));
      if (kScalarValues) bad = simd::or_(bad, simd::eq_u32(simd::shr_u32<11>(u), surrogate));
    }
    if (simd::top_bits_u8(bad) != 0) break;
  }
#endif
  for (; i < n; ++i) {
    const uint32_t u = unit_at(units, i);
    if (u > kMaxCodePoint || (kScalarValues && (u >> 11) == kSurrogateTop)) return i;
  }
  return n;
}

}  // namespace

size_t first_invalid_code_unit(const uint8_t* units, size_t n) {
  return first_refused<false>(units, n);
}

size_t first_non_scalar_value(const uint8_t* units, size_t n) {
  return first_refused<true>(units, n);
}

std::string invalid_code_unit_text(const uint8_t* units, size_t index,
                                   std::string_view where) {
  const uint32_t unit = unit_at(units, index);
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%X", unit);
  const char* why = unit > kMaxCodePoint
                        ? " is not a Unicode code point (at most 0x10FFFF)"
                        : " is a surrogate (0xD800..0xDFFF), not a Unicode scalar value";
  return std::string("code unit ") + hex + std::string(where) + why;
}

}  // namespace zcw
