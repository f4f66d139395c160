// Widening the narrow float formats to float32, exactly: every value of
// these formats is a float32. Codes are one byte each for formats of at
// most 8 bits (the bits above the format's are ignored, as the bytes codec
// requires), two bytes little-endian for float16 and bfloat16. Output is
// float32 in little-endian bytes.
//
// Special codes: infinities stay infinities; an IEEE-style NaN keeps its
// sign and payload (the mantissa moves to the top of float32's, so
// float16 0x7E00 widens to 0x7FC00000 and bfloat16 is float32's top half);
// the NaN codes of the fnuz formats and of float8_e8m0fnu widen to
// 0x7FC00000; the fnuz formats have no negative zero.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/implementation.h"
#include "types/float_format.h"

namespace zcw {

void widen_to_float32(Impl impl, const FloatFormat& format,
                      const uint8_t* codes, uint8_t* out, size_t n);

// One code, the format's definition followed literally: the yardstick the
// kernels are tested against, and the scalar path of the few callers that
// need one value.
uint32_t widen_code_reference(const FloatFormat& format, uint32_t code);

}  // namespace zcw
