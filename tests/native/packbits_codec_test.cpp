// Hand-worked packbits vectors: they pin the bit order, sign extension and
// padding modes, so a mistake made the same way in both directions (which a
// round trip cannot see) still fails.
#include "codecs/packbits_codec.h"

#include <gtest/gtest.h>

#include <cstring>

#include "test_support.h"

namespace zcw {
namespace {

using testing::implementations_under_test;
using Bytes = std::vector<uint8_t>;

PackBitsCodec plan(const char* type, std::optional<int64_t> first,
                   std::optional<int64_t> last, const char* padding,
                   std::vector<uint64_t> shape,
                   Presentation presentation = Presentation::kStored) {
  return PackBitsCodec(type, first, last,
                       padding ? std::optional<std::string_view>(padding)
                               : std::nullopt,
                       std::move(shape), presentation);
}

Status plan_status(const char* type, std::optional<int64_t> first,
                   std::optional<int64_t> last, const char* padding) {
  return plan(type, first, last, padding, {4}).status();
}

template <typename T>
Bytes as_bytes(std::initializer_list<T> values) {
  Bytes out(values.size() * sizeof(T));
  std::memcpy(out.data(), values.begin(), out.size());
  return out;
}

Bytes encode(const PackBitsCodec& p, Impl impl, const Bytes& in) {
  Bytes out;
  Status s = testing::encode(p, impl, in, &out);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

Bytes decode(const PackBitsCodec& p, Impl impl, const Bytes& in) {
  Bytes out;
  Status s = testing::decode(p, impl, in, &out);
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

TEST(PackBitsVectors, Uint16TwelveBitsLeastSignificantFirst) {
  // 0xABC, 0x123 -> bits BC, (A | 3 << 4), 12.
  PackBitsCodec p = plan("uint16", std::nullopt, 11, nullptr, {2});
  EXPECT_EQ(p.encoded_bytes(), 3u);
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(encode(p, impl, as_bytes<uint16_t>({0xABC, 0x123})),
              (Bytes{0xBC, 0x3A, 0x12}));
    EXPECT_EQ(decode(p, impl, {0xBC, 0x3A, 0x12}),
              as_bytes<uint16_t>({0xABC, 0x123}));
  }
}

TEST(PackBitsVectors, Int4SignExtends) {
  // 0x8F: low nibble F is element 0 (-1), high nibble 8 is element 1 (-8).
  PackBitsCodec p = plan("int4", std::nullopt, std::nullopt, nullptr, {2});
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(decode(p, impl, {0x8F}), as_bytes<int8_t>({-1, -8}));
    EXPECT_EQ(encode(p, impl, as_bytes<int8_t>({-1, -8})), Bytes{0x8F});
    EXPECT_EQ(encode(p, impl, as_bytes<int8_t>({7, 0})), Bytes{0x07});
  }
}

TEST(PackBitsVectors, SignExtensionReachesTheWholeContainer) {
  // int32 keeping bits 0..11: 0x800 is -2048, all 32 bits set above bit 11.
  PackBitsCodec p = plan("int32", std::nullopt, 11, nullptr, {2});
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(decode(p, impl, {0x00, 0xF8, 0x7F}),
              as_bytes<int32_t>({-2048, 0x7FF}));
  }
  // int64 keeping bits 4..9 (b = 6): 0b100000 << 4 sign-extends from bit 9.
  PackBitsCodec q = plan("int64", 4, 9, nullptr, {1});
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(decode(q, impl, {0x20}),
              as_bytes<int64_t>({static_cast<int64_t>(0xFFFFFFFFFFFFFE00ull)}));
  }
  // uint types never sign-extend.
  PackBitsCodec u = plan("uint32", std::nullopt, 11, nullptr, {1});
  EXPECT_EQ(decode(u, Impl::kPortable, {0x00, 0x08}), as_bytes<uint32_t>({0x800}));
}

