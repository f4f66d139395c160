// Records (struct) and fixed-length strings through the bytes codec, and
// structFields' column split: literal bytes worked by hand from the struct
// and fixed_length_utf32 pages, and every implementation against the
// reference on seeded random records.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "codecs/bytes_codec.h"
#include "codecs/record_columns.h"
#include "kernels/gather.h"
#include "kernels/record_swap.h"
#include "test_support.h"

namespace zcw {
namespace {

using testing::decode;
using testing::encode;
using testing::implementations_under_test;
using testing::random_bytes;
using testing::VectorSink;

DataType lookup(const char* descriptor) {
  DataType t;
  const Status s = lookup_data_type("test", descriptor, &t);
  EXPECT_TRUE(s.ok()) << s.message();
  return t;
}

TEST(RecordType, LayoutOfThePagesExamples) {
  // struct.md: id int32, flags uint8, value float64: 13 bytes, offsets 0, 4, 5.
  DataType r = lookup("struct:int32,uint8,float64");
  EXPECT_EQ(r.type_class, TypeClass::kRecord);
  EXPECT_EQ(r.element_bytes(), 13u);
  ASSERT_EQ(r.record->leaves.size(), 3u);
  EXPECT_EQ(r.record->leaves[1].offset, 4u);
  EXPECT_EQ(r.record->leaves[2].offset, 5u);
  EXPECT_TRUE(r.has_byte_order());
  // Big-endian: int32 at 0 and float64 at 5 reversed; uint8 never.
  const auto swaps = r.record->swaps_for(true);
  ASSERT_EQ(swaps.size(), 2u);
  EXPECT_EQ(swaps[0].offset, 0u);
  EXPECT_EQ(swaps[0].width, 4u);
  EXPECT_EQ(swaps[1].offset, 5u);
  EXPECT_EQ(swaps[1].width, 8u);
  EXPECT_TRUE(r.record->swaps_for(false).empty());
  // Complex by component, counts, strings by code unit, raw never.
  DataType m = lookup("struct:complex64,int16*3,fixed_length_utf32/8,r24");
  EXPECT_EQ(m.element_bytes(), 8u + 6 + 8 + 3);
  EXPECT_EQ(m.record->swaps_for(true).size(), 2u + 3 + 2);
  // One-byte fields only: no endian needed.
  EXPECT_FALSE(lookup("struct:uint8,bool,int4,r16").has_byte_order());
  // A field's own order (Zarr v2) wins over the codec's.
  DataType v2 = lookup("struct:int16>,uint32<");
  EXPECT_FALSE(v2.has_byte_order());
  EXPECT_EQ(v2.record->swaps_for(false).size(), 1u);
  EXPECT_EQ(v2.record->swaps_for(true).size(), 1u);
}

TEST(RecordType, RefusesMalformedDescriptors) {
  DataType t;
  for (const char* bad : {"struct:", "struct:int3", "struct:int8*0", "struct:int8*x",
                          "struct:struct:int8", "fixed_length_utf32/6",
                          "fixed_length_utf32/0", "fixed_length_utf32/"}) {
    EXPECT_FALSE(lookup_data_type("bytes", bad, &t).ok()) << bad;
  }
  Status s = lookup_data_type("bytes", "struct:r524288", &t);  // 64 KiB + 1... r N bits
  EXPECT_TRUE(s.ok());
  s = lookup_data_type("bytes", "struct:r524288,uint8", &t);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupportedDataType);
  EXPECT_EQ(s.message(), "bytes: a struct record larger than 65536 bytes is not supported");
  s = lookup_data_type("bytes", "fixed_length_utf32/65540", &t);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupportedDataType);
}

