#include "kernels/widen.h"

#include <array>
#include <cmath>
#include <cstring>

#include "simd/v128.h"

namespace zcw {
namespace {

constexpr uint32_t kQuietNan = 0x7FC00000u;

uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

void store_u32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }

uint32_t load_code(const FloatFormat& f, const uint8_t* codes, size_t i) {
  if (f.bits == 16) return codes[2 * i] | (uint32_t{codes[2 * i + 1]} << 8);
  return codes[i] & ((1u << f.bits) - 1);
}

// ---- portable: a table per format of at most 8 bits ------------------------

using Table = std::array<uint32_t, 256>;

const Table& table_for(const FloatFormat& f) {
  static Table tables[12];
  static bool built[12] = {};
  const uint32_t i = f.index();
  if (!built[i]) {
    for (uint32_t c = 0; c < 256; ++c) {
      tables[i][c] = widen_code_reference(f, c & ((1u << f.bits) - 1));
    }
    built[i] = true;
  }
  return tables[i];
}

void widen_portable(const FloatFormat& f, const uint8_t* codes, uint8_t* out,
                    size_t n) {
  if (f.name == "bfloat16") {
    for (size_t i = 0; i < n; ++i) store_u32(out + 4 * i, load_code(f, codes, i) << 16);
    return;
  }
  if (f.bits == 16) {
    for (size_t i = 0; i < n; ++i) {
      store_u32(out + 4 * i, widen_code_reference(f, load_code(f, codes, i)));
    }
    return;
  }
  const Table& t = table_for(f);
  for (size_t i = 0; i < n; ++i) store_u32(out + 4 * i, t[codes[i]]);
}

// ---- SIMD: the definition in vector arithmetic ------------------------------

#if defined(ZCW_V128_AVAILABLE)
using simd::v128;

// float16 codes in 32-bit lanes to float32 bits, by the definition in
// vector arithmetic. The constants are template parameters so every shift
// count is a compile-time constant (v128.h).
template <int E, int M, int Bias>
struct WidenHalfLanes {
  static constexpr int kBits = 1 + E + M;
  v128 sign_mask = simd::splat_u32(1u << (kBits - 1));
  v128 magnitude_mask = simd::splat_u32((1u << (kBits - 1)) - 1);
  v128 rebias = simd::splat_u32(static_cast<uint32_t>(127 - Bias) << 23);
  v128 smallest_normal = simd::splat_u32(1u << M);
  v128 subnormal_ulp = simd::splat_f32(std::ldexp(1.0f, 1 - Bias - M));
  v128 first_special = simd::splat_u32((((1u << E) - 1) << M) - 1);
  v128 exponent_ones = simd::splat_u32(0x7F800000u);

