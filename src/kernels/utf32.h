// fixed_length_utf32 strings: checking code units, and the layout
// withDataTypes presents them in, with one spare code point per string
// (always U+0000 when read) so that a write of a longer string reaches the
// codec instead of being cut short by the array that holds it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/implementation.h"

namespace zcw {

// The largest Unicode code point; code units above it are not characters.
constexpr uint32_t kMaxCodePoint = 0x10FFFF;

// The index of the first little-endian code unit above kMaxCodePoint, or n.
size_t first_invalid_code_unit(const uint8_t* units, size_t n);

// The refusal of unit `index` of `units` (one first_invalid_code_unit
// found), as every message words it: "code unit 0x110000<where> is not a
// Unicode code point (at most 0x10FFFF)".
std::string invalid_code_unit_text(const uint8_t* units, size_t index,
                                   std::string_view where);

// `strings` strings of `code_points` units each, from `in` to `out` with a
// zero unit after each (the spare), byte order reversed if `swap`.
void add_spare_code_points(Impl impl, const uint8_t* in, uint8_t* out,
                           size_t strings, uint32_t code_points, bool swap);

// The index of the first string of `code_points` + 1 units whose spare unit
// is not zero (a string too long for the stored type), or `strings`.
size_t first_string_using_spare(const uint8_t* in, size_t strings,
                                uint32_t code_points);

// The reverse of add_spare_code_points: the spare units dropped.
void drop_spare_code_points(Impl impl, const uint8_t* in, uint8_t* out,
                            size_t strings, uint32_t code_points, bool swap);

}  // namespace zcw