TEST(RecordBytes, TheStructPagesRecordBigEndianByHand) {
  // id = 0x01020304, flags = 0xAA, value = 1.0 (0x3FF0000000000000).
  const std::vector<uint8_t> big = {0x01, 0x02, 0x03, 0x04, 0xAA, 0x3F, 0xF0,
                                    0, 0, 0, 0, 0, 0};
  const std::vector<uint8_t> little = {0x04, 0x03, 0x02, 0x01, 0xAA, 0, 0,
                                       0, 0, 0, 0, 0xF0, 0x3F};
  for (Impl impl : implementations_under_test()) {
    BytesCodec c("struct:int32,uint8,float64", "big", {1}, Presentation::kStored);
    ASSERT_TRUE(c.status().ok());
    EXPECT_FALSE(c.decode_is_copy());
    std::vector<uint8_t> out;
    ASSERT_TRUE(decode(c, impl, big, &out).ok());
    EXPECT_EQ(out, little) << impl_name(impl);
    ASSERT_TRUE(encode(c, impl, little, &out).ok());
    EXPECT_EQ(out, big) << impl_name(impl);
  }
  // Little-endian records are the presented bytes as they are.
  EXPECT_TRUE(BytesCodec("struct:int32,uint8,float64", "little", {4},
                         Presentation::kStored)
                  .decode_is_copy());
}

// Every byte from the spec's rule: a field of width w at offset o of a
// big-endian record maps byte o + i to o + w - 1 - i.
std::vector<uint8_t> swap_records_by_hand(const RecordLayout& layout, bool big,
                                          const std::vector<uint8_t>& in) {
  std::vector<uint8_t> out = in;
  for (size_t r = 0; r + layout.bytes <= in.size(); r += layout.bytes) {
    for (const RecordLeaf& f : layout.leaves) {
      const bool swapped = f.order == FieldOrder::kBig || (f.order == FieldOrder::kCodec && big);
      const uint32_t w = f.type.swap_width();
      if (!swapped || w < 2) continue;
      for (uint64_t c = 0; c < f.count * f.type.component_count; ++c) {
        for (uint32_t i = 0; i < w; ++i) {
          out[r + f.offset + c * w + i] = in[r + f.offset + c * w + w - 1 - i];
        }
      }
    }
  }
  return out;
}

// Random stored records made writable: bools 0 or 1 and string code units
// Unicode scalar values (what an encode gives back; record_values_test.cpp
// tests the rules themselves).
void make_writable(const RecordLayout& layout, bool big, std::vector<uint8_t>* bytes) {
  for (size_t r = 0; r + layout.bytes <= bytes->size(); r += layout.bytes) {
    for (const RecordLeaf& f : layout.leaves) {
      uint8_t* v = bytes->data() + r + f.offset;
      const uint64_t n = f.count * f.type.component_count;
      if (f.type.type_class == TypeClass::kBool) {
        for (uint64_t i = 0; i < n; ++i) v[i] &= 1;
      } else if (f.type.type_class == TypeClass::kString) {
        const bool unit_big = f.order == FieldOrder::kBig || (f.order == FieldOrder::kCodec && big);
        for (uint64_t i = 0; i < n; ++i) {
          const uint32_t u = (v[4 * i] * 251u + v[4 * i + 1]) % 0xD000;
          for (int b = 0; b < 4; ++b) v[4 * i + (unit_big ? 3 - b : b)] = static_cast<uint8_t>(u >> (8 * b));
        }
      }
    }
  }
}

TEST(RecordBytes, EveryImplementationMatchesTheRuleOnManyLayouts) {
  const char* layouts[] = {
      "struct:int16,uint8",                        // 3 bytes: period of 3 vectors
      "struct:int32,uint8,float64",                // 13
      "struct:float64,float64",                    // 16
      "struct:complex128,int16*3,bool",            // 23
      "struct:int16>,uint32<,bool,numpy.datetime64>,float64*3>,complex64>,uint64>",  // v2 mixed
      "struct:fixed_length_utf32/12,uint16",       // strings in records
      "struct:uint64*40,int16",                    // 322 bytes: past the SIMD tables
  };
  for (const char* d : layouts) {
    DataType t = lookup(d);
    for (bool big : {true, false}) {
      if (!big && t.has_byte_order()) continue;  // nothing swapped but own orders
      const uint64_t records = 5000;             // several scratch blocks
      std::vector<uint8_t> in = random_bytes(records * t.element_bytes(), 7);
      make_writable(*t.record, big, &in);
      const std::vector<uint8_t> want = swap_records_by_hand(*t.record, big, in);
      for (Impl impl : implementations_under_test()) {
        BytesCodec c(d, big ? std::optional<std::string_view>("big") : std::nullopt,
                     {records}, Presentation::kStored);
        ASSERT_TRUE(c.status().ok()) << d << ": " << c.status().message();
        std::vector<uint8_t> out;
        ASSERT_TRUE(decode(c, impl, in, &out).ok());
        EXPECT_EQ(out, want) << d << " " << impl_name(impl);
        ASSERT_TRUE(encode(c, impl, want, &out).ok());
        EXPECT_EQ(out, in) << d << " " << impl_name(impl);
      }
    }
  }
}

