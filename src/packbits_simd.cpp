// SIMD kernels for the layouts viewers decode most: 1-bit masks, 2- and
// 4-bit values into bytes, and any width up to 16 bits into 8- or 16-bit
// containers (12-bit camera data, 10, 14, a middle bit range of int16,
// float6). Each does whole groups of 8 components while a full 16-byte
// load and store stay inside the buffers, and reports how many it did; the
// portable path finishes the tail. Unlike the lane-interleaved formats of
// SIMD bit-packing libraries, Zarr's bit stream is continuous, so lanes
// gather their bytes with a shuffle.
#include "packbits_kernels.h"
#include "simd/v128.h"

namespace zcw::packbits_impl {

#if defined(ZCW_V128_AVAILABLE)
namespace {

using simd::v128;

// ---- decode -------------------------------------------------------------

// 1 bit -> 1 byte: each packed byte is copied to 8 lanes, each lane tests
// its own bit. 16 packed bytes -> 128 values per iteration.
size_t decode_bits1_u8(const uint8_t* in, uint8_t* out, size_t n) {
  static const uint8_t kBit[16] = {1, 2, 4, 8, 16, 32, 64, 128,
                                   1, 2, 4, 8, 16, 32, 64, 128};
  const v128 bit = simd::load(kBit);
  const v128 one = simd::splat_u8(1);
  size_t done = 0;
  for (; done + 128 <= n; done += 128, in += 16, out += 128) {
    const v128 x = simd::load(in);
    for (int k = 0; k < 8; ++k) {
      alignas(16) uint8_t idx[16];
      for (int i = 0; i < 16; ++i) idx[i] = static_cast<uint8_t>(2 * k + i / 8);
      v128 v = simd::and_(simd::shuffle_bytes(x, simd::load(idx)), bit);
      simd::store(out + 16 * k, simd::min_u8(v, one));
    }
  }
  return done;
}

// 2 or 4 bits -> 1 byte: lanes take their packed byte, then a 16-bit shift
// per position and a mask that keeps only the lanes at that position.
// 16 packed bytes -> 128 / B values per iteration.
template <int B>
size_t decode_small_u8(const uint8_t* in, uint8_t* out, size_t n) {
  constexpr int kPerByte = 8 / B;
  constexpr int kInPerVector = 16 / kPerByte;  // packed bytes per 16 values
  alignas(16) uint8_t idx[kPerByte][16];
  alignas(16) uint8_t keep[kPerByte][16];
  for (int g = 0; g < kPerByte; ++g) {
    for (int i = 0; i < 16; ++i) {
      idx[g][i] = static_cast<uint8_t>(g * kInPerVector + i / kPerByte);
    }
  }
  for (int s = 0; s < kPerByte; ++s) {
    for (int i = 0; i < 16; ++i) {
      keep[s][i] = i % kPerByte == s ? static_cast<uint8_t>((1 << B) - 1) : 0;
    }
  }
  constexpr size_t kPerIteration = 16 * kPerByte;  // from 16 packed bytes
  size_t done = 0;
  for (; done + kPerIteration <= n;
       done += kPerIteration, in += 16, out += kPerIteration) {
    const v128 x = simd::load(in);
    for (int g = 0; g < kPerByte; ++g) {
      const v128 v = simd::shuffle_bytes(x, simd::load(idx[g]));
      v128 r = simd::and_(v, simd::load(keep[0]));
      for (int s = 1; s < kPerByte; ++s) {
        r = simd::or_(r, simd::and_(simd::shr_u16(v, s * B), simd::load(keep[s])));
      }
      simd::store(out + 16 * g, r);
    }
  }
  return done;
}

// Any b in 1..16: 8 values from b packed bytes, in two vectors of 32-bit
// lanes. Each lane gathers the 3 bytes its value touches, then a multiply
// by 2^(8 - s) and a shift right by 8 shift it right by its own s (the bit
// offset in its first byte): a per-lane shift SIMD128 does not have.
struct Gather16 {
  v128 idx_lo, idx_hi, mul_lo, mul_hi, mask;
  explicit Gather16(uint32_t b) {
    alignas(16) uint8_t idx[2][16];
    alignas(16) uint32_t mul[2][4];
    for (int i = 0; i < 8; ++i) {
      const uint32_t bit = i * b;
      for (int k = 0; k < 4; ++k) {
        idx[i / 4][4 * (i % 4) + k] =
            k < 3 ? static_cast<uint8_t>(bit / 8 + k) : 0x80;
      }
      mul[i / 4][i % 4] = 1u << (8 - bit % 8);
    }
    idx_lo = simd::load(idx[0]);
    idx_hi = simd::load(idx[1]);
    mul_lo = simd::load(mul[0]);
    mul_hi = simd::load(mul[1]);
    mask = simd::splat_u32((1u << b) - 1);
  }
  // 8 values as u16 lanes from 16 bytes at `in` (b of them are used).
  v128 operator()(const uint8_t* in) const {
    const v128 x = simd::load(in);
    v128 lo = simd::shuffle_bytes(x, idx_lo);
    v128 hi = simd::shuffle_bytes(x, idx_hi);
    lo = simd::and_(simd::shr_u32(simd::mul_u32(lo, mul_lo), 8), mask);
    hi = simd::and_(simd::shr_u32(simd::mul_u32(hi, mul_hi), 8), mask);
    return simd::narrow_u32_to_u16(lo, hi);
  }
};

size_t decode_gather_u16(const PackBitsLayout& l, const uint8_t* in,
                         uint8_t* out, size_t n) {
  const uint32_t b = l.bits;
  const Gather16 gather(b);
  const uint32_t last = l.first_bit + b - 1;
  const v128 sign = simd::splat_u16(static_cast<uint16_t>(1u << last));
  const size_t in_bytes = (uint64_t{n} * b + 7) / 8;
  size_t done = 0;
  // 8 values read 16 bytes from in + done * b / 8.
  for (; done + 8 <= n && done / 8 * b + 16 <= in_bytes; done += 8) {
    v128 v = simd::shl_u16(gather(in + done / 8 * b), l.first_bit);
    if (l.sign_extend) v = simd::sub_u16(simd::xor_(v, sign), sign);
    simd::store(out + 2 * done, v);
  }
  return done;
}

size_t decode_gather_u8(const PackBitsLayout& l, const uint8_t* in,
                        uint8_t* out, size_t n) {
  const uint32_t b = l.bits;
  const Gather16 gather(b);
  const uint32_t last = l.first_bit + b - 1;
  const v128 sign = simd::splat_u8(static_cast<uint8_t>(1u << last));
  const size_t in_bytes = (uint64_t{n} * b + 7) / 8;
  size_t done = 0;
  // 16 values: two gathers of 8, b bytes apart.
  for (; done + 16 <= n && done / 8 * b + b + 16 <= in_bytes; done += 16) {
    const uint8_t* p = in + done / 8 * b;
    v128 lo = simd::shl_u16(gather(p), l.first_bit);
    v128 hi = simd::shl_u16(gather(p + b), l.first_bit);
    v128 v = simd::narrow_u16_to_u8(lo, hi);
    if (l.sign_extend) v = simd::sub_u8(simd::xor_(v, sign), sign);
    simd::store(out + done, v);
  }
  return done;
}

// ---- encode -------------------------------------------------------------

// 1 byte -> 1 bit: the top bit of each byte after moving the kept bit
// there; bool tests for non-zero instead.
size_t encode_bits1_u8(const PackBitsLayout& l, const uint8_t* in,
                       uint8_t* out, size_t n) {
  size_t done = 0;
  for (; done + 16 <= n; done += 16, in += 16, out += 2) {
    const v128 x = simd::load(in);
    uint32_t bits;
    if (l.is_bool) {
      bits = ~simd::top_bits_u8(simd::eq_u8(x, simd::zero())) & 0xFFFF;
    } else {
      // A 16-bit shift moves each byte's bit 0 to its own bit 7.
      bits = simd::top_bits_u8(simd::shl_u16(x, 7));
    }
    out[0] = static_cast<uint8_t>(bits);
    out[1] = static_cast<uint8_t>(bits >> 8);
  }
  return done;
}

// 2 or 4 bits from each byte: neighbours merge pairwise in 16-bit lanes
// (low | high << B), narrowing to bytes until B * pairs fills a byte.
template <int B>
size_t encode_small_u8(const uint8_t* in, uint8_t* out, size_t n) {
  const v128 mask = simd::splat_u8((1 << B) - 1);
  size_t done = 0;
  // 32 values -> 32 * B / 8 bytes; the store writes 16 bytes of which
  // 4 * B are kept, so it needs that much room.
  const size_t out_bytes = (uint64_t{n} * B + 7) / 8;
  for (; done + 32 <= n && done * B / 8 + 16 <= out_bytes; done += 32) {
    v128 a = simd::and_(simd::load(in + done), mask);
    v128 c = simd::and_(simd::load(in + done + 16), mask);
    const v128 lo8 = simd::splat_u16(0x00FF);
    // Pairs: byte 2k | byte 2k+1 << B, in the low byte of each 16-bit lane.
    a = simd::or_(simd::and_(a, lo8), simd::shr_u16(a, 8 - B));
    c = simd::or_(simd::and_(c, lo8), simd::shr_u16(c, 8 - B));
    v128 v = simd::narrow_u16_to_u8(simd::and_(a, lo8), simd::and_(c, lo8));
    if (B == 2) {  // once more: 4-bit pairs into bytes
      v = simd::or_(simd::and_(v, lo8), simd::shr_u16(v, 4));
      v = simd::narrow_u16_to_u8(simd::and_(v, lo8), simd::zero());
    }
    simd::store(out + done * B / 8, v);
  }
  return done;
}

// Even b in 2..16 from 16-bit containers: 8 values -> b bytes. Pairs merge
// into 32-bit lanes, then 64-bit lanes (4 values, 4b bits, a whole number of
// bytes as b is even), then a shuffle closes the gap between the two halves.
size_t encode_even_u16(const PackBitsLayout& l, const uint8_t* in,
                       uint8_t* out, size_t n) {
  const uint32_t b = l.bits;
  const v128 mask = simd::splat_u16(static_cast<uint16_t>((1u << b) - 1));
  const v128 lo16 = simd::splat_u32(0xFFFF);
  alignas(16) uint32_t lo32_words[4] = {0xFFFFFFFFu, 0, 0xFFFFFFFFu, 0};
  const v128 lo32 = simd::load(lo32_words);
  alignas(16) uint8_t idx[16];
  const uint32_t half = b / 2;  // bytes per 64-bit lane (4b bits)
  for (uint32_t i = 0; i < 16; ++i) {
    idx[i] = i < half ? static_cast<uint8_t>(i)
             : i < 2 * half ? static_cast<uint8_t>(8 + i - half)
                            : 0x80;
  }
  const v128 compact = simd::load(idx);
  const size_t out_bytes = (uint64_t{n} * b + 7) / 8;
  size_t done = 0;
  for (; done + 8 <= n && done / 8 * b + 16 <= out_bytes; done += 8) {
    v128 v = simd::and_(simd::shr_u16(simd::load(in + 2 * done), l.first_bit), mask);
    v = simd::or_(simd::and_(v, lo16), simd::shl_u32(simd::shr_u32(v, 16), b));
    v = simd::or_(simd::and_(v, lo32), simd::shl_u64(simd::shr_u64(v, 32), 2 * b));
    simd::store(out + done / 8 * b, simd::shuffle_bytes(v, compact));
  }
  return done;
}

}  // namespace

size_t decode_simd(const PackBitsLayout& l, const uint8_t* in, uint8_t* out,
                   size_t n) {
  if (l.container_bytes == 1 && l.first_bit == 0 && !l.sign_extend) {
    if (l.bits == 1) return decode_bits1_u8(in, out, n);
    if (l.bits == 2) return decode_small_u8<2>(in, out, n);
    if (l.bits == 4) return decode_small_u8<4>(in, out, n);
  }
  if (l.container_bytes == 1 && l.bits < 8) return decode_gather_u8(l, in, out, n);
  if (l.container_bytes == 2 && l.bits < 16) return decode_gather_u16(l, in, out, n);
  return 0;
}

size_t encode_simd(const PackBitsLayout& l, const uint8_t* in, uint8_t* out,
                   size_t n) {
  if (l.container_bytes == 1 && l.first_bit == 0) {
    if (l.bits == 1) return encode_bits1_u8(l, in, out, n);
    if (l.is_bool) return 0;
    if (l.bits == 2) return encode_small_u8<2>(in, out, n);
    if (l.bits == 4) return encode_small_u8<4>(in, out, n);
  }
  if (l.container_bytes == 2 && l.bits % 2 == 0 && l.bits < 16) {
    return encode_even_u16(l, in, out, n);
  }
  return 0;
}

#else  // no SIMD in this build: everything goes to the portable path

size_t decode_simd(const PackBitsLayout&, const uint8_t*, uint8_t*, size_t) {
  return 0;
}
size_t encode_simd(const PackBitsLayout&, const uint8_t*, uint8_t*, size_t) {
  return 0;
}

#endif

}  // namespace zcw::packbits_impl
