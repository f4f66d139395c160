// The floating-point formats narrower than float32, described once: bit
// layout, bias, and which codes are special. Widening to float32 and
// narrowing from it (kernels/widen.h, kernels/narrow.h) read these
// descriptors; nothing else knows the formats.
#pragma once

#include <cstdint>
#include <string_view>

namespace zcw {

// How a format treats its extreme codes.
enum class FloatKind : uint8_t {
  kIeee,  // IEEE 754 style: exponent all ones is infinity (mantissa 0) or NaN
  kFnuz,  // finite, one NaN (sign bit alone, 0x80), no negative zero
  kFn,    // finite, no NaN: every code is a number (float4, float6)
  kE8m0,  // float8_e8m0fnu: powers of two only, no sign, no zero, 0xFF NaN
};

struct FloatFormat {
  std::string_view name;
  uint32_t bits;           // code width: 4, 6, 8, 16
  uint32_t exponent_bits;
  uint32_t mantissa_bits;
  int32_t bias;
  FloatKind kind;
  uint32_t nan_code;       // the spec's "NaN" fill code; unused for kFn

  bool has_sign() const { return kind != FloatKind::kE8m0; }
  uint32_t sign_bit() const { return has_sign() ? 1u << (bits - 1) : 0; }
  // The largest finite magnitude's code (sign bit clear).
  uint32_t max_finite_code() const {
    switch (kind) {
      case FloatKind::kIeee:
        return ((((1u << exponent_bits) - 2) << mantissa_bits) |
                ((1u << mantissa_bits) - 1));
      case FloatKind::kE8m0:
        return 0xFE;
      default:
        return (1u << (bits - 1)) - 1;
    }
  }
  // The stable order of formats in kFloatFormats, for tables indexed by it.
  uint32_t index() const;
};

// float16, bfloat16, and every format of zarr-extensions narrower than
// float32, in a fixed order.
extern const FloatFormat kFloatFormats[12];

// The format of a float data type's component ("complex_float8_e4m3" has
// float8_e4m3 components), or nullptr for float32/float64 and non-floats.
const FloatFormat* float_format_named(std::string_view name);

}  // namespace zcw
