#include "kernels/narrow.h"

#include <cstring>

namespace zcw {
namespace {

// sig * 2^-shift rounded to nearest, ties to even; `tie_up` decides a tie
// where evenness is not q's own (float8_e8m0fnu).
uint64_t round_shift(uint64_t sig, int shift, bool* tie) {
  *tie = false;
  if (shift <= 0) return sig << -shift;
  if (shift > 62) return 0;  // sig < 2^24: far below half an ulp
  const uint64_t q = sig >> shift;
  const uint64_t rem = sig & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (rem == half) {
    *tie = true;
    return q;
  }
  return q + (rem > half);
}

int bit_length(uint64_t v) {
  int n = 0;
  while (v) {
    ++n;
    v >>= 1;
  }
  return n;
}

}  // namespace

bool narrow_float32(const FloatFormat& f, uint32_t u, uint32_t* code) {
  const uint32_t sign = u >> 31;
  const uint32_t a = u & 0x7FFFFFFFu;
  const bool is_nan = a > 0x7F800000u;
  const bool is_inf = a == 0x7F800000u;
  const uint32_t sign_bit = sign ? f.sign_bit() : 0;
  const uint32_t M = f.mantissa_bits;

  // The special values, by kind.
  switch (f.kind) {
    case FloatKind::kFn:
      if (is_nan || is_inf) return false;
      break;
    case FloatKind::kE8m0:
      if (is_nan) return *code = f.nan_code, true;
      if (sign || a == 0) return false;  // no sign, no zero
      if (is_inf) return *code = f.nan_code, true;
      break;
    case FloatKind::kFnuz:
      if (is_nan || is_inf) return *code = f.nan_code, true;
      break;
    case FloatKind::kIeee:
      if (is_nan) return *code = f.nan_code, true;
      if (is_inf) {
        *code = sign_bit | (((1u << f.exponent_bits) - 1) << M);
        return true;
      }
      break;
  }
  if (a == 0) {
    *code = f.kind == FloatKind::kFnuz ? 0 : sign_bit;
    return true;
  }

  // |x| = sig * 2^exp2, exactly.
  const uint32_t field = a >> 23;
  const uint64_t sig = field ? (a & 0x7FFFFFu) | 0x800000u : a & 0x7FFFFFu;
  const int exp2 = field ? static_cast<int>(field) - 150 : -149;
  const int top = exp2 + bit_length(sig) - 1;  // floor(log2 |x|)
  bool tie = false;

  if (f.kind == FloatKind::kE8m0) {
    // Powers of two 2^-127 .. 2^127; the nearest, ties to the even code.
    const int e = top < -127 ? -127 : top;
    uint64_t q = round_shift(sig, e - exp2, &tie);  // 0, 1 or 2
    uint32_t c = static_cast<uint32_t>(e + 127);
    if (tie) q = (c % 2 == 0) ? 1 : 2;   // 1.5 * 2^e: stay on the even code
    if (q == 0) q = 1;                   // below 2^-127: no zero, so 2^-127
    c += static_cast<uint32_t>(q - 1);
    *code = c > f.max_finite_code() ? f.nan_code : c;
    return true;
  }

  // The grid of representable magnitudes near |x|: spacing 2^ulp_exp,
  // never finer than the subnormals'.
  const int min_ulp = 1 - f.bias - static_cast<int>(M);
  const int ulp_exp = top - static_cast<int>(M) > min_ulp ? top - static_cast<int>(M) : min_ulp;
  uint64_t q = round_shift(sig, ulp_exp - exp2, &tie);
  if (tie) q += q & 1;  // ties to even: q's parity is the code's
  // The magnitude's code: biased exponent above the mantissa. Where q
  // rounded up to 2^(M+1), the carry lands in the exponent by itself.
  const int64_t biased = ulp_exp + static_cast<int>(M) + f.bias;
  const uint64_t magnitude = (static_cast<uint64_t>(biased - 1) << M) + q;
  if (magnitude > f.max_finite_code()) {
    switch (f.kind) {
      case FloatKind::kIeee:
        *code = sign_bit | (((1u << f.exponent_bits) - 1) << M);
        return true;
      case FloatKind::kFnuz:
        *code = f.nan_code;
        return true;
      default:  // kFn: saturate
        *code = sign_bit | f.max_finite_code();
        return true;
    }
  }
  if (magnitude == 0 && f.kind == FloatKind::kFnuz) {
    *code = 0;  // no negative zero
    return true;
  }
  *code = sign_bit | static_cast<uint32_t>(magnitude);
  return true;
}

size_t narrow_from_float32(const FloatFormat& f, const uint8_t* in,
                           uint8_t* codes, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits, code;
    std::memcpy(&bits, in + 4 * i, 4);
    if (!narrow_float32(f, bits, &code)) return i;
    if (f.bits == 16) {
      codes[2 * i] = static_cast<uint8_t>(code);
      codes[2 * i + 1] = static_cast<uint8_t>(code >> 8);
    } else {
      codes[i] = static_cast<uint8_t>(code);
    }
  }
  return n;
}

}  // namespace zcw
