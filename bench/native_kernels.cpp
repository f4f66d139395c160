// The same kernels as the wasm module, built natively (-O3, SSE4.1), timed
// on the cases bench/run.mjs measures in wasm. Prints one JSON object:
// { "<case> <bytes>": GB/s of decoded bytes, ... }. Run by bench/run.mjs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "byteswap.h"
#include "packbits_kernels.h"

namespace {

struct Case {
  const char* name;
  bool packbits;
  bool encode;
  zcw::PackBitsLayout layout;  // packbits
  unsigned swap_width;         // bytes
};

zcw::PackBitsLayout layout(uint32_t first, uint32_t bits, uint32_t container,
                           bool sign, bool is_bool) {
  zcw::PackBitsLayout l;
  l.first_bit = first;
  l.bits = bits;
  l.component_bits = 8 * container;
  l.container_bytes = container;
  l.sign_extend = sign;
  l.is_bool = is_bool;
  return l;
}

// Best time of several rounds, in seconds per call.
template <typename F>
double best_seconds(F&& f, size_t bytes) {
  const int reps = static_cast<int>(std::clamp<size_t>((64u << 20) / (bytes + 1), 3, 20000));
  double best = 1e30;
  for (int round = 0; round < 7; ++round) {
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) f();
    auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count() / reps);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  zcw::Impl impl = zcw::fastest_impl();
  if (argc > 1 && !zcw::parse_impl(argv[1], &impl)) return 2;
  const Case cases[] = {
      {"bytes-be-decode int16", false, false, {}, 2},
      {"bytes-be-decode float32", false, false, {}, 4},
      {"bytes-be-decode float64", false, false, {}, 8},
      {"packbits-decode bool", true, false, layout(0, 1, 1, false, true), 0},
      {"packbits-decode uint8 4-bit", true, false, layout(0, 4, 1, false, false), 0},
      {"packbits-decode uint16 12-bit", true, false, layout(0, 12, 2, false, false), 0},
      {"packbits-decode int16 bits 3..12", true, false, layout(3, 10, 2, true, false), 0},
      {"packbits-encode bool", true, true, layout(0, 1, 1, false, true), 0},
      {"packbits-encode uint8 4-bit", true, true, layout(0, 4, 1, false, false), 0},
      {"packbits-encode uint16 12-bit", true, true, layout(0, 12, 2, false, false), 0},
      {"packbits-encode int16 bits 3..12", true, true, layout(3, 10, 2, true, false), 0},
  };
  const size_t sizes[] = {4096, 65536, 1 << 20, 16 << 20};
  std::printf("{\"implementation\": \"%s\"", zcw::impl_name(impl));
  for (const Case& c : cases) {
    for (size_t decoded : sizes) {
      std::vector<uint8_t> a(decoded + 64, 0x5A), b(decoded + 64, 0xA5);
      for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint8_t>(i * 2654435761u >> 13);
      double s;
      if (!c.packbits) {
        s = best_seconds([&] { zcw::byteswap(impl, a.data(), b.data(), decoded / c.swap_width, c.swap_width); }, decoded);
      } else {
        const size_t n = decoded / c.layout.container_bytes;
        if (c.encode) {
          s = best_seconds([&] { zcw::packbits_encode(impl, c.layout, a.data(), b.data(), n); }, decoded);
        } else {
          s = best_seconds([&] { zcw::packbits_decode(impl, c.layout, a.data(), b.data(), n); }, decoded);
        }
      }
      std::printf(",\n \"%s %zu\": %.3f", c.name, decoded, decoded / s / 1e9);
    }
  }
  std::printf("\n}\n");
  return 0;
}
