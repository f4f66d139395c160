// The few 128-bit vector operations the kernels use, over wasm SIMD128 or
// natively over SSE4.1. Kernels are written once against these; only this
// file knows the instruction sets. Shuffle indices must stay in 0..15 (the
// two instruction sets agree only there).
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
#else
using v128 = __m128i;
inline v128 load(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
inline void store(void* p, v128 v) { _mm_storeu_si128(static_cast<__m128i*>(p), v); }
inline v128 shuffle_bytes(v128 v, v128 idx) { return _mm_shuffle_epi8(v, idx); }
#endif

// A constant vector from 16 bytes (built through memory so both instruction
// sets share one spelling; compilers fold it to a constant load).
inline v128 bytes16(const uint8_t (&b)[16]) { return load(b); }

}  // namespace zcw::simd
#endif
