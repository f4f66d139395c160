// read's value programs (src/values/value_program.h) against the
// arithmetic they stand for, worked out here element by element: the
// conversions as C++ casts of one value (float16 and bfloat16 by their
// definitions), scale_offset's decode as two float operations each
// rounded in the type (the zarr-extensions page: the array's own
// arithmetic), numcodecs' FixedScaleOffset (divide and add in float64,
// then narrow to float32). Odd lengths and unaligned buffers in every
// implementation; programs the JS layer could not have written are refused.
#include "values/value_program.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "test_support.h"

namespace zcw {
namespace {

using testing::implementations_under_test;

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v, size_t shift) {
  std::vector<uint8_t> out(shift + v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(out.data() + shift, v.data(), v.size() * sizeof(T));
  return out;
}

template <typename T>
T at(const std::vector<uint8_t>& bytes, size_t shift, size_t i) {
  T v;
  std::memcpy(&v, bytes.data() + shift + i * sizeof(T), sizeof(T));
  return v;
}

ValueProgram parsed(std::vector<double> words) {
  ValueProgram p;
  EXPECT_TRUE(parse_value_program(words.data(), &p).ok());
  return p;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }
bool same_bits(double a, double b) { return std::memcmp(&a, &b, 8) == 0; }

// float16 by its definition (IEEE binary16), for finite codes.
double half_value(uint16_t c) {
  const int s = c >> 15, e = (c >> 10) & 31, m = c & 1023;
  const double mag = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return s ? -mag : mag;
}

constexpr double kU16 = 3, kI32 = 6, kF16 = 7, kBf16 = 8, kF32 = 9, kF64 = 10;

TEST(ValueProgram, Uint16ToFloat32ThenScaleOffsetRoundsAtEachStep) {
  std::mt19937 rng(35);
  std::vector<uint16_t> k(1003);
  for (auto& v : k) v = static_cast<uint16_t>(rng());
  const ValueProgram p = parsed({2, 1, kU16, kF32, 1, 0, 2, kF32, kF32, 100, 250});
  for (Impl impl : implementations_under_test()) {
    for (size_t shift : {0, 1, 3}) {
      const auto in = bytes_of(k, shift);
      std::vector<uint8_t> out(shift + 4 * k.size());
      ASSERT_TRUE(run_value_program(impl, p, in.data() + shift, k.size(), out.data() + shift).ok());
      int double_rounding_differs = 0;
      for (size_t i = 0; i < k.size(); ++i) {
        volatile float q = static_cast<float>(k[i]) / 100.0f;
        volatile float want = q + 250.0f;
        ASSERT_TRUE(same_bits(at<float>(out, shift, i), want)) << impl_name(impl) << " element " << i << " k " << k[i];
        if (!same_bits(want, static_cast<float>(k[i] / 100.0 + 250.0))) ++double_rounding_differs;
      }
      // The case the page's arithmetic exists for: some values differ
      // from dividing in double and rounding once.
      EXPECT_GT(double_rounding_differs, 0);
    }
  }
}

TEST(ValueProgram, Int32ToFloat64ScaleOffsetIsDoubleArithmetic) {
  std::mt19937 rng(36);
  std::vector<int32_t> k(517);
  for (auto& v : k) v = static_cast<int32_t>(rng());
  const ValueProgram p = parsed({2, 1, kI32, kF64, 1, 0, 2, kF64, kF64, 1e-3, 1e6});
  for (Impl impl : implementations_under_test()) {
    const auto in = bytes_of(k, 0);
    std::vector<uint8_t> out(8 * k.size());
    ASSERT_TRUE(run_value_program(impl, p, in.data(), k.size(), out.data()).ok());
    for (size_t i = 0; i < k.size(); ++i) {
      volatile double q = static_cast<double>(k[i]) / 1e-3;
      ASSERT_TRUE(same_bits(at<double>(out, 0, i), q + 1e6)) << i;
    }
  }
}

TEST(ValueProgram, Float16AndBfloat16WidenExactlyToFloat32AndFloat64) {
  std::vector<uint16_t> codes;
  for (uint32_t c = 0; c < 65536; c += 7) {
    if ((c & 0x7C00) != 0x7C00) codes.push_back(static_cast<uint16_t>(c));  // finite float16
  }
  for (Impl impl : implementations_under_test()) {
    const auto in = bytes_of(codes, 2);
    std::vector<uint8_t> f32(4 * codes.size()), f64(8 * codes.size()), b32(4 * codes.size());
    ASSERT_TRUE(run_value_program(impl, parsed({1, 1, kF16, kF32, 1, 0}), in.data() + 2, codes.size(), f32.data()).ok());
    ASSERT_TRUE(run_value_program(impl, parsed({1, 1, kF16, kF64, 1, 0}), in.data() + 2, codes.size(), f64.data()).ok());
    ASSERT_TRUE(run_value_program(impl, parsed({1, 1, kBf16, kF32, 1, 0}), in.data() + 2, codes.size(), b32.data()).ok());
    for (size_t i = 0; i < codes.size(); ++i) {
      const double want = half_value(codes[i]);
      ASSERT_TRUE(same_bits(at<float>(f32, 0, i), static_cast<float>(want))) << codes[i];
      ASSERT_TRUE(same_bits(at<double>(f64, 0, i), want)) << codes[i];
      // bfloat16 is float32's top half.
      const uint32_t bits = uint32_t{codes[i]} << 16;
      float bf;
      std::memcpy(&bf, &bits, 4);
      ASSERT_TRUE(same_bits(at<float>(b32, 0, i), bf) || (std::isnan(bf) && std::isnan(at<float>(b32, 0, i)))) << codes[i];
    }
  }
}

TEST(ValueProgram, Float64ToFloat32RoundsToNearestEvenAndOverflowsToInfinity) {
  const std::vector<double> v = {0.0, -0.0, 1.0 + std::ldexp(1, -24), 1.0 + 3 * std::ldexp(1, -24), 3.4028235677973366e38,
                                 3.4028235e38, -1e300, 1e-320, std::ldexp(1, -150), std::ldexp(3, -151), INFINITY, -INFINITY};
  for (Impl impl : implementations_under_test()) {
    const auto in = bytes_of(v, 5);
    std::vector<uint8_t> out(4 * v.size());
    ASSERT_TRUE(run_value_program(impl, parsed({1, 1, kF64, kF32, 1, 0}), in.data() + 5, v.size(), out.data()).ok());
    const float want[] = {0.0f, -0.0f, 1.0f, 1.0f + std::ldexp(1.0f, -22), INFINITY, 3.4028235e38f, -INFINITY, 0.0f, 0.0f,
                          std::ldexp(1.0f, -149), INFINITY, -INFINITY};
    for (size_t i = 0; i < v.size(); ++i) ASSERT_TRUE(same_bits(at<float>(out, 0, i), want[i])) << i << " " << v[i];
  }
}

TEST(ValueProgram, FixedScaleOffsetInFloat64ThenFloat32) {
  std::mt19937 rng(37);
  std::vector<int16_t> k(333);
  for (auto& v : k) v = static_cast<int16_t>(rng());
  const ValueProgram p = parsed({3, 1, 4, kF64, 1, 0, 2, kF64, kF64, 10, 1000.5, 1, kF64, kF32, 1, 0});
  for (Impl impl : implementations_under_test()) {
    const auto in = bytes_of(k, 0);
    std::vector<uint8_t> out(4 * k.size());
    ASSERT_TRUE(run_value_program(impl, p, in.data(), k.size(), out.data()).ok());
    for (size_t i = 0; i < k.size(); ++i) {
      ASSERT_TRUE(same_bits(at<float>(out, 0, i), static_cast<float>(k[i] / 10.0 + 1000.5))) << i;
    }
  }
}

// Every integer and float source to float32 and float64: one C++ cast of
// each value (exact, or rounded to nearest-even), every length 0..70 so
// each kernel's vectors and tail are met.
template <typename From, typename To>
void expect_casts(double from_code, double to_code) {
  std::mt19937_64 rng(static_cast<uint64_t>(from_code * 16 + to_code));
  std::vector<From> v(70);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<From>) {
      x = static_cast<From>(std::ldexp(static_cast<double>(rng() % 2000001) - 1000000.0, static_cast<int>(rng() % 200) - 100));
    } else {
      x = static_cast<From>(rng());
    }
  }
  for (Impl impl : implementations_under_test()) {
    for (size_t n = 0; n <= v.size(); ++n) {
      const auto in = bytes_of(std::vector<From>(v.begin(), v.begin() + n), 1);
      std::vector<uint8_t> out(1 + sizeof(To) * n);
      ASSERT_TRUE(run_value_program(impl, parsed({1, 1, from_code, to_code, 1, 0}), in.data() + 1, n, out.data() + 1).ok());
      for (size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(same_bits(at<To>(out, 1, i), static_cast<To>(v[i]))) << impl_name(impl) << " n " << n << " i " << i;
      }
    }
  }
}

