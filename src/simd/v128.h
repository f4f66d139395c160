// The few 128-bit vector operations the kernels use, over wasm SIMD128 or
// natively over SSE4.1. Kernels are written once against these; only this
// file knows the instruction sets. Shuffle indices must be 0..15, or 0x80 for
// a zero byte (the two instruction sets agree only there).
//
// Shift counts are template parameters on purpose: clang-14 compiles a wasm
// vector shift by a run-time count lane by lane (8 extract/shift/replace
// sequences instead of one i16x8.shr_u, 5x slower), so a run-time count must
// not compile. Kernels template on the counts they need (choosing the
// instantiation once per call), or multiply by 2^n for a run-time or
// per-lane left shift, with opaque() factors.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define ZCW_V128_AVAILABLE 1
#elif defined(__SSE4_1__)
#include <smmintrin.h>
#define ZCW_V128_AVAILABLE 1
#endif

#if defined(ZCW_V128_AVAILABLE)
namespace zcw::simd {

#if defined(__wasm_simd128__)
using v128 = v128_t;
inline v128 load(const void* p) { return wasm_v128_load(p); }
inline void store(void* p, v128 v) { wasm_v128_store(p, v); }
inline v128 shuffle_bytes(v128 v, v128 idx) { return wasm_i8x16_swizzle(v, idx); }
inline v128 and_(v128 a, v128 b) { return wasm_v128_and(a, b); }
inline v128 or_(v128 a, v128 b) { return wasm_v128_or(a, b); }
inline v128 xor_(v128 a, v128 b) { return wasm_v128_xor(a, b); }
inline v128 splat_u8(uint8_t x) { return wasm_i8x16_splat(static_cast<int8_t>(x)); }
inline v128 splat_u16(uint16_t x) { return wasm_i16x8_splat(static_cast<int16_t>(x)); }
inline v128 splat_u32(uint32_t x) { return wasm_i32x4_splat(static_cast<int32_t>(x)); }
inline v128 add_u8(v128 a, v128 b) { return wasm_i8x16_add(a, b); }
inline v128 sub_u8(v128 a, v128 b) { return wasm_i8x16_sub(a, b); }
inline v128 sub_u16(v128 a, v128 b) { return wasm_i16x8_sub(a, b); }
inline v128 min_u8(v128 a, v128 b) { return wasm_u8x16_min(a, b); }
inline v128 eq_u8(v128 a, v128 b) { return wasm_i8x16_eq(a, b); }
template <int N> v128 shr_u16(v128 v) { return wasm_u16x8_shr(v, N); }
template <int N> v128 shl_u16(v128 v) { return wasm_i16x8_shl(v, N); }
template <int N> v128 shr_u32(v128 v) { return wasm_u32x4_shr(v, N); }
template <int N> v128 shl_u32(v128 v) { return wasm_i32x4_shl(v, N); }
template <int N> v128 shr_u64(v128 v) { return wasm_u64x2_shr(v, N); }
template <int N> v128 shl_u64(v128 v) { return wasm_i64x2_shl(v, N); }
inline v128 mul_u16(v128 a, v128 b) { return wasm_i16x8_mul(a, b); }  // low 16 bits
inline v128 mul_u32(v128 a, v128 b) { return wasm_i32x4_mul(a, b); }
// Narrowing with unsigned saturation; callers keep values in range.
inline v128 narrow_u32_to_u16(v128 a, v128 b) { return wasm_u16x8_narrow_i32x4(a, b); }
inline v128 narrow_u16_to_u8(v128 a, v128 b) { return wasm_u8x16_narrow_i16x8(a, b); }
// Bit i of the result is the top bit of byte i.
inline uint32_t top_bits_u8(v128 v) { return wasm_i8x16_bitmask(v); }
inline v128 add_u32(v128 a, v128 b) { return wasm_i32x4_add(a, b); }
inline v128 eq_u32(v128 a, v128 b) { return wasm_i32x4_eq(a, b); }
// Signed compare; the widening kernels only compare values below 2^31.
inline v128 lt_s32(v128 a, v128 b) { return wasm_i32x4_lt(a, b); }
// mask ? a : b, bit by bit (masks are whole lanes here).
inline v128 select(v128 mask, v128 a, v128 b) { return wasm_v128_bitselect(a, b, mask); }
// Bytes (16-bit halves) of the low or high halves of a and b, alternating:
// a0 b0 a1 b1 ...
inline v128 interleave_lo_u8(v128 a, v128 b) {
  return wasm_i8x16_shuffle(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
}
inline v128 interleave_hi_u8(v128 a, v128 b) {
  return wasm_i8x16_shuffle(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
}
inline v128 interleave_lo_u16(v128 a, v128 b) { return wasm_i16x8_shuffle(a, b, 0, 8, 1, 9, 2, 10, 3, 11); }
inline v128 interleave_hi_u16(v128 a, v128 b) { return wasm_i16x8_shuffle(a, b, 4, 12, 5, 13, 6, 14, 7, 15); }
inline v128 interleave_lo_u32(v128 a, v128 b) { return wasm_i32x4_shuffle(a, b, 0, 4, 1, 5); }
inline v128 interleave_hi_u32(v128 a, v128 b) { return wasm_i32x4_shuffle(a, b, 2, 6, 3, 7); }
inline v128 interleave_lo_u64(v128 a, v128 b) { return wasm_i64x2_shuffle(a, b, 0, 2); }
inline v128 interleave_hi_u64(v128 a, v128 b) { return wasm_i64x2_shuffle(a, b, 1, 3); }
// Lanes as int32 converted to float32, then multiplied as float32.
inline v128 int32_to_float32(v128 v) { return wasm_f32x4_convert_i32x4(v); }
inline v128 mul_f32(v128 a, v128 b) { return wasm_f32x4_mul(a, b); }
inline v128 splat_f32(float x) { return wasm_f32x4_splat(x); }
// Value conversions (src/values/): lanes widened, converted, divided and
// added as IEEE float32 or float64, rounded as the scalar operations are.
inline v128 u16_low_to_u32(v128 v) { return wasm_u32x4_extend_low_u16x8(v); }
inline v128 u16_high_to_u32(v128 v) { return wasm_u32x4_extend_high_u16x8(v); }
inline v128 s16_low_to_s32(v128 v) { return wasm_i32x4_extend_low_i16x8(v); }
inline v128 s16_high_to_s32(v128 v) { return wasm_i32x4_extend_high_i16x8(v); }
inline v128 u8_low_to_u16(v128 v) { return wasm_u16x8_extend_low_u8x16(v); }
inline v128 u8_high_to_u16(v128 v) { return wasm_u16x8_extend_high_u8x16(v); }
inline v128 s8_low_to_s16(v128 v) { return wasm_i16x8_extend_low_i8x16(v); }
inline v128 s8_high_to_s16(v128 v) { return wasm_i16x8_extend_high_i8x16(v); }
inline v128 div_f32(v128 a, v128 b) { return wasm_f32x4_div(a, b); }
inline v128 add_f32(v128 a, v128 b) { return wasm_f32x4_add(a, b); }
inline v128 div_f64(v128 a, v128 b) { return wasm_f64x2_div(a, b); }
inline v128 add_f64(v128 a, v128 b) { return wasm_f64x2_add(a, b); }
inline v128 splat_f64(double x) { return wasm_f64x2_splat(x); }
// The two low int32 lanes as float64 (exact).
inline v128 int32_low_to_float64(v128 v) { return wasm_f64x2_convert_low_i32x4(v); }
// The two low float32 lanes as float64 (exact).
inline v128 float32_low_to_float64(v128 v) { return wasm_f64x2_promote_low_f32x4(v); }
// Four float64 (a's two, then b's) as float32, rounded to nearest-even.
inline v128 float64_to_float32(v128 a, v128 b) {
  return wasm_i64x2_shuffle(wasm_f32x4_demote_f64x2_zero(a), wasm_f32x4_demote_f64x2_zero(b), 0, 2);
}
// Bytes 8..15 moved to 0..7 (the high half of the lanes, for widening).
inline v128 high_half(v128 v) { return wasm_i64x2_shuffle(v, v, 1, 1); }
#else
using v128 = __m128i;
inline v128 load(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
inline void store(void* p, v128 v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }
inline v128 shuffle_bytes(v128 v, v128 idx) { return _mm_shuffle_epi8(v, idx); }
inline v128 and_(v128 a, v128 b) { return _mm_and_si128(a, b); }
inline v128 or_(v128 a, v128 b) { return _mm_or_si128(a, b); }
inline v128 xor_(v128 a, v128 b) { return _mm_xor_si128(a, b); }
inline v128 splat_u8(uint8_t x) { return _mm_set1_epi8(static_cast<char>(x)); }
inline v128 splat_u16(uint16_t x) { return _mm_set1_epi16(static_cast<short>(x)); }
inline v128 splat_u32(uint32_t x) { return _mm_set1_epi32(static_cast<int>(x)); }
inline v128 add_u8(v128 a, v128 b) { return _mm_add_epi8(a, b); }
inline v128 sub_u8(v128 a, v128 b) { return _mm_sub_epi8(a, b); }
inline v128 sub_u16(v128 a, v128 b) { return _mm_sub_epi16(a, b); }
inline v128 min_u8(v128 a, v128 b) { return _mm_min_epu8(a, b); }
inline v128 eq_u8(v128 a, v128 b) { return _mm_cmpeq_epi8(a, b); }
template <int N> v128 shr_u16(v128 v) { return _mm_srli_epi16(v, N); }
template <int N> v128 shl_u16(v128 v) { return _mm_slli_epi16(v, N); }
template <int N> v128 shr_u32(v128 v) { return _mm_srli_epi32(v, N); }
template <int N> v128 shl_u32(v128 v) { return _mm_slli_epi32(v, N); }
template <int N> v128 shr_u64(v128 v) { return _mm_srli_epi64(v, N); }
template <int N> v128 shl_u64(v128 v) { return _mm_slli_epi64(v, N); }
inline v128 mul_u16(v128 a, v128 b) { return _mm_mullo_epi16(a, b); }
inline v128 mul_u32(v128 a, v128 b) { return _mm_mullo_epi32(a, b); }
inline v128 narrow_u32_to_u16(v128 a, v128 b) { return _mm_packus_epi32(a, b); }
inline v128 narrow_u16_to_u8(v128 a, v128 b) { return _mm_packus_epi16(a, b); }
inline uint32_t top_bits_u8(v128 v) { return static_cast<uint32_t>(_mm_movemask_epi8(v)); }
inline v128 add_u32(v128 a, v128 b) { return _mm_add_epi32(a, b); }
inline v128 eq_u32(v128 a, v128 b) { return _mm_cmpeq_epi32(a, b); }
inline v128 lt_s32(v128 a, v128 b) { return _mm_cmplt_epi32(a, b); }
inline v128 select(v128 mask, v128 a, v128 b) { return _mm_blendv_epi8(b, a, mask); }
inline v128 interleave_lo_u8(v128 a, v128 b) { return _mm_unpacklo_epi8(a, b); }
inline v128 interleave_hi_u8(v128 a, v128 b) { return _mm_unpackhi_epi8(a, b); }
inline v128 interleave_lo_u16(v128 a, v128 b) { return _mm_unpacklo_epi16(a, b); }
inline v128 interleave_hi_u16(v128 a, v128 b) { return _mm_unpackhi_epi16(a, b); }
inline v128 interleave_lo_u32(v128 a, v128 b) { return _mm_unpacklo_epi32(a, b); }
inline v128 interleave_hi_u32(v128 a, v128 b) { return _mm_unpackhi_epi32(a, b); }
inline v128 interleave_lo_u64(v128 a, v128 b) { return _mm_unpacklo_epi64(a, b); }
inline v128 interleave_hi_u64(v128 a, v128 b) { return _mm_unpackhi_epi64(a, b); }
inline v128 int32_to_float32(v128 v) { return _mm_castps_si128(_mm_cvtepi32_ps(v)); }
inline v128 mul_f32(v128 a, v128 b) {
  return _mm_castps_si128(_mm_mul_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b)));
}
inline v128 splat_f32(float x) { return _mm_castps_si128(_mm_set1_ps(x)); }
inline v128 u16_low_to_u32(v128 v) { return _mm_cvtepu16_epi32(v); }
inline v128 u16_high_to_u32(v128 v) { return _mm_cvtepu16_epi32(_mm_srli_si128(v, 8)); }
inline v128 s16_low_to_s32(v128 v) { return _mm_cvtepi16_epi32(v); }
inline v128 s16_high_to_s32(v128 v) { return _mm_cvtepi16_epi32(_mm_srli_si128(v, 8)); }
inline v128 u8_low_to_u16(v128 v) { return _mm_cvtepu8_epi16(v); }
inline v128 u8_high_to_u16(v128 v) { return _mm_cvtepu8_epi16(_mm_srli_si128(v, 8)); }
inline v128 s8_low_to_s16(v128 v) { return _mm_cvtepi8_epi16(v); }
inline v128 s8_high_to_s16(v128 v) { return _mm_cvtepi8_epi16(_mm_srli_si128(v, 8)); }
inline v128 div_f32(v128 a, v128 b) { return _mm_castps_si128(_mm_div_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b))); }
inline v128 add_f32(v128 a, v128 b) { return _mm_castps_si128(_mm_add_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b))); }
inline v128 div_f64(v128 a, v128 b) { return _mm_castpd_si128(_mm_div_pd(_mm_castsi128_pd(a), _mm_castsi128_pd(b))); }
inline v128 add_f64(v128 a, v128 b) { return _mm_castpd_si128(_mm_add_pd(_mm_castsi128_pd(a), _mm_castsi128_pd(b))); }
inline v128 splat_f64(double x) { return _mm_castpd_si128(_mm_set1_pd(x)); }
inline v128 int32_low_to_float64(v128 v) { return _mm_castpd_si128(_mm_cvtepi32_pd(v)); }
inline v128 float32_low_to_float64(v128 v) { return _mm_castpd_si128(_mm_cvtps_pd(_mm_castsi128_ps(v))); }
inline v128 float64_to_float32(v128 a, v128 b) {
  return _mm_castps_si128(_mm_movelh_ps(_mm_cvtpd_ps(_mm_castsi128_pd(a)), _mm_cvtpd_ps(_mm_castsi128_pd(b))));
}
inline v128 high_half(v128 v) { return _mm_unpackhi_epi64(v, v); }
#endif

inline v128 zero() { return splat_u8(0); }

// A value the optimiser cannot see through. Kernels multiply by powers of two
// to shift each lane by its own count; if LLVM sees the constants it turns
// the multiply back into per-lane shifts, which SIMD128 lacks, and scalarises
// them. One volatile read when a kernel sets up its constants.
inline uint32_t opaque(uint32_t x) {
  static volatile uint32_t zero = 0;
  return x + zero;
}

}  // namespace zcw::simd
#endif
