// The implementation every kernel call uses in this module instance: the
// fastest by default; tests and the benchmark force another, as simdutf
// allows.
#pragma once

#include "common/implementation.h"

namespace zcw::bindings {

inline Impl& active_impl() {
  static Impl impl = fastest_impl();
  return impl;
}

}  // namespace zcw::bindings
