#include "kernels/transpose.h"

#include <cstring>

#include "kernels/byteswap.h"
#include "simd/v128.h"

namespace zcw {
namespace {

// One element, its components reversed if asked.
inline void copy_element(const uint8_t* from, uint8_t* to, unsigned width,
                         unsigned component, bool swap) {
  if (!swap || component < 2) {
    std::memcpy(to, from, width);
    return;
  }
  for (unsigned c = 0; c < width; c += component) {
    for (unsigned b = 0; b < component; ++b) to[c + b] = from[c + component - 1 - b];
  }
}

void transpose_scalar(const uint8_t* in, size_t in_row, uint8_t* out,
                      size_t out_row, size_t rows, size_t cols, unsigned width,
                      unsigned component, bool swap) {
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < cols; ++c) {
      copy_element(in + r * in_row + c * width, out + c * out_row + r * width,
                   width, component, swap);
    }
  }
}

#if defined(ZCW_V128_AVAILABLE)
template <unsigned U> simd::v128 interleave_lo(simd::v128 a, simd::v128 b);
template <unsigned U> simd::v128 interleave_hi(simd::v128 a, simd::v128 b);
template <> simd::v128 interleave_lo<1>(simd::v128 a, simd::v128 b) { return simd::interleave_lo_u8(a, b); }
template <> simd::v128 interleave_hi<1>(simd::v128 a, simd::v128 b) { return simd::interleave_hi_u8(a, b); }
template <> simd::v128 interleave_lo<2>(simd::v128 a, simd::v128 b) { return simd::interleave_lo_u16(a, b); }
template <> simd::v128 interleave_hi<2>(simd::v128 a, simd::v128 b) { return simd::interleave_hi_u16(a, b); }
template <> simd::v128 interleave_lo<4>(simd::v128 a, simd::v128 b) { return simd::interleave_lo_u32(a, b); }
template <> simd::v128 interleave_hi<4>(simd::v128 a, simd::v128 b) { return simd::interleave_hi_u32(a, b); }
template <> simd::v128 interleave_lo<8>(simd::v128 a, simd::v128 b) { return simd::interleave_lo_u64(a, b); }
template <> simd::v128 interleave_hi<8>(simd::v128 a, simd::v128 b) { return simd::interleave_hi_u64(a, b); }

// The transpose of N = 16 / W rows of N elements, in log2(N) rounds: round
// s interleaves units of W * 2^s bytes of rows 2^s apart (within groups of
// 2^(s+1) rows), after which row k holds column k.
template <unsigned W, unsigned Half>
void butterfly(simd::v128* x) {
  constexpr unsigned N = 16 / W;
  simd::v128 y[N];
  for (unsigned base = 0; base < N; base += 2 * Half) {
    for (unsigned j = 0; j < Half; ++j) {
      y[base + 2 * j] = interleave_lo<W * Half>(x[base + j], x[base + Half + j]);
      y[base + 2 * j + 1] = interleave_hi<W * Half>(x[base + j], x[base + Half + j]);
    }
  }
  for (unsigned i = 0; i < N; ++i) x[i] = y[i];
  if constexpr (2 * Half < N) butterfly<W, 2 * Half>(x);
}

// One N x N tile (N = 16 / W elements): N rows loaded, components
// reversed if asked, transposed, and stored N rows apart in `out`.
template <unsigned W>
inline void tile(const uint8_t* in, size_t in_row, uint8_t* out,
                 size_t out_row, bool reverse, simd::v128 swizzle) {
  constexpr unsigned N = 16 / W;
  simd::v128 x[N];
  for (unsigned i = 0; i < N; ++i) {
    x[i] = simd::load(in + i * in_row);
    if (reverse) x[i] = simd::shuffle_bytes(x[i], swizzle);
  }
  butterfly<W, 1>(x);
  for (unsigned i = 0; i < N; ++i) simd::store(out + i * out_row, x[i]);
}

// Tile by tile, straight from `in` to `out`; what whole tiles leave at the
// edges, element by element.
template <unsigned W>
void tiles_direct(const uint8_t* in, size_t in_row, uint8_t* out,
                  size_t out_row, size_t rows, size_t cols, unsigned component,
                  bool swap, bool reverse, simd::v128 swizzle) {
  constexpr unsigned N = 16 / W;
  const size_t full_rows = rows - rows % N, full_cols = cols - cols % N;
  for (size_t r = 0; r < full_rows; r += N) {
    for (size_t c = 0; c < full_cols; c += N) {
      tile<W>(in + r * in_row + c * W, in_row, out + c * out_row + r * W,
              out_row, reverse, swizzle);
    }
    transpose_scalar(in + r * in_row + full_cols * W, in_row,
                     out + full_cols * out_row + r * W, out_row, N,
                     cols - full_cols, W, component, swap);
  }
  transpose_scalar(in + full_rows * in_row, in_row, out + full_rows * W,
                   out_row, rows - full_rows, cols, W, component, swap);
}

