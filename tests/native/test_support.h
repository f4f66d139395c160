// Shared by the native tests: which implementations to run (all available,
// or the one named by ZCW_IMPLEMENTATION) and seeded random bytes.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "implementation.h"

namespace zcw::testing {

inline std::vector<Impl> implementations_under_test() {
  std::vector<Impl> out;
  const char* forced = std::getenv("ZCW_IMPLEMENTATION");
  for (Impl impl : {Impl::kReference, Impl::kPortable, Impl::kSimd}) {
    if (!impl_available(impl)) continue;
    if (forced && std::string_view(forced) != impl_name(impl)) continue;
    out.push_back(impl);
  }
  return out;
}

inline std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> out(n);
  for (auto& b : out) b = static_cast<uint8_t>(rng());
  return out;
}

}  // namespace zcw::testing
