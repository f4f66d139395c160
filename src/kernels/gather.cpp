#include "kernels/gather.h"

#include <cstring>

#include "simd/v128.h"

namespace zcw {
namespace {

template <size_t Width>
void gather_fixed(const uint8_t* in, size_t stride, size_t records,
                  uint8_t* out) {
  for (size_t r = 0; r < records; ++r) {
    std::memcpy(out + r * Width, in + r * stride, Width);
  }
}

void gather_portable(const uint8_t* in, size_t stride, size_t width,
                     size_t records, uint8_t* out) {
  switch (width) {
    case 1: return gather_fixed<1>(in, stride, records, out);
    case 2: return gather_fixed<2>(in, stride, records, out);
    case 4: return gather_fixed<4>(in, stride, records, out);
    case 8: return gather_fixed<8>(in, stride, records, out);
    case 16: return gather_fixed<16>(in, stride, records, out);
    default:
      for (size_t r = 0; r < records; ++r) {
        std::memcpy(out + r * width, in + r * stride, width);
      }
  }
}

#if defined(ZCW_V128_AVAILABLE)
// One output vector holds 16 / width records' fields, which span `loads`
// input vectors from the first field's start; each contributes the bytes
// its shuffle selects. The tables do not depend on the vector.
constexpr size_t kMaxLoads = 2;

bool gather_simd(const uint8_t* in, size_t stride, size_t width,
                 size_t records, uint8_t* out) {
  if (width == 0 || 16 % width != 0) return false;
  const size_t per_vector = 16 / width;
  const size_t span = (per_vector - 1) * stride + width;
  const size_t loads = (span + 15) / 16;
  // Only where a vector's records span at most two input vectors: past
  // that, shuffling each load costs more than copying the fields one by one
  // (wasm in V8, 19-byte records: structFields 21.7 us with shuffles on
  // every field against 17.6 us copying, 64 KiB).
  if (loads > kMaxLoads) return false;
  alignas(16) uint8_t table[kMaxLoads][16];
  for (size_t k = 0; k < loads; ++k) {
    for (size_t j = 0; j < 16; ++j) {
      const size_t from = (j / width) * stride + j % width;
      table[k][j] = from >= 16 * k && from < 16 * (k + 1)
                        ? static_cast<uint8_t>(from - 16 * k)
                        : 0x80;
    }
  }
  simd::v128 t[kMaxLoads];
  for (size_t k = 0; k < loads; ++k) t[k] = simd::load(table[k]);
  size_t r = 0;
  for (; r + per_vector <= records; r += per_vector) {
    const uint8_t* src = in + r * stride;
    simd::v128 v = simd::shuffle_bytes(simd::load(src), t[0]);
    for (size_t k = 1; k < loads; ++k) {
      v = simd::or_(v, simd::shuffle_bytes(simd::load(src + 16 * k), t[k]));
    }
    simd::store(out + r * width, v);
  }
  gather_portable(in + r * stride, stride, width, records - r, out + r * width);
  return true;
}
#endif

}  // namespace

void gather_field(Impl impl, const uint8_t* in, size_t stride, size_t offset,
                  size_t width, size_t records, uint8_t* out) {
  in += offset;
  switch (impl) {
    case Impl::kReference:
      for (size_t r = 0; r < records; ++r) {
        for (size_t b = 0; b < width; ++b) out[r * width + b] = in[r * stride + b];
      }
      return;
    case Impl::kPortable:
      return gather_portable(in, stride, width, records, out);
    case Impl::kSimd:
#if defined(ZCW_V128_AVAILABLE)
      if (gather_simd(in, stride, width, records, out)) return;
#endif
      return gather_portable(in, stride, width, records, out);
  }
}

}  // namespace zcw
