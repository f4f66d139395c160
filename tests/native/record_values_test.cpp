// A record's leaves held to their types' rules by the bytes codec
// (codecs/record_values.h): what a plain array of each leaf type refuses
// on encode, a record refuses too, naming the leaf and the record; bools
// are written as 0 or 1; sub-byte leaves decode from their low bits. The
// expected bytes and refusals are worked out from the types' pages here,
// not by the code under test.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "codecs/bytes_codec.h"
#include "test_support.h"

namespace zcw {
namespace {

using testing::decode;
using testing::encode;
using testing::implementations_under_test;
using testing::random_bytes;

void put_u32(std::vector<uint8_t>* bytes, size_t at, uint32_t v, bool big) {
  for (int i = 0; i < 4; ++i) {
    (*bytes)[at + (big ? 3 - i : i)] = static_cast<uint8_t>(v >> (8 * i));
  }
}

TEST(RecordValues, AnInt4FieldTakesOnlyMinus8To7) {
  // int32 a, int4 b, uint8 c: 6 bytes; 5000 records span several blocks,
  // so the refused record's index counts from the chunk's start.
  const uint64_t records = 5000;
  for (Impl impl : implementations_under_test()) {
    BytesCodec c("struct:int32,int4,uint8", "big", {records}, Presentation::kStored);
    ASSERT_TRUE(c.status().ok()) << c.status().message();
    std::vector<uint8_t> presented(6 * records, 0);
    for (uint64_t r = 0; r < records; ++r) presented[6 * r + 4] = static_cast<uint8_t>(-8 + r % 16);
    std::vector<uint8_t> out;
    ASSERT_TRUE(encode(c, impl, presented, &out).ok()) << impl_name(impl);
    // Every byte whose int8 value lies outside -8..7 is refused, and no
    // other: the int4 page's range, byte by byte.
    for (int byte = 0; byte < 256; ++byte) {
      std::vector<uint8_t> one = presented;
      one[6 * 4321 + 4] = static_cast<uint8_t>(byte);
      const int value = static_cast<int8_t>(byte);
      const Status s = encode(c, impl, one, &out);
      if (value >= -8 && value <= 7) {
        ASSERT_TRUE(s.ok()) << byte << ": " << s.message();
        continue;
      }
      ASSERT_EQ(s.code(), ErrorCode::kValueOutOfRange) << byte;
      ASSERT_EQ(s.message(), "bytes: struct of 6 bytes shape [5000]: leaf field 1 (int4) of record 4321: value " +
                                 std::to_string(value) + " is outside int4's range -8..7");
    }
  }
}

TEST(RecordValues, UnsignedAndFloatBitPatternsFitTheirBits) {
  for (Impl impl : implementations_under_test()) {
    BytesCodec c("struct:uint2,float4_e2m1fn,float6_e3m2fn", std::nullopt, {1}, Presentation::kStored);
    ASSERT_TRUE(c.status().ok()) << c.status().message();
    std::vector<uint8_t> out;
    ASSERT_TRUE(encode(c, impl, {3, 15, 63}, &out).ok());
    EXPECT_EQ(out, (std::vector<uint8_t>{3, 15, 63}));
    Status s = encode(c, impl, {4, 0, 0}, &out);
    EXPECT_EQ(s.message(), "bytes: struct of 3 bytes shape [1]: leaf field 0 (uint2) of record 0: value 4 is outside uint2's range 0..3");
    s = encode(c, impl, {0, 16, 0}, &out);
    EXPECT_EQ(s.message(), "bytes: struct of 3 bytes shape [1]: leaf field 1 (float4_e2m1fn) of record 0: value 16 is not a float4_e2m1fn bit pattern (0..15)");
    s = encode(c, impl, {0, 0, 64}, &out);
    EXPECT_EQ(s.code(), ErrorCode::kValueOutOfRange);
    // A shaped field (Zarr v2) and a complex one name the value.
    BytesCodec shaped("struct:int2*3,complex_float4_e2m1fn", std::nullopt, {2}, Presentation::kStored);
    s = encode(shaped, impl, {0, 1, 0xFE, 0, 0, /* record 1 */ 0, 0, 2, 0, 0}, &out);
    EXPECT_EQ(s.message(), "bytes: struct of 5 bytes shape [2]: leaf field 0 (int2) of record 1: value 2 is outside int2's range -2..1 (value 2 of the field)");
    s = encode(shaped, impl, {0, 0, 0, 1, 0x10, 0, 0, 0, 0, 0}, &out);
    EXPECT_EQ(s.message(), "bytes: struct of 5 bytes shape [2]: leaf field 1 (complex_float4_e2m1fn) of record 0: value 16 is not a complex_float4_e2m1fn bit pattern (0..15) (value 1 of the field)");
  }
}

TEST(RecordValues, StringLeavesHoldScalarValuesWhateverTheirByteOrder) {
  // uint8 n, fixed_length_utf32 of 2 code points s: 9 bytes. Big-endian
  // codec, a v2 field of its own big order, and a little one: the
  // presented records are little-endian in each.
  for (const char* d : {"struct:uint8,fixed_length_utf32/8", "struct:uint8,fixed_length_utf32/8>",
                        "struct:uint8,fixed_length_utf32/8<"}) {
    for (Impl impl : implementations_under_test()) {
      BytesCodec c(d, "big", {3}, Presentation::kStored);
      ASSERT_TRUE(c.status().ok()) << c.status().message();
      std::vector<uint8_t> presented(27, 0);
      put_u32(&presented, 1, 0x1F600, false);   // 😀
      put_u32(&presented, 10, 0x10FFFF, false);
      put_u32(&presented, 23, 0xE000, false);
      std::vector<uint8_t> out;
      ASSERT_TRUE(encode(c, impl, presented, &out).ok()) << d << " " << impl_name(impl);
      for (uint32_t refused : {0x110000u, 0xD83Du, 0xDE00u}) {
        std::vector<uint8_t> one = presented;
        put_u32(&one, 9 + 1 + 4, refused, false);  // record 1, code point 1
        const Status s = encode(c, impl, one, &out);
        EXPECT_EQ(s.code(), ErrorCode::kValueOutOfRange) << d;
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%X", refused);
        EXPECT_EQ(s.message(),
                  std::string("bytes: struct of 9 bytes shape [3]: leaf field 1 (fixed_length_utf32 of 2 code points) of record 1: code unit ") +
                      hex + " (code point 1)" +
                      (refused > 0x10FFFF ? " is not a Unicode code point (at most 0x10FFFF)"
                                          : " is a surrogate (0xD800..0xDFFF), not a Unicode scalar value"))
            << d;
      }
      // Reading is not writing: stored surrogates read (numpy stores them).
      std::vector<uint8_t> stored(27, 0);
      put_u32(&stored, 1, 0xD83D, std::string(d).back() != '<');
      std::vector<uint8_t> decoded;
      ASSERT_TRUE(decode(c, impl, stored, &decoded).ok());
      uint32_t unit;
      std::memcpy(&unit, &decoded[1], 4);
      EXPECT_EQ(unit, 0xD83Du);
    }
  }
}

TEST(RecordValues, BoolsAreWrittenAsZeroOrOneAndReadAsStored) {
  for (Impl impl : implementations_under_test()) {
    BytesCodec c("struct:bool*2,int16", "little", {2}, Presentation::kStored);
    std::vector<uint8_t> out;
    ASSERT_TRUE(encode(c, impl, {2, 0, 0x34, 0x12, 0xFF, 1, 7, 0}, &out).ok());
    EXPECT_EQ(out, (std::vector<uint8_t>{1, 0, 0x34, 0x12, 1, 1, 7, 0}));
    ASSERT_TRUE(decode(c, impl, {2, 0, 0x34, 0x12, 0xFF, 1, 7, 0}, &out).ok());
    EXPECT_EQ(out, (std::vector<uint8_t>{2, 0, 0x34, 0x12, 0xFF, 1, 7, 0}));
  }
}

TEST(RecordValues, SubByteLeavesDecodeFromTheirLowBits) {
  // int4 0x09 is -7 (low bits 1001, sign-extended), uint4 0xF3 is 3, a
  // float4 code keeps its low 4 bits, int2 0x7E is -2; uint16 untouched.
  const std::vector<uint8_t> stored = {0x09, 0xF3, 0xF3, 0x7E, 0x12, 0x34};
  const std::vector<uint8_t> want = {0xF9, 0x03, 0x03, 0xFE, 0x34, 0x12};
  for (Impl impl : implementations_under_test()) {
    BytesCodec c("struct:int4,uint4,float4_e2m1fn,int2,uint16", "big", {1}, Presentation::kStored);
    std::vector<uint8_t> out;
    ASSERT_TRUE(decode(c, impl, stored, &out).ok());
    EXPECT_EQ(out, want) << impl_name(impl);
    // Read back and written again: what a partial write of a chunk does.
    ASSERT_TRUE(encode(c, impl, want, &out).ok());
    EXPECT_EQ(out, (std::vector<uint8_t>{0xF9, 0x03, 0x03, 0xFE, 0x12, 0x34}));
  }
  // No rule, no work: little-endian records of full-width leaves stay a copy.
  EXPECT_TRUE(BytesCodec("struct:int16,float32,r24", "little", {4}, Presentation::kStored).decode_is_copy());
  EXPECT_FALSE(BytesCodec("struct:int16,int4", "little", {4}, Presentation::kStored).decode_is_copy());
}

TEST(RecordValues, EveryImplementationAgreesWithTheRulesOnRandomRecords) {
  // Nested and shaped leaves, both orders, many blocks: decode is the
  // by-hand swap then each sub-byte leaf extended; encode of that gives
  // the canonical stored bytes back.
  const char* d = "struct:int4,bool,uint16,uint2*3,fixed_length_utf32/8,float6_e2m3fn,int64";
  const uint64_t records = 7000;
  // Offsets: int4 0, bool 1, uint16 2, uint2 4..6, utf32 7..14, float6 15, int64 16..23.
  std::vector<uint8_t> stored = random_bytes(24 * records, 5);
  for (uint64_t r = 0; r < records; ++r) {
    uint8_t* rec = &stored[24 * r];
    for (int k = 0; k < 2; ++k) {  // scalar values, stored big-endian
      const uint32_t v = (rec[7 + 4 * k] * 257u) % 0xD000;
      rec[7 + 4 * k] = 0, rec[8 + 4 * k] = static_cast<uint8_t>(v >> 16);
      rec[9 + 4 * k] = static_cast<uint8_t>(v >> 8), rec[10 + 4 * k] = static_cast<uint8_t>(v);
    }
  }
  for (Impl impl : implementations_under_test()) {
    BytesCodec c(d, "big", {records}, Presentation::kStored);
    ASSERT_TRUE(c.status().ok()) << c.status().message();
    std::vector<uint8_t> decoded, back;
    ASSERT_TRUE(decode(c, impl, stored, &decoded).ok());
    for (uint64_t r = 0; r < records; ++r) {
      const uint8_t* s = &stored[24 * r];
      const uint8_t* p = &decoded[24 * r];
      ASSERT_EQ(p[0], static_cast<uint8_t>(static_cast<int8_t>(s[0] << 4) >> 4));
      ASSERT_EQ(p[1], s[1]);
      ASSERT_EQ(p[2], s[3]);
      for (int k = 4; k < 7; ++k) ASSERT_EQ(p[k], s[k] & 3);
      for (int k = 7; k < 15; k += 4) ASSERT_EQ(p[k], s[k + 3]);
      ASSERT_EQ(p[15], s[15] & 63);
      ASSERT_EQ(p[16], s[23]);
    }
    ASSERT_TRUE(encode(c, impl, decoded, &back).ok()) << impl_name(impl);
    for (uint64_t r = 0; r < records; ++r) {
      ASSERT_EQ(back[24 * r + 1], stored[24 * r + 1] != 0);
      ASSERT_EQ(back[24 * r + 2], stored[24 * r + 2]);
      ASSERT_EQ(back[24 * r + 23], stored[24 * r + 23]);
    }
  }
}

}  // namespace
}  // namespace zcw
