// SIMD kernels for the layouts viewers decode most: 1-bit masks, 2- and
// 4-bit values into bytes, and any width up to 15 bits into 8- or 16-bit
// containers (12-bit camera data, 10, 14, a middle bit range of int16,
// float6). Each does whole groups of 8 or 16 components while its 16-byte
// loads and stores stay inside the buffers, and reports how many it did; the
// portable path finishes the tail. Unlike the lane-interleaved formats of
// SIMD bit-packing libraries, Zarr's bit stream is continuous, so lanes
// gather their bytes with a shuffle. Kernels are templates on the bit width:
// every shift count must be a constant (see simd/v128.h).
#include <array>
#include <utility>

#include "kernels/packbits_kernels.h"
#include "simd/v128.h"

namespace zcw::packbits_impl {

#if defined(ZCW_V128_AVAILABLE)
namespace {

using simd::v128;

// ---- decode -------------------------------------------------------------

// 1 bit -> 1 byte: each packed byte is copied to 8 lanes, each lane tests
// its own bit. 16 packed bytes -> 128 values per iteration.
// Lane i of shuffle k takes packed byte 2k + i / 8; kBit keeps its own bit.
// Constant tables: small chunks pay for no set-up.
constexpr std::array<std::array<uint8_t, 16>, 8> kBits1Idx = [] {
  std::array<std::array<uint8_t, 16>, 8> t{};
  for (int k = 0; k < 8; ++k) {
    for (int i = 0; i < 16; ++i) t[k][i] = static_cast<uint8_t>(2 * k + i / 8);
  }
  return t;
}();
alignas(16) constexpr uint8_t kBit[16] = {1, 2, 4, 8, 16, 32, 64, 128,
                                          1, 2, 4, 8, 16, 32, 64, 128};

size_t decode_bits1_u8(const uint8_t* in, uint8_t* out, size_t n) {
  const v128 bit = simd::load(kBit);
  const v128 one = simd::splat_u8(1);
  v128 idx[8];
  for (int k = 0; k < 8; ++k) idx[k] = simd::load(kBits1Idx[k].data());
  size_t done = 0;
  for (; done + 128 <= n; done += 128, in += 16, out += 128) {
    const v128 x = simd::load(in);
    for (int k = 0; k < 8; ++k) {
      v128 v = simd::and_(simd::shuffle_bytes(x, idx[k]), bit);
      simd::store(out + 16 * k, simd::min_u8(v, one));
    }
  }
  return done;
}

// 2 or 4 bits -> 1 byte: lanes take their packed byte; for each position S
// in the byte, a 16-bit shift by S * B and a mask keeping only the lanes at
// that position. 16 packed bytes -> 128 / B values per iteration.
template <int B, int S = 0>
v128 take_positions(v128 v, const uint8_t (*keep)[16]) {
  v128 r = simd::and_(simd::shr_u16<S * B>(v), simd::load(keep[S]));
  if constexpr (S + 1 < 8 / B) r = simd::or_(r, take_positions<B, S + 1>(v, keep));
  return r;
}

template <int B>
size_t decode_small_u8(const uint8_t* in, uint8_t* out, size_t n) {
  constexpr int kPerByte = 8 / B;
  constexpr int kInPerVector = 16 / kPerByte;  // packed bytes per 16 values
  alignas(16) uint8_t idx[kPerByte][16];
  alignas(16) uint8_t keep[kPerByte][16];
  for (int g = 0; g < kPerByte; ++g) {
    for (int i = 0; i < 16; ++i) {
      idx[g][i] = static_cast<uint8_t>(g * kInPerVector + i / kPerByte);
      keep[g][i] = i % kPerByte == g ? static_cast<uint8_t>((1 << B) - 1) : 0;
    }
  }
  constexpr size_t kPerIteration = 16 * kPerByte;
  size_t done = 0;
  for (; done + kPerIteration <= n;
       done += kPerIteration, in += 16, out += kPerIteration) {
    const v128 x = simd::load(in);
    for (int g = 0; g < kPerByte; ++g) {
      const v128 v = simd::shuffle_bytes(x, simd::load(idx[g]));
      simd::store(out + 16 * g, take_positions<B>(v, keep));
    }
  }
  return done;
}

// Does every one of 8 consecutive B-bit values lie within the 2 bytes
// starting at its first byte? (B <= 10, and B = 12.)
constexpr bool fits_window16(int b) {
  for (int i = 0; i < 8; ++i) {
    if ((i * b) % 8 + b > 16) return false;
  }
  return true;
}

// 8 values of B bits from B packed bytes, each within a 2-byte window. Each
// 16-bit lane takes its window; multiplying by 2^(16 - B - s) (s: the
// value's bit offset in its first byte) moves the value to the top of the
// lane, a per-lane left shift SIMD128 lacks; one shift right by 16 - B
// brings it down alone. Three operations per 8 values.
template <int B>
struct Window16 {
  // Lane i's window: bytes (i * B) / 8 and the next.
  static constexpr std::array<uint8_t, 16> kIdx = [] {
    std::array<uint8_t, 16> t{};
    for (int i = 0; i < 8; ++i) {
      t[2 * i] = static_cast<uint8_t>(i * B / 8);
      t[2 * i + 1] = static_cast<uint8_t>(i * B / 8 + 1);
    }
    return t;
  }();
  v128 idx, mul;
  Window16() : idx(simd::load(kIdx.data())) {
    alignas(16) uint16_t factor[8];
    for (int i = 0; i < 8; ++i) {
      factor[i] = static_cast<uint16_t>(simd::opaque(1u << (16 - B - i * B % 8)));
    }
    mul = simd::load(factor);
  }
  v128 operator()(const uint8_t* in) const {
    // A swizzle by a loaded index vector: V8 compiles this constant-free
    // form better than a compile-time i8x16.shuffle (30 vs 16 GB/s here).
    const v128 window = simd::shuffle_bytes(simd::load(in), idx);
    return simd::shr_u16<16 - B>(simd::mul_u16(window, mul));
  }
};

// 8 values of B bits (any B <= 15) from B packed bytes, in two vectors of
// 32-bit lanes: each lane takes the 3 bytes its value touches; a multiply by
// 2^(8 - s) and a shift right by 8 shift it right by its own s.
template <int B>
struct Gather32 {
  // Values 0..3 (H = 0) or 4..7 (H = 1): 3 bytes and a zero per lane.
  template <int H>
  static constexpr std::array<uint8_t, 16> kIdx = [] {
    std::array<uint8_t, 16> t{};
    for (int j = 0; j < 4; ++j) {
      const int bit = (4 * H + j) * B;
      for (int k = 0; k < 4; ++k) {
        t[4 * j + k] = k < 3 ? static_cast<uint8_t>(bit / 8 + k) : 0x80;
      }
    }
    return t;
  }();
  v128 idx_lo, idx_hi, mul_lo, mul_hi, mask;
  Gather32() : idx_lo(simd::load(kIdx<0>.data())), idx_hi(simd::load(kIdx<1>.data())) {
    alignas(16) uint32_t mul[2][4];
    for (int i = 0; i < 8; ++i) {
      mul[i / 4][i % 4] = simd::opaque(1u << (8 - i * B % 8));
    }
    mul_lo = simd::load(mul[0]);
    mul_hi = simd::load(mul[1]);
    mask = simd::splat_u32((1u << B) - 1);
  }
  v128 operator()(const uint8_t* in) const {
    const v128 x = simd::load(in);
    v128 lo = simd::shuffle_bytes(x, idx_lo);
    v128 hi = simd::shuffle_bytes(x, idx_hi);
    lo = simd::and_(simd::shr_u32<8>(simd::mul_u32(lo, mul_lo)), mask);
    hi = simd::and_(simd::shr_u32<8>(simd::mul_u32(hi, mul_hi)), mask);
    return simd::narrow_u32_to_u16(lo, hi);
  }
};

template <int B>
using Gather16Bit = std::conditional_t<fits_window16(B), Window16<B>, Gather32<B>>;

// How many groups of `per_group` values a kernel can do when each group
// reads `read` bytes at an offset of `step` bytes per group: all full groups
// whose reads stay inside `in_bytes`.
inline size_t whole_groups(size_t n, size_t per_group, size_t in_bytes,
                           size_t step, size_t read) {
  const size_t by_count = n / per_group;
  if (in_bytes < read) return 0;
  const size_t by_input = (in_bytes - read) / step + 1;
  return by_count < by_input ? by_count : by_input;
}

// B bits -> 16-bit containers. Shift: first_bit > 0, done as a multiply by
// 2^first_bit; Extend: signed, (v ^ sign) - sign spreads the sign bit up.
// Both are template parameters so the loop has no branch in it.
// 16 values per iteration: 16 bytes read at the group's start and at B
// bytes further on.
template <int B, bool Shift, bool Extend>
size_t decode_u16(const PackBitsLayout& l, const uint8_t* in, uint8_t* out,
                  size_t n) {
  const Gather16Bit<B> gather;
  const v128 up = simd::splat_u16(static_cast<uint16_t>(1u << l.first_bit));
  const v128 sign = simd::splat_u16(static_cast<uint16_t>(1u << (l.first_bit + B - 1)));
  const size_t groups = whole_groups(n, 16, (uint64_t{n} * B + 7) / 8, 2 * B, B + 16);
  for (size_t g = 0; g < groups; ++g, in += 2 * B, out += 32) {
    v128 lo = gather(in);
    v128 hi = gather(in + B);
    if constexpr (Shift) {
      lo = simd::mul_u16(lo, up);
      hi = simd::mul_u16(hi, up);
    }
    if constexpr (Extend) {
      lo = simd::sub_u16(simd::xor_(lo, sign), sign);
      hi = simd::sub_u16(simd::xor_(hi, sign), sign);
    }
    simd::store(out, lo);
    simd::store(out + 16, hi);
  }
  return 16 * groups;
}

// B < 8 bits -> bytes: two gathers of 8, narrowed to 16 bytes.
template <int B, bool Shift, bool Extend>
size_t decode_u8(const PackBitsLayout& l, const uint8_t* in, uint8_t* out,
                 size_t n) {
  const Window16<B> gather;  // B < 8 always fits a 2-byte window
  const v128 up = simd::splat_u16(static_cast<uint16_t>(1u << l.first_bit));
  const v128 sign = simd::splat_u8(static_cast<uint8_t>(1u << (l.first_bit + B - 1)));
  const size_t groups = whole_groups(n, 16, (uint64_t{n} * B + 7) / 8, 2 * B, B + 16);
  for (size_t g = 0; g < groups; ++g, in += 2 * B, out += 16) {
    v128 lo = gather(in);
    v128 hi = gather(in + B);
    if constexpr (Shift) {
      lo = simd::mul_u16(lo, up);
      hi = simd::mul_u16(hi, up);
    }
    v128 v = simd::narrow_u16_to_u8(lo, hi);
    if constexpr (Extend) v = simd::sub_u8(simd::xor_(v, sign), sign);
    simd::store(out, v);
  }
  return 16 * groups;
}

using Kernel = size_t (*)(const PackBitsLayout&, const uint8_t*, uint8_t*, size_t);

// One instantiation per bit width, chosen once per call.
template <template <int> class K, int... Bs>
constexpr std::array<Kernel, sizeof...(Bs) + 1> table(std::integer_sequence<int, Bs...>) {
  return {{nullptr, &K<Bs + 1>::run...}};
}
// The four loop variants of one width, chosen once per call.
template <int B>
struct DecodeU16 {
  static size_t run(const PackBitsLayout& l, const uint8_t* in, uint8_t* out, size_t n) {
    const bool shift = l.first_bit != 0;
    if (l.sign_extend) {
      return shift ? decode_u16<B, true, true>(l, in, out, n)
                   : decode_u16<B, false, true>(l, in, out, n);
    }
    return shift ? decode_u16<B, true, false>(l, in, out, n)
                 : decode_u16<B, false, false>(l, in, out, n);
  }
};
template <int B>
struct DecodeU8 {
  static size_t run(const PackBitsLayout& l, const uint8_t* in, uint8_t* out, size_t n) {
    const bool shift = l.first_bit != 0;
    if (l.sign_extend) {
      return shift ? decode_u8<B, true, true>(l, in, out, n)
                   : decode_u8<B, false, true>(l, in, out, n);
    }
    return shift ? decode_u8<B, true, false>(l, in, out, n)
                 : decode_u8<B, false, false>(l, in, out, n);
  }
};
constexpr auto kDecodeU16 = table<DecodeU16>(std::make_integer_sequence<int, 15>());
constexpr auto kDecodeU8 = table<DecodeU8>(std::make_integer_sequence<int, 7>());

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
      bits = simd::top_bits_u8(simd::shl_u16<7>(x));
    }
    out[0] = static_cast<uint8_t>(bits);
    out[1] = static_cast<uint8_t>(bits >> 8);
  }
  return done;
}

