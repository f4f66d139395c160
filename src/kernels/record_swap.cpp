#include "kernels/record_swap.h"

#include <cstring>
#include <numeric>

#include "simd/v128.h"

namespace zcw {

RecordSwapper::RecordSwapper(const RecordLayout& layout, bool codec_big)
    : record_bytes_(static_cast<uint32_t>(layout.bytes)),
      swaps_(layout.swaps_for(codec_big)) {
  source_.resize(record_bytes_);
  std::iota(source_.begin(), source_.end(), 0u);
  for (const RecordLayout::Swap& s : swaps_) {
    for (uint32_t i = 0; i < s.width; ++i) {
      source_[s.offset + i] = s.offset + s.width - 1 - i;
    }
  }
  if (record_bytes_ > kMaxSimdRecord) return;
  period_ = record_bytes_ / std::gcd(record_bytes_, 16u);
  // Three entries more than the period: run_simd reads four at a time.
  low_.resize(16 * (size_t{period_} + 3));
  high_.resize(16 * (size_t{period_} + 3));
  for (uint32_t v = 0; v < period_ + 3; ++v) {
    for (uint32_t j = 0; j < 16; ++j) {
      const uint32_t at = 16 * v + j;
      const uint32_t pos = at % record_bytes_;
      // Where the byte comes from, counted from 8 bytes before the vector:
      // 1..22, as a field moves a byte by at most 7.
      const uint32_t from = j + 8 + source_[pos] - pos;
      low_[16 * v + j] = from < 16 ? static_cast<uint8_t>(from) : 0x80;
      high_[16 * v + j] = from >= 16 ? static_cast<uint8_t>(from - 16) : 0x80;
    }
  }
}

// The layout followed literally: each byte of [begin, end) from its source.
void RecordSwapper::run_reference(const uint8_t* in, uint8_t* out,
                                  size_t begin, size_t end) const {
  for (size_t at = begin; at < end; ++at) {
    const size_t pos = at % record_bytes_;
    out[at] = in[at - pos + source_[pos]];
  }
}

// One copy of the records, then each field reversed in place, a word at a
// time (memcpy keeps unaligned access defined).
void RecordSwapper::run_by_field(const uint8_t* in, uint8_t* out,
                                 size_t records) const {
  std::memcpy(out, in, records * record_bytes_);
  for (size_t r = 0; r < records; ++r) {
    uint8_t* rec = out + r * record_bytes_;
    for (const RecordLayout::Swap& s : swaps_) {
      uint8_t* p = rec + s.offset;
      if (s.width == 2) {
        uint16_t w;
        std::memcpy(&w, p, 2);
        w = __builtin_bswap16(w);
        std::memcpy(p, &w, 2);
      } else if (s.width == 4) {
        uint32_t w;
        std::memcpy(&w, p, 4);
        w = __builtin_bswap32(w);
        std::memcpy(p, &w, 4);
      } else {
        uint64_t w;
        std::memcpy(&w, p, 8);
        w = __builtin_bswap64(w);
        std::memcpy(p, &w, 8);
      }
    }
  }
}

void RecordSwapper::run_simd(const uint8_t* in, uint8_t* out,
                             size_t records) const {
#if defined(ZCW_V128_AVAILABLE)
  const size_t bytes = records * record_bytes_;
  // The first vector would load 8 bytes before `in`: done byte by byte.
  run_reference(in, out, 0, bytes < 16 ? bytes : 16);
  size_t at = 16;
  uint32_t p = 1 % period_;
  const uint8_t* low = low_.data();
  const uint8_t* high = high_.data();
  // Each vector also loads the 8 bytes after it, so the loops stop 8 bytes
  // short of the end and the reference finishes. Four vectors a step: the
  // tables hold three entries past the period, so entries p..p+3 never wrap
  // inside a step.
  for (; at + 64 + 8 <= bytes; at += 64) {
    const uint8_t* l = low + 16 * p;
    const uint8_t* h = high + 16 * p;
    for (int k = 0; k < 4; ++k) {
      const uint8_t* src = in + at + 16 * k;
      simd::store(out + at + 16 * k,
                  simd::or_(simd::shuffle_bytes(simd::load(src - 8), simd::load(l + 16 * k)),
                            simd::shuffle_bytes(simd::load(src + 8), simd::load(h + 16 * k))));
    }
    p += 4;
    while (p >= period_) p -= period_;
  }
  for (; at + 16 + 8 <= bytes; at += 16) {
    simd::store(out + at, simd::or_(simd::shuffle_bytes(simd::load(in + at - 8), simd::load(low + 16 * p)),
                                    simd::shuffle_bytes(simd::load(in + at + 8), simd::load(high + 16 * p))));
    if (++p == period_) p = 0;
  }
  run_reference(in, out, at, bytes);
#else
  run_by_field(in, out, records);
#endif
}

void RecordSwapper::run(Impl impl, const uint8_t* in, uint8_t* out,
                        size_t records) const {
  if (swaps_.empty()) {
    if (records) std::memcpy(out, in, records * record_bytes_);
    return;
  }
  switch (impl) {
    case Impl::kReference:
      return run_reference(in, out, 0, records * record_bytes_);
    case Impl::kPortable:
      return run_by_field(in, out, records);
    case Impl::kSimd:
      if (period_ == 0) return run_by_field(in, out, records);
      return run_simd(in, out, records);
  }
}

}  // namespace zcw
