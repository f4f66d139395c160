#include "values/value_program.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "kernels/widen.h"
#include "types/float_format.h"

namespace zcw {
namespace {

bool float_type(ValueType t) { return t == ValueType::kFloat32 || t == ValueType::kFloat64; }

bool known_type(double v) { return v >= 1 && v <= 10 && v == std::floor(v); }

template <typename T>
T load(const uint8_t* p, size_t i) {
  T v;
  std::memcpy(&v, p + i * sizeof(T), sizeof(T));
  return v;
}

// Plain loops over aligned-or-not bytes: memcpy per element compiles to a
// load, and clang vectorizes each loop (wasm SIMD128 with -msimd128) with
// the same IEEE operations, rounded the same way, as the scalar ones.
template <typename From, typename To>
void convert_loop(const uint8_t* in, size_t n, uint8_t* out) {
  for (size_t i = 0; i < n; ++i) {
    const To v = static_cast<To>(load<From>(in, i));
    std::memcpy(out + i * sizeof(To), &v, sizeof(To));
  }
}

template <typename F>
void scale_offset_loop(const uint8_t* in, size_t n, uint8_t* out, F scale, F offset) {
  for (size_t i = 0; i < n; ++i) {
    // Two roundings in F: the quotient, then the sum (the page's
    // arithmetic in the array's data type).
    const F q = load<F>(in, i) / scale;
    const F v = q + offset;
    std::memcpy(out + i * sizeof(F), &v, sizeof(F));
  }
}

// The narrow floats widen exactly to float32 (kernels/widen.h), then to
// float64 where asked.
void widen_loop(Impl impl, ValueType from, ValueType to, const uint8_t* in, size_t n, uint8_t* out) {
  const FloatFormat* format = float_format_named(from == ValueType::kFloat16 ? "float16" : "bfloat16");
  if (to == ValueType::kFloat32) {
    widen_to_float32(impl, *format, in, out, n);
    return;
  }
  // float64: through float32, a block at a time.
  constexpr size_t kBlock = 4096;
  alignas(16) uint8_t block[4 * kBlock];
  for (size_t at = 0; at < n; at += kBlock) {
    const size_t m = n - at < kBlock ? n - at : kBlock;
    widen_to_float32(impl, *format, in + 2 * at, block, m);
    convert_loop<float, double>(block, m, out + 8 * at);
  }
}

template <typename To>
void convert_to(Impl impl, ValueType from, ValueType to, const uint8_t* in, size_t n, uint8_t* out) {
  switch (from) {
    case ValueType::kUint8: return convert_loop<uint8_t, To>(in, n, out);
    case ValueType::kInt8: return convert_loop<int8_t, To>(in, n, out);
    case ValueType::kUint16: return convert_loop<uint16_t, To>(in, n, out);
    case ValueType::kInt16: return convert_loop<int16_t, To>(in, n, out);
    case ValueType::kUint32: return convert_loop<uint32_t, To>(in, n, out);
    case ValueType::kInt32: return convert_loop<int32_t, To>(in, n, out);
    case ValueType::kFloat16:
    case ValueType::kBfloat16: return widen_loop(impl, from, to, in, n, out);
    case ValueType::kFloat32: return convert_loop<float, To>(in, n, out);
    case ValueType::kFloat64: return convert_loop<double, To>(in, n, out);
  }
}

void run_step(Impl impl, const ValueStep& s, const uint8_t* in, size_t n, uint8_t* out) {
  if (s.op == ValueStep::Op::kScaleOffset) {
    if (s.to == ValueType::kFloat32) {
      scale_offset_loop<float>(in, n, out, static_cast<float>(s.scale), static_cast<float>(s.offset));
    } else {
      scale_offset_loop<double>(in, n, out, s.scale, s.offset);
    }
    return;
  }
  if (s.to == ValueType::kFloat32) convert_to<float>(impl, s.from, s.to, in, n, out);
  else convert_to<double>(impl, s.from, s.to, in, n, out);
}

}  // namespace

size_t value_type_bytes(ValueType t) {
  switch (t) {
    case ValueType::kUint8:
    case ValueType::kInt8: return 1;
    case ValueType::kUint16:
    case ValueType::kInt16:
    case ValueType::kFloat16:
    case ValueType::kBfloat16: return 2;
    case ValueType::kUint32:
    case ValueType::kInt32:
    case ValueType::kFloat32: return 4;
    case ValueType::kFloat64: return 8;
  }
  return 0;
}

Status parse_value_program(const double* words, ValueProgram* out) {
  const Status bad(ErrorCode::kInvalidInput, "read: bad value program");
  if (words == nullptr || !(words[0] >= 1 && words[0] <= kMaxValueSteps && words[0] == std::floor(words[0]))) return bad;
  ValueProgram p;
  p.count = static_cast<int>(words[0]);
  for (int i = 0; i < p.count; ++i) {
    const double* w = words + 1 + 5 * i;
    if (!known_type(w[1]) || !known_type(w[2])) return bad;
    ValueStep s;
    s.from = static_cast<ValueType>(static_cast<int>(w[1]));
    s.to = static_cast<ValueType>(static_cast<int>(w[2]));
    s.scale = w[3];
    s.offset = w[4];
    if (w[0] == 1) {
      s.op = ValueStep::Op::kConvert;
      if (!float_type(s.to)) return bad;
    } else if (w[0] == 2) {
      s.op = ValueStep::Op::kScaleOffset;
      // The JS layer refuses a zero or NaN scale when the codec is made.
      if (s.from != s.to || !float_type(s.to) || s.scale == 0 || std::isnan(s.scale)) return bad;
    } else {
      return bad;
    }
    if (i > 0 && s.from != p.steps[i - 1].to) return bad;
    p.steps[i] = s;
  }
  *out = p;
  return Status::Ok();
}

void run_value_program(Impl impl, const ValueProgram& program, const uint8_t* in, size_t n, uint8_t* out) {
  if (program.count == 1) {
    run_step(impl, program.steps[0], in, n, out);
    return;
  }
  // Steps in between go through a block of the widest type, so the whole
  // chain touches each element while it is in cache.
  constexpr size_t kBlock = 2048;
  alignas(16) uint8_t a[8 * kBlock], b[8 * kBlock];
  const size_t in_bytes = value_type_bytes(program.input());
  const size_t out_bytes = value_type_bytes(program.output());
  for (size_t at = 0; at < n; at += kBlock) {
    const size_t m = n - at < kBlock ? n - at : kBlock;
    const uint8_t* src = in + at * in_bytes;
    for (int i = 0; i < program.count; ++i) {
      const bool last = i == program.count - 1;
      uint8_t* dst = last ? out + at * out_bytes : (i % 2 == 0 ? a : b);
      run_step(impl, program.steps[i], src, m, dst);
      src = dst;
    }
  }
}

}  // namespace zcw
