// Kernel implementations, as in simdutf: a reference that follows the spec
// literally, a portable word-at-a-time path, and a SIMD path where the build
// has one (wasm SIMD128, or SSE4.1 natively so the native tests exercise the
// very same algorithms). Tests force each one; users get the fastest.
#pragma once

#include <string_view>

namespace zcw {

enum class Impl { kReference, kPortable, kSimd };

constexpr bool kHaveSimd =
#if defined(__wasm_simd128__) || defined(__SSE4_1__)
    true;
#else
    false;
#endif

inline bool impl_available(Impl impl) {
  return impl != Impl::kSimd || kHaveSimd;
}

inline Impl fastest_impl() { return kHaveSimd ? Impl::kSimd : Impl::kPortable; }

inline const char* impl_name(Impl impl) {
  switch (impl) {
    case Impl::kReference: return "reference";
    case Impl::kPortable: return "portable";
    case Impl::kSimd: return "simd";
  }
  return "reference";
}

inline bool parse_impl(std::string_view name, Impl* out) {
  for (Impl impl : {Impl::kReference, Impl::kPortable, Impl::kSimd}) {
    if (name == impl_name(impl)) {
      *out = impl;
      return true;
    }
  }
  return false;
}

}  // namespace zcw
