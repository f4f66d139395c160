// Reverses the bytes of each `width`-byte group: the whole of the bytes
// codec's work for big-endian data. `src` and `dst` may be the same buffer
// (in-place), but must not otherwise overlap.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/implementation.h"

namespace zcw {

void byteswap(Impl impl, const uint8_t* src, uint8_t* dst, size_t groups,
              unsigned width);

// Bool on encode: any non-zero byte becomes 0x01. In-place allowed.
void normalize_bool(Impl impl, const uint8_t* src, uint8_t* dst, size_t count);

}  // namespace zcw
