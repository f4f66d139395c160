// Narrowing float32 to every narrow float format against a reference that
// knows nothing of bit tricks: it lists every finite value of the format,
// picks the nearest to the input (ties to the even code, the IEEE rule),
// and applies the format's overflow, NaN and infinity rules from
// kernels/narrow.h. Inputs: every representable value, its neighbours,
// every midpoint and its neighbours, the edges of the range, and random
// float32 patterns.
#include "kernels/narrow.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "kernels/widen.h"
#include "types/float_format.h"

namespace zcw {
namespace {

float as_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

struct Magnitude {
  double value;
  uint32_t code;  // sign bit clear
};

class Reference {
 public:
  explicit Reference(const FloatFormat& f) : f_(f) {
    for (uint32_t c = 0; c <= f.max_finite_code(); ++c) {
      if (f.kind == FloatKind::kIeee &&
          ((c >> f.mantissa_bits) == (1u << f.exponent_bits) - 1)) {
        continue;  // infinities and NaN
      }
      mags_.push_back({static_cast<double>(as_float(widen_code_reference(f, c))), c});
    }
    std::sort(mags_.begin(), mags_.end(),
              [](const Magnitude& a, const Magnitude& b) { return a.value < b.value; });
    // Past the largest value: where rounding overflows (max + one ulp).
    const double max = mags_.back().value;
    const double below = mags_[mags_.size() - 2].value;
    overflow_ = f.kind == FloatKind::kE8m0 ? 2 * max : max + (max - below);
  }

  // The code for x, or false where the format cannot hold it.
  bool narrow(float x, uint32_t* code) const {
    const uint32_t sign = std::signbit(x) ? f_.sign_bit() : 0;
    if (std::isnan(x)) {
      if (f_.kind == FloatKind::kFn) return false;
      return *code = f_.nan_code, true;
    }
    if (f_.kind == FloatKind::kE8m0 && (std::signbit(x) || x == 0)) return false;
    if (std::isinf(x)) {
      if (f_.kind == FloatKind::kFn) return false;
      if (f_.kind == FloatKind::kIeee) return *code = sign | overflow_code(), true;
      return *code = f_.nan_code, true;
    }
    const double a = std::fabs(static_cast<double>(x));
    // The nearest magnitude; the overflow point competes as one more.
    uint32_t best_code = 0;
    double best_distance = INFINITY;
    bool best_is_overflow = false;
    auto consider = [&](double v, uint32_t c, bool is_overflow) {
      const double d = std::fabs(a - v);
      if (d < best_distance || (d == best_distance && c % 2 == 0)) {
        best_distance = d;
        best_code = c;
        best_is_overflow = is_overflow;
      }
    };
    auto it = std::lower_bound(mags_.begin(), mags_.end(), a,
                               [](const Magnitude& m, double v) { return m.value < v; });
    if (it != mags_.end()) consider(it->value, it->code, false);
    if (it != mags_.begin()) consider((it - 1)->value, (it - 1)->code, false);
    if (it == mags_.end()) consider(overflow_, mags_.back().code + 1, true);
    if (best_is_overflow) {
      switch (f_.kind) {
        case FloatKind::kIeee: return *code = sign | overflow_code(), true;
        case FloatKind::kFn: return *code = sign | f_.max_finite_code(), true;
        default: return *code = f_.nan_code, true;
      }
    }
    if (f_.kind == FloatKind::kFnuz && best_code == 0) return *code = 0, true;
    *code = sign | best_code;
    return true;
  }

  const std::vector<Magnitude>& magnitudes() const { return mags_; }
  double overflow() const { return overflow_; }

