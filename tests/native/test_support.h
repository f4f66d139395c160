// Shared by the native tests: which implementations to run (all available,
// or the one named by ZCW_IMPLEMENTATION), seeded random bytes, and whole
// chunks through a codec's streaming code (the code the package runs).
#pragma once

#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <memory>
#include <random>
#include <string_view>
#include <vector>

#include "codecs/codec.h"
#include "codecs/io.h"
#include "common/implementation.h"

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

inline Scratch& scratch() {
  static std::unique_ptr<Scratch> s = std::make_unique<Scratch>();
  return *s;
}

// A whole chunk decoded into `out` (resized to the decoded size).
inline Status decode(const Codec& c, Impl impl, const std::vector<uint8_t>& in,
                     std::vector<uint8_t>* out) {
  out->assign(c.decoded_bytes(), 0xEE);
  return decode_buffer(c, impl, in.data(), in.size(), out->data(), out->size(), scratch());
}

// A whole chunk encoded into `out` (resized to the encoded size).
inline Status encode(const Codec& c, Impl impl, const std::vector<uint8_t>& in,
                     std::vector<uint8_t>* out) {
  out->assign(c.encoded_bytes(), 0xEE);
  return encode_buffer(c, impl, in.data(), in.size(), out->data(), out->size(), scratch());
}

// A sink that owns what it is given (MemorySink writes into memory the
// caller keeps), prefilled with 0xEE so a byte never written shows.
class VectorSink final : public ByteSink {
 public:
  explicit VectorSink(size_t n) : bytes(n, 0xEE) {}
  void write(uint64_t offset, const uint8_t* from, uint64_t length) override {
    if (length) std::memcpy(bytes.data() + offset, from, length);
  }
  std::vector<uint8_t> bytes;
};

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& values) {
  const auto* p = reinterpret_cast<const uint8_t*>(values.data());
  return std::vector<uint8_t>(p, p + values.size() * sizeof(T));
}

template <typename T>
std::vector<T> values_of(const std::vector<uint8_t>& bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!bytes.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}

}  // namespace zcw::testing
