#include "types/data_type.h"

#include <gtest/gtest.h>

namespace zcw {
namespace {

DataType lookup(const char* name) {
  DataType t;
  Status s = lookup_data_type("test", name, &t);
  EXPECT_TRUE(s.ok()) << s.message();
  return t;
}

TEST(DataType, TraitsOfEachKind) {
  DataType b = lookup("bool");
  EXPECT_EQ(b.type_class, TypeClass::kBool);
  EXPECT_EQ(b.component_bits, 1u);
  EXPECT_EQ(b.container_bytes, 1u);

  DataType i4 = lookup("int4");
  EXPECT_TRUE(i4.is_signed());
  EXPECT_EQ(i4.component_bits, 4u);
  EXPECT_EQ(i4.container_bytes, 1u);
  EXPECT_TRUE(i4.sub_byte());
  EXPECT_FALSE(lookup("int8").sub_byte());
  EXPECT_FALSE(lookup("bool").sub_byte());

  DataType f6 = lookup("float6_e3m2fn");
  EXPECT_EQ(f6.type_class, TypeClass::kFloat);
  EXPECT_EQ(f6.component_bits, 6u);

  DataType u64 = lookup("uint64");
  EXPECT_EQ(u64.container_bytes, 8u);
  EXPECT_EQ(u64.swap_width(), 8u);

  DataType cf4 = lookup("complex_float4_e2m1fn");
  EXPECT_EQ(cf4.component_count, 2u);
  EXPECT_EQ(cf4.component_bits, 4u);
  EXPECT_EQ(cf4.element_bytes(), 2u);

  DataType cb16 = lookup("complex_bfloat16");
  EXPECT_EQ(cb16.element_bytes(), 4u);
  EXPECT_EQ(cb16.swap_width(), 2u);
}

TEST(DataType, ZarrExtensionsTypes) {
  // Every float8 of the registry: 8-bit float components, with a format.
  for (const char* name :
       {"float8_e3m4", "float8_e4m3", "float8_e4m3b11fnuz", "float8_e4m3fnuz",
        "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu"}) {
    DataType t = lookup(name);
    EXPECT_EQ(t.type_class, TypeClass::kFloat) << name;
    EXPECT_EQ(t.component_bits, 8u) << name;
    ASSERT_NE(t.format, nullptr) << name;
    EXPECT_EQ(t.format->name, name);
    DataType c = lookup((std::string("complex_") + name).c_str());
    EXPECT_EQ(c.component_count, 2u) << name;
    EXPECT_EQ(c.format, t.format) << name;
  }
  // datetime64 and timedelta64 are int64 counts.
  for (const char* name : {"numpy.datetime64", "numpy.timedelta64"}) {
    DataType t = lookup(name);
    EXPECT_TRUE(t.is_signed()) << name;
    EXPECT_EQ(t.container_bytes, 8u) << name;
    EXPECT_EQ(t.name, name);
  }
  // Formats only where a float is narrower than float32.
  EXPECT_EQ(lookup("float32").format, nullptr);
  EXPECT_EQ(lookup("complex128").format, nullptr);
  EXPECT_EQ(lookup("float16").format->name, "float16");
  EXPECT_EQ(lookup("complex_bfloat16").format->name, "bfloat16");
  EXPECT_EQ(lookup("float4_e2m1fn").format->bits, 4u);
}

TEST(DataType, ComplexAliasesResolveToOneName) {
  EXPECT_EQ(lookup("complex_float32").name, "complex64");
  EXPECT_EQ(lookup("complex_float64").name, "complex128");
  EXPECT_EQ(lookup("complex128").container_bytes, 8u);
  EXPECT_EQ(lookup("complex128").component_count, 2u);
}

TEST(DataType, RawTypesAreOpaqueBytes) {
  DataType r24 = lookup("r24");
  EXPECT_EQ(r24.type_class, TypeClass::kRaw);
  EXPECT_EQ(r24.element_bytes(), 3u);
  EXPECT_EQ(r24.swap_width(), 1u);
  EXPECT_EQ(lookup("r8").element_bytes(), 1u);
  EXPECT_EQ(lookup("r1024").element_bytes(), 128u);
}

TEST(DataType, RejectsUnknownAndMalformedNames) {
  for (const char* bad : {"r0", "r7", "r12", "r08", "r", "rx", "int3", "Int16",
                          "float8", "", "r-8", "r99999999999"}) {
    DataType t;
    Status s = lookup_data_type("bytes", bad, &t);
    EXPECT_EQ(s.code(), ErrorCode::kUnknownDataType) << bad;
  }
  DataType t;
  Status s = lookup_data_type("bytes", "int3", &t);
  EXPECT_EQ(s.message(),
            "bytes: unknown data type \"int3\" (expected a Zarr v3 data type "
            "such as uint16, complex64 or r16)");
}

TEST(DataType, VariableLengthTypesAreNamedAsUnsupported) {
  DataType t;
  Status s = lookup_data_type("packbits", "string", &t);
  EXPECT_EQ(s.code(), ErrorCode::kUnsupportedDataType);
  EXPECT_EQ(s.message(),
            "packbits: data type string has no fixed size, so no array -> "
            "bytes codec of this package can encode it");
}

}  // namespace
}  // namespace zcw