// The swapper alone, on buffers of exactly the records' size (heap-allocated,
// so the sanitizer sees any read past the end), for every record count up to
// a few SIMD steps: the vector loops stop where their look-ahead would leave
// the buffer.
TEST(RecordBytes, SwapperReadsOnlyItsRecords) {
  for (const char* d : {"struct:int16,uint8", "struct:float64,float64", "struct:uint32,int64,uint8"}) {
    DataType t = lookup(d);
    const RecordSwapper swapper(*t.record, true);
    for (uint64_t records = 0; records <= 40; ++records) {
      const std::vector<uint8_t> bytes = random_bytes(records * t.element_bytes(), 11);
      const std::vector<uint8_t> want = swap_records_by_hand(*t.record, true, bytes);
      for (Impl impl : implementations_under_test()) {
        auto in = std::make_unique<uint8_t[]>(bytes.size());
        auto out = std::make_unique<uint8_t[]>(bytes.size());
        if (!bytes.empty()) std::memcpy(in.get(), bytes.data(), bytes.size());
        swapper.run(impl, in.get(), out.get(), records);
        EXPECT_EQ(std::vector<uint8_t>(out.get(), out.get() + bytes.size()), want)
            << d << " x" << records << " " << impl_name(impl);
      }
    }
  }
}

TEST(Utf32Bytes, ThePagesHiExample) {
  // fixed_length_utf32.md: "Hi" in 12 bytes, little-endian.
  const std::vector<uint8_t> stored = {0x48, 0, 0, 0, 0x69, 0, 0, 0, 0, 0, 0, 0};
  for (Impl impl : implementations_under_test()) {
    BytesCodec c("fixed_length_utf32/12", "little", {1}, Presentation::kStored);
    std::vector<uint8_t> out;
    ASSERT_TRUE(decode(c, impl, stored, &out).ok());
    EXPECT_EQ(out, stored);
    // Big-endian: each code unit reversed.
    BytesCodec be("fixed_length_utf32/12", "big", {1}, Presentation::kStored);
    const std::vector<uint8_t> big = {0, 0, 0, 0x48, 0, 0, 0, 0x69, 0, 0, 0, 0};
    ASSERT_TRUE(decode(be, impl, big, &out).ok());
    EXPECT_EQ(out, stored);
  }
}

