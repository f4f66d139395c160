// The loops of a value program's steps (value_program.h): a conversion to
// float32 or float64, or scale_offset's decode, over n contiguous
// little-endian elements. SIMD kernels where the build has them (wasm
// SIMD128, or SSE4.1 natively, so the native tests run the same
// algorithms), plain loops otherwise and for the tails; each lane takes the
// same IEEE operation as one value of the plain loop.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/implementation.h"
#include "common/status.h"
#include "values/value_program.h"

namespace zcw {

// kValueOutOfRange where a kScaleOffset step meets a value the page calls
// an error (value_program.h), naming the first.
Status run_value_step(Impl impl, const ValueStep& step, const uint8_t* in, size_t n, uint8_t* out);

}  // namespace zcw
