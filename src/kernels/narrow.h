// Narrowing float32 to the narrow float formats, for writes through a
// widened presentation. Round to nearest, ties to even, then each format's
// own rules (docs/data-types.md, "Narrowing floats on write"):
//
//   IEEE-style (float16, bfloat16, float8_e3m4/e4m3/e5m2): overflow and
//     infinities give infinity; NaN gives the spec's NaN code.
//   fnuz (float8_e4m3fnuz, e4m3b11fnuz, e5m2fnuz): overflow, infinities and
//     NaN give the NaN code 0x80; -0 gives +0 (there is no -0).
//   float8_e8m0fnu: overflow, +infinity and NaN give 0xFF; values below
//     2^-127 give 2^-127 (there is no zero); zero and negative numbers
//     (-infinity too) cannot be written.
//   float4_e2m1fn, float6_*: overflow saturates to the largest magnitude;
//     NaN and infinities cannot be written.
//
// Codes are written as widen.h reads them: one byte, or two bytes
// little-endian for 16-bit formats.
#pragma once

#include <cstddef>
#include <cstdint>

#include "types/float_format.h"

namespace zcw {

// One float32 (its bits); false where the format cannot hold it.
bool narrow_float32(const FloatFormat& format, uint32_t bits, uint32_t* code);

// `n` float32 values (little-endian bytes); returns n, or the index of the
// first value the format cannot hold (its code is not written).
size_t narrow_from_float32(const FloatFormat& format, const uint8_t* in,
                           uint8_t* codes, size_t n);

}  // namespace zcw