// 2 or 4 bits from each byte: neighbours merge pairwise in 16-bit lanes
// (low | high << B), narrowing to bytes until the values fill whole bytes.
template <int B>
size_t encode_small_u8(const uint8_t* in, uint8_t* out, size_t n) {
  const v128 mask = simd::splat_u8((1 << B) - 1);
  const v128 lo8 = simd::splat_u16(0x00FF);
  // 32 values -> 4 * B bytes; the store writes 16, so it needs that room.
  const size_t out_bytes = (uint64_t{n} * B + 7) / 8;
  size_t done = 0;
  for (; done + 32 <= n && done * B / 8 + 16 <= out_bytes; done += 32) {
    v128 a = simd::and_(simd::load(in + done), mask);
    v128 c = simd::and_(simd::load(in + done + 16), mask);
    // byte 2k | byte 2k+1 << B, in the low byte of each 16-bit lane.
    a = simd::and_(simd::or_(a, simd::shr_u16<8 - B>(a)), lo8);
    c = simd::and_(simd::or_(c, simd::shr_u16<8 - B>(c)), lo8);
    v128 v = simd::narrow_u16_to_u8(a, c);
    if constexpr (B == 2) {  // once more: 4-bit pairs into bytes
      v = simd::and_(simd::or_(v, simd::shr_u16<4>(v)), lo8);
      v = simd::narrow_u16_to_u8(v, simd::zero());
    }
    simd::store(out + done * B / 8, v);
  }
  return done;
}

