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

// Codes in 32-bit lanes to float32 bits. The constants are template
// parameters so every shift count is a compile-time constant (v128.h).
template <int Bits, int E, int M, int Bias, FloatKind Kind>
struct WidenLanes {
  static constexpr uint32_t kSign = Kind == FloatKind::kE8m0 ? 0 : 1u << (Bits - 1);
  v128 sign_mask = simd::splat_u32(kSign);
  v128 magnitude_mask = simd::splat_u32(kSign - 1);
  v128 rebias = simd::splat_u32(static_cast<uint32_t>(127 - Bias) << 23);
  v128 smallest_normal = simd::splat_u32(1u << M);
  v128 subnormal_ulp = simd::splat_f32(std::ldexp(1.0f, 1 - Bias - M));
  v128 first_special = simd::splat_u32((((1u << E) - 1) << M) - 1);
  v128 exponent_ones = simd::splat_u32(0x7F800000u);
  v128 nan = simd::splat_u32(kQuietNan);
  v128 fnuz_nan = simd::splat_u32(0x80);
  v128 e8m0_nan = simd::splat_u32(0xFF);
  v128 e8m0_zero_code_value = simd::splat_u32(0x00400000u);  // 2^-127

  v128 operator()(v128 v) const {
    if constexpr (Kind == FloatKind::kE8m0) {
      // 2^(code - 127): the code is float32's exponent field, except code
      // 0 (2^-127, a float32 subnormal) and 0xFF (NaN).
      v128 r = simd::shl_u32<23>(v);
      r = simd::select(simd::eq_u32(v, simd::zero()), e8m0_zero_code_value, r);
      return simd::select(simd::eq_u32(v, e8m0_nan), nan, r);
    } else {
      const v128 sign = simd::shl_u32<32 - Bits>(simd::and_(v, sign_mask));
      const v128 mag = simd::and_(v, magnitude_mask);
      // Normal: exponent and mantissa move into place, the bias changes.
      v128 r = simd::add_u32(simd::shl_u32<23 - M>(mag), rebias);
      // Subnormal (exponent 0): mantissa * 2^(1 - bias - M), exact.
      const v128 sub = simd::mul_f32(simd::int32_to_float32(mag), subnormal_ulp);
      r = simd::select(simd::lt_s32(mag, smallest_normal), sub, r);
      if constexpr (Kind == FloatKind::kIeee) {
        // Exponent all ones: infinity or NaN, mantissa (payload) kept.
        const v128 special = simd::or_(simd::shl_u32<23 - M>(mag), exponent_ones);
        r = simd::select(simd::lt_s32(first_special, mag), special, r);
      }
      r = simd::or_(r, sign);
      if constexpr (Kind == FloatKind::kFnuz) {
        r = simd::select(simd::eq_u32(v, fnuz_nan), nan, r);
      }
      return r;
    }
  }
};

// A shuffle taking byte k * 4 + j of a vector of codes to lane j,
// zero-extended.
inline v128 byte_lane_index(int k) {
  alignas(16) uint8_t idx[16];
  for (int i = 0; i < 16; ++i) {
    idx[i] = i % 4 == 0 ? static_cast<uint8_t>(4 * k + i / 4) : 0x80;
  }
  return simd::load(idx);
}

// A shuffle taking 16-bit code k * 4 + j to lane j (k = 0, 1).
inline v128 halfword_lane_index(int k) {
  alignas(16) uint8_t idx[16];
  for (int i = 0; i < 16; ++i) {
    idx[i] = i % 4 < 2 ? static_cast<uint8_t>(8 * k + 2 * (i / 4) + i % 4) : 0x80;
  }
  return simd::load(idx);
}

template <int Bits, int E, int M, int Bias, FloatKind Kind>
size_t widen_simd_bytes(const uint8_t* codes, uint8_t* out, size_t n) {
  const WidenLanes<Bits, E, M, Bias, Kind> lanes;
  const v128 mask = simd::splat_u8(static_cast<uint8_t>((1u << Bits) - 1));
  v128 idx[4];
  for (int k = 0; k < 4; ++k) idx[k] = byte_lane_index(k);
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const v128 x = simd::and_(simd::load(codes + i), mask);
    for (int k = 0; k < 4; ++k) {
      simd::store(out + 4 * i + 16 * k, lanes(simd::shuffle_bytes(x, idx[k])));
    }
  }
  return i;
}

template <int E, int M, int Bias>
size_t widen_simd_halfwords(const uint8_t* codes, uint8_t* out, size_t n) {
  const WidenLanes<16, E, M, Bias, FloatKind::kIeee> lanes;
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
    case 2: return widen_simd_bytes<8, 3, 4, 3, K::kIeee>(codes, out, n);
    case 3: return widen_simd_bytes<8, 4, 3, 7, K::kIeee>(codes, out, n);
    case 4: return widen_simd_bytes<8, 5, 2, 15, K::kIeee>(codes, out, n);
    case 5: return widen_simd_bytes<8, 4, 3, 8, K::kFnuz>(codes, out, n);
    case 6: return widen_simd_bytes<8, 4, 3, 11, K::kFnuz>(codes, out, n);
    case 7: return widen_simd_bytes<8, 5, 2, 16, K::kFnuz>(codes, out, n);
    case 8: return widen_simd_bytes<8, 8, 0, 127, K::kE8m0>(codes, out, n);
    case 9: return widen_simd_bytes<6, 2, 3, 1, K::kFn>(codes, out, n);
    case 10: return widen_simd_bytes<6, 3, 2, 3, K::kFn>(codes, out, n);
    case 11: return widen_simd_bytes<4, 2, 1, 1, K::kFn>(codes, out, n);
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