 private:
  uint32_t overflow_code() const {
    return ((1u << f_.exponent_bits) - 1) << f_.mantissa_bits;  // infinity
  }
  const FloatFormat& f_;
  std::vector<Magnitude> mags_;
  double overflow_;
};

std::vector<float> inputs_for(const Reference& ref) {
  std::vector<float> xs = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN,
                           as_float(0x7F800001u), as_float(0xFFC00123u),
                           1e-45f, -1e-45f, 3.4e38f, -3.4e38f, 1.0f};
  auto add = [&](double v) {
    const float f = static_cast<float>(v);
    for (float g : {f, std::nextafter(f, -INFINITY), std::nextafter(f, INFINITY)}) {
      xs.push_back(g);
      xs.push_back(-g);
    }
  };
  const auto& m = ref.magnitudes();
  for (size_t i = 0; i < m.size(); ++i) {
    add(m[i].value);
    if (i + 1 < m.size()) add((m[i].value + m[i + 1].value) / 2);
  }
  add(m.front().value / 2);
  add((m.back().value + ref.overflow()) / 2);
  add(ref.overflow());
  add(2 * ref.overflow());
  std::mt19937 rng(42);
  for (int i = 0; i < 20000; ++i) xs.push_back(as_float(rng()));
  return xs;
}

TEST(Narrow, EveryFormatAgreesWithTheNearestValueReference) {
  for (const FloatFormat& f : kFloatFormats) {
    const Reference ref(f);
    for (float x : inputs_for(ref)) {
      uint32_t want = 0, got = 0;
      const bool ok = ref.narrow(x, &want);
      ASSERT_EQ(narrow_float32(f, bits_of(x), &got), ok)
          << f.name << " x=" << x << " bits=0x" << std::hex << bits_of(x);
      if (ok) {
        ASSERT_EQ(got, want) << f.name << " x=" << x << " bits=0x" << std::hex << bits_of(x);
      }
    }
  }
}

TEST(Narrow, EveryFiniteCodeComesBack) {
  for (const FloatFormat& f : kFloatFormats) {
    const uint32_t codes = 1u << f.bits;
    for (uint32_t c = 0; c < codes; ++c) {
      const float x = as_float(widen_code_reference(f, c));
      if (std::isnan(x) || std::isinf(x)) continue;
      uint32_t back = 0;
      ASSERT_TRUE(narrow_float32(f, bits_of(x), &back)) << f.name << " " << c;
      ASSERT_EQ(back, c) << f.name << " " << c;
    }
  }
}

TEST(Narrow, HandWorkedRules) {
  auto code = [](const char* name, float x) {
    uint32_t c = 0xDEAD;
    return narrow_float32(*float_format_named(name), bits_of(x), &c) ? c : 0xBAD;
  };
  // Halfway between 240 and the next step (256): ties to even, which is
  // past the largest value: infinity for float8_e4m3, NaN for the fnuz.
  EXPECT_EQ(code("float8_e4m3", 248.0f), 0x78u);
  EXPECT_EQ(code("float8_e4m3", 247.9f), 0x77u);
  EXPECT_EQ(code("float8_e4m3fnuz", 248.0f), 0x80u);
  EXPECT_EQ(code("float8_e4m3fnuz", -0.0f), 0x00u);  // no -0
  EXPECT_EQ(code("float8_e5m2", NAN), 0x7Eu);        // the spec's NaN
  EXPECT_EQ(code("float16", 65520.0f), 0x7C00u);     // overflow: infinity
  EXPECT_EQ(code("bfloat16", 1.00390625f), 0x3F80u); // tie to even (down)
  EXPECT_EQ(code("bfloat16", 1.01171875f), 0x3F82u); // tie to even (up)
  // float4: 5 is halfway between 4 and 6 -> 4 (even); past 6 saturates.
  EXPECT_EQ(code("float4_e2m1fn", 5.0f), 0x6u);
  EXPECT_EQ(code("float4_e2m1fn", 100.0f), 0x7u);
  EXPECT_EQ(code("float4_e2m1fn", -100.0f), 0xFu);
  EXPECT_EQ(code("float4_e2m1fn", NAN), 0xBADu);
  EXPECT_EQ(code("float4_e2m1fn", INFINITY), 0xBADu);
  // e8m0: powers of two; 3 is halfway between 2 and 4 -> the even code
  // (128: 2); no zero and no sign; below 2^-127 is 2^-127.
  EXPECT_EQ(code("float8_e8m0fnu", 3.0f), 128u);
  EXPECT_EQ(code("float8_e8m0fnu", 6.0f), 130u);  // 4 (129) or 8 (130): even
  EXPECT_EQ(code("float8_e8m0fnu", 1e-40f), 0u);
  EXPECT_EQ(code("float8_e8m0fnu", 0.0f), 0xBADu);
  EXPECT_EQ(code("float8_e8m0fnu", -1.0f), 0xBADu);
  EXPECT_EQ(code("float8_e8m0fnu", INFINITY), 0xFFu);
  EXPECT_EQ(code("float8_e8m0fnu", 3.0e38f), 0xFFu);  // past 2^127 * 1.5
}

}  // namespace
}  // namespace zcw
