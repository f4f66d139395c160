// Reading a fuzz input: a few header bytes choose the data type, the
// configuration and the shape; the rest is the payload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "codecs/codec.h"
#include "common/implementation.h"

namespace zcw::fuzz {

inline const Impl kImpls[] = {Impl::kReference, Impl::kPortable, Impl::kSimd};

// A failed property: abort, so libFuzzer saves the input as a crash.
inline void check(bool ok) {
  if (!ok) std::abort();
}

class Input {
 public:
  Input(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}

  uint8_t byte() { return p_ < end_ ? *p_++ : 0; }

  // Up to 3 dimensions of 0..(limit) elements; the product stays small so
  // each run is quick.
  std::vector<uint64_t> shape(uint64_t max_elements) {
    std::vector<uint64_t> dims(byte() % 4);
    uint64_t total = 1;
    for (auto& d : dims) {
      d = byte() % 65;
      if (total * (d ? d : 1) > max_elements) d = 1;
      total *= d ? d : 1;
    }
    return dims;
  }

  std::vector<uint8_t> rest() { return std::vector<uint8_t>(p_, end_); }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// Names to choose from: every real type plus a few that must be refused.
inline const std::vector<std::string>& type_names() {
  static const std::vector<std::string> names = {
      "bool", "int2", "uint2", "int4", "uint4", "float4_e2m1fn",
      "float6_e2m3fn", "float6_e3m2fn", "int8", "uint8", "int16", "uint16",
      "int32", "uint32", "int64", "uint64", "float16", "bfloat16", "float32",
      "float64", "complex64", "complex128", "complex_float32",
      "complex_float64", "complex_bfloat16", "complex_float16",
      "complex_float4_e2m1fn", "complex_float6_e2m3fn",
      "complex_float6_e3m2fn", "float8_e3m4", "float8_e4m3",
      "float8_e4m3b11fnuz", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
      "float8_e8m0fnu", "complex_float8_e4m3", "complex_float8_e8m0fnu",
      "numpy.datetime64", "numpy.timedelta64", "r8", "r16", "r24", "r64",
      "r12", "int3", "string", "",
      // Records and strings (descriptors as the JS layer writes them).
      "struct:int16,uint8", "struct:int32,uint8,float64",
      "struct:complex64,int16*3,bool", "struct:int16>,uint32<,fixed_length_utf32/8",
      "struct:uint64*40,int16", "struct:uint8,r24", "fixed_length_utf32/4",
      "struct:int4,bool*2,uint2*3,float4_e2m1fn,fixed_length_utf32/4>,int16",
      "fixed_length_utf32/12", "struct:", "struct:int8*0", "fixed_length_utf32/6"};
  return names;
}


inline Scratch& scratch() {
  static std::unique_ptr<Scratch> s = std::make_unique<Scratch>();
  return *s;
}

// Whole chunks through the streaming code the package runs; `out` is
// resized to the codec's size first.
inline Status decode(const Codec& c, Impl impl, const std::vector<uint8_t>& in,
                     std::vector<uint8_t>* out) {
  out->assign(c.decoded_bytes(), 0xEE);
  return decode_buffer(c, impl, in.data(), in.size(), out->data(), out->size(), scratch());
}
inline Status encode(const Codec& c, Impl impl, const std::vector<uint8_t>& in,
                     std::vector<uint8_t>* out) {
  out->assign(c.encoded_bytes(), 0xEE);
  return encode_buffer(c, impl, in.data(), in.size(), out->data(), out->size(), scratch());
}

// Decodes with all three implementations: they must agree on the status
// and the bytes. Returns the status.
inline Status decode_agreeing(const Codec& c, const std::vector<uint8_t>& in,
                              std::vector<uint8_t>* out) {
  std::vector<uint8_t> each[3];
  Status status[3];
  for (int i = 0; i < 3; ++i) {
    status[i] = decode(c, kImpls[i], in, &each[i]);
    check(status[i].code() == status[0].code());
  }
  if (status[0].ok()) check(each[1] == each[0] && each[2] == each[0]);
  *out = each[0];
  return status[0];
}

// Encodes with all three implementations, likewise.
inline Status encode_agreeing(const Codec& c, const std::vector<uint8_t>& in,
                              std::vector<uint8_t>* out) {
  std::vector<uint8_t> each[3];
  Status status[3];
  for (int i = 0; i < 3; ++i) {
    status[i] = encode(c, kImpls[i], in, &each[i]);
    check(status[i].code() == status[0].code() && status[i].message() == status[0].message());
  }
  if (status[0].ok()) check(each[1] == each[0] && each[2] == each[0]);
  *out = each[0];
  return status[0];
}

// A byte buffer of exactly `n` bytes cycled from `seed` (or zeros).
inline std::vector<uint8_t> cycled(const std::vector<uint8_t>& seed, size_t n) {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = seed.empty() ? 0 : seed[i % seed.size()];
  return out;
}

}  // namespace zcw::fuzz
