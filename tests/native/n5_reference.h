// The n5_default page's block layout written from its definition, element
// by element, for the tests and the N5 fuzzer to hold the codec to (one
// reference, so that both check the same reading of the page).
#pragma once

#include <cstdint>
#include <vector>

#include "codecs/n5_block.h"

namespace zcw::reference {

// Element (i0, ..., in-1) of the chunk, C order, is N5 element j = (i0,
// ..., in-1) (kN5) or (in-1, ..., i0) (kReversed); that is the block's
// element at offset j0 + b0 * (j1 + b1 * (...)), big-endian, where j < the
// block's shape b in every axis; else the fill. (The page's step 4: pad or
// truncate to the chunk.)
inline std::vector<uint8_t> n5_block_by_definition(N5Axes axes, const std::vector<uint64_t>& chunk,
                                    const std::vector<uint64_t>& block, unsigned w,
                                    const std::vector<uint8_t>& payload,
                                    const std::vector<uint8_t>& fill) {
  uint64_t n = 1;
  for (uint64_t d : chunk) n *= d;
  const size_t rank = chunk.size();
  std::vector<uint8_t> out(n * w);
  std::vector<uint64_t> idx(rank, 0);
  for (uint64_t e = 0; e < n; ++e) {
    uint64_t rem = e;
    for (size_t k = rank; k-- > 0;) {
      idx[k] = rem % chunk[k];
      rem /= chunk[k];
    }
    bool inside = true;
    uint64_t at = 0, step = 1;
    for (size_t k = 0; k < rank; ++k) {
      const uint64_t j = axes == N5Axes::kN5 ? idx[k] : idx[rank - 1 - k];
      inside = inside && j < block[k];
      at += j * step;
      step *= block[k];
    }
    for (unsigned b = 0; b < w; ++b) {
      out[e * w + b] = inside ? payload[at * w + (w - 1 - b)] : fill[b];
    }
  }
  return out;
}

}  // namespace zcw::reference