TEST(PackBitsVectors, FirstBitDropsLowBitsThatDecodeAsZero) {
  // uint16 bits 4..11 of 0xABC are 0xAB; decoding gives 0xAB0.
  PackBitsCodec p = plan("uint16", 4, 11, nullptr, {1});
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(encode(p, impl, as_bytes<uint16_t>({0xABC})), Bytes{0xAB});
    EXPECT_EQ(decode(p, impl, {0xAB}), as_bytes<uint16_t>({0xAB0}));
  }
  // float32 keeping the top 16 bits (bfloat16-like truncation): 1.5f is
  // 0x3FC00000 -> C0 3F; 1.2f (0x3F99999A) comes back as 0x3F990000.
  PackBitsCodec f = plan("float32", 16, std::nullopt, nullptr, {2});
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
  PackBitsCodec p = plan("complex64", 16, std::nullopt, nullptr, {1});
  EXPECT_EQ(p.encoded_bytes(), 4u);
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(encode(p, impl, as_bytes<uint32_t>({0x3FC00000, 0xC0000000})),
              (Bytes{0xC0, 0x3F, 0x00, 0xC0}));
  }
  // complex_float4_e2m1fn: 4 bits each, real in the low nibble.
  PackBitsCodec c = plan("complex_float4_e2m1fn", std::nullopt, std::nullopt,
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
    PackBitsCodec p = plan("bool", std::nullopt, std::nullopt, c.mode, {13});
    EXPECT_EQ(p.padding_bits(), 3u);
    for (Impl impl : implementations_under_test()) {
      EXPECT_EQ(encode(p, impl, mask), c.encoded) << c.mode;
      EXPECT_EQ(decode(p, impl, c.encoded), mask) << c.mode;
    }
  }
  // A whole number of bytes pads 0 bits, and says so.
  PackBitsCodec p = plan("bool", std::nullopt, std::nullopt, "first_byte", {8});
  EXPECT_EQ(encode(p, Impl::kSimd, Bytes(8, 1)), (Bytes{0x00, 0xFF}));
  // An empty chunk is just the padding byte.
  PackBitsCodec e = plan("uint4", std::nullopt, std::nullopt, "last_byte", {0});
  EXPECT_EQ(encode(e, Impl::kSimd, Bytes{}), Bytes{0x00});
}

TEST(PackBitsVectors, BoolEncodesAnyNonZeroAsOne) {
  PackBitsCodec p = plan("bool", std::nullopt, std::nullopt, nullptr, {20});
  Bytes in(20, 0);
  in[0] = 2;
  in[9] = 0x80;
  in[19] = 0xFF;
  for (Impl impl : implementations_under_test()) {
    EXPECT_EQ(encode(p, impl, in), (Bytes{0x01, 0x02, 0x08})) << impl_name(impl);
  }
}

TEST(PackBitsVectors, EncodeRefusesSubByteValuesOutOfRange) {
  Bytes out;
  Status s = testing::encode(plan("int4", std::nullopt, std::nullopt, nullptr, {3}),
                             Impl::kSimd, as_bytes<int8_t>({1, -9, 0}), &out);
  EXPECT_EQ(s.code(), ErrorCode::kValueOutOfRange);
  EXPECT_EQ(s.message(),
            "packbits: int4 shape [3]: value -9 at index 1 is outside int4's "
            "range -8..7");
  // A narrower bit range of a full-width type drops bits as configured.
  EXPECT_TRUE(testing::encode(plan("int16", std::nullopt, 3, nullptr, {1}),
                              Impl::kSimd, as_bytes<int16_t>({1000}), &out)
                  .ok());
  EXPECT_EQ(out, Bytes{1000 & 0xF});
}