  v128 operator()(v128 v) const {
    const v128 sign = simd::shl_u32<32 - kBits>(simd::and_(v, sign_mask));
    const v128 mag = simd::and_(v, magnitude_mask);
    // Normal: exponent and mantissa move into place, the bias changes.
    v128 r = simd::add_u32(simd::shl_u32<23 - M>(mag), rebias);
    // Subnormal (exponent 0): mantissa * 2^(1 - bias - M), exact.
    const v128 sub = simd::mul_f32(simd::int32_to_float32(mag), subnormal_ulp);
    r = simd::select(simd::lt_s32(mag, smallest_normal), sub, r);
    // Exponent all ones: infinity or NaN, mantissa (payload) kept.
    const v128 special = simd::or_(simd::shl_u32<23 - M>(mag), exponent_ones);
    r = simd::select(simd::lt_s32(first_special, mag), special, r);
    return simd::or_(r, sign);
  }
};

// Formats of at most 8 bits, 16 codes at a time in byte lanes. Every value
// of these formats has at most 4 significant bits, so its float32 has 16
// zero low bits: each code needs only the top half, built as two bytes,
// hi = sign | F >> 1 and lo = F << 7 | mantissa << (7 - M), from float32's
// exponent field F = e + 127 - bias. Byte lanes do 4x the work of 32-bit
// lanes per operation; an 8-bit shift is a 16-bit shift and a mask.
// Subnormals (e = 0) come from the top halves of the format's table (the
// portable path's, built once from the reference), looked up by a byte
// shuffle.
template <int Bits, int E, int M, int Bias, FloatKind Kind>
size_t widen_simd_bytes(const FloatFormat& f, const uint8_t* codes, uint8_t* out, size_t n) {
  static_assert(Bits <= 8 && M <= 4);
  alignas(16) uint8_t sub_hi[16] = {}, sub_lo[16] = {};
  if constexpr (Kind != FloatKind::kE8m0) {
    const Table& table = table_for(f);
    for (uint32_t m = 0; m < (1u << M); ++m) {
      sub_hi[m] = static_cast<uint8_t>(table[m] >> 24);
      sub_lo[m] = static_cast<uint8_t>(table[m] >> 16);
    }
  }
  const v128 table_hi = simd::load(sub_hi), table_lo = simd::load(sub_lo);
  const v128 code_mask = simd::splat_u8(static_cast<uint8_t>((1u << Bits) - 1));
  const v128 exponent_mask = simd::splat_u8(static_cast<uint8_t>((1u << E) - 1));
  const v128 mantissa_mask = simd::splat_u8(static_cast<uint8_t>((1u << M) - 1));
  const v128 rebias = simd::splat_u8(static_cast<uint8_t>(127 - Bias));
  const v128 top_bit = simd::splat_u8(0x80), low7 = simd::splat_u8(0x7F);
  const v128 nan_hi = simd::splat_u8(0x7F), nan_lo = simd::splat_u8(0xC0);
  const v128 zero = simd::zero();
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128 x = simd::and_(simd::load(codes + i), code_mask);
    v128 hi, lo;
    if constexpr (Kind == FloatKind::kE8m0) {
      // 2^(code - 127): the code is float32's exponent field itself,
      // except 0 (2^-127, top half 0x0040) and 0xFF (NaN).
      hi = simd::and_(simd::shr_u16<1>(x), low7);
      lo = simd::and_(simd::shl_u16<7>(x), top_bit);
      lo = simd::select(simd::eq_u8(x, zero), simd::splat_u8(0x40), lo);
      const v128 is_nan = simd::eq_u8(x, simd::splat_u8(0xFF));
      hi = simd::select(is_nan, nan_hi, hi);
      lo = simd::select(is_nan, nan_lo, lo);
    } else {
      const v128 e = simd::and_(simd::shr_u16<M>(x), exponent_mask);
      const v128 m = simd::and_(x, mantissa_mask);
      const v128 sign = simd::and_(simd::shl_u16<8 - Bits>(x), top_bit);
      v128 field = simd::add_u8(e, rebias);
      if constexpr (Kind == FloatKind::kIeee) {
        // Exponent all ones: infinity or NaN, the mantissa (payload) kept.
        field = simd::select(simd::eq_u8(e, exponent_mask), simd::splat_u8(0xFF), field);
      }
      hi = simd::or_(sign, simd::and_(simd::shr_u16<1>(field), low7));
      lo = simd::or_(simd::and_(simd::shl_u16<7>(field), top_bit), simd::shl_u16<7 - M>(m));
      const v128 subnormal = simd::eq_u8(e, zero);
      hi = simd::select(subnormal, simd::or_(sign, simd::shuffle_bytes(table_hi, m)), hi);
      lo = simd::select(subnormal, simd::shuffle_bytes(table_lo, m), lo);
      if constexpr (Kind == FloatKind::kFnuz) {
        const v128 is_nan = simd::eq_u8(x, top_bit);  // 0x80: the NaN; no -0
        hi = simd::select(is_nan, nan_hi, hi);
        lo = simd::select(is_nan, nan_lo, lo);
      }
    }
    // Top halves of codes 0..7 and 8..15, then each under 16 zero bits.
    const v128 tops0 = simd::interleave_lo_u8(lo, hi);
    const v128 tops1 = simd::interleave_hi_u8(lo, hi);
    simd::store(out + 4 * i, simd::interleave_lo_u16(zero, tops0));
    simd::store(out + 4 * i + 16, simd::interleave_hi_u16(zero, tops0));
    simd::store(out + 4 * i + 32, simd::interleave_lo_u16(zero, tops1));
    simd::store(out + 4 * i + 48, simd::interleave_hi_u16(zero, tops1));
  }
  return i;
}

// A shuffle taking 16-bit code k * 4 + j to lane j (k = 0, 1).
inline v128 halfword_lane_index(int k) {
  alignas(16) uint8_t idx[16];
  for (int i = 0; i < 16; ++i) {
    idx[i] = i % 4 < 2 ? static_cast<uint8_t>(8 * k + 2 * (i / 4) + i % 4) : 0x80;
  }
  return simd::load(idx);
}

template <int E, int M, int Bias>
size_t widen_simd_halfwords(const uint8_t* codes, uint8_t* out, size_t n) {
  const WidenHalfLanes<E, M, Bias> lanes;
  const v128 lo = halfword_lane_index(0);
  const v128 hi = halfword_lane_index(1);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128 x = simd::load(codes + 2 * i);
    simd::store(out + 4 * i, lanes(simd::shuffle_bytes(x, lo)));
    simd::store(out + 4 * i + 16, lanes(simd::shuffle_bytes(x, hi)));
  }
  return i;
}

