#include "kernels/byteswap.h"

#include <gtest/gtest.h>

#include "test_support.h"

namespace zcw {
namespace {

using testing::implementations_under_test;
using testing::random_bytes;

TEST(Byteswap, HandWorkedGroups) {
  for (Impl impl : implementations_under_test()) {
    const uint8_t in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    uint8_t out[8];
    byteswap(impl, in, out, 4, 2);
    EXPECT_EQ(std::vector<uint8_t>(out, out + 8),
              (std::vector<uint8_t>{2, 1, 4, 3, 6, 5, 8, 7}));
    byteswap(impl, in, out, 2, 4);
    EXPECT_EQ(std::vector<uint8_t>(out, out + 8),
              (std::vector<uint8_t>{4, 3, 2, 1, 8, 7, 6, 5}));
    byteswap(impl, in, out, 1, 8);
    EXPECT_EQ(std::vector<uint8_t>(out, out + 8),
              (std::vector<uint8_t>{8, 7, 6, 5, 4, 3, 2, 1}));
  }
}

// Every implementation against the reference, on lengths around the vector
// widths and block sizes, out of place and in place, at odd offsets.
TEST(Byteswap, EveryImplementationMatchesReference) {
  for (Impl impl : implementations_under_test()) {
    for (unsigned width : {2u, 3u, 4u, 8u}) {
      for (size_t groups : {0u, 1u, 7u, 8u, 9u, 31u, 32u, 33u, 100u, 1027u}) {
        for (size_t offset : {0u, 1u, 3u}) {
          std::vector<uint8_t> in =
              random_bytes(groups * width + offset, groups * 31 + width);
          std::vector<uint8_t> expected(groups * width);
          byteswap(Impl::kReference, in.data() + offset, expected.data(),
                   groups, width);
          std::vector<uint8_t> out(groups * width + offset, 0xEE);
          byteswap(impl, in.data() + offset, out.data() + offset, groups,
                   width);
          EXPECT_EQ(std::vector<uint8_t>(out.begin() + offset, out.end()),
                    expected)
              << impl_name(impl) << " width " << width << " groups " << groups;
          std::vector<uint8_t> inplace(in.begin() + offset, in.end());
          byteswap(impl, inplace.data(), inplace.data(), groups, width);
          EXPECT_EQ(inplace, expected) << impl_name(impl) << " in place";
        }
      }
    }
  }
}

TEST(Byteswap, SwappingTwiceIsIdentity) {
  std::vector<uint8_t> in = random_bytes(8 * 999, 7);
  for (Impl impl : implementations_under_test()) {
    std::vector<uint8_t> once(in.size()), twice(in.size());
    byteswap(impl, in.data(), once.data(), 999, 8);
    byteswap(impl, once.data(), twice.data(), 999, 8);
    EXPECT_EQ(twice, in);
  }
}

TEST(NormalizeBool, NonZeroBecomesOne) {
  for (Impl impl : implementations_under_test()) {
    std::vector<uint8_t> in = {0, 1, 2, 255, 0, 128};
    std::vector<uint8_t> out(in.size());
    normalize_bool(impl, in.data(), out.data(), in.size());
    EXPECT_EQ(out, (std::vector<uint8_t>{0, 1, 1, 1, 0, 1}));
  }
}

}  // namespace
}  // namespace zcw
