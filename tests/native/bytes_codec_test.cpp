#include "codecs/bytes_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "kernels/byteswap.h"
#include "test_support.h"

namespace zcw {
namespace {

using testing::bytes_of;
using testing::decode;
using testing::encode;
using testing::implementations_under_test;
using testing::random_bytes;
using testing::values_of;

BytesCodec make(const char* type, std::optional<std::string_view> endian,
                std::vector<uint64_t> shape,
                Presentation p = Presentation::kStored) {
  return BytesCodec(type, endian, std::move(shape), p);
}

TEST(BytesCodec, SizesAndCopies) {
  EXPECT_EQ(make("uint16", "big", {10}).decoded_bytes(), 20u);
  EXPECT_FALSE(make("uint16", "big", {10}).decode_is_copy());
  EXPECT_TRUE(make("uint16", "little", {10}).decode_is_copy());
  EXPECT_EQ(make("complex128", "big", {3}).encoded_bytes(), 48u);
  EXPECT_TRUE(make("r32", "big", {3}).decode_is_copy());  // never swapped
  EXPECT_EQ(make("r32", "big", {3}).encoded_bytes(), 12u);
  EXPECT_EQ(make("uint8", std::nullopt, {5, 0}).decoded_bytes(), 0u);
  EXPECT_EQ(make("bool", std::nullopt, {}).decoded_bytes(), 1u);  // scalar
  // bool decodes as stored, but encode writes 0/1.
  EXPECT_TRUE(make("bool", std::nullopt, {4}).decode_is_copy());
  EXPECT_FALSE(make("bool", std::nullopt, {4}).encode_is_copy());
  // Sub-byte types: one byte per value, never a plain copy.
  EXPECT_EQ(make("int4", std::nullopt, {7}).encoded_bytes(), 7u);
  EXPECT_FALSE(make("int4", std::nullopt, {7}).decode_is_copy());
  // Widened: 4 bytes per component decoded.
  EXPECT_EQ(make("complex_float8_e4m3", std::nullopt, {3}, Presentation::kFloat32)
                .decoded_bytes(),
            24u);
}

TEST(BytesCodec, EndianRequiredOnlyForMultiByteTypes) {
  for (const char* ok : {"uint8", "bool", "r64", "int4", "float8_e5m2",
                         "complex_float8_e4m3", "float6_e2m3fn"}) {
    EXPECT_TRUE(make(ok, std::nullopt, {4}).status().ok()) << ok;
  }
  Status s = make("int32", std::nullopt, {4}).status();
  EXPECT_EQ(s.code(), ErrorCode::kInvalidConfiguration);
  EXPECT_EQ(s.message(),
            "bytes: data type int32 is multi-byte, so the \"endian\" option "
            "is required (\"big\" or \"little\")");
  EXPECT_EQ(make("numpy.datetime64", std::nullopt, {4}).status().code(),
            ErrorCode::kInvalidConfiguration);
  s = make("int8", "middle", {4}).status();
  EXPECT_EQ(s.message(),
            "bytes: endian must be \"big\" or \"little\", got \"middle\"");
}

TEST(BytesCodec, RefusesOverflowAndFloat32ForOtherTypes) {
  Status s = make("uint64", "big", {uint64_t{1} << 30, uint64_t{1} << 21}).status();
  EXPECT_EQ(s.code(), ErrorCode::kSizeOverflow);
  EXPECT_EQ(s.message(),
            "bytes: uint64 shape [1073741824, 2097152] needs more than 2^53 "
            "bytes");
  s = make("uint8", "big", {uint64_t{1} << 40, uint64_t{1} << 40}).status();
  EXPECT_EQ(s.code(), ErrorCode::kSizeOverflow);
  // float8 widened to float32 quadruples the decoded size: checked too.
  s = make("float8_e4m3", std::nullopt, {uint64_t{1} << 52}, Presentation::kFloat32).status();
  EXPECT_EQ(s.code(), ErrorCode::kSizeOverflow);
  s = make("uint16", "little", {4}, Presentation::kFloat32).status();
  EXPECT_EQ(s.code(), ErrorCode::kInvalidConfiguration);
  EXPECT_EQ(s.message(),
            "bytes: data type uint16 cannot be presented as float32: that is "
            "for float formats narrower than float32 (float16, bfloat16, "
            "float8_*, float6_*, float4_e2m1fn and their complex forms)");
}

TEST(BytesCodec, HandWorkedBigEndian) {
  for (Impl impl : implementations_under_test()) {
    // int16 values 0x0102, -2 (0xFFFE) stored big-endian: 01 02 FF FE.
    std::vector<uint8_t> out;
    ASSERT_TRUE(decode(make("int16", "big", {2}), impl, {0x01, 0x02, 0xFF, 0xFE}, &out).ok());
    EXPECT_EQ(values_of<int16_t>(out), (std::vector<int16_t>{0x0102, -2}));
    // complex64 (1.0f, -0.0f): each component swapped on its own.
    ASSERT_TRUE(decode(make("complex64", "big", {1}), impl,
                       {0x3F, 0x80, 0, 0, 0x80, 0, 0, 0}, &out)
                    .ok());
    const std::vector<float> z = values_of<float>(out);
    EXPECT_EQ(z[0], 1.0f);
    EXPECT_TRUE(std::signbit(z[1]) && z[1] == 0.0f);
    // datetime64 is int64: -1 big-endian is eight 0xFF, 1 is 00..01.
    ASSERT_TRUE(decode(make("numpy.datetime64", "big", {2}), impl,
                       {0, 0, 0, 0, 0, 0, 0, 1, 0x80, 0, 0, 0, 0, 0, 0, 0}, &out)
                    .ok());
    EXPECT_EQ(values_of<int64_t>(out), (std::vector<int64_t>{1, INT64_MIN}));
  }
}

TEST(BytesCodec, SubByteTypesTakeOneBytePerValue) {
  for (Impl impl : implementations_under_test()) {
    std::vector<uint8_t> out;
    // int4 stored as 0bIIIIXXXX... the upper bits are ignored: 0xF7 is 7,
    // 0x08 is -8, 0x3F is -1 (sign-extended from bit 3).
    ASSERT_TRUE(decode(make("int4", std::nullopt, {3}), impl, {0xF7, 0x08, 0x3F}, &out).ok());
    EXPECT_EQ(values_of<int8_t>(out), (std::vector<int8_t>{7, -8, -1}));
    // uint2 keeps the low two bits.
    ASSERT_TRUE(decode(make("uint2", std::nullopt, {3}), impl, {0xFF, 0x02, 0x81}, &out).ok());
    EXPECT_EQ(out, (std::vector<uint8_t>{3, 2, 1}));
    // float4 bit patterns in the low bits; the rest cleared.
    ASSERT_TRUE(decode(make("float4_e2m1fn", std::nullopt, {2}), impl, {0xA5, 0x1F}, &out).ok());
    EXPECT_EQ(out, (std::vector<uint8_t>{0x5, 0xF}));
    // Encode writes the container byte: sign-extended for int4.
    ASSERT_TRUE(encode(make("int4", std::nullopt, {3}), impl,
                       bytes_of(std::vector<int8_t>{7, -8, -1}), &out)
                    .ok());
    EXPECT_EQ(out, (std::vector<uint8_t>{0x07, 0xF8, 0xFF}));
  }
}

TEST(BytesCodec, EncodeRefusesValuesTheTypeCannotHold) {
  std::vector<uint8_t> out;
  Status s = encode(make("int4", std::nullopt, {4}), Impl::kSimd,
                    bytes_of(std::vector<int8_t>{1, 9, 2, 3}), &out);
  EXPECT_EQ(s.code(), ErrorCode::kValueOutOfRange);
  EXPECT_EQ(s.message(),
            "bytes: int4 shape [4]: value 9 at index 1 is outside int4's range -8..7");
  s = encode(make("uint2", std::nullopt, {2}), Impl::kSimd, {3, 4}, &out);
  EXPECT_EQ(s.message(),
            "bytes: uint2 shape [2]: value 4 at index 1 is outside uint2's range 0..3");
  s = encode(make("float4_e2m1fn", std::nullopt, {2}), Impl::kSimd, {15, 16}, &out);
  EXPECT_EQ(s.message(),
            "bytes: float4_e2m1fn shape [2]: value 16 at index 1 is not a "
            "float4_e2m1fn bit pattern (0..15)");
  // Found in a later block too, with its index in the chunk.
  std::vector<uint8_t> many(200000, 0xF9);  // int4 -7, in range
  many[150001] = 0x70;
  s = encode(make("int4", std::nullopt, {200000}), Impl::kSimd, many, &out);
  EXPECT_EQ(s.message(),
            "bytes: int4 shape [200000]: value 112 at index 150001 is outside "
            "int4's range -8..7");
}

TEST(BytesCodec, WideningDecodesAndNarrowingEncodes) {
  for (Impl impl : implementations_under_test()) {
    std::vector<uint8_t> out;
    // float16 1.0 (0x3C00) and -2.0 (0xC000), big-endian.
    ASSERT_TRUE(decode(make("float16", "big", {2}, Presentation::kFloat32), impl,
                       {0x3C, 0x00, 0xC0, 0x00}, &out)
                    .ok());
    EXPECT_EQ(values_of<float>(out), (std::vector<float>{1.0f, -2.0f}));
    // float4 code 0x7 is 6.0; the ignored upper bits stay ignored.
    ASSERT_TRUE(decode(make("float4_e2m1fn", std::nullopt, {2}, Presentation::kFloat32),
                       impl, {0xF7, 0x0A}, &out)
                    .ok());
    EXPECT_EQ(values_of<float>(out), (std::vector<float>{6.0f, -1.0f}));
    // And back: 6.0 -> 0x07, -1.0 -> 0x0A; float16 big-endian again.
    ASSERT_TRUE(encode(make("float4_e2m1fn", std::nullopt, {2}, Presentation::kFloat32),
                       impl, bytes_of(std::vector<float>{6.0f, -1.0f}), &out)
                    .ok());
    EXPECT_EQ(out, (std::vector<uint8_t>{0x07, 0x0A}));
    ASSERT_TRUE(encode(make("float16", "big", {2}, Presentation::kFloat32), impl,
                       bytes_of(std::vector<float>{1.0f, -2.0f}), &out)
                    .ok());
    EXPECT_EQ(out, (std::vector<uint8_t>{0x3C, 0x00, 0xC0, 0x00}));
  }
  std::vector<uint8_t> out;
  Status s = encode(make("float4_e2m1fn", std::nullopt, {2}, Presentation::kFloat32),
                    Impl::kSimd, bytes_of(std::vector<float>{1.0f, NAN}), &out);
  EXPECT_EQ(s.code(), ErrorCode::kValueOutOfRange);
  EXPECT_EQ(s.message(),
            "bytes: float4_e2m1fn shape [2]: value NaN at index 1 has no "
            "float4_e2m1fn code (the format has no NaN or infinity); to store "
            "such values, write the format's bit patterns instead "
            "(withDataTypes option floats: \"bits\")");
}

TEST(BytesCodec, RawBytesNeverSwapped) {
  std::vector<uint8_t> out;
  const std::vector<uint8_t> in = {1, 2, 3, 4, 5, 6, 7, 8};
  ASSERT_TRUE(decode(make("r32", "big", {2}), Impl::kPortable, in, &out).ok());
  EXPECT_EQ(out, in);
}

TEST(BytesCodec, BoolEncodeNormalisesDecodeKeeps) {
  std::vector<uint8_t> out;
  ASSERT_TRUE(encode(make("bool", std::nullopt, {4}), Impl::kSimd, {0, 7, 1, 0x80}, &out).ok());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 1, 1, 1}));
  ASSERT_TRUE(decode(make("bool", std::nullopt, {4}), Impl::kSimd, {0, 7, 1, 0x80}, &out).ok());
  EXPECT_EQ(out, (std::vector<uint8_t>{0, 7, 1, 0x80}));
}

