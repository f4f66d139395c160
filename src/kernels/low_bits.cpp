#include "kernels/low_bits.h"

#include "simd/v128.h"

namespace zcw {
namespace {

// One loop per width, so every shift is a constant: compilers vectorise
// these on every target (wasm SIMD included), and the reference, portable
// and SIMD implementations share them, as they share normalize_bool.
template <uint32_t Bits>
void extend(bool sign_extend, const uint8_t* src, uint8_t* dst, size_t n) {
  constexpr uint32_t kUp = 8 - Bits;
  if (sign_extend) {
    for (size_t i = 0; i < n; ++i) {
      dst[i] = static_cast<uint8_t>(static_cast<int8_t>(static_cast<uint8_t>(src[i] << kUp)) >> kUp);
    }
  } else {
    for (size_t i = 0; i < n; ++i) dst[i] = src[i] & ((1u << Bits) - 1);
  }
}

// A value is in range when adding the offset that maps the range onto
// 0..2^bits-1 leaves no bits above it. Blocks of 64 OR their verdicts
// together, so the common case (all in range) is one pass with no branch
// per value; a block with a value out of range is searched one by one.
template <uint32_t Bits>
size_t first_out_of_range(bool is_signed, const uint8_t* v, size_t n) {
  const uint8_t offset = is_signed ? 1u << (Bits - 1) : 0;
  constexpr uint8_t kHigh = static_cast<uint8_t>(0xFF << Bits);
  size_t i = 0;
#if defined(ZCW_V128_AVAILABLE)
  // Written with vectors: left to the compiler, the OR of a block ends in a
  // lane-by-lane reduction (scripts/check-simd-codegen.sh).
  const simd::v128 add = simd::splat_u8(offset), high = simd::splat_u8(kHigh);
  for (; i + 64 <= n; i += 64) {
    simd::v128 any = simd::zero();
    for (size_t k = 0; k < 64; k += 16) {
      any = simd::or_(any, simd::and_(simd::add_u8(simd::load(v + i + k), add), high));
    }
    if (simd::top_bits_u8(simd::eq_u8(any, simd::zero())) != 0xFFFF) break;
  }
#else
  for (; i + 64 <= n; i += 64) {
    uint8_t any = 0;
    for (size_t j = 0; j < 64; ++j) any |= static_cast<uint8_t>(v[i + j] + offset) & kHigh;
    if (any) break;
  }
#endif
  for (; i < n; ++i) {
    if (static_cast<uint8_t>(v[i] + offset) & kHigh) return i;
  }
  return n;
}

}  // namespace

void extend_low_bits(uint32_t bits, bool sign_extend, const uint8_t* src,
                     uint8_t* dst, size_t n) {
  switch (bits) {
    case 1: return extend<1>(sign_extend, src, dst, n);
    case 2: return extend<2>(sign_extend, src, dst, n);
    case 4: return extend<4>(sign_extend, src, dst, n);
    case 6: return extend<6>(sign_extend, src, dst, n);
    default: return extend<7>(sign_extend, src, dst, n);  // not used by any type
  }
}

size_t find_out_of_range(uint32_t bits, bool is_signed, const uint8_t* values,
                         size_t n) {
  switch (bits) {
    case 1: return first_out_of_range<1>(is_signed, values, n);
    case 2: return first_out_of_range<2>(is_signed, values, n);
    case 4: return first_out_of_range<4>(is_signed, values, n);
    case 6: return first_out_of_range<6>(is_signed, values, n);
    default: return first_out_of_range<7>(is_signed, values, n);
  }
}

}  // namespace zcw
