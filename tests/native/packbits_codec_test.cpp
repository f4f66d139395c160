// Hand-worked packbits vectors: they pin the bit order, sign extension and
// padding modes, so a mistake made the same way in both directions (which a
// round trip cannot see) still fails.
#include "packbits_codec.h"

#include <gtest/gtest.h>

#include <cstring>

#include "test_support.h"

namespace zcw {
namespace {

using testing::implementations_under_test;
using Bytes = std::vector<uint8_t>;

PackBitsPlan plan(const char* type, std::optional<int64_t> first,
                  std::optional<int64_t> last, const char* padding,
                  std::vector<uint64_t> shape) {
  PackBitsPlan p;
  Status s = plan_packbits(type, first, last,
                           padding ? std::optional<std::string_view>(padding)
                                   : std::nullopt,
                           std::move(shape), &p);
  EXPECT_TRUE(s.ok()) << s.message();
  return p;
}

Status plan_status(const char* type, std::optional<int64_t> first,
                   std::optional<int64_t> last, const char* padding) {
  PackBitsPlan p;
  return plan_packbits(type, first, last,
                       padding ? std::optional<std::string_view>(padding)
                               : std::nullopt,
                       {4}, &p);
}

template <typename T>
Bytes as_bytes(std::initializer_list<T> values) {
  Bytes out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

Bytes encode(const PackBitsPlan& p, Impl impl, const Bytes& in) {
  Bytes out(p.encoded_bytes);
  Status s = packbits_encode_chunk(p, impl, in.data(), in.size(), out.data(),
                                   out.size());
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

Bytes decode(const PackBitsPlan& p, Impl impl, const Bytes& in) {
  Bytes out(p.decoded_bytes);
  Status s = packbits_decode_chunk(p, impl, in.data(), in.size(), out.data(),
                                   out.size());
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

TEST(PackBitsVectors, Uint16TwelveBitsLeastSignificantFirst) {
  // 0xABC, 0x123 -> bits BC, (A | 3 << 4), 12.
  PackBitsPlan p = plan("uint16", std::nullopt, 11, nullptr, {2});
  EXPECT_EQ(p.encoded_bytes, 3u);
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(encode(p, impl, as_bytes<uint16_t>({0xABC, 0x123})),
              (Bytes{0xBC, 0x3A, 0x12}));
    EXPECT_EQ(decode(p, impl, {0xBC, 0x3A, 0x12}),
              as_bytes<uint16_t>({0xABC, 0x123}));
  }
}

TEST(PackBitsVectors, Int4SignExtends) {
  // 0x8F: low nibble F is element 0 (-1), high nibble 8 is element 1 (-8).
  PackBitsPlan p = plan("int4", std::nullopt, std::nullopt, nullptr, {2});
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(decode(p, impl, {0x8F}), as_bytes<int8_t>({-1, -8}));
    EXPECT_EQ(encode(p, impl, as_bytes<int8_t>({-1, -8})), Bytes{0x8F});
    EXPECT_EQ(encode(p, impl, as_bytes<int8_t>({7, 0})), Bytes{0x07});
  }
}

TEST(PackBitsVectors, SignExtensionReachesTheWholeContainer) {
  // int32 keeping bits 0..11: 0x800 is -2048, all 32 bits set above bit 11.
  PackBitsPlan p = plan("int32", std::nullopt, 11, nullptr, {2});
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(decode(p, impl, {0x00, 0xF8, 0x7F}),
              as_bytes<int32_t>({-2048, 0x7FF}));
  }
  // int64 keeping bits 4..9 (b = 6): 0b100000 << 4 sign-extends from bit 9.
  PackBitsPlan q = plan("int64", 4, 9, nullptr, {1});
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(decode(q, impl, {0x20}),
              as_bytes<int64_t>({static_cast<int64_t>(0xFFFFFFFFFFFFFE00ull)}));
  }
  // uint types never sign-extend.
  PackBitsPlan u = plan("uint32", std::nullopt, 11, nullptr, {1});
  EXPECT_EQ(decode(u, Impl::kPortable, {0x00, 0x08}), as_bytes<uint32_t>({0x800}));
}

TEST(PackBitsVectors, FirstBitDropsLowBitsThatDecodeAsZero) {
  // uint16 bits 4..11 of 0xABC are 0xAB; decoding gives 0xAB0.
  PackBitsPlan p = plan("uint16", 4, 11, nullptr, {1});
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(encode(p, impl, as_bytes<uint16_t>({0xABC})), Bytes{0xAB});
    EXPECT_EQ(decode(p, impl, {0xAB}), as_bytes<uint16_t>({0xAB0}));
  }
  // float32 keeping the top 16 bits (bfloat16-like truncation): 1.5f is
  // 0x3FC00000 -> C0 3F; 1.2f (0x3F99999A) comes back as 0x3F990000.
  PackBitsPlan f = plan("float32", 16, std::nullopt, nullptr, {2});
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(encode(f, impl, as_bytes<uint32_t>({0x3FC00000, 0x3F99999A})),
              (Bytes{0xC0, 0x3F, 0x99, 0x3F}));
    EXPECT_EQ(decode(f, impl, {0xC0, 0x3F, 0x99, 0x3F}),
              as_bytes<uint32_t>({0x3FC00000, 0x3F990000}));
  }
}

