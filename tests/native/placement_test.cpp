// read's placement (src/read/placement.*) against a scalar reference that
// walks the chunk one element at a time, from the description alone: for
// random chunks, selections and output layouts, with the chunk split into
// random pieces (a codec writes whatever blocks it streams), and fills.
#include "read/placement.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "test_support.h"

namespace zcw {
namespace {

using testing::random_bytes;

// The reference: element e of the chunk (C order over the axes) lands at
// base + sum(k_i * out_stride_i) where its index along axis i is
// from_i + k_i * step_i with k_i < count_i; elsewhere it is not placed.
void reference_place(uint64_t eb, const std::vector<PlacementAxis>& axes, uint64_t base,
                     const uint8_t* chunk, std::vector<uint8_t>& band) {
  uint64_t elements = 1;
  for (const auto& a : axes) elements *= a.extent;
  for (uint64_t e = 0; e < elements; ++e) {
    uint64_t rest = e, at = base;
    bool selected = true;
    for (size_t i = axes.size(); i-- > 0;) {
      const uint64_t index = rest % axes[i].extent;
      rest /= axes[i].extent;
      if (index < axes[i].from || (index - axes[i].from) % axes[i].step != 0 ||
          (index - axes[i].from) / axes[i].step >= axes[i].count) {
        selected = false;
        break;
      }
      at += (index - axes[i].from) / axes[i].step * axes[i].out_stride;
    }
    if (selected) std::memcpy(band.data() + at, chunk + e * eb, eb);
  }
}

struct Case {
  uint64_t eb;
  std::vector<PlacementAxis> axes;
  uint64_t base;
  uint64_t band_bytes;
};

// A random chunk and selection, placed in C order into a random output
// region (its axes maybe permuted, as a transposed chunk's are), with
// a margin on both sides of the band that must stay untouched.
Case random_case(std::mt19937& rng) {
  Case c;
  const uint64_t widths[] = {1, 2, 4, 8, 3, 12};
  c.eb = widths[rng() % 6];
  const size_t rank = rng() % 5;
  std::vector<uint64_t> out_shape;
  for (size_t i = 0; i < rank; ++i) {
    PlacementAxis a;
    a.extent = 1 + rng() % 7;
    a.step = 1 + rng() % 3;
    a.from = rng() % a.extent;
    const uint64_t room = (a.extent - 1 - a.from) / a.step + 1;
    a.count = rng() % 5 == 0 ? room : 1 + rng() % room;
    if (rng() % 6 == 0) a.count = 0;
    if (rng() % 4 == 0) a.count = a.extent, a.from = 0, a.step = 1;  // whole axis
    c.axes.push_back(a);
    out_shape.push_back(a.count + rng() % 3);
  }
  // Output strides: C order over a random permutation of the axes.
  std::vector<size_t> order(rank);
  for (size_t i = 0; i < rank; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  uint64_t stride = c.eb, bytes = c.eb;
  for (size_t j = rank; j-- > 0;) {
    c.axes[order[j]].out_stride = stride;
    stride *= std::max<uint64_t>(out_shape[order[j]], 1);
  }
  bytes = stride;
  c.base = rng() % 16;
  c.band_bytes = c.base + bytes + rng() % 16;
  return c;
}

TEST(Placement, MatchesTheReferenceForAnySplitOfTheChunk) {
  std::mt19937 rng(20261125);
  for (int round = 0; round < 4000; ++round) {
    const Case c = random_case(rng);
    Placement p;
    ASSERT_TRUE(Placement::make(c.eb, c.axes, c.base, c.band_bytes, &p).ok()) << "round " << round;
    const std::vector<uint8_t> chunk = random_bytes(p.chunk_bytes(), round);
    std::vector<uint8_t> expected(c.band_bytes, 0xa5), band(c.band_bytes, 0xa5);
    reference_place(c.eb, c.axes, c.base, chunk.data(), expected);
    // Random pieces, at any byte (a block may end inside an element).
    PlacingSink sink(p, band.data());
    uint64_t at = 0;
    while (at < chunk.size()) {
      const uint64_t n = std::min<uint64_t>(chunk.size() - at, 1 + rng() % (2 * c.eb + 9));
      sink.write(at, chunk.data() + at, n);
      at += n;
    }
    ASSERT_EQ(band, expected) << "round " << round;
  }
}

TEST(Placement, WholeChunkInOnePieceIsOneCopy) {
  // A 4 x 6 uint16 chunk into rows 2..5, columns 6..11 of an 8 x 16 output.
  std::vector<PlacementAxis> axes = {{4, 0, 4, 1, 32}, {6, 0, 6, 1, 2}};
  Placement p;
  ASSERT_TRUE(Placement::make(2, axes, 2 * 32 + 6 * 2, 8 * 32, &p).ok());
  EXPECT_EQ(p.chunk_bytes(), 48u);
  EXPECT_EQ(p.selected(), 24u);
  std::vector<uint8_t> chunk(48), band(256, 0), expected(256, 0);
  for (size_t i = 0; i < chunk.size(); ++i) chunk[i] = static_cast<uint8_t>(i + 1);
  // By hand: row r of the chunk is bytes 12r..12r+11, at output byte
  // (2 + r) * 32 + 12.
  for (int r = 0; r < 4; ++r) std::memcpy(expected.data() + (2 + r) * 32 + 12, chunk.data() + 12 * r, 12);
  PlacingSink(p, band.data()).write(0, chunk.data(), chunk.size());
  EXPECT_EQ(band, expected);
}

TEST(Placement, StepsAndTransposedAxes) {
  // A 3 x 4 uint8 chunk stored transposed (axes: columns, then rows), rows
  // 0 and 2 and columns 1 and 3 selected, into a 2 x 2 C-order output.
  // Stored element (c, r) is chunk value [r][c].
  std::vector<PlacementAxis> axes = {{4, 1, 2, 2, 1}, {3, 0, 2, 2, 2}};
  Placement p;
  ASSERT_TRUE(Placement::make(1, axes, 0, 4, &p).ok());
  // Stored bytes: 10 * c + r, i.e. value [r][c] = 10c + r.
  std::vector<uint8_t> chunk;
  for (int c = 0; c < 4; ++c) for (int r = 0; r < 3; ++r) chunk.push_back(static_cast<uint8_t>(10 * c + r));
  std::vector<uint8_t> band(4, 0);
  PlacingSink(p, band.data()).write(0, chunk.data(), chunk.size());
  // Output [i][j] = value [2i][1 + 2j].
  EXPECT_EQ(band, (std::vector<uint8_t>{10, 30, 12, 32}));
}

TEST(Placement, FillsWithOneValueOrPartsAlongTheLastAxis) {
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    const Case c = random_case(rng);
    Placement p;
    ASSERT_TRUE(Placement::make(c.eb, c.axes, c.base, c.band_bytes, &p).ok());
    const uint64_t last = c.axes.empty() ? 1 : c.axes.back().extent;
    const uint64_t parts = rng() % 2 ? 1 : last;
    const std::vector<uint8_t> pattern = random_bytes(parts * c.eb, round + 1);
    // The reference: a chunk whose element i along the last axis is part
    // i (or the one part), placed as any chunk.
    std::vector<uint8_t> chunk(p.chunk_bytes());
    for (uint64_t e = 0; e < chunk.size() / c.eb; ++e) {
      std::memcpy(chunk.data() + e * c.eb, pattern.data() + (parts == 1 ? 0 : e % last) * c.eb, c.eb);
    }
    std::vector<uint8_t> expected(c.band_bytes, 0x5a), band(c.band_bytes, 0x5a);
    reference_place(c.eb, c.axes, c.base, chunk.data(), expected);
    ASSERT_TRUE(p.fill(pattern.data(), pattern.size(), band.data()).ok());
    ASSERT_EQ(band, expected) << "round " << round;
  }
}

TEST(Placement, RefusesDescriptionsThatLeaveTheBand) {
  Placement p;
  // 4 elements of 2 bytes at stride 2 from byte 1: bytes 1..8, band of 8.
  EXPECT_EQ(Placement::make(2, {{4, 0, 4, 1, 2}}, 1, 8, &p).code(), ErrorCode::kInvalidInput);
  EXPECT_TRUE(Placement::make(2, {{4, 0, 4, 1, 2}}, 0, 8, &p).ok());
  // A selection past the chunk's extent.
  EXPECT_EQ(Placement::make(1, {{4, 2, 2, 2, 1}}, 0, 100, &p).code(), ErrorCode::kInvalidInput);
  // Zero step, zero extent, zero element size.
  EXPECT_FALSE(Placement::make(1, {{4, 0, 1, 0, 1}}, 0, 100, &p).ok());
  EXPECT_FALSE(Placement::make(1, {{0, 0, 0, 1, 1}}, 0, 100, &p).ok());
  EXPECT_FALSE(Placement::make(0, {{4, 0, 4, 1, 1}}, 0, 100, &p).ok());
  // Offsets that overflow.
  EXPECT_FALSE(Placement::make(1, {{4, 0, 4, 1, uint64_t{1} << 52}, {4, 0, 4, 1, uint64_t{1} << 52}}, 0,
                               uint64_t{1} << 53, &p).ok());
  // Nothing selected: nothing to check against the band.
  EXPECT_TRUE(Placement::make(1, {{4, 0, 0, 1, 1000}}, 999, 0, &p).ok());
  // A fill pattern of the wrong size.
  ASSERT_TRUE(Placement::make(2, {{3, 0, 3, 1, 2}}, 0, 6, &p).ok());
  std::vector<uint8_t> band(6), pattern(4);
  EXPECT_EQ(p.fill(pattern.data(), 4, band.data()).code(), ErrorCode::kInvalidInput);
}

}  // namespace
}  // namespace zcw
