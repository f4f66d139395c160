// Every packbits kernel against the literal reference, for every data type
// and every first_bit/last_bit pair, on random data and odd lengths. Buffers
// are sized exactly, so ASan reports any read or write past them.
#include <gtest/gtest.h>

#include "types/data_type.h"
#include "kernels/packbits_kernels.h"
#include "test_support.h"

namespace zcw {
namespace {

using testing::implementations_under_test;
using testing::random_bytes;

const char* kPackableTypes[] = {
    "bool",          "int2",           "uint2",          "int4",
    "uint4",         "float4_e2m1fn",  "float6_e2m3fn",  "float6_e3m2fn",
    "int8",          "uint8",          "int16",          "uint16",
    "int32",         "uint32",         "int64",          "uint64",
    "float16",       "bfloat16",       "float32",        "float64",
    "complex64",     "complex128",     "complex_bfloat16",
    "complex_float4_e2m1fn", "complex_float6_e2m3fn", "complex_float6_e3m2fn",
    "float8_e4m3",   "float8_e8m0fnu", "complex_float8_e5m2",
    "numpy.datetime64"};

std::vector<size_t> lengths_for(uint32_t component_bits) {
  std::vector<size_t> n = {0, 1, 5, 8, 9, 17, 40, 131};
  if (component_bits <= 16) {
    n.push_back(300);
    n.push_back(1031);
  }
  return n;
}

PackBitsLayout layout_for(const DataType& t, uint32_t first, uint32_t last) {
  PackBitsLayout l;
  l.first_bit = first;
  l.bits = last - first + 1;
  l.component_bits = t.component_bits;
  l.container_bytes = t.container_bytes;
  l.sign_extend = t.is_signed();
  l.is_bool = t.type_class == TypeClass::kBool;
  return l;
}

TEST(PackBitsKernels, EveryImplementationMatchesReference) {
  uint32_t seed = 1;
  for (const char* name : kPackableTypes) {
    DataType t;
    ASSERT_TRUE(lookup_data_type("test", name, &t).ok());
    for (uint32_t first = 0; first < t.component_bits; ++first) {
      for (uint32_t last = first; last < t.component_bits; ++last) {
        const PackBitsLayout l = layout_for(t, first, last);
        for (size_t elements : lengths_for(t.component_bits)) {
          const size_t n = elements * t.component_count;
          const size_t packed_bytes = (uint64_t{n} * l.bits + 7) / 8;
          const std::vector<uint8_t> packed = random_bytes(packed_bytes, ++seed);
          const std::vector<uint8_t> values =
              random_bytes(n * t.container_bytes, ++seed);

          std::vector<uint8_t> want_dec(n * t.container_bytes);
          packbits_decode(Impl::kReference, l, packed.data(), want_dec.data(), n);
          std::vector<uint8_t> want_enc(packed_bytes);
          packbits_encode(Impl::kReference, l, values.data(), want_enc.data(), n);

          for (Impl impl : implementations_under_test()) {
            std::vector<uint8_t> dec(n * t.container_bytes, 0xEE);
            packbits_decode(impl, l, packed.data(), dec.data(), n);
            ASSERT_EQ(dec, want_dec)
                << impl_name(impl) << " decode " << name << " bits " << first
                << ".." << last << " n=" << elements;
            std::vector<uint8_t> enc(packed_bytes, 0xEE);
            packbits_encode(impl, l, values.data(), enc.data(), n);
            ASSERT_EQ(enc, want_enc)
                << impl_name(impl) << " encode " << name << " bits " << first
                << ".." << last << " n=" << elements;
          }
        }
      }
    }
  }
}

// Decoding then encoding reproduces the packed bytes, padding bits aside.
TEST(PackBitsKernels, EncodeAfterDecodeReproducesTheStream) {
  for (const char* name : kPackableTypes) {
    DataType t;
    ASSERT_TRUE(lookup_data_type("test", name, &t).ok());
    for (uint32_t first : {0u, t.component_bits / 3}) {
      const PackBitsLayout l = layout_for(t, first, t.component_bits - 1);
      const size_t n = 1001 * t.component_count;
      const size_t bytes = (uint64_t{n} * l.bits + 7) / 8;
      std::vector<uint8_t> packed = random_bytes(bytes, 99);
      const uint32_t pad = static_cast<uint32_t>(bytes * 8 - uint64_t{n} * l.bits);
      packed.back() &= static_cast<uint8_t>(0xFF >> pad);
      for (Impl impl : implementations_under_test()) {
        std::vector<uint8_t> dec(n * t.container_bytes);
        packbits_decode(impl, l, packed.data(), dec.data(), n);
        std::vector<uint8_t> again(bytes);
        packbits_encode(impl, l, dec.data(), again.data(), n);
        EXPECT_EQ(again, packed) << impl_name(impl) << " " << name;
      }
    }
  }
}

}  // namespace
}  // namespace zcw