TEST(Utf32Bytes, ReadsCodePointsAndWritesScalarValuesOnly) {
  BytesCodec c("fixed_length_utf32/8", "big", {2}, Presentation::kStored);
  // Second string, second code point: 0x00110000, no code point at all.
  const std::vector<uint8_t> bad = {0, 0, 0, 0x41, 0, 0, 0, 0, 0, 0, 0, 0x42, 0, 0x11, 0, 0};
  std::vector<uint8_t> out;
  for (Impl impl : implementations_under_test()) {
    Status s = decode(c, impl, bad, &out);
    EXPECT_EQ(s.code(), ErrorCode::kInvalidInput) << impl_name(impl);
    EXPECT_EQ(s.message(),
              "bytes: fixed_length_utf32 of 2 code points shape [2]: stored code "
              "unit 0x110000 of string 1 (code point 1) is not a Unicode code "
              "point (at most 0x10FFFF)");
  }
  // A surrogate is a code point: numpy stores them, so they read. It is no
  // Unicode scalar value, so writing one is refused, as is 0x110000.
  const std::vector<uint8_t> surrogate = {0, 0, 0xD8, 0x3D, 0, 0, 0, 0, 0, 0, 0, 0x42, 0, 0, 0, 0};
  const std::vector<uint8_t> surrogate_le = {0x3D, 0xD8, 0, 0, 0, 0, 0, 0, 0x42, 0, 0, 0, 0, 0, 0, 0};
  for (Impl impl : implementations_under_test()) {
    ASSERT_TRUE(decode(c, impl, surrogate, &out).ok());
    EXPECT_EQ(out, surrogate_le);
    Status s = encode(c, impl, surrogate_le, &out);
    EXPECT_EQ(s.code(), ErrorCode::kValueOutOfRange);
    EXPECT_EQ(s.message(),
              "bytes: fixed_length_utf32 of 2 code points shape [2]: code unit "
              "0xD83D of string 0 (code point 0) is a surrogate (0xD800..0xDFFF), "
              "not a Unicode scalar value");
    const std::vector<uint8_t> past = {0x41, 0, 0, 0, 0, 0, 0, 0, 0x42, 0, 0, 0, 0, 0, 0x11, 0};
    s = encode(c, impl, past, &out);
    EXPECT_EQ(s.code(), ErrorCode::kValueOutOfRange);
    EXPECT_EQ(s.message(),
              "bytes: fixed_length_utf32 of 2 code points shape [2]: code unit "
              "0x110000 of string 1 (code point 1) is not a Unicode code point "
              "(at most 0x10FFFF)");
  }
  // Many strings across blocks, every implementation, every unit a scalar
  // value but one near the end of each run (so the SIMD blocks and the
  // tail both find it): big-endian units below 2^20 and outside
  // 0xD800..0xDFFF round-trip.
  std::vector<uint8_t> ok = random_bytes(4 * 5 * 20000, 3);
  for (size_t i = 0; i < ok.size(); i += 4) {
    ok[i] = 0, ok[i + 1] &= 0x0F;
    if ((ok[i + 2] & 0xF8) == 0xD8) ok[i + 2] = 0x41;
  }
  for (Impl impl : implementations_under_test()) {
    BytesCodec many("fixed_length_utf32/20", "big", {20000}, Presentation::kStored);
    std::vector<uint8_t> decoded, back;
    ASSERT_TRUE(decode(many, impl, ok, &decoded).ok());
    ASSERT_EQ(decoded.size(), ok.size());
    for (size_t i = 0; i < ok.size(); i += 4) {
      ASSERT_EQ(decoded[i], ok[i + 3]);
      ASSERT_EQ(decoded[i + 3], ok[i]);
    }
    ASSERT_TRUE(encode(many, impl, decoded, &back).ok());
    EXPECT_EQ(back, ok) << impl_name(impl);
    for (size_t unit : {size_t{0}, size_t{17}, size_t{5 * 20000 - 1}, size_t{4099}}) {
      for (uint32_t refused : {0xD800u, 0xDFFFu, 0x110000u, 0xFFFFFFFFu}) {
        std::vector<uint8_t> one = decoded;
        std::memcpy(&one[4 * unit], &refused, 4);
        const Status s = encode(many, impl, one, &back);
        ASSERT_EQ(s.code(), ErrorCode::kValueOutOfRange) << unit << " " << impl_name(impl);
        EXPECT_NE(s.message().find("of string " + std::to_string(unit / 5) +
                                   " (code point " + std::to_string(unit % 5) + ")"),
                  std::string::npos)
            << s.message();
      }
      // 0xDFFF + 1 and 0xD800 - 1 are characters.
      for (uint32_t fine : {0xD7FFu, 0xE000u, 0x10FFFFu}) {
        std::vector<uint8_t> one = decoded;
        std::memcpy(&one[4 * unit], &fine, 4);
        ASSERT_TRUE(encode(many, impl, one, &back).ok()) << std::hex << fine;
      }
    }
  }
}

TEST(Gather, EveryImplementationEveryWidthAndStride) {
  const std::vector<uint8_t> in = random_bytes(64 * 1024 + 16, 11);
  for (size_t stride : {1, 2, 3, 4, 5, 8, 9, 13, 16, 17, 24, 31, 40, 100}) {
    for (size_t width : {1, 2, 3, 4, 8, 16}) {
      if (width > stride) continue;
      for (size_t offset : {size_t{0}, stride - width}) {
        const size_t records = (64 * 1024 - offset) / stride;
        std::vector<uint8_t> want(records * width);
        for (size_t r = 0; r < records; ++r) {
          std::memcpy(&want[r * width], &in[r * stride + offset], width);
        }
        for (Impl impl : implementations_under_test()) {
          std::vector<uint8_t> out(records * width, 0xEE);
          gather_field(impl, in.data(), stride, offset, width, records, out.data());
          ASSERT_EQ(out, want) << "stride " << stride << " width " << width
                               << " offset " << offset << " " << impl_name(impl);
        }
      }
    }
  }
}

