// Widening every code of every narrow float format to float32, in every
// implementation, against the formats' definitions written out here in
// double arithmetic (zarr-extensions' data-type pages), plus hand-worked
// anchors from those pages.
#include "kernels/widen.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "test_support.h"
#include "types/float_format.h"

namespace zcw {
namespace {

using testing::implementations_under_test;

const FloatFormat& format(std::string_view name) {
  const FloatFormat* f = float_format_named(name);
  EXPECT_NE(f, nullptr) << name;
  return *f;
}

float as_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// The value a code stands for, from the definition: NaN where the format
// says NaN. Written without looking at the kernels.
double defined_value(const FloatFormat& f, uint32_t code) {
  const int E = static_cast<int>(f.exponent_bits), M = static_cast<int>(f.mantissa_bits);
  if (f.kind == FloatKind::kE8m0) {
    return code == 0xFF ? NAN : std::pow(2.0, static_cast<int>(code) - 127);
  }
  const int s = (code >> (E + M)) & 1;
  const int e = (code >> M) & ((1 << E) - 1);
  const int m = code & ((1 << M) - 1);
  if (f.kind == FloatKind::kFnuz && code == 0x80u) return NAN;
  if (f.kind == FloatKind::kIeee && e == (1 << E) - 1) return m ? NAN : (s ? -INFINITY : INFINITY);
  const double magnitude = e == 0 ? m / std::pow(2.0, M) * std::pow(2.0, 1 - f.bias)
                                  : (1 + m / std::pow(2.0, M)) * std::pow(2.0, e - f.bias);
  return s ? -magnitude : magnitude;
}

std::vector<uint8_t> all_codes(const FloatFormat& f) {
  std::vector<uint8_t> codes;
  if (f.bits == 16) {
    for (uint32_t c = 0; c < 65536; ++c) {
      codes.push_back(static_cast<uint8_t>(c));
      codes.push_back(static_cast<uint8_t>(c >> 8));
    }
  } else {
    // Every byte: the bits above a 4- or 6-bit format must be ignored.
    for (uint32_t c = 0; c < 256; ++c) codes.push_back(static_cast<uint8_t>(c));
  }
  return codes;
}

TEST(Widen, EveryCodeOfEveryFormatMatchesTheDefinition) {
  for (const FloatFormat& f : kFloatFormats) {
    const std::vector<uint8_t> codes = all_codes(f);
    const size_t n = f.bits == 16 ? 65536 : 256;
    std::vector<uint32_t> first;
    for (Impl impl : implementations_under_test()) {
      std::vector<uint32_t> out(n, 0xEEEEEEEE);
      widen_to_float32(impl, f, codes.data(), reinterpret_cast<uint8_t*>(out.data()), n);
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t code = i & ((1u << f.bits) - 1);
        const double want = defined_value(f, code);
        const uint32_t got = out[i];
        if (std::isnan(want)) {
          ASSERT_TRUE(std::isnan(as_float(got))) << f.name << " " << code;
          if (f.kind == FloatKind::kIeee) {
            // Sign and payload kept, the payload at the top of the mantissa.
            const uint32_t m = code & ((1u << f.mantissa_bits) - 1);
            ASSERT_EQ(got, ((code >> (f.bits - 1)) << 31) | 0x7F800000u | (m << (23 - f.mantissa_bits)))
                << f.name << " " << code;
          } else {
            ASSERT_EQ(got, 0x7FC00000u) << f.name << " " << code;
          }
        } else {
          ASSERT_EQ(static_cast<double>(as_float(got)), want) << f.name << " " << code;
          ASSERT_EQ(std::signbit(as_float(got)), std::signbit(want)) << f.name << " " << code;
        }
        ASSERT_EQ(got, widen_code_reference(f, code)) << f.name << " " << code;
      }
      if (first.empty()) first = out;
      ASSERT_EQ(out, first) << f.name << " " << impl_name(impl);
    }
  }
}

TEST(Widen, HandWorkedAnchors) {
  struct Anchor {
    const char* format;
    uint32_t code;
    float value;
  } anchors[] = {
      // float8_e4m3 is IEEE-style (zarr-extensions: "with NaN and +/-inf"),
      // so its exponent 1111 is reserved: the largest value is 1.875 * 2^7.
      // (448 is the largest value of float8_e4m3fn, which reuses that
      // exponent and is not in the registry.)
      {"float8_e4m3", 0x77, 240.0f},
      {"float8_e4m3", 0x78, INFINITY},
      {"float8_e4m3", 0x38, 1.0f},
      {"float8_e4m3", 0x01, 0.001953125f},  // 2^-9, smallest subnormal
      {"float8_e5m2", 0x7B, 57344.0f},
      {"float8_e5m2", 0xFC, -INFINITY},
      {"float8_e5m2", 0x01, 1.52587890625e-05f},  // 2^-16
      {"float8_e3m4", 0x6F, 15.5f},
      {"float8_e3m4", 0x70, INFINITY},
      {"float8_e4m3fnuz", 0x7F, 240.0f},
      {"float8_e4m3fnuz", 0x40, 1.0f},  // bias 8
      {"float8_e4m3b11fnuz", 0x7F, 30.0f},
      {"float8_e4m3b11fnuz", 0x58, 1.0f},  // bias 11
      {"float8_e5m2fnuz", 0x7F, 57344.0f},
      {"float8_e5m2fnuz", 0x01, 7.62939453125e-06f},  // 2^-17
      {"float8_e8m0fnu", 0x00, 5.877471754111438e-39f},  // 2^-127
      {"float8_e8m0fnu", 0x7F, 1.0f},
      {"float8_e8m0fnu", 0xFE, 1.7014118346046923e38f},  // 2^127
      {"float4_e2m1fn", 0x7, 6.0f},
      {"float4_e2m1fn", 0xF, -6.0f},
      {"float4_e2m1fn", 0x1, 0.5f},
      {"float6_e2m3fn", 0x1F, 7.5f},
      {"float6_e2m3fn", 0x01, 0.125f},
      {"float6_e3m2fn", 0x1F, 28.0f},
      {"float6_e3m2fn", 0x01, 0.0625f},
      {"float16", 0x7BFF, 65504.0f},
      {"float16", 0x0001, 5.960464477539063e-08f},  // 2^-24
      {"float16", 0xFC00, -INFINITY},
      {"bfloat16", 0x7F7F, 3.3895313892515355e38f},
      {"bfloat16", 0x3F80, 1.0f},
  };
  for (const Anchor& a : anchors) {
    const FloatFormat& f = format(a.format);
    uint8_t codes[2] = {static_cast<uint8_t>(a.code), static_cast<uint8_t>(a.code >> 8)};
    for (Impl impl : implementations_under_test()) {
      float out;
      widen_to_float32(impl, f, codes, reinterpret_cast<uint8_t*>(&out), 1);
      EXPECT_EQ(out, a.value) << a.format << " 0x" << std::hex << a.code;
    }
  }
  // NaN codes: the spec's own, and the fnuz / e8m0 ones.
  for (auto [name, code] : {std::pair{"float8_e4m3", 0x7Cu}, {"float8_e5m2", 0x7Eu},
                            {"float8_e3m4", 0x78u}, {"float8_e4m3fnuz", 0x80u},
                            {"float8_e8m0fnu", 0xFFu}, {"bfloat16", 0x7FC0u},
                            {"float16", 0x7E00u}}) {
    const FloatFormat& f = format(name);
    EXPECT_EQ(f.nan_code, code) << name;
    EXPECT_TRUE(std::isnan(as_float(widen_code_reference(f, code)))) << name;
  }
  // -0 exists only where the format has it: fnuz 0x80 is NaN.
  EXPECT_EQ(widen_code_reference(format("float8_e5m2"), 0x80), 0x80000000u);
  EXPECT_EQ(widen_code_reference(format("float4_e2m1fn"), 0x8), 0x80000000u);
}

TEST(Widen, OddLengthsAndUnalignedTails) {
  // Every length up to 70 from every starting offset, so each kernel's
  // vector loop hands a different tail to the portable path.
  const FloatFormat& f8 = format("float8_e5m2");
  const FloatFormat& f16 = format("float16");
  const std::vector<uint8_t> codes = testing::random_bytes(300, 7);
  for (const FloatFormat* f : {&f8, &f16}) {
    const size_t width = f->bits == 16 ? 2 : 1;
    for (size_t start = 0; start < 3; ++start) {
      for (size_t n = 0; n <= 70; ++n) {
        std::vector<uint32_t> want(n), got(n);
        widen_to_float32(Impl::kReference, *f, codes.data() + start * width,
                         reinterpret_cast<uint8_t*>(want.data()), n);
        for (Impl impl : implementations_under_test()) {
          widen_to_float32(impl, *f, codes.data() + start * width,
                           reinterpret_cast<uint8_t*>(got.data()), n);
          ASSERT_EQ(got, want) << f->name << " " << impl_name(impl) << " n=" << n;
        }
      }
    }
  }
}

}  // namespace
}  // namespace zcw