TEST(ValueProgram, EveryIntegerAndFloatSourceToFloat32AndFloat64) {
  expect_casts<uint8_t, float>(1, kF32);
  expect_casts<int8_t, float>(2, kF32);
  expect_casts<uint16_t, float>(kU16, kF32);
  expect_casts<int16_t, float>(4, kF32);
  expect_casts<uint32_t, float>(5, kF32);
  expect_casts<int32_t, float>(kI32, kF32);
  expect_casts<double, float>(kF64, kF32);
  expect_casts<uint8_t, double>(1, kF64);
  expect_casts<int8_t, double>(2, kF64);
  expect_casts<uint16_t, double>(kU16, kF64);
  expect_casts<int16_t, double>(4, kF64);
  expect_casts<uint32_t, double>(5, kF64);
  expect_casts<int32_t, double>(kI32, kF64);
  expect_casts<float, double>(kF32, kF64);
}

TEST(ValueProgram, ThePagesScaleOffsetRefusesAnOverflowNumpysGivesInfinity) {
  // 1e30 / 1e-30 overflows float32 (and float64's 1e300 / 1e-300): an
  // error by the page (VALUE_OUT_OF_RANGE, naming the value); infinity as
  // numpy computes FixedScaleOffset. Infinities in, infinities out.
  const std::vector<float> f = {1.0f, 2.0f, 1e30f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f};
  const std::vector<double> d = {1.0, 1e300, 2.0};
  const std::vector<float> inf = {INFINITY, -INFINITY, 1.0f, 2.0f, 3.0f};
  ValueProgram page32 = parsed({1, 2, kF32, kF32, 1e-30, 0}), numpy32 = parsed({1, 3, kF32, kF32, 1e-30, 0});
  ValueProgram page64 = parsed({1, 2, kF64, kF64, 1e-300, 0});
  ValueProgram nan32 = parsed({1, 2, kF32, kF32, 1, -INFINITY});
  for (Impl impl : implementations_under_test()) {
    std::vector<uint8_t> out(8 * 9);
    auto in = bytes_of(f, 0);
    const Status s = run_value_program(impl, page32, in.data(), f.size(), out.data());
    EXPECT_EQ(s.code(), ErrorCode::kValueOutOfRange) << impl_name(impl);
    EXPECT_NE(s.message().find("1.0000000150474662e+30 gives inf, which overflows float32"), std::string::npos) << s.message();
    ASSERT_TRUE(run_value_program(impl, numpy32, in.data(), f.size(), out.data()).ok());
    EXPECT_TRUE(std::isinf(at<float>(out, 0, 2)));
    auto in64 = bytes_of(d, 0);
    EXPECT_EQ(run_value_program(impl, page64, in64.data(), d.size(), out.data()).code(), ErrorCode::kValueOutOfRange);
    // An infinity stays one (an operand was one); inf + -inf is NaN from
    // no NaN: an error.
    auto ininf = bytes_of(inf, 0);
    ASSERT_TRUE(run_value_program(impl, parsed({1, 2, kF32, kF32, 2, 1}), ininf.data(), inf.size(), out.data()).ok());
    EXPECT_EQ(at<float>(out, 0, 0), INFINITY);
    const Status n = run_value_program(impl, nan32, ininf.data(), inf.size(), out.data());
    EXPECT_EQ(n.code(), ErrorCode::kValueOutOfRange);
    EXPECT_NE(n.message().find("is no number of float32"), std::string::npos) << n.message();
  }
}

TEST(ValueProgram, RefusesWhatTheJsLayerNeverWrites) {
  ValueProgram p;
  const std::vector<std::vector<double>> bad = {
      {0},                                   // no steps
      {5, 1, kU16, kF32, 1, 0},              // more than four
      {1.5, 1, kU16, kF32, 1, 0},            // not a count
      {1, 1, kU16, kU16, 1, 0},              // a conversion to an integer
      {1, 1, 11, kF32, 1, 0},                // no such type
      {1, 4, kF32, kF32, 1, 0},              // no such step
      {1, 2, kF32, kF64, 2, 0},              // scale_offset changing type
      {1, 2, kF32, kF32, 0, 0},              // a zero scale
      {1, 2, kF32, kF32, NAN, 0},            // a NaN scale
      {2, 1, kU16, kF32, 1, 0, 1, kF64, kF32, 1, 0},  // steps that do not chain
  };
  for (const auto& words : bad) EXPECT_FALSE(parse_value_program(words.data(), &p).ok()) << words[0];
  EXPECT_FALSE(parse_value_program(nullptr, &p).ok());
}

}  // namespace
}  // namespace zcw
