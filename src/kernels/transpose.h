// Reversing the axes of an array (an N5 block's F order to a chunk's C
// order and back), each element's bytes reversed on the way if asked: the
// n5_default codec's work in one pass.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/implementation.h"

namespace zcw {

// Copies the C-order array `in` of shape `shape` (elements of `width`
// bytes, each made of `width / component` components) to `out` with its
// axes reversed: element (j0, ..., jm-1) goes to byte
// sum_k j_k * out_strides[k], where out_strides[0] == width (the first
// input axis is the fastest output axis). With `swap`, each component's
// bytes are reversed. `out` must not overlap `in`.
void reverse_axes(Impl impl, const uint8_t* in,
                  const std::vector<uint64_t>& shape, uint8_t* out,
                  const std::vector<uint64_t>& out_strides, unsigned width,
                  unsigned component, bool swap);

// B = A^T for a `rows` x `cols` matrix of `width`-byte elements: A[r][c] at
// in + r * in_row + c * width, B[c][r] at out + c * out_row + r * width,
// components of `component` bytes reversed with `swap`. The building block
// of reverse_axes; tiles of 16 / width rows and columns in SIMD.
void transpose_2d(Impl impl, const uint8_t* in, size_t in_row, uint8_t* out,
                  size_t out_row, size_t rows, size_t cols, unsigned width,
                  unsigned component, bool swap);

}  // namespace zcw