TEST(PackBitsVectors, ComplexComponentsPackedSeparately) {
  // complex64 keeping bits 16..31 of each component: (1.5, -2.0) is
  // 3FC00000 C0000000 -> C0 3F 00 C0.
  PackBitsPlan p = plan("complex64", 16, std::nullopt, nullptr, {1});
  EXPECT_EQ(p.encoded_bytes, 4u);
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(encode(p, impl, as_bytes<uint32_t>({0x3FC00000, 0xC0000000})),
              (Bytes{0xC0, 0x3F, 0x00, 0xC0}));
  }
  // complex_float4_e2m1fn: 4 bits each, real in the low nibble.
  PackBitsPlan c = plan("complex_float4_e2m1fn", std::nullopt, std::nullopt,
                        nullptr, {2});
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(decode(c, impl, {0x21, 0x43}), (Bytes{1, 2, 3, 4}));
  }
}

TEST(PackBitsVectors, EveryPaddingMode) {
  // 13 bools: 1000 0001 | 1 0101 -> bytes 0x81, 0x15; 3 padding bits.
  const Bytes mask = {1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 1};
  const struct {
    const char* mode;
    Bytes encoded;
  } cases[] = {{"none", {0x81, 0x15}},
               {"first_byte", {0x03, 0x81, 0x15}},
               {"last_byte", {0x81, 0x15, 0x03}}};
  for (const auto& c : cases) {
    PackBitsPlan p = plan("bool", std::nullopt, std::nullopt, c.mode, {13});
    EXPECT_EQ(p.padding_bits, 3u);
    for (Impl impl : implementations_under_test()) {
      EXPECT_EQ(encode(p, impl, mask), c.encoded) << c.mode;
      EXPECT_EQ(decode(p, impl, c.encoded), mask) << c.mode;
    }
  }
  // A whole number of bytes pads 0 bits, and says so.
  PackBitsPlan p = plan("bool", std::nullopt, std::nullopt, "first_byte", {8});
  EXPECT_EQ(encode(p, Impl::kSimd, Bytes(8, 1)), (Bytes{0x00, 0xFF}));
  // An empty chunk is just the padding byte.
  PackBitsPlan e = plan("uint4", std::nullopt, std::nullopt, "last_byte", {0});
  EXPECT_EQ(encode(e, Impl::kSimd, Bytes{}), Bytes{0x00});
}

TEST(PackBitsVectors, BoolEncodesAnyNonZeroAsOne) {
  PackBitsPlan p = plan("bool", std::nullopt, std::nullopt, nullptr, {20});
  Bytes in(20, 0);
  in[0] = 2;
  in[9] = 0x80;
  in[19] = 0xFF;
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(encode(p, impl, in), (Bytes{0x01, 0x02, 0x08})) << impl_name(impl);
  }
}

