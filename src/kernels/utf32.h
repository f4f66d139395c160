// fixed_length_utf32 code units: which a reader accepts and which a writer
// may store. numpy stores any code point, surrogates included, so a reader
// accepts every unit up to U+10FFFF; a writer stores Unicode scalar values
// only (a surrogate unit is what a string cut inside a surrogate pair
// leaves behind, never a character).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace zcw {

// The largest Unicode code point; code units above it are not characters.
constexpr uint32_t kMaxCodePoint = 0x10FFFF;

// The index of the first little-endian code unit above kMaxCodePoint, or n.
size_t first_invalid_code_unit(const uint8_t* units, size_t n);

// The index of the first little-endian code unit that is no Unicode scalar
// value (above kMaxCodePoint, or a surrogate 0xD800..0xDFFF), or n.
size_t first_non_scalar_value(const uint8_t* units, size_t n);

// The refusal of unit `index` of `units` (one of the functions above
// found), as every message words it: "code unit 0x110000<where> is not a
// Unicode code point (at most 0x10FFFF)", or for a surrogate "code unit
// 0xD800<where> is a surrogate (0xD800..0xDFFF), not a Unicode scalar
// value".
std::string invalid_code_unit_text(const uint8_t* units, size_t index,
                                   std::string_view where);

}  // namespace zcw
