#include "values/value_program.h"

#include <cmath>
#include <cstring>

#include "values/value_kernels.h"

namespace zcw {
namespace {

bool float_type(ValueType t) { return t == ValueType::kFloat32 || t == ValueType::kFloat64; }

bool known_type(double v) { return v >= 1 && v <= 10 && v == std::floor(v); }

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
    } else if (w[0] == 2 || w[0] == 3) {
      s.op = w[0] == 2 ? ValueStep::Op::kScaleOffset : ValueStep::Op::kNumpyScaleOffset;
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

Status run_value_program(Impl impl, const ValueProgram& program, const uint8_t* in, size_t n, uint8_t* out) {
  if (program.count == 1) return run_value_step(impl, program.steps[0], in, n, out);
  // Steps in between go through a block of the widest type, so the whole
  // chain touches each element while it is in cache. The module's memory,
  // not the stack's (a small wasm stack; one program runs at a time).
  constexpr size_t kBlock = 2048;
  alignas(16) static uint8_t a[8 * kBlock], b[8 * kBlock];
  const size_t in_bytes = value_type_bytes(program.input());
  const size_t out_bytes = value_type_bytes(program.output());
  for (size_t at = 0; at < n; at += kBlock) {
    const size_t m = n - at < kBlock ? n - at : kBlock;
    const uint8_t* src = in + at * in_bytes;
    for (int i = 0; i < program.count; ++i) {
      const bool last = i == program.count - 1;
      uint8_t* dst = last ? out + at * out_bytes : (i % 2 == 0 ? a : b);
      const Status s = run_value_step(impl, program.steps[i], src, m, dst);
      if (!s.ok()) return s;
      src = dst;
    }
  }
  return Status::Ok();
}

}  // namespace zcw