TEST(PackBitsPlan, RefusesBadConfigurations) {
  struct Case {
    const char* type;
    std::optional<int64_t> first, last;
    const char* padding;
    ErrorCode code;
    const char* message;
  } cases[] = {
      {"uint16", 5, 3, nullptr, ErrorCode::kInvalidConfiguration,
       "packbits: last_bit (3) must not be less than first_bit (5)"},
      {"uint16", std::nullopt, 16, nullptr, ErrorCode::kInvalidConfiguration,
       "packbits: last_bit must be in 0..15 for uint16 (16 bits per "
       "component), got 16"},
      {"int4", -1, std::nullopt, nullptr, ErrorCode::kInvalidConfiguration,
       "packbits: first_bit must be in 0..3 for int4 (4 bits per component), "
       "got -1"},
      {"bool", std::nullopt, std::nullopt, "end", ErrorCode::kInvalidConfiguration,
       "packbits: padding_encoding must be \"none\", \"first_byte\" or "
       "\"last_byte\", got \"end\""},
      {"r16", std::nullopt, std::nullopt, nullptr, ErrorCode::kUnsupportedDataType,
       "packbits: data type r16 is raw bytes with no bit layout; use the bytes "
       "codec"},
      {"string", std::nullopt, std::nullopt, nullptr,
       ErrorCode::kUnsupportedDataType,
       "packbits: data type string has no fixed size, so it cannot be encoded "
       "by packbits"},
      {"uint7", std::nullopt, std::nullopt, nullptr, ErrorCode::kUnknownDataType,
       "packbits: unknown data type \"uint7\" (expected a Zarr v3 data type "
       "such as uint16, complex64 or r16)"},
  };
  for (const Case& c : cases) {
    Status s = plan_status(c.type, c.first, c.last, c.padding);
    EXPECT_EQ(s.code(), c.code) << c.message;
    EXPECT_EQ(s.message(), c.message);
  }
}

TEST(PackBitsPlan, SizesAndOverflow) {
  PackBitsPlan p = plan("uint16", std::nullopt, 11, "first_byte", {3, 5});
  EXPECT_EQ(p.body_bytes, 23u);  // 15 * 12 bits = 180 bits
  EXPECT_EQ(p.padding_bits, 4u);
  EXPECT_EQ(p.encoded_bytes, 24u);
  EXPECT_EQ(p.decoded_bytes, 30u);
  PackBitsPlan c = plan("complex_float6_e2m3fn", std::nullopt, std::nullopt,
                        nullptr, {3});
  EXPECT_EQ(c.body_bytes, 5u);  // 3 * 2 * 6 = 36 bits
  EXPECT_EQ(c.decoded_bytes, 6u);
  PackBitsPlan out;
  Status s = plan_packbits("complex128", std::nullopt, std::nullopt,
                           std::nullopt, {uint64_t{1} << 50}, &out);
  EXPECT_EQ(s.code(), ErrorCode::kSizeOverflow);
  EXPECT_EQ(s.message(),
            "packbits: complex128 shape [1125899906842624] needs more than "
            "2^53 bytes");
}

TEST(PackBitsEncode, RefusesAnOutputOfTheWrongSize) {
  PackBitsPlan p = plan("bool", std::nullopt, std::nullopt, nullptr, {8});
  Bytes in(8, 1), out(3);
  Status s = packbits_encode_chunk(p, Impl::kSimd, in.data(), in.size(), out.data(), out.size());
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(), "packbits: bool shape [8] encodes to 1 bytes, but the output holds 3");
}

TEST(PackBitsFrame, ExactLengthAndPaddingByte) {
  PackBitsPlan p = plan("uint16", std::nullopt, std::nullopt, nullptr, {10});
  Bytes buf(19);
  Status s = check_packbits_frame(p, buf.data(), buf.size());
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(), "packbits: uint16 shape [10] needs 20 bytes, got 19");

  PackBitsPlan q = plan("uint16", std::nullopt, 11, "last_byte", {3});
  s = check_packbits_frame(q, buf.data(), 4);
  EXPECT_EQ(s.message(),
            "packbits: uint16 bits 0..11 shape [3] needs 6 bytes (with the "
            "last_byte padding byte), got 4");
  Bytes framed = {0, 0, 0, 0, 0, 5};
  s = check_packbits_frame(q, framed.data(), framed.size());
  EXPECT_EQ(s.code(), ErrorCode::kPaddingMismatch);
  EXPECT_EQ(s.message(),
            "packbits: uint16 bits 0..11 shape [3]: the last_byte padding byte "
            "says 5 padding bits, but the data has 4");
  framed.back() = 4;
  EXPECT_TRUE(check_packbits_frame(q, framed.data(), framed.size()).ok());
}

}  // namespace
}  // namespace zcw
