#include "bytes_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "byteswap.h"
#include "test_support.h"

namespace zcw {
namespace {

using testing::implementations_under_test;
using testing::random_bytes;

BytesPlan plan(const char* type, std::optional<std::string_view> endian,
               std::vector<uint64_t> shape) {
  BytesPlan p;
  Status s = plan_bytes(type, endian, std::move(shape), &p);
  EXPECT_TRUE(s.ok()) << s.message();
  return p;
}

Status plan_status(const char* type, std::optional<std::string_view> endian,
                   std::vector<uint64_t> shape) {
  BytesPlan p;
  return plan_bytes(type, endian, std::move(shape), &p);
}

TEST(BytesPlan, SizesAndSwapWidths) {
  BytesPlan p = plan("uint16", "big", {10});
  EXPECT_EQ(p.byte_length, 20u);
  EXPECT_EQ(p.swap_width, 2u);
  EXPECT_EQ(plan("uint16", "little", {10}).swap_width, 1u);
  EXPECT_EQ(plan("complex128", "big", {3}).swap_width, 8u);
  EXPECT_EQ(plan("complex128", "big", {3}).byte_length, 48u);
  EXPECT_EQ(plan("r32", "big", {3}).swap_width, 1u);
  EXPECT_EQ(plan("uint8", std::nullopt, {5, 0}).byte_length, 0u);
  EXPECT_EQ(plan("bool", std::nullopt, {}).byte_length, 1u);  // scalar
}

TEST(BytesPlan, EndianRequiredOnlyForMultiByteTypes) {
  EXPECT_TRUE(plan_status("uint8", std::nullopt, {4}).ok());
  EXPECT_TRUE(plan_status("bool", std::nullopt, {4}).ok());
  EXPECT_TRUE(plan_status("r64", std::nullopt, {4}).ok());
  Status s = plan_status("int32", std::nullopt, {4});
  EXPECT_EQ(s.code(), ErrorCode::kInvalidConfiguration);
  EXPECT_EQ(s.message(),
            "bytes: data type int32 is multi-byte, so the \"endian\" option "
            "is required (\"big\" or \"little\")");
  s = plan_status("int8", "middle", {4});
  EXPECT_EQ(s.message(),
            "bytes: endian must be \"big\" or \"little\", got \"middle\"");
}

TEST(BytesPlan, RefusesSubByteTypesAndOverflow) {
  Status s = plan_status("int4", "little", {4});
  EXPECT_EQ(s.code(), ErrorCode::kUnsupportedDataType);
  EXPECT_EQ(s.message(),
            "bytes: data type int4 is 4 bits per component, not a whole "
            "number of bytes; use the packbits codec");
  s = plan_status("uint64", "big", {uint64_t{1} << 30, uint64_t{1} << 21});
  EXPECT_EQ(s.code(), ErrorCode::kSizeOverflow);
  EXPECT_EQ(s.message(),
            "bytes: uint64 shape [1073741824, 2097152] needs more than 2^53 "
            "bytes");
  s = plan_status("uint8", "big", {uint64_t{1} << 40, uint64_t{1} << 40});
  EXPECT_EQ(s.code(), ErrorCode::kSizeOverflow);
}

TEST(BytesCodec, HandWorkedBigEndian) {
  for (Impl impl : implementations_under_test()) {
    // int16 values 0x0102, -2 (0xFFFE) stored big-endian: 01 02 FF FE.
    BytesPlan p = plan("int16", "big", {2});
    const uint8_t encoded[4] = {0x01, 0x02, 0xFF, 0xFE};
    int16_t decoded[2];
    ASSERT_TRUE(bytes_decode(p, impl, encoded, 4,
                             reinterpret_cast<uint8_t*>(decoded), 4)
                    .ok());
    EXPECT_EQ(decoded[0], 0x0102);
    EXPECT_EQ(decoded[1], -2);
    // complex64 (1.0f, -0.0f): each component swapped on its own.
    BytesPlan c = plan("complex64", "big", {1});
    const uint8_t cbytes[8] = {0x3F, 0x80, 0, 0, 0x80, 0, 0, 0};
    float cz[2];
    ASSERT_TRUE(
        bytes_decode(c, impl, cbytes, 8, reinterpret_cast<uint8_t*>(cz), 8)
            .ok());
    EXPECT_EQ(cz[0], 1.0f);
    EXPECT_TRUE(std::signbit(cz[1]) && cz[1] == 0.0f);
  }
}

TEST(BytesCodec, RawBytesNeverSwapped) {
  BytesPlan p = plan("r32", "big", {2});
  const uint8_t in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  uint8_t out[8];
  ASSERT_TRUE(bytes_decode(p, Impl::kPortable, in, 8, out, 8).ok());
  EXPECT_EQ(std::memcmp(in, out, 8), 0);
}

TEST(BytesCodec, BoolEncodeNormalisesDecodeKeeps) {
  BytesPlan p = plan("bool", std::nullopt, {4});
  const uint8_t in[4] = {0, 7, 1, 0x80};
  uint8_t out[4];
  ASSERT_TRUE(bytes_encode(p, Impl::kSimd, in, 4, out, 4).ok());
  EXPECT_EQ(std::vector<uint8_t>(out, out + 4),
            (std::vector<uint8_t>{0, 1, 1, 1}));
}

TEST(BytesCodec, NanPayloadsAndSignedZerosSurvive) {
  for (Impl impl : implementations_under_test()) {
    const uint64_t patterns[] = {0x7FF0000000000001ull, 0xFFF8DEADBEEF0001ull,
                                 0x8000000000000000ull, 0x7FF4000000000000ull,
                                 0xFFFFFFFFFFFFFFFFull};
    BytesPlan p = plan("float64", "big", {5});
    uint8_t encoded[40], decoded[40];
    ASSERT_TRUE(bytes_encode(p, impl,
                             reinterpret_cast<const uint8_t*>(patterns), 40,
                             encoded, 40)
                    .ok());
    // Big-endian: the sign/exponent byte first.
    EXPECT_EQ(encoded[0], 0x7F);
    EXPECT_EQ(encoded[7], 0x01);
    ASSERT_TRUE(bytes_decode(p, impl, encoded, 40, decoded, 40).ok());
    EXPECT_EQ(std::memcmp(decoded, patterns, 40), 0);
  }
}

TEST(BytesCodec, RoundTripEveryTypeBothEndians) {
  const char* types[] = {"bool",      "int8",       "uint8",
                         "int16",     "uint16",     "int32",
                         "uint32",    "int64",      "uint64",
                         "float16",   "bfloat16",   "float32",
                         "float64",   "complex64",  "complex128",
                         "complex_float32", "complex_float64",
                         "complex_bfloat16", "r8", "r24", "r128"};
  for (Impl impl : implementations_under_test()) {
    for (const char* type : types) {
      for (const char* endian : {"little", "big"}) {
        for (uint64_t n : {0u, 1u, 3u, 17u, 1001u}) {
          BytesPlan p = plan(type, endian, {n});
          std::vector<uint8_t> in = random_bytes(p.byte_length, n + 1);
          if (p.normalize_bool) {
            for (auto& b : in) b &= 1;
          }
          std::vector<uint8_t> enc(p.byte_length), dec(p.byte_length);
          ASSERT_TRUE(bytes_encode(p, impl, in.data(), in.size(), enc.data(),
                                   enc.size())
                          .ok());
          ASSERT_TRUE(bytes_decode(p, impl, enc.data(), enc.size(),
                                   dec.data(), dec.size())
                          .ok());
          EXPECT_EQ(dec, in) << type << " " << endian << " " << n;
          // Big-endian output is the reference swap of the input.
          std::vector<uint8_t> ref(in.size());
          byteswap(Impl::kReference, in.data(), ref.data(),
                   in.size() / p.swap_width, p.swap_width);
          EXPECT_EQ(enc, ref) << type << " " << endian;
        }
      }
    }
  }
}

TEST(BytesCodec, WrongLengthsAreErrorsWithBothSizes) {
  BytesPlan p = plan("uint16", "big", {10});
  std::vector<uint8_t> buf(40);
  Status s = bytes_decode(p, Impl::kPortable, buf.data(), 19, buf.data(), 20);
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(),
            "bytes: uint16 shape [10] needs 20 encoded bytes, got 19");
  s = bytes_encode(p, Impl::kPortable, buf.data(), 20, buf.data(), 21);
  EXPECT_EQ(s.message(),
            "bytes: uint16 shape [10] needs 20 bytes of output, got 21");
}

}  // namespace
}  // namespace zcw