// Even B in 2..14 from 16-bit containers, bits F..F+B-1: 8 values -> B
// bytes. Pairs merge into 32-bit lanes, then 64-bit lanes (4 values, 4B
// bits: whole bytes as B is even), and a shuffle closes the gap between the
// two halves. F is a template parameter too: a run-time shift count would be
// scalarised (simd/v128.h).
template <int B, int F>
size_t encode_even_u16(const uint8_t* in, uint8_t* out, size_t n) {
  const v128 mask = simd::splat_u16(static_cast<uint16_t>((1u << B) - 1));
  const v128 lo16 = simd::splat_u32(0xFFFF);
  alignas(16) static const uint32_t kLo32[4] = {0xFFFFFFFFu, 0, 0xFFFFFFFFu, 0};
  const v128 lo32 = simd::load(kLo32);
  alignas(16) uint8_t idx[16];
  constexpr int kHalf = B / 2;  // bytes per 64-bit lane (4B bits)
  for (int i = 0; i < 16; ++i) {
    idx[i] = i < kHalf ? static_cast<uint8_t>(i)
             : i < 2 * kHalf ? static_cast<uint8_t>(8 + i - kHalf)
                             : 0x80;
  }
  const v128 compact = simd::load(idx);
  // Each group writes 16 bytes, of which B are its own.
  const size_t groups = whole_groups(n, 8, (uint64_t{n} * B + 7) / 8, B, 16);
  for (size_t g = 0; g < groups; ++g, in += 16, out += B) {
    v128 v = simd::and_(simd::shr_u16<F>(simd::load(in)), mask);
    v = simd::or_(simd::and_(v, lo16), simd::shl_u32<B>(simd::shr_u32<16>(v)));
    v = simd::or_(simd::and_(v, lo32), simd::shl_u64<2 * B>(simd::shr_u64<32>(v)));
    simd::store(out, simd::shuffle_bytes(v, compact));
  }
  return 8 * groups;
}

