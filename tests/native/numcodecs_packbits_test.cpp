#include "numcodecs_packbits.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace zcw {
namespace {

using testing::implementations_under_test;
using testing::random_bytes;
using Bytes = std::vector<uint8_t>;

NumcodecsPackBitsPlan plan(std::vector<uint64_t> shape) {
  NumcodecsPackBitsPlan p;
  EXPECT_TRUE(plan_numcodecs_packbits("bool", std::move(shape), &p).ok());
  return p;
}

TEST(NumcodecsPackBits, HandWorkedMostSignificantBitFirst) {
  // numpy.packbits([1,0,0,0,0,0,1,1, 1,0,1]) == [0x83, 0xA0]; 5 bits pad.
  NumcodecsPackBitsPlan p = plan({11});
  const Bytes bools = {1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1};
  const Bytes encoded = {5, 0x83, 0xA0};
  for (Impl impl : implementations_under_test()) {
    Bytes out(p.encoded_bytes);
    ASSERT_TRUE(numcodecs_packbits_encode_chunk(p, impl, bools.data(), 11,
                                                out.data(), out.size())
                    .ok());
    EXPECT_EQ(out, encoded);
    Bytes back(11);
    ASSERT_TRUE(numcodecs_packbits_decode_chunk(p, impl, encoded.data(), 3,
                                                back.data(), 11)
                    .ok());
    EXPECT_EQ(back, bools);
  }
}

TEST(NumcodecsPackBits, LongChunksAcrossBlocksMatchTheReference) {
  for (size_t n : {0u, 8u, 2047u, 2048u, 2049u, 10000u}) {
    NumcodecsPackBitsPlan p = plan({n});
    Bytes bools = random_bytes(n, static_cast<uint32_t>(n) + 5);
    for (auto& b : bools) b &= 1;
    Bytes want(p.encoded_bytes);
    ASSERT_TRUE(numcodecs_packbits_encode_chunk(p, Impl::kReference, bools.data(),
                                                n, want.data(), want.size())
                    .ok());
    // Independent check of element i: bit 7 - i % 8 of byte 1 + i / 8.
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ((want[1 + i / 8] >> (7 - i % 8)) & 1, bools[i]) << i;
    }
    for (Impl impl : implementations_under_test()) {
      Bytes out(p.encoded_bytes);
      ASSERT_TRUE(numcodecs_packbits_encode_chunk(p, impl, bools.data(), n,
                                                  out.data(), out.size())
                      .ok());
      EXPECT_EQ(out, want) << impl_name(impl) << " n=" << n;
      Bytes back(n);
      ASSERT_TRUE(numcodecs_packbits_decode_chunk(p, impl, out.data(), out.size(),
                                                  back.data(), n)
                      .ok());
      EXPECT_EQ(back, bools);
    }
  }
}

TEST(NumcodecsPackBits, RefusesAnOutputOfTheWrongSize) {
  NumcodecsPackBitsPlan p = plan({8});
  Bytes in(8, 1), out(1);
  Status s = numcodecs_packbits_encode_chunk(p, Impl::kSimd, in.data(), in.size(), out.data(), out.size());
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(), "numcodecs.packbits: bool shape [8] encodes to 2 bytes, but the output holds 1");
}

TEST(NumcodecsPackBits, RefusesOtherTypesWrongLengthsAndPadding) {
  NumcodecsPackBitsPlan p;
  Status s = plan_numcodecs_packbits("uint8", {4}, &p);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupportedDataType);
  EXPECT_EQ(s.message(), "numcodecs.packbits: only bool arrays can be packed, got uint8");
  p = plan({13});
  Bytes short_input = {3, 0};
  s = check_numcodecs_frame(p, short_input.data(), short_input.size());
  EXPECT_EQ(s.message(),
            "numcodecs.packbits: bool shape [13] needs 3 bytes (a padding-count "
            "byte, then the bits), got 2");
  Bytes bad_padding = {4, 0, 0};
  s = check_numcodecs_frame(p, bad_padding.data(), bad_padding.size());
  EXPECT_EQ(s.code(), ErrorCode::kPaddingMismatch);
  EXPECT_EQ(s.message(),
            "numcodecs.packbits: bool shape [13]: the padding-count byte says 4 "
            "padding bits, but the data has 3");
}

}  // namespace
}  // namespace zcw
