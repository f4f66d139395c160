#include "values/value_kernels.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "kernels/widen.h"
#include "simd/v128.h"
#include "types/float_format.h"

namespace zcw {
namespace {

template <typename T>
T load(const uint8_t* p, size_t i) {
  T v;
  std::memcpy(&v, p + i * sizeof(T), sizeof(T));
  return v;
}

// Plain loops over aligned-or-not bytes (memcpy per element compiles to a
// load): the portable and reference paths, and the SIMD kernels' tails.
// Not auto-vectorized: clang-14 builds these conversions lane by lane in
// wasm (extract_lane, scripts/check-simd-codegen.sh); the SIMD kernels
// below are written out instead.
template <typename From, typename To>
void convert_loop(const uint8_t* in, size_t n, uint8_t* out) {
#pragma clang loop vectorize(disable)
  for (size_t i = 0; i < n; ++i) {
    const To v = static_cast<To>(load<From>(in, i));
    std::memcpy(out + i * sizeof(To), &v, sizeof(To));
  }
}

template <typename F>
void scale_offset_loop(const uint8_t* in, size_t n, uint8_t* out, F scale, F offset) {
#pragma clang loop vectorize(disable)
  for (size_t i = 0; i < n; ++i) {
    // Two roundings in F: the quotient, then the sum (the page's
    // arithmetic in the array's data type).
    const F q = load<F>(in, i) / scale;
    const F v = q + offset;
    std::memcpy(out + i * sizeof(F), &v, sizeof(F));
  }
}

// The narrow floats widen exactly to float32 (kernels/widen.h), then to
// float64 where asked.
void widen_loop(Impl impl, ValueType from, ValueType to, const uint8_t* in, size_t n, uint8_t* out) {
  const FloatFormat* format = float_format_named(from == ValueType::kFloat16 ? "float16" : "bfloat16");
  if (to == ValueType::kFloat32) {
    widen_to_float32(impl, *format, in, out, n);
    return;
  }
  // float64: through float32, a block at a time.
  constexpr size_t kBlock = 4096;
  // The module's, not the stack's (a small wasm stack; not reentrant).
  alignas(16) static uint8_t block[4 * kBlock];
  for (size_t at = 0; at < n; at += kBlock) {
    const size_t m = n - at < kBlock ? n - at : kBlock;
    widen_to_float32(impl, *format, in + 2 * at, block, m);
    convert_loop<float, double>(block, m, out + 8 * at);
  }
}

template <typename To>
void convert_to(Impl impl, ValueType from, ValueType to, const uint8_t* in, size_t n, uint8_t* out) {
  switch (from) {
    case ValueType::kUint8: return convert_loop<uint8_t, To>(in, n, out);
    case ValueType::kInt8: return convert_loop<int8_t, To>(in, n, out);
    case ValueType::kUint16: return convert_loop<uint16_t, To>(in, n, out);
    case ValueType::kInt16: return convert_loop<int16_t, To>(in, n, out);
    case ValueType::kUint32: return convert_loop<uint32_t, To>(in, n, out);
    case ValueType::kInt32: return convert_loop<int32_t, To>(in, n, out);
    case ValueType::kFloat16:
    case ValueType::kBfloat16: return widen_loop(impl, from, to, in, n, out);
    case ValueType::kFloat32: return convert_loop<float, To>(in, n, out);
    case ValueType::kFloat64: return convert_loop<double, To>(in, n, out);
  }
}

#if defined(ZCW_V128_AVAILABLE)
using simd::v128;

// ---- SIMD: whole vectors; the caller's loops take the tail ------------------
// Each lane goes through the same IEEE operation as the scalar loop (an
// exact widening, a conversion rounded to nearest-even, a division and an
// addition rounded in the lane's type), so both give the same bits.

// Four int32 lanes to float32 or float64 at out (4 elements). `keep` is
// all ones, hidden from the optimiser (simd::opaque): without it clang-14
// folds a widening then int32 conversion back into a conversion of the
// narrow lanes, which wasm SIMD128 lacks, and scalarises it.
template <typename To>
inline void store_int32_lanes(v128 v, uint8_t* out, v128 keep) {
  v = simd::and_(v, keep);
  if constexpr (sizeof(To) == 4) {
    simd::store(out, simd::int32_to_float32(v));
  } else {
    simd::store(out, simd::int32_low_to_float64(v));
    simd::store(out + 16, simd::int32_low_to_float64(simd::high_half(v)));
  }
}

// Small integers (8 and 16 bits) through int32 lanes, which hold them exactly.
template <typename From, typename To>
size_t convert_small_ints_simd(const uint8_t* in, size_t n, uint8_t* out) {
  constexpr size_t kPer = 16 / sizeof(From);  // elements per loaded vector
  const v128 keep = simd::splat_u32(simd::opaque(0xFFFFFFFFu));
  size_t i = 0;
  for (; i + kPer <= n; i += kPer) {
    const v128 v = simd::load(in + i * sizeof(From));
    uint8_t* o = out + i * sizeof(To);
    if constexpr (sizeof(From) == 2) {
      const bool s = std::is_signed_v<From>;
      store_int32_lanes<To>(s ? simd::s16_low_to_s32(v) : simd::u16_low_to_u32(v), o, keep);
      store_int32_lanes<To>(s ? simd::s16_high_to_s32(v) : simd::u16_high_to_u32(v), o + 4 * sizeof(To), keep);
    } else {
      const bool s = std::is_signed_v<From>;
      const v128 lo = s ? simd::s8_low_to_s16(v) : simd::u8_low_to_u16(v);
      const v128 hi = s ? simd::s8_high_to_s16(v) : simd::u8_high_to_u16(v);
      // 16-bit lanes hold the values exactly; widened as signed (a uint8
      // is below 2^15).
      store_int32_lanes<To>(simd::s16_low_to_s32(lo), o, keep);
      store_int32_lanes<To>(simd::s16_high_to_s32(lo), o + 4 * sizeof(To), keep);
      store_int32_lanes<To>(simd::s16_low_to_s32(hi), o + 8 * sizeof(To), keep);
      store_int32_lanes<To>(simd::s16_high_to_s32(hi), o + 12 * sizeof(To), keep);
    }
  }
  return i;
}

template <typename To>
size_t convert_simd(ValueType from, const uint8_t* in, size_t n, uint8_t* out) {
  switch (from) {
    case ValueType::kUint8: return convert_small_ints_simd<uint8_t, To>(in, n, out);
    case ValueType::kInt8: return convert_small_ints_simd<int8_t, To>(in, n, out);
    case ValueType::kUint16: return convert_small_ints_simd<uint16_t, To>(in, n, out);
    case ValueType::kInt16: return convert_small_ints_simd<int16_t, To>(in, n, out);
    case ValueType::kInt32: {
      const v128 keep = simd::splat_u32(simd::opaque(0xFFFFFFFFu));
      size_t i = 0;
      for (; i + 4 <= n; i += 4) store_int32_lanes<To>(simd::load(in + 4 * i), out + i * sizeof(To), keep);
      return i;
    }
    case ValueType::kFloat64: {
      if constexpr (sizeof(To) != 4) return 0;
      size_t i = 0;
      for (; i + 4 <= n; i += 4) {
        simd::store(out + 4 * i, simd::float64_to_float32(simd::load(in + 8 * i), simd::load(in + 8 * i + 16)));
      }
      return i;
    }
    case ValueType::kFloat32: {
      if constexpr (sizeof(To) != 8) return 0;
      size_t i = 0;
      for (; i + 4 <= n; i += 4) {
        const v128 v = simd::load(in + 4 * i);
        simd::store(out + 8 * i, simd::float32_low_to_float64(v));
        simd::store(out + 8 * i + 16, simd::float32_low_to_float64(simd::high_half(v)));
      }
      return i;
    }
    default:
      return 0;  // uint32 (no vector conversion from unsigned 32-bit lanes), float16, bfloat16
  }
}

size_t scale_offset_simd(bool f32, const uint8_t* in, size_t n, uint8_t* out, double scale, double offset) {
  size_t i = 0;
  if (f32) {
    const v128 s = simd::splat_f32(static_cast<float>(scale)), o = simd::splat_f32(static_cast<float>(offset));
    for (; i + 4 <= n; i += 4) simd::store(out + 4 * i, simd::add_f32(simd::div_f32(simd::load(in + 4 * i), s), o));
  } else {
    const v128 s = simd::splat_f64(scale), o = simd::splat_f64(offset);
    for (; i + 2 <= n; i += 2) simd::store(out + 8 * i, simd::add_f64(simd::div_f64(simd::load(in + 8 * i), s), o));
  }
  return i;
}
#endif

// Elements a SIMD loop did (0 where the build has none or impl is not kSimd).
size_t vector_part(Impl impl, const ValueStep& s, const uint8_t* in, size_t n, uint8_t* out) {
#if defined(ZCW_V128_AVAILABLE)
  if (impl != Impl::kSimd) return 0;
  if (s.op != ValueStep::Op::kConvert) return scale_offset_simd(s.to == ValueType::kFloat32, in, n, out, s.scale, s.offset);
  if (s.from == s.to) return 0;
  return s.to == ValueType::kFloat32 ? convert_simd<float>(s.from, in, n, out) : convert_simd<double>(s.from, in, n, out);
#else
  (void)impl, (void)s, (void)in, (void)n, (void)out;
  return 0;
#endif
}

}  // namespace

// The scale_offset page's rule, after the arithmetic: every intermediate
// and final value a number of the type; an infinity or NaN only where an
// operand was one (as ScaleOffsetCodec, js/array-to-array/typed-arithmetic.js).
// Where every result is finite (the common case) one pass that reads the
// output alone tells so.
template <typename F>
Status check_page_scale_offset(const uint8_t* in, size_t n, const uint8_t* out, F scale, F offset) {
  bool all_finite = true;
#pragma clang loop vectorize(disable)
  for (size_t i = 0; i < n; ++i) all_finite &= std::isfinite(load<F>(out, i));
  if (all_finite) return Status::Ok();
  const char* name = sizeof(F) == 4 ? "float32" : "float64";
  for (size_t i = 0; i < n; ++i) {
    const F x = load<F>(in, i);
    const F q = x / scale;
    const F r = q + offset;
    const bool q_bad = (std::isnan(q) && !std::isnan(x)) || (!std::isfinite(q) && std::isfinite(x) && std::isfinite(scale));
    const bool r_bad = (std::isnan(r) && !std::isnan(q) && !std::isnan(offset)) || (!std::isfinite(r) && std::isfinite(q) && std::isfinite(offset));
    if (q_bad || r_bad) {
      char text[160];
      std::snprintf(text, sizeof text, "scale_offset (%s) decode: %.17g gives %.17g, which %s %s", name, static_cast<double>(x),
                    static_cast<double>(q_bad ? q : r), std::isnan(q_bad ? q : r) ? "is no number of" : "overflows", name);
      return Status(ErrorCode::kValueOutOfRange, text);
    }
  }
  return Status::Ok();
}

Status run_value_step(Impl impl, const ValueStep& s, const uint8_t* in, size_t n, uint8_t* out) {
  // Whole vectors first, then the plain loops from where they stopped.
  const uint8_t* in0 = in;
  uint8_t* out0 = out;
  const size_t n0 = n;
  const size_t done = vector_part(impl, s, in, n, out);
  in += done * value_type_bytes(s.from);
  out += done * value_type_bytes(s.to);
  n -= done;
  if (s.op == ValueStep::Op::kConvert) {
    if (s.to == ValueType::kFloat32) convert_to<float>(impl, s.from, s.to, in, n, out);
    else convert_to<double>(impl, s.from, s.to, in, n, out);
    return Status::Ok();
  }
  const bool page = s.op == ValueStep::Op::kScaleOffset;
  if (s.to == ValueType::kFloat32) {
    const float scale = static_cast<float>(s.scale), offset = static_cast<float>(s.offset);
    scale_offset_loop<float>(in, n, out, scale, offset);
    return page ? check_page_scale_offset<float>(in0, n0, out0, scale, offset) : Status::Ok();
  }
  scale_offset_loop<double>(in, n, out, s.scale, s.offset);
  return page ? check_page_scale_offset<double>(in0, n0, out0, s.scale, s.offset) : Status::Ok();
}


}  // namespace zcw
