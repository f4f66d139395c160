#include "codecs/numcodecs_packbits.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace zcw {
namespace {

using testing::implementations_under_test;
using testing::random_bytes;
using Bytes = std::vector<uint8_t>;

NumcodecsPackBitsCodec plan(std::vector<uint64_t> shape) {
  return NumcodecsPackBitsCodec("bool", std::move(shape));
}

TEST(NumcodecsPackBits, HandWorkedMostSignificantBitFirst) {
  // numpy.packbits([1,0,0,0,0,0,1,1, 1,0,1]) == [0x83, 0xA0]; 5 bits pad.
  NumcodecsPackBitsCodec p = plan({11});
  const Bytes bools = {1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1};
  const Bytes encoded = {5, 0x83, 0xA0};
  for (Impl impl : implementations_under_test()) {
    Bytes out, back;
    ASSERT_TRUE(testing::encode(p, impl, bools, &out).ok());
    EXPECT_EQ(out, encoded);
    ASSERT_TRUE(testing::decode(p, impl, encoded, &back).ok());
    EXPECT_EQ(back, bools);
  }
}

TEST(NumcodecsPackBits, LongChunksAcrossBlocksMatchTheReference) {
  // 600000 bools cross several 64 KiB blocks.
  for (size_t n : {0u, 8u, 2047u, 2048u, 2049u, 10000u, 600001u}) {
    NumcodecsPackBitsCodec p = plan({n});
    Bytes bools = random_bytes(n, static_cast<uint32_t>(n) + 5);
    for (auto& b : bools) b &= 1;
    Bytes want;
    ASSERT_TRUE(testing::encode(p, Impl::kReference, bools, &want).ok());
    // Independent check of element i: bit 7 - i % 8 of byte 1 + i / 8.
    ASSERT_EQ(want[0], (8 - n % 8) % 8);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ((want[1 + i / 8] >> (7 - i % 8)) & 1, bools[i]) << i;
    }
    for (Impl impl : implementations_under_test()) {
      Bytes out, back;
      ASSERT_TRUE(testing::encode(p, impl, bools, &out).ok());
      EXPECT_EQ(out, want) << impl_name(impl) << " n=" << n;
      ASSERT_TRUE(testing::decode(p, impl, out, &back).ok());
      EXPECT_EQ(back, bools);
    }
  }
}

TEST(NumcodecsPackBits, RefusesAnOutputOfTheWrongSize) {
  NumcodecsPackBitsCodec p = plan({8});
  Bytes in(8, 1), out(1);
  MemorySource src(in.data());
  MemorySink dst(out.data());
  Status s = p.encode(src, in.size(), dst, out.size(), testing::scratch(), Impl::kSimd);
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(), "numcodecs.packbits: bool shape [8] encodes to 2 bytes, but the output holds 1");
}

TEST(NumcodecsPackBits, RefusesOtherTypesWrongLengthsAndPadding) {
  Status s = NumcodecsPackBitsCodec("uint8", {4}).status();
  EXPECT_EQ(s.code(), ErrorCode::kUnsupportedDataType);
  EXPECT_EQ(s.message(), "numcodecs.packbits: only bool arrays can be packed, got uint8");
  NumcodecsPackBitsCodec p = plan({13});
  Bytes out;
  s = testing::decode(p, Impl::kSimd, {3, 0}, &out);
  EXPECT_EQ(s.message(),
            "numcodecs.packbits: bool shape [13] needs 3 bytes (a padding-count "
            "byte, then the bits), got 2");
  s = testing::decode(p, Impl::kSimd, {4, 0, 0}, &out);
  EXPECT_EQ(s.code(), ErrorCode::kPaddingMismatch);
  EXPECT_EQ(s.message(),
            "numcodecs.packbits: bool shape [13]: the padding-count byte says 4 "
            "padding bits, but the data has 3");
}

}  // namespace
}  // namespace zcw
