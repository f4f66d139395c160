// The largest single allocation made while a probe lives, for tests that
// must show a hostile size was never allocated (a freed allocation leaves
// nothing to see afterwards). It listens through AddressSanitizer's malloc
// hooks, which see malloc, calloc and realloc's new blocks: available in
// the sanitized build (scripts/test-native.sh), absent elsewhere.
#pragma once

#include <atomic>
#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define ZCW_ALLOCATION_PROBE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ZCW_ALLOCATION_PROBE 1
#endif
#endif

#ifdef ZCW_ALLOCATION_PROBE
#include <sanitizer/allocator_interface.h>
#endif

namespace zcw::testing {

class AllocationProbe {
 public:
  AllocationProbe() {
    largest().store(0);
    armed().store(true);
  }
  ~AllocationProbe() { armed().store(false); }
  AllocationProbe(const AllocationProbe&) = delete;
  AllocationProbe& operator=(const AllocationProbe&) = delete;

  // Whether this build can see allocations at all.
  static bool available() {
#ifdef ZCW_ALLOCATION_PROBE
    static const bool installed = __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) != 0;
    return installed;
#else
    return false;
#endif
  }

  // The largest allocation since the probe was made, in bytes.
  size_t largest_bytes() const { return largest().load(); }

 private:
  static std::atomic<size_t>& largest() {
    static std::atomic<size_t> bytes{0};
    return bytes;
  }
  static std::atomic<bool>& armed() {
    static std::atomic<bool> on{false};
    return on;
  }
  static void on_malloc(const volatile void*, size_t size) {
    if (!armed().load(std::memory_order_relaxed)) return;
    size_t seen = largest().load(std::memory_order_relaxed);
    while (size > seen && !largest().compare_exchange_weak(seen, size)) {
    }
  }
  static void on_free(const volatile void*) {}
};

}  // namespace zcw::testing