// Blocks of K x K elements, K * W = 128 bytes (two cache lines): the tiles
// of a block go into a small local buffer laid out as the block's output
// rows, which then go out whole lines at a time. Every input and output line
// is then touched once, at once (one line, 64 bytes, measured 15% slower
// natively at 1024 x 1024 uint16; two lines 17 to 20 GB/s against 2.5 to 6
// before). Tiles straight into `out` leave each output
// line a quarter written while the tiles of K other lines run, and when
// rows are a power of two apart (N5 blocks, images) those lines share a
// few cache sets and are evicted in between: 3-6x slower past 512 x 512.
template <unsigned W>
void transpose_simd(const uint8_t* in, size_t in_row, uint8_t* out,
                    size_t out_row, size_t rows, size_t cols,
                    unsigned component, bool swap) {
  constexpr unsigned N = 16 / W;
  constexpr size_t K = 128 / W;
  const bool reverse = swap && component > 1;
  alignas(16) uint8_t order[16];
  for (unsigned i = 0; i < 16; ++i) {
    const unsigned c = reverse ? component : 1;
    order[i] = static_cast<uint8_t>(i - i % c + (c - 1 - i % c));
  }
  const simd::v128 swizzle = simd::load(order);
  const size_t block_rows = rows - rows % K, block_cols = cols - cols % K;
  alignas(16) uint8_t local[K * K * W];
  for (size_t r0 = 0; r0 < block_rows; r0 += K) {
    for (size_t c0 = 0; c0 < block_cols; c0 += K) {
      const uint8_t* src = in + r0 * in_row + c0 * W;
      for (size_t r = 0; r < K; r += N) {
        for (size_t c = 0; c < K; c += N) {
          tile<W>(src + r * in_row + c * W, in_row, local + c * K * W + r * W,
                  K * W, reverse, swizzle);
        }
      }
      uint8_t* dst = out + c0 * out_row + r0 * W;
      for (size_t i = 0; i < K; ++i) {
        for (size_t b = 0; b < K * W; b += 16) {
          simd::store(dst + i * out_row + b, simd::load(local + i * K * W + b));
        }
      }
    }
    tiles_direct<W>(in + r0 * in_row + block_cols * W, in_row,
                    out + block_cols * out_row + r0 * W, out_row, K,
                    cols - block_cols, component, swap, reverse, swizzle);
  }
  tiles_direct<W>(in + block_rows * in_row, in_row, out + block_rows * W,
                  out_row, rows - block_rows, cols, component, swap, reverse,
                  swizzle);
}
#endif

}  // namespace

void transpose_2d(Impl impl, const uint8_t* in, size_t in_row, uint8_t* out,
                  size_t out_row, size_t rows, size_t cols, unsigned width,
                  unsigned component, bool swap) {
#if defined(ZCW_V128_AVAILABLE)
  if (impl == Impl::kSimd) {
    switch (width) {
      case 1: return transpose_simd<1>(in, in_row, out, out_row, rows, cols, component, swap);
      case 2: return transpose_simd<2>(in, in_row, out, out_row, rows, cols, component, swap);
      case 4: return transpose_simd<4>(in, in_row, out, out_row, rows, cols, component, swap);
      case 8: return transpose_simd<8>(in, in_row, out, out_row, rows, cols, component, swap);
      default: break;
    }
  }
#endif
  (void)impl;  // the scalar path serves every implementation here
  transpose_scalar(in, in_row, out, out_row, rows, cols, width, component, swap);
}

void reverse_axes(Impl impl, const uint8_t* in,
                  const std::vector<uint64_t>& shape, uint8_t* out,
                  const std::vector<uint64_t>& out_strides, unsigned width,
                  unsigned component, bool swap) {
  const size_t m = shape.size();
  uint64_t count = 1;
  for (uint64_t d : shape) count *= d;
  if (count == 0) return;
  if (m <= 1) {
    // One axis (or none): already in order, its stride is the width.
    const uint64_t n = m == 0 ? 1 : shape[0];
    if (swap && component > 1) {
      byteswap(impl, in, out, n * width / component, component);
    } else {
      std::memcpy(out, in, n * width);
    }
    return;
  }
  // The first input axis becomes the output's contiguous one, the last
  // input axis (contiguous in the input) the output's slowest: a 2-D
  // transpose of those two for every index of the axes between.
  const uint64_t rows = shape[0], cols = shape[m - 1];
  const uint64_t in_row = count / rows * width;
  std::vector<uint64_t> index(m, 0);  // middle axes 1..m-2
  std::vector<uint64_t> in_strides(m, width);
  for (size_t k = m - 1; k-- > 0;) in_strides[k] = in_strides[k + 1] * shape[k + 1];
  while (true) {
    uint64_t in_at = 0, out_at = 0;
    for (size_t k = 1; k + 1 < m; ++k) {
      in_at += index[k] * in_strides[k];
      out_at += index[k] * out_strides[k];
    }
    transpose_2d(impl, in + in_at, in_row, out + out_at, out_strides[m - 1],
                 rows, cols, width, component, swap);
    // The next index of the middle axes, last one fastest.
    size_t k = m - 1;
    while (k-- > 1) {
      if (++index[k] < shape[k]) break;
      index[k] = 0;
    }
    if (k == 0) return;
  }
}

}  // namespace zcw