// bfloat16 is float32's top half: a shuffle puts each code there.
size_t widen_simd_bfloat16(const uint8_t* codes, uint8_t* out, size_t n) {
  alignas(16) uint8_t lo_idx[16], hi_idx[16];
  for (int i = 0; i < 16; ++i) {
    const bool top = i % 4 >= 2;
    lo_idx[i] = top ? static_cast<uint8_t>(2 * (i / 4) + i % 2) : 0x80;
    hi_idx[i] = top ? static_cast<uint8_t>(8 + 2 * (i / 4) + i % 2) : 0x80;
  }
  const v128 lo = simd::load(lo_idx), hi = simd::load(hi_idx);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const v128 x = simd::load(codes + 2 * i);
    simd::store(out + 4 * i, simd::shuffle_bytes(x, lo));
    simd::store(out + 4 * i + 16, simd::shuffle_bytes(x, hi));
  }
  return i;
}

size_t widen_simd(const FloatFormat& f, const uint8_t* codes, uint8_t* out,
                  size_t n) {
  using K = FloatKind;
  switch (f.index()) {
    case 0: return widen_simd_halfwords<5, 10, 15>(codes, out, n);
    case 1: return widen_simd_bfloat16(codes, out, n);
    case 2: return widen_simd_bytes<8, 3, 4, 3, K::kIeee>(f, codes, out, n);
    case 3: return widen_simd_bytes<8, 4, 3, 7, K::kIeee>(f, codes, out, n);
    case 4: return widen_simd_bytes<8, 5, 2, 15, K::kIeee>(f, codes, out, n);
    case 5: return widen_simd_bytes<8, 4, 3, 8, K::kFnuz>(f, codes, out, n);
    case 6: return widen_simd_bytes<8, 4, 3, 11, K::kFnuz>(f, codes, out, n);
    case 7: return widen_simd_bytes<8, 5, 2, 16, K::kFnuz>(f, codes, out, n);
    case 8: return widen_simd_bytes<8, 8, 0, 127, K::kE8m0>(f, codes, out, n);
    case 9: return widen_simd_bytes<6, 2, 3, 1, K::kFn>(f, codes, out, n);
    case 10: return widen_simd_bytes<6, 3, 2, 3, K::kFn>(f, codes, out, n);
    case 11: return widen_simd_bytes<4, 2, 1, 1, K::kFn>(f, codes, out, n);
  }
  return 0;
}
#endif

}  // namespace

uint32_t widen_code_reference(const FloatFormat& f, uint32_t code) {
  code &= (1u << f.bits) - 1;
  if (f.kind == FloatKind::kE8m0) {
    if (code == f.nan_code) return kQuietNan;
    return float_bits(std::ldexp(1.0f, static_cast<int>(code) - f.bias));
  }
  if (f.kind == FloatKind::kFnuz && code == f.nan_code) return kQuietNan;
  const uint32_t sign = code >> (f.bits - 1);
  const uint32_t exponent = (code >> f.mantissa_bits) & ((1u << f.exponent_bits) - 1);
  const uint32_t mantissa = code & ((1u << f.mantissa_bits) - 1);
  const uint32_t sign_bit = sign << 31;
  if (f.kind == FloatKind::kIeee && exponent == (1u << f.exponent_bits) - 1) {
    // Infinity, or NaN with its payload at the top of float32's mantissa.
    return sign_bit | 0x7F800000u | (mantissa << (23 - f.mantissa_bits));
  }
  // (-1)^s * 2^(e - bias) * 1.m, or 2^(1 - bias) * 0.m where e is 0.
  const int scale = (exponent == 0 ? 1 : static_cast<int>(exponent)) - f.bias -
                    static_cast<int>(f.mantissa_bits);
  const uint32_t significand =
      exponent == 0 ? mantissa : mantissa | (1u << f.mantissa_bits);
  const float magnitude = std::ldexp(static_cast<float>(significand), scale);
  return sign_bit | float_bits(magnitude);
}

void widen_to_float32(Impl impl, const FloatFormat& f, const uint8_t* codes,
                      uint8_t* out, size_t n) {
  size_t done = 0;
  switch (impl) {
    case Impl::kReference:
      for (size_t i = 0; i < n; ++i) {
        store_u32(out + 4 * i, widen_code_reference(f, load_code(f, codes, i)));
      }
      return;
    case Impl::kSimd:
#if defined(ZCW_V128_AVAILABLE)
      done = widen_simd(f, codes, out, n);
#endif
      [[fallthrough]];
    case Impl::kPortable:
      widen_portable(f, codes + done * (f.bits == 16 ? 2 : 1), out + 4 * done,
                     n - done);
  }
}

}  // namespace zcw