TEST(RecordColumns, SplitsEachLeafAsPresented) {
  // int4 a, float8_e4m3 f, bfloat16 h, uint16*2 p, complex64 c: 1+1+2+4+8.
  RecordColumns columns("struct:int4,float8_e4m3,bfloat16,uint16*2,complex64", true);
  ASSERT_TRUE(columns.status().ok()) << columns.status().message();
  ASSERT_EQ(columns.leaves(), 5u);
  EXPECT_EQ(columns.record_bytes(), 16u);
  EXPECT_EQ(columns.leaf_bytes_per_record(0), 1u);   // int8
  EXPECT_EQ(columns.leaf_bytes_per_record(1), 4u);   // float32
  EXPECT_EQ(columns.leaf_bytes_per_record(2), 4u);   // float32
  EXPECT_EQ(columns.leaf_bytes_per_record(3), 4u);   // 2 x uint16
  EXPECT_EQ(columns.leaf_bytes_per_record(4), 8u);   // 2 x float32
  // Two records, hand-made: a = 0xF9 (low bits 1001: -7), f = 0x38 (1.0 in
  // e4m3: exponent 7 = bias, mantissa 0), h = 0x3FC0 (1.5), p = [1, 2],
  // c = (2.0f, -0.0f).
  std::vector<uint8_t> rec = {0xF9, 0x38, 0xC0, 0x3F, 1, 0, 2, 0,
                              0, 0, 0, 0x40, 0, 0, 0, 0x80};
  std::vector<uint8_t> in = rec;
  in.insert(in.end(), rec.begin(), rec.end());
  for (Impl impl : implementations_under_test()) {
    std::vector<VectorSink> sinks;
    for (size_t k = 0; k < 5; ++k) sinks.emplace_back(2 * columns.leaf_bytes_per_record(k));
    std::vector<ByteSink*> outs;
    std::vector<uint64_t> lengths;
    for (auto& s : sinks) outs.push_back(&s), lengths.push_back(s.bytes.size());
    MemorySource src(in.data());
    ASSERT_TRUE(columns.split(src, in.size(), outs, lengths, testing::scratch(), impl).ok());
    EXPECT_EQ(static_cast<int8_t>(sinks[0].bytes[1]), -7);
    float f[2], h[2], c[4];
    std::memcpy(f, sinks[1].bytes.data(), 8);
    std::memcpy(h, sinks[2].bytes.data(), 8);
    std::memcpy(c, sinks[4].bytes.data(), 16);
    EXPECT_EQ(f[1], 1.0f);
    EXPECT_EQ(h[0], 1.5f);
    EXPECT_EQ(sinks[3].bytes, (std::vector<uint8_t>{1, 0, 2, 0, 1, 0, 2, 0}));
    EXPECT_EQ(c[2], 2.0f);
    EXPECT_TRUE(std::signbit(c[3]) && c[3] == 0.0f);
  }
  // Bits instead of float32: float8's code, bfloat16's pattern.
  RecordColumns bits("struct:float4_e2m1fn,bfloat16", false);
  EXPECT_EQ(bits.leaf_bytes_per_record(0), 1u);
  EXPECT_EQ(bits.leaf_bytes_per_record(1), 2u);
}

TEST(RecordColumns, RefusesWrongLengthsAndBadStrings) {
  RecordColumns columns("struct:uint8,fixed_length_utf32/4", true);
  VectorSink a(2), b(8);
  std::vector<ByteSink*> outs = {&a, &b};
  const std::vector<uint8_t> in = {1, 0x41, 0, 0, 0, 2, 0, 0, 0x20, 0};  // 2nd: 0x200000
  MemorySource src(in.data());
  Status s = columns.split(src, 9, outs, {2, 8}, testing::scratch(), Impl::kSimd);
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(),
            "structFields: struct of 5 bytes: 9 bytes are not a whole number of 5-byte records");
  s = columns.split(src, 10, outs, {2, 8}, testing::scratch(), Impl::kSimd);
  EXPECT_EQ(s.code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(s.message(),
            "structFields: struct of 5 bytes: leaf field 1 of record 1: code unit "
            "0x200000 (code point 0) is not a Unicode code point (at most 0x10FFFF)");
  s = columns.split(src, 10, outs, {2, 7}, testing::scratch(), Impl::kSimd);
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
}

}  // namespace
}  // namespace zcw
