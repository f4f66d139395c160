#include "types/float_format.h"

namespace zcw {

// Layouts and NaN codes as the zarr-extensions data-type pages define them
// (float16's "NaN" is the IEEE quiet NaN the core spec's float types use).
const FloatFormat kFloatFormats[12] = {
    {"float16", 16, 5, 10, 15, FloatKind::kIeee, 0x7E00},
    {"bfloat16", 16, 8, 7, 127, FloatKind::kIeee, 0x7FC0},
    {"float8_e3m4", 8, 3, 4, 3, FloatKind::kIeee, 0x78},
    {"float8_e4m3", 8, 4, 3, 7, FloatKind::kIeee, 0x7C},
    {"float8_e5m2", 8, 5, 2, 15, FloatKind::kIeee, 0x7E},
    {"float8_e4m3fnuz", 8, 4, 3, 8, FloatKind::kFnuz, 0x80},
    {"float8_e4m3b11fnuz", 8, 4, 3, 11, FloatKind::kFnuz, 0x80},
    {"float8_e5m2fnuz", 8, 5, 2, 16, FloatKind::kFnuz, 0x80},
    {"float8_e8m0fnu", 8, 8, 0, 127, FloatKind::kE8m0, 0xFF},
    {"float6_e2m3fn", 6, 2, 3, 1, FloatKind::kFn, 0},
    {"float6_e3m2fn", 6, 3, 2, 3, FloatKind::kFn, 0},
    {"float4_e2m1fn", 4, 2, 1, 1, FloatKind::kFn, 0},
};

uint32_t FloatFormat::index() const {
  return static_cast<uint32_t>(this - kFloatFormats);
}

const FloatFormat* float_format_named(std::string_view name) {
  constexpr std::string_view kComplex = "complex_";
  if (name.substr(0, kComplex.size()) == kComplex) {
    name.remove_prefix(kComplex.size());
  }
  for (const FloatFormat& f : kFloatFormats) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

}  // namespace zcw
