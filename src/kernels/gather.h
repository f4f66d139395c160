// Gathering one field out of packed records into a column: structFields'
// split. out[i * width .. +width) = in[i * stride + offset .. +width).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/implementation.h"

namespace zcw {

// `in` must have 16 readable bytes past the last record (the codecs'
// scratch blocks do). The SIMD path gathers a whole output vector from the
// few input vectors its records span, with one shuffle each, where that
// takes fewer steps than copying field by field (small records).
void gather_field(Impl impl, const uint8_t* in, size_t stride, size_t offset,
                  size_t width, size_t records, uint8_t* out);

}  // namespace zcw