// Entry I of the (B, F) table: B = I / 16 + 1, F = I % 16. Odd widths and
// bit ranges past the container are left to the portable path.
template <int I>
struct EncodeU16 {
  static constexpr int B = I / 16 + 1;
  static constexpr int F = I % 16;
  static size_t run(const PackBitsLayout&, const uint8_t* in, uint8_t* out, size_t n) {
    if constexpr (B % 2 == 0 && B <= 14 && F + B <= 16) {
      return encode_even_u16<B, F>(in, out, n);
    } else {
      (void)in, (void)out, (void)n;
      return 0;
    }
  }
};
template <int... Is>
constexpr std::array<Kernel, sizeof...(Is)> encode_u16_table(std::integer_sequence<int, Is...>) {
  return {{&EncodeU16<Is>::run...}};
}
constexpr auto kEncodeU16 = encode_u16_table(std::make_integer_sequence<int, 15 * 16>());

}  // namespace

size_t decode_simd(const PackBitsLayout& l, const uint8_t* in, uint8_t* out,
                   size_t n) {
  if (l.container_bytes == 1 && l.first_bit == 0 && !l.sign_extend) {
    if (l.bits == 1) return decode_bits1_u8(in, out, n);
    if (l.bits == 2) return decode_small_u8<2>(in, out, n);
    if (l.bits == 4) return decode_small_u8<4>(in, out, n);
  }
  if (l.container_bytes == 1 && l.bits < 8) return kDecodeU8[l.bits](l, in, out, n);
  if (l.container_bytes == 2 && l.bits < 16) return kDecodeU16[l.bits](l, in, out, n);
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
  if (l.container_bytes == 2 && l.bits < 16) {
    return kEncodeU16[(l.bits - 1) * 16 + l.first_bit](l, in, out, n);
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
