// The n5_default codec's block layout: N5 order (the header's first axis
// fastest), big-endian, at the header's shape, into a chunk whose axes are
// the header's (kN5) or the header's reversed (kReversed); against a
// reference that follows the definition element by element, for every N5
// type, 0- to 4-D, padded, truncated and cropped blocks, every
// implementation.
#include <gtest/gtest.h>

#include <cstring>

#include "codecs/n5_block.h"
#include "kernels/transpose.h"
#include "n5_reference.h"
#include "test_support.h"

namespace zcw {
namespace {

using testing::implementations_under_test;
using testing::random_bytes;
using testing::scratch;
using testing::VectorSink;


struct Case {
  const char* type;
  unsigned width;
  std::vector<uint64_t> chunk;  // the array's axis order
  std::vector<uint64_t> block;  // the header's (N5 order)
};

void check_decodes(N5Axes axes, const std::vector<Case>& cases) {
  Workspace ws;
  for (const Case& c : cases) {
    uint64_t block_n = 1, chunk_n = 1;
    for (uint64_t d : c.block) block_n *= d;
    for (uint64_t d : c.chunk) chunk_n *= d;
    const std::vector<uint8_t> payload = random_bytes(block_n * c.width, 5);
    const std::vector<uint8_t> fill = random_bytes(c.width, 9);
    const std::vector<uint8_t> want = reference::n5_block_by_definition(axes, c.chunk, c.block, c.width, payload, fill);
    const std::vector<uint64_t> header =
        axes == N5Axes::kN5 ? c.chunk : std::vector<uint64_t>(c.chunk.rbegin(), c.chunk.rend());
    for (Impl impl : implementations_under_test()) {
      N5BlockCodec codec(c.type, c.chunk, axes);
      ASSERT_TRUE(codec.status().ok()) << codec.status().message();
      MemorySource src(payload.data());
      VectorSink out(chunk_n * c.width);
      const Status s = codec.decode(c.block, fill, src, payload.size(), out,
                                    out.bytes.size(), scratch(), ws, impl);
      ASSERT_TRUE(s.ok()) << s.message();
      EXPECT_EQ(out.bytes, want) << c.type << " " << ::testing::PrintToString(c.chunk) << " block "
                                 << ::testing::PrintToString(c.block) << " " << impl_name(impl);
      if (c.block == header) {
        // Encoding is the inverse, for a whole chunk.
        MemorySource back(want.data());
        VectorSink block(payload.size());
        ASSERT_TRUE(codec.encode(back, want.size(), block, block.bytes.size(), scratch(), ws, impl).ok());
        EXPECT_EQ(block.bytes, payload) << c.type << " " << impl_name(impl);
      }
    }
  }
}

TEST(N5Block, DecodesAndEncodesLikeTheDefinition) {
  check_decodes(N5Axes::kN5, {
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
      // Larger than the chunk: cropped (the page's step 4), along one axis,
      // both, and with another truncated.
      {"uint16", 2, {4, 3}, {6, 3}},
      {"int32", 4, {4, 3}, {4, 5}},
      {"float64", 8, {5, 6, 2}, {7, 4, 9}},
      {"uint8", 1, {33}, {40}},
  });
}

TEST(N5Block, ReversedAxesDecodeInOrderLikeTheDefinition) {
  // The chunk's axes are the header's reversed: [rows, columns] for an N5
  // block [columns, rows]. Rows longer than a scratch block (64 KiB), and
  // chunks of many scratch blocks, stream through it.
  check_decodes(N5Axes::kReversed, {
      {"uint16", 2, {256, 256}, {256, 256}},
      {"uint16", 2, {300, 200}, {200, 300}},
      {"uint8", 1, {45, 37}, {37, 45}},
      {"int32", 4, {5, 7}, {3, 5}},          // truncated along the header's first axis (columns)
      {"float64", 8, {10, 9}, {9, 4}},       // ... and its second (rows)
      {"int16", 2, {5, 4, 3}, {3, 4, 5}},
      {"float32", 4, {4, 5, 6}, {2, 5, 3}},  // truncated along two axes
      {"uint64", 8, {5, 4, 3, 2}, {2, 2, 4, 1}},
      {"int8", 1, {33}, {20}},
      {"uint32", 4, {}, {}},
      {"uint16", 2, {4, 4}, {4, 0}},         // an empty block
      {"uint16", 2, {3, 4}, {6, 3}},         // cropped
      {"int32", 4, {3, 4}, {4, 5}},
      {"float64", 8, {2, 6, 5}, {7, 4, 9}},
      {"uint8", 1, {33}, {40}},
      {"uint16", 2, {70000}, {70000}},       // a row of 137 KiB
      {"uint16", 2, {70000}, {69999}},
      {"uint16", 2, {3, 40000}, {40001, 2}}, // rows past a scratch block, cropped and padded
      {"float32", 4, {64, 1024}, {1000, 64}},
      {"int64", 8, {2, 3, 9000}, {9000, 3, 2}},
  });
}

TEST(N5Block, ViolationsAreErrorsWithTheirNumbers) {
  N5BlockCodec codec("uint16", {4, 4});
  Workspace ws;
  const std::vector<uint8_t> payload(32, 0);
  MemorySource src(payload.data());
  VectorSink out(32);
  Status s = codec.decode({4, 4, 1}, {0, 0}, src, 32, out, 32, scratch(), ws, Impl::kSimd);
  EXPECT_EQ(s.message(), "n5_default: uint16 chunk [4, 4]: the block header has 3 dimensions, but the array has 2");
  s = codec.decode({4, 4}, {0, 0}, src, 31, out, 32, scratch(), ws, Impl::kSimd);
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(), "n5_default: uint16 chunk [4, 4]: a block of shape [4, 4] needs 32 bytes after its header, got 31");
  s = codec.decode({5, 4}, {0, 0}, src, 32, out, 32, scratch(), ws, Impl::kSimd);
  EXPECT_EQ(s.message(), "n5_default: uint16 chunk [4, 4]: a block of shape [5, 4] needs 40 bytes after its header, got 32");
  s = codec.decode({2, 4}, {}, src, 16, out, 32, scratch(), ws, Impl::kSimd);
  EXPECT_EQ(s.code(), ErrorCode::kInvalidInput);
  // A header that says more than a block may hold: refused before its
  // payload is looked at, whatever its length; one of 0 elements is empty.
  s = codec.decode({0xFFFFFFFF, 0xFFFFFFFF}, {0, 0}, src, 32, out, 32, scratch(), ws, Impl::kSimd);
  EXPECT_EQ(s.code(), ErrorCode::kSizeOverflow);
  EXPECT_EQ(s.message(),
            "n5_default: uint16 chunk [4, 4]: the block header's shape [4294967295, 4294967295] holds more than "
            "536870912 bytes (512 MiB), the most a block may hold");
  uint64_t bytes = 1;
  EXPECT_TRUE(codec.payload_bytes({0xFFFFFFFF, 0xFFFFFFFF, 0}, &bytes).ok());
  EXPECT_EQ(bytes, 0u);
  EXPECT_TRUE(codec.payload_bytes({16384, 16384}, &bytes).ok());
  EXPECT_EQ(bytes, uint64_t{512} << 20);
  EXPECT_EQ(codec.payload_bytes({16384, 16385}, &bytes).code(), ErrorCode::kSizeOverflow);
  const N5BlockCodec reversed("uint16", {2, 4}, N5Axes::kReversed);
  s = reversed.decode({4, 2}, {0, 0}, src, 15, out, 16, scratch(), ws, Impl::kSimd);
  EXPECT_EQ(s.message(),
            "n5_default: uint16 chunk [2, 4] (axes reversed): a block of shape [4, 2] needs 16 bytes after its header, "
            "got 15");
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
  EXPECT_EQ(N5BlockCodec("uint16", {2048, 1024, 1024}, N5Axes::kReversed).status().message(),
            "n5_default: uint16 chunk [2048, 1024, 1024] (axes reversed) holds 4294967296 bytes; a block is held "
            "whole after its compressor, so a chunk may hold 536870912 (512 MiB) at most");
  N5Axes axes = N5Axes::kN5;
  EXPECT_TRUE(parse_n5_axes("reversed", &axes));
  EXPECT_EQ(axes, N5Axes::kReversed);
  EXPECT_FALSE(parse_n5_axes("C", &axes));
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