TEST(BytesCodec, NanPayloadsAndSignedZerosSurvive) {
  const std::vector<uint64_t> patterns = {0x7FF0000000000001ull, 0xFFF8DEADBEEF0001ull,
                                          0x8000000000000000ull, 0x7FF4000000000000ull,
                                          0xFFFFFFFFFFFFFFFFull};
  for (Impl impl : implementations_under_test()) {
    std::vector<uint8_t> encoded, decoded;
    BytesCodec c = make("float64", "big", {5});
    ASSERT_TRUE(encode(c, impl, bytes_of(patterns), &encoded).ok());
    // Big-endian: the sign/exponent byte first.
    EXPECT_EQ(encoded[0], 0x7F);
    EXPECT_EQ(encoded[7], 0x01);
    ASSERT_TRUE(decode(c, impl, encoded, &decoded).ok());
    EXPECT_EQ(values_of<uint64_t>(decoded), patterns);
  }
}

TEST(BytesCodec, RoundTripEveryTypeBothEndians) {
  const char* types[] = {"bool",      "int8",       "uint8",
                         "int16",     "uint16",     "int32",
                         "uint32",    "int64",      "uint64",
                         "float16",   "bfloat16",   "float32",
                         "float64",   "complex64",  "complex128",
                         "complex_float32", "complex_float64",
                         "complex_bfloat16", "float8_e4m3", "complex_float8_e5m2",
                         "numpy.timedelta64", "r8", "r24", "r128"};
  for (Impl impl : implementations_under_test()) {
    for (const char* type : types) {
      for (const char* endian : {"little", "big"}) {
        // 40000 values cross several 64 KiB blocks.
        for (uint64_t n : {0u, 1u, 3u, 17u, 1001u, 40000u}) {
          BytesCodec c = make(type, endian, {n});
          ASSERT_TRUE(c.status().ok()) << c.status().message();
          std::vector<uint8_t> in = random_bytes(c.decoded_bytes(), static_cast<uint32_t>(n + 1));
          if (c.type().type_class == TypeClass::kBool) {
            for (auto& b : in) b &= 1;
          }
          std::vector<uint8_t> enc, dec;
          ASSERT_TRUE(encode(c, impl, in, &enc).ok());
          ASSERT_TRUE(decode(c, impl, enc, &dec).ok());
          EXPECT_EQ(dec, in) << type << " " << endian << " " << n;
          // Big-endian output is the reference swap of each component.
          const unsigned width = std::string_view(endian) == "big" ? c.type().swap_width() : 1;
          std::vector<uint8_t> ref(in.size());
          byteswap(Impl::kReference, in.data(), ref.data(), in.size() / width, width);
          EXPECT_EQ(enc, ref) << type << " " << endian;
        }
      }
    }
  }
}

TEST(BytesCodec, WrongLengthsAreErrorsWithBothSizes) {
  BytesCodec c = make("uint16", "big", {10});
  std::vector<uint8_t> buf(40);
  MemorySource src(buf.data());
  MemorySink dst(buf.data());
  Status s = c.decode(src, 19, dst, 20, testing::scratch(), Impl::kPortable);
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(), "bytes: uint16 shape [10] needs 20 encoded bytes, got 19");
  s = c.decode(src, 20, dst, 21, testing::scratch(), Impl::kPortable);
  EXPECT_EQ(s.message(), "bytes: uint16 shape [10] needs 20 bytes of output, got 21");
  s = c.encode(src, 19, dst, 20, testing::scratch(), Impl::kPortable);
  EXPECT_EQ(s.message(), "bytes: uint16 shape [10] needs 20 bytes of input, got 19");
  s = c.encode(src, 20, dst, 21, testing::scratch(), Impl::kPortable);
  EXPECT_EQ(s.message(),
            "bytes: uint16 shape [10] encodes to 20 bytes, but the output holds 21");
}

}  // namespace
}  // namespace zcw
