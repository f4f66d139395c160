#include "kernels/byteswap.h"

#include <cstring>

#include "simd/v128.h"

namespace zcw {
namespace {

// The spec, literally: byte i of a group goes to byte width-1-i.
void swap_reference(const uint8_t* src, uint8_t* dst, size_t groups,
                    unsigned width) {
  for (size_t g = 0; g < groups; ++g) {
    const uint8_t* s = src + g * width;
    uint8_t* d = dst + g * width;
    for (unsigned i = 0; i < width / 2; ++i) {
      uint8_t lo = s[i];
      uint8_t hi = s[width - 1 - i];
      d[i] = hi;
      d[width - 1 - i] = lo;
    }
    if (width % 2 == 1) d[width / 2] = s[width / 2];
  }
}

template <typename Word>
Word bswap_word(Word w);
template <>
uint16_t bswap_word(uint16_t w) { return __builtin_bswap16(w); }
template <>
uint32_t bswap_word(uint32_t w) { return __builtin_bswap32(w); }
template <>
uint64_t bswap_word(uint64_t w) { return __builtin_bswap64(w); }

// memcpy keeps unaligned access defined; compilers turn it into plain loads.
template <typename Word>
void swap_words(const uint8_t* src, uint8_t* dst, size_t groups) {
  for (size_t g = 0; g < groups; ++g) {
    Word w;
    std::memcpy(&w, src + g * sizeof(Word), sizeof(Word));
    w = bswap_word(w);
    std::memcpy(dst + g * sizeof(Word), &w, sizeof(Word));
  }
}

void swap_portable(const uint8_t* src, uint8_t* dst, size_t groups,
                   unsigned width) {
  switch (width) {
    case 2: return swap_words<uint16_t>(src, dst, groups);
    case 4: return swap_words<uint32_t>(src, dst, groups);
    case 8: return swap_words<uint64_t>(src, dst, groups);
    default: return swap_reference(src, dst, groups, width);
  }
}

#if defined(ZCW_V128_AVAILABLE)
// One byte shuffle reverses 16 / width groups at once; four vectors per
// iteration keep the loads ahead of the shuffles. The tail goes to the
// portable path, as simdutf hands its tails to scalar code.
template <unsigned Width>
void swap_simd_width(const uint8_t* src, uint8_t* dst, size_t groups) {
  alignas(16) uint8_t idx[16];
  for (unsigned i = 0; i < 16; ++i) {
    unsigned base = i - i % Width;
    idx[i] = static_cast<uint8_t>(base + (Width - 1 - i % Width));
  }
  const simd::v128 shuffle = simd::load(idx);
  const size_t bytes = groups * Width;
  size_t i = 0;
  for (; i + 64 <= bytes; i += 64) {
    simd::v128 a = simd::load(src + i);
    simd::v128 b = simd::load(src + i + 16);
    simd::v128 c = simd::load(src + i + 32);
    simd::v128 d = simd::load(src + i + 48);
    simd::store(dst + i, simd::shuffle_bytes(a, shuffle));
    simd::store(dst + i + 16, simd::shuffle_bytes(b, shuffle));
    simd::store(dst + i + 32, simd::shuffle_bytes(c, shuffle));
    simd::store(dst + i + 48, simd::shuffle_bytes(d, shuffle));
  }
  for (; i + 16 <= bytes; i += 16) {
    simd::store(dst + i, simd::shuffle_bytes(simd::load(src + i), shuffle));
  }
  swap_portable(src + i, dst + i, (bytes - i) / Width, Width);
}

void swap_simd(const uint8_t* src, uint8_t* dst, size_t groups,
               unsigned width) {
  switch (width) {
    case 2: return swap_simd_width<2>(src, dst, groups);
    case 4: return swap_simd_width<4>(src, dst, groups);
    case 8: return swap_simd_width<8>(src, dst, groups);
    default: return swap_reference(src, dst, groups, width);
  }
}
#endif

}  // namespace

void byteswap(Impl impl, const uint8_t* src, uint8_t* dst, size_t groups,
              unsigned width) {
  if (width < 2) {
    if (src != dst && groups) std::memcpy(dst, src, groups * width);
    return;
  }
  switch (impl) {
    case Impl::kReference: return swap_reference(src, dst, groups, width);
    case Impl::kPortable: return swap_portable(src, dst, groups, width);
    case Impl::kSimd:
#if defined(ZCW_V128_AVAILABLE)
      return swap_simd(src, dst, groups, width);
#else
      return swap_portable(src, dst, groups, width);
#endif
  }
}

void normalize_bool(Impl impl, const uint8_t* src, uint8_t* dst,
                    size_t count) {
  // One obvious loop: compilers vectorise it on every target, so the three
  // implementations share it.
  (void)impl;
  for (size_t i = 0; i < count; ++i) dst[i] = src[i] != 0;
}

}  // namespace zcw