TEST(PackBitsVectors, WidenedFloatsDecodeInOnePass) {
  // float8_e4m3: 0x38 is 1.0, 0xC0 is -2.0, 0x77 is 240 (the largest), 0x7C
  // NaN; float8_e8m0fnu 0x00 is 2^-127 and 0xFF NaN.
  PackBitsCodec p = plan("float8_e4m3", std::nullopt, std::nullopt, nullptr, {4},
                         Presentation::kFloat32);
  PackBitsCodec e = plan("float8_e8m0fnu", std::nullopt, std::nullopt, nullptr,
                         {2}, Presentation::kFloat32);
  for (Impl impl : implementations_under_test()) {
    const Bytes out = decode(p, impl, {0x38, 0xC0, 0x77, 0x7C});
    const std::vector<uint32_t> bits = testing::values_of<uint32_t>(out);
    EXPECT_EQ(bits[0], 0x3F800000u);
    EXPECT_EQ(bits[1], 0xC0000000u);
    EXPECT_EQ(bits[2], 0x43700000u);  // 240.0f
    EXPECT_EQ(bits[3] & 0x7F800000u, 0x7F800000u);
    EXPECT_NE(bits[3] & 0x007FFFFFu, 0u);
    EXPECT_EQ(testing::values_of<uint32_t>(decode(e, impl, {0x00, 0xFF})),
              (std::vector<uint32_t>{0x00400000u, 0x7FC00000u}));
    // And back, 248 (halfway to 256) rounding to even: infinity 0x78.
    EXPECT_EQ(encode(p, impl, testing::bytes_of(std::vector<float>{1.0f, -2.0f, 248.0f, 0.0f})),
              (Bytes{0x38, 0xC0, 0x78, 0x00}));
  }
  // complex_float4_e2m1fn widened: (6, -0.5) from 0x97 (real low nibble).
  PackBitsCodec c = plan("complex_float4_e2m1fn", std::nullopt, std::nullopt,
                         nullptr, {1}, Presentation::kFloat32);
  EXPECT_EQ(testing::values_of<float>(decode(c, Impl::kSimd, {0x97})),
            (std::vector<float>{6.0f, -0.5f}));
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
       "packbits: data type string has no fixed size, so no array -> bytes "
       "codec of this package can encode it"},
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
  PackBitsCodec p = plan("uint16", std::nullopt, 11, "first_byte", {3, 5});
  EXPECT_EQ(p.padding_bits(), 4u);  // 15 * 12 bits = 180 bits in 23 bytes
  EXPECT_EQ(p.encoded_bytes(), 24u);
  EXPECT_EQ(p.decoded_bytes(), 30u);
  PackBitsCodec c = plan("complex_float6_e2m3fn", std::nullopt, std::nullopt,
                        nullptr, {3});
  EXPECT_EQ(c.encoded_bytes(), 5u);  // 3 * 2 * 6 = 36 bits
  EXPECT_EQ(c.decoded_bytes(), 6u);
  // Widened to float32: four bytes per component.
  EXPECT_EQ(plan("complex_float6_e2m3fn", std::nullopt, std::nullopt, nullptr,
                 {3}, Presentation::kFloat32)
                .decoded_bytes(),
            24u);
  // computeEncodedSize for sharding: the same arithmetic for any count.
  uint64_t size = 0;
  ASSERT_TRUE(p.encoded_size_for(14, &size).ok());  // 7 values: 84 bits
  EXPECT_EQ(size, 12u);
  Status s = p.encoded_size_for(15, &size);
  EXPECT_EQ(s.code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(s.message(),
            "packbits: uint16 bits 0..11 shape [3, 5]: 15 decoded bytes are "
            "not a whole number of 2-byte elements");
  s = plan("complex128", std::nullopt, std::nullopt, nullptr,
           {uint64_t{1} << 50}).status();
  EXPECT_EQ(s.code(), ErrorCode::kSizeOverflow);
  EXPECT_EQ(s.message(),
            "packbits: complex128 shape [1125899906842624] decodes to more "
            "than 2^53 bytes");
  // Within 2^53 decoded bytes, but 8 * (2^50 + 1) bits is past 2^53.
  s = plan("uint8", std::nullopt, std::nullopt, nullptr,
           {(uint64_t{1} << 50) + 1}).status();
  EXPECT_EQ(s.code(), ErrorCode::kSizeOverflow);
  EXPECT_EQ(s.message(),
            "packbits: uint8 shape [1125899906842625] packs into more than "
            "2^53 bits");
}

TEST(PackBitsEncode, RefusesAnOutputOfTheWrongSize) {
  PackBitsCodec p = plan("bool", std::nullopt, std::nullopt, nullptr, {8});
  Bytes in(8, 1), out(3);
  MemorySource src(in.data());
  MemorySink dst(out.data());
  Status s = p.encode(src, in.size(), dst, out.size(), testing::scratch(), Impl::kSimd);
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(), "packbits: bool shape [8] encodes to 1 bytes, but the output holds 3");
}

TEST(PackBitsFrame, ExactLengthAndPaddingByte) {
  PackBitsCodec p = plan("uint16", std::nullopt, std::nullopt, nullptr, {10});
  Bytes buf(19), out;
  Status s = testing::decode(p, Impl::kSimd, buf, &out);
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(), "packbits: uint16 shape [10] needs 20 bytes, got 19");

  PackBitsCodec q = plan("uint16", std::nullopt, 11, "last_byte", {3});
  s = testing::decode(q, Impl::kSimd, Bytes(4), &out);
  EXPECT_EQ(s.message(),
            "packbits: uint16 bits 0..11 shape [3] needs 6 bytes (with the "
            "last_byte padding byte), got 4");
  Bytes framed = {0, 0, 0, 0, 0, 5};
  s = testing::decode(q, Impl::kSimd, framed, &out);
  EXPECT_EQ(s.code(), ErrorCode::kPaddingMismatch);
  EXPECT_EQ(s.message(),
            "packbits: uint16 bits 0..11 shape [3]: the last_byte padding byte "
            "says 5 padding bits, but the data has 4");
  framed.back() = 4;
  EXPECT_TRUE(testing::decode(q, Impl::kSimd, framed, &out).ok());
  // first_byte: the count comes first.
  PackBitsCodec r = plan("uint16", std::nullopt, 11, "first_byte", {3});
  s = testing::decode(r, Impl::kSimd, {3, 0, 0, 0, 0, 0}, &out);
  EXPECT_EQ(s.message(),
            "packbits: uint16 bits 0..11 shape [3]: the first_byte padding byte "
            "says 3 padding bits, but the data has 4");
}

}  // namespace
}  // namespace zcw
