#include "kernels/utf32.h"

#include <cstdio>
#include <cstring>

#include "kernels/byteswap.h"
#include "simd/v128.h"

namespace zcw {
namespace {

void copy_units(Impl impl, const uint8_t* in, uint8_t* out, size_t units,
                bool swap) {
  if (swap) {
    byteswap(impl, in, out, units, 4);
  } else {
    std::memcpy(out, in, 4 * units);
  }
}

// `strings` strings of `code_points` units each, from a stride of
// `in_units` units to one of `out_units`, swapped if asked; output units
// past the code points (the spare) are zero.
void restride(Impl impl, const uint8_t* in, size_t in_units, uint8_t* out,
              size_t out_units, size_t strings, uint32_t code_points,
              bool swap) {
  for (size_t s = 0; s < strings; ++s) {
    uint8_t* to = out + 4 * s * out_units;
    copy_units(impl, in + 4 * s * in_units, to, code_points, swap);
    if (out_units > code_points) {
      std::memset(to + 4 * size_t{code_points}, 0, 4 * (out_units - code_points));
    }
  }
}

}  // namespace

size_t first_invalid_code_unit(const uint8_t* units, size_t n) {
  size_t i = 0;
#if defined(ZCW_V128_AVAILABLE)
  // A unit is valid when its top 16 bits are at most 0x10; blocks of 16
  // units are checked with no branch per unit.
  const simd::v128 limit = simd::splat_u32(kMaxCodePoint >> 16);
  for (; i + 16 <= n; i += 16) {
    simd::v128 bad = simd::zero();
    for (size_t k = 0; k < 16; k += 4) {
      const simd::v128 top = simd::shr_u32<16>(simd::load(units + 4 * (i + k)));
      bad = simd::or_(bad, simd::lt_s32(limit, top));
    }
    if (simd::top_bits_u8(bad) != 0) break;
  }
#endif
  for (; i < n; ++i) {
    uint32_t u;
    std::memcpy(&u, units + 4 * i, 4);
    if (u > kMaxCodePoint) return i;
  }
  return n;
}

std::string invalid_code_unit_text(const uint8_t* units, size_t index,
                                   std::string_view where) {
  uint32_t unit;
  std::memcpy(&unit, units + 4 * index, 4);
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%X", unit);
  return std::string("code unit ") + hex + std::string(where) +
         " is not a Unicode code point (at most 0x10FFFF)";
}

void add_spare_code_points(Impl impl, const uint8_t* in, uint8_t* out,
                           size_t strings, uint32_t code_points, bool swap) {
  restride(impl, in, code_points, out, size_t{code_points} + 1, strings, code_points, swap);
}

size_t first_string_using_spare(const uint8_t* in, size_t strings,
                                uint32_t code_points) {
  const size_t stride = 4 * (size_t{code_points} + 1);
  for (size_t s = 0; s < strings; ++s) {
    uint32_t spare;
    std::memcpy(&spare, in + s * stride + stride - 4, 4);
    if (spare != 0) return s;
  }
  return strings;
}

void drop_spare_code_points(Impl impl, const uint8_t* in, uint8_t* out,
                            size_t strings, uint32_t code_points, bool swap) {
  restride(impl, in, size_t{code_points} + 1, out, code_points, strings, code_points, swap);
}

}  // namespace zcw
