// A chunk's values decoded by read's array -> array steps in wasm (issue
// 35): the common casts of cast_value (integers, float16, bfloat16,
// float32 and float64 to float32 or float64), scale_offset's decode
// (in / scale + offset in the array's own float type, each operation
// rounded in it), and read's `dtype` narrowing of float64 to float32. The
// JS layer (js/read/decode/value-steps.js) sends a program here only where
// each step is one of these with the rules under which it is exact IEEE
// arithmetic (rounding nearest-even; a float64 past float32's range
// becomes an infinity, as cast_value's clamp does for a target with
// infinities); every other chain is decoded in JS by the codecs
// themselves (js/array-to-array/).
//
// Values are little-endian, elements contiguous: the program reads the
// chunk's decoded bytes and writes a buffer of the output's elements,
// which read then places like any decoded chunk.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/implementation.h"
#include "common/status.h"

namespace zcw {

// Element types a step reads or writes (the JS layer's VALUE_TYPES).
enum class ValueType : int {
  kUint8 = 1, kInt8, kUint16, kInt16, kUint32, kInt32, kFloat16, kBfloat16, kFloat32, kFloat64,
};

size_t value_type_bytes(ValueType t);

// One step: `convert` from -> to (to: float32 or float64), or a scale and
// offset (from == to, float32 or float64): out = in / scale + offset, as
// the scale_offset page has it (kScaleOffset: a value that stops being a
// finite number, or becomes NaN, from finite operands is an error, as the
// package's ScaleOffsetCodec raises it) or as numpy computes numcodecs'
// FixedScaleOffset (kNumpyScaleOffset: IEEE's infinities and NaN, no error).
struct ValueStep {
  enum class Op : int { kConvert = 1, kScaleOffset = 2, kNumpyScaleOffset = 3 } op;
  ValueType from;
  ValueType to;
  double scale = 1;
  double offset = 0;
};

constexpr int kMaxValueSteps = 4;

struct ValueProgram {
  ValueStep steps[kMaxValueSteps];
  int count = 0;
  ValueType input() const { return steps[0].from; }
  ValueType output() const { return steps[count - 1].to; }
};

// Parses a program the JS layer wrote as float64s:
//   [count, then per step: op, from, to, scale, offset]
// Anything else is kInvalidInput (never run).
Status parse_value_program(const double* words, ValueProgram* out);

// Runs `program` over n elements at `in` into `out` (n elements of the
// output type). `in` and `out` do not overlap. `impl` picks the loops
// (kReference: one value at a time, as the definition reads). Not
// reentrant (its scratch is the module's: one program runs at a time, as
// JS calls it). kValueOutOfRange where a kScaleOffset step meets a value
// its page calls an error, naming it.
Status run_value_program(Impl impl, const ValueProgram& program, const uint8_t* in, size_t n, uint8_t* out);

}  // namespace zcw
