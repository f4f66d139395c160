// The n5_default codec's block layout: N5 order (the chunk's axes reversed),
// big-endian, at the header's shape; against a reference that follows the
// definition element by element, for every N5 type, 1- to 4-D, padded and
// truncated blocks, every implementation.
#include <gtest/gtest.h>

#include <cstring>

#include "codecs/n5_block.h"
#include "kernels/transpose.h"
#include "test_support.h"

namespace zcw {
namespace {

using testing::implementations_under_test;
using testing::random_bytes;
using testing::VectorSink;

// Element (i0, ..., in-1) of the chunk is the block's element at N5 offset
// i0 + d0 * (i1 + d1 * (...)), big-endian, where i < block; else the fill.
std::vector<uint8_t> decode_by_hand(const std::vector<uint64_t>& chunk,
                                    const std::vector<uint64_t>& block,
                                    unsigned w, const std::vector<uint8_t>& payload,
                                    const std::vector<uint8_t>& fill) {
  uint64_t n = 1;
  for (uint64_t d : chunk) n *= d;
  std::vector<uint8_t> out(n * w);
  std::vector<uint64_t> idx(chunk.size(), 0);
  for (uint64_t e = 0; e < n; ++e) {
    // idx from e, C order.
    uint64_t rem = e;
    for (size_t k = chunk.size(); k-- > 0;) {
      idx[k] = rem % chunk[k];
      rem /= chunk[k];
    }
    bool inside = true;
    uint64_t at = 0, step = 1;
    for (size_t k = 0; k < chunk.size(); ++k) {
      inside = inside && idx[k] < block[k];
      at += idx[k] * step;
      step *= block[k];
    }
    for (unsigned b = 0; b < w; ++b) {
      out[e * w + b] = inside ? payload[at * w + (w - 1 - b)] : fill[b];
    }
  }
  return out;
}

TEST(N5Block, DecodesAndEncodesLikeTheDefinition) {
  struct Case {
    const char* type;
    unsigned width;
    std::vector<uint64_t> chunk, block;
  } cases[] = {
      {"uint16", 2, {256, 256}, {256, 256}},
      {"uint8", 1, {37, 45}, {37, 45}},
      {"int32", 4, {7, 5}, {3, 5}},          // truncated along the first axis
      {"float64", 8, {9, 10}, {9, 4}},
      {"int16", 2, {3, 4, 5}, {3, 4, 5}},
      {"float32", 4, {6, 5, 4}, {2, 5, 3}},  // truncated along two axes
      {"uint64", 8, {2, 3, 4, 5}, {2, 2, 4, 1}},
      {"int8", 1, {33}, {20}},               // 1-D: no transpose
      {"uint32", 4, {}, {}},                 // a scalar chunk
      {"uint16", 2, {4, 4}, {0, 4}},         // an empty block
  };
  Workspace ws;
  for (const Case& c : cases) {
    uint64_t block_n = 1, chunk_n = 1;
    for (uint64_t d : c.block) block_n *= d;
    for (uint64_t d : c.chunk) chunk_n *= d;
    const std::vector<uint8_t> payload = random_bytes(block_n * c.width, 5);
    const std::vector<uint8_t> fill = random_bytes(c.width, 9);
    const std::vector<uint8_t> want = decode_by_hand(c.chunk, c.block, c.width, payload, fill);
    for (Impl impl : implementations_under_test()) {
      N5BlockCodec codec(c.type, c.chunk);
      ASSERT_TRUE(codec.status().ok()) << codec.status().message();
      MemorySource src(payload.data());
      VectorSink out(chunk_n * c.width);
      const Status s = codec.decode(c.block, fill, src, payload.size(), out,
                                    out.bytes.size(), ws, impl);
      ASSERT_TRUE(s.ok()) << s.message();
      EXPECT_EQ(out.bytes, want) << c.type << " " << impl_name(impl);
      if (c.block == c.chunk) {
        // Encoding is the inverse, for a whole chunk.
        MemorySource back(want.data());
        VectorSink block(payload.size());
        ASSERT_TRUE(codec.encode(back, want.size(), block, block.bytes.size(), ws, impl).ok());
        EXPECT_EQ(block.bytes, payload) << c.type << " " << impl_name(impl);
      }
    }
  }
}

TEST(N5Block, ViolationsAreErrorsWithTheirNumbers) {
  N5BlockCodec codec("uint16", {4, 4});
  Workspace ws;
  const std::vector<uint8_t> payload(32, 0);
  MemorySource src(payload.data());
  VectorSink out(32);
  Status s = codec.decode({4, 4, 1}, {0, 0}, src, 32, out, 32, ws, Impl::kSimd);
  EXPECT_EQ(s.message(), "n5_default: uint16 chunk [4, 4]: the block header has 3 dimensions, but the array has 2");
  s = codec.decode({5, 4}, {0, 0}, src, 32, out, 32, ws, Impl::kSimd);
  EXPECT_EQ(s.message(), "n5_default: uint16 chunk [4, 4]: the block header's shape [5, 4] is larger than the chunk");
  s = codec.decode({4, 4}, {0, 0}, src, 31, out, 32, ws, Impl::kSimd);
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(), "n5_default: uint16 chunk [4, 4]: a block of shape [4, 4] needs 32 bytes after its header, got 31");
  s = codec.decode({2, 4}, {}, src, 16, out, 32, ws, Impl::kSimd);
  EXPECT_EQ(s.code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(N5BlockCodec("int4", {4}).status().code(), ErrorCode::kUnsupportedDataType);
  EXPECT_EQ(N5BlockCodec("uint8", {uint64_t{1} << 32}).status().code(), ErrorCode::kInvalidShape);
  // A block is held whole in wasm memory: 512 MiB a chunk at most, one byte
  // more refused at construction, never an allocation that aborts.
  EXPECT_TRUE(N5BlockCodec("uint8", {512, 1024, 1024}).status().ok());
  const N5BlockCodec huge("uint8", {512 * 1024 * 1024 + 1});
  EXPECT_EQ(huge.status().code(), ErrorCode::kSizeOverflow);
  EXPECT_EQ(huge.status().message(),
            "n5_default: uint8 chunk [536870913] holds 536870913 bytes; a block is decoded whole in wasm memory, "
            "so a chunk may hold 536870912 (512 MiB) at most");
  EXPECT_EQ(N5BlockCodec("uint16", {2048, 1024, 1024}).status().code(), ErrorCode::kSizeOverflow);
}

TEST(N5Block, AWorkspaceThatCannotGrowIsAnAnswer) {
  GrowingBuffer buffer;
  EXPECT_TRUE(buffer.fit(0));
  EXPECT_TRUE(buffer.fit(100));
  EXPECT_NE(buffer.data(), nullptr);
  EXPECT_TRUE(buffer.fit(50));  // kept: no smaller allocation
  // More than any address space: refused, not an abort.
  EXPECT_FALSE(buffer.fit(uint64_t{1} << 62));
  EXPECT_TRUE(buffer.fit(10));
}

// Every element width, component size (complex64: 8 bytes of two 4-byte
// components) and swap, on shapes below, at and past the SIMD tiles (16 / w
// elements) and the cache blocks (128 / w elements), with edges left over.
TEST(Transpose2d, EveryWidthAgainstTheDefinition) {
  struct Layout {
    unsigned width, component;
    bool swap;
  };
  for (const Layout l : {Layout{1, 1, false}, Layout{2, 2, true}, Layout{2, 2, false}, Layout{4, 4, true},
                         Layout{8, 8, true}, Layout{8, 4, true}, Layout{3, 3, true}}) {
    const unsigned w = l.width, k = l.component;
    for (size_t rows : {1, 7, 16, 33, 130, 257}) {
      for (size_t cols : {1, 5, 16, 40, 128, 259}) {
        const std::vector<uint8_t> in = random_bytes(rows * cols * w, 13);
        std::vector<uint8_t> want(rows * cols * w);
        for (size_t r = 0; r < rows; ++r) {
          for (size_t c = 0; c < cols; ++c) {
            for (unsigned b = 0; b < w; ++b) {
              const unsigned from = l.swap ? b - b % k + (k - 1 - b % k) : b;
              want[(c * rows + r) * w + b] = in[(r * cols + c) * w + from];
            }
          }
        }
        for (Impl impl : implementations_under_test()) {
          std::vector<uint8_t> out(in.size());
          transpose_2d(impl, in.data(), cols * w, out.data(), rows * w, rows, cols, w, k, l.swap);
          ASSERT_EQ(out, want) << w << "/" << k << (l.swap ? " swapped " : " ") << rows << "x" << cols << " "
                               << impl_name(impl);
        }
      }
    }
  }
}

}  // namespace
}  // namespace zcw
