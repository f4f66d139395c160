// Types narrower than a byte kept one value per byte (the bytes codec's
// layout for int2, int4, uint2, uint4, float4 and float6, and their
// decoded containers): the low bits are the value, the rest is ignored on
// decode and must agree on encode.
#pragma once

#include <cstddef>
#include <cstdint>

namespace zcw {

// Keeps the low `bits` of each byte: sign-extended for signed integers,
// the rest cleared otherwise. `src` and `dst` may be the same buffer.
void extend_low_bits(uint32_t bits, bool sign_extend, const uint8_t* src,
                     uint8_t* dst, size_t n);

// The index of the first container value the type cannot hold (outside
// -2^(bits-1)..2^(bits-1)-1 signed, 0..2^bits-1 otherwise), or n.
size_t find_out_of_range(uint32_t bits, bool is_signed, const uint8_t* values,
                         size_t n);

}  // namespace zcw
