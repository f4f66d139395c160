// Chunk shapes: element counts and byte sizes with overflow checks, done once
// when a codec is prepared (TensorStore's phase), never in a kernel loop.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace zcw {

// Sizes stay below 2^53 so that every one is exact as a JS number.
constexpr uint64_t kMaxByteLength = (uint64_t{1} << 53) - 1;

struct ChunkShape {
  std::vector<uint64_t> dims;
  uint64_t elements = 1;
  std::string text;  // "[64, 64]", for messages
};

// "[64, 64]": a shape as messages show it.
std::string shape_text(const std::vector<uint64_t>& dims);

// Multiplies out `dims`; fails when the count passes kMaxByteLength.
Status make_chunk_shape(std::string_view codec, std::vector<uint64_t> dims,
                        ChunkShape* out);

// a * b, or false when it passes kMaxByteLength.
bool checked_mul(uint64_t a, uint64_t b, uint64_t* out);

// An encode's output buffer of `got` bytes where `expected` are written;
// `described` names the codec and chunk ("packbits: bool shape [8]").
Status check_encoded_output(std::string_view described, uint64_t expected,
                            uint64_t got);

}  // namespace zcw
