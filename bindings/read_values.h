// read's array -> array steps in wasm (src/values/value_program.h): a
// chunk's decoded bytes (decompressed into the chain buffer, or copied in
// as they are) run through a value program into the values buffer (the
// module's own, grown to the largest chunk seen and kept), which is then
// placed like any decoded chunk. A chunk placed into several bands runs
// the program once: the buffer holds the last token's values.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/status.h"
#include "values/value_program.h"

namespace zcw::bindings {

struct ValuesBuffer {
  uint8_t* data = nullptr;
  uint64_t capacity = 0;
  uint64_t length = 0;
  double token = 0;  // 0: nothing held
};

inline ValuesBuffer& values_buffer() {
  static ValuesBuffer buffer;
  return buffer;
}

// The output values of `decoded` (decoded_length bytes of the program's
// input type) at *values (*values_length bytes), run now or kept from the
// same token's last call.
inline Status program_values(const ValueProgram& program, const uint8_t* decoded, uint64_t decoded_length,
                             double token, Impl impl, const uint8_t** values, uint64_t* values_length) {
  const uint64_t in_bytes = value_type_bytes(program.input());
  if (decoded_length % in_bytes != 0) {
    return Status(ErrorCode::kInvalidInput, "read: a chunk of " + std::to_string(decoded_length) +
                                                " bytes is no whole number of " + std::to_string(in_bytes) +
                                                "-byte elements");
  }
  const uint64_t n = decoded_length / in_bytes;
  const uint64_t out_length = n * value_type_bytes(program.output());
  ValuesBuffer& b = values_buffer();
  if (token != 0 && b.token == token && b.length == out_length) {
    *values = b.data;
    *values_length = out_length;
    return Status::Ok();
  }
  if (b.capacity < out_length || b.data == nullptr) {
    std::free(b.data);
    b.data = static_cast<uint8_t*>(std::malloc(out_length ? out_length : 1));
    b.capacity = b.data ? out_length : 0;
    b.token = 0;
    if (!b.data) {
      return Status(ErrorCode::kOutOfMemory, "read: wasm memory cannot grow by " + std::to_string(out_length) +
                                                 " bytes for a chunk's values");
    }
  }
  run_value_program(impl, program, decoded, static_cast<size_t>(n), b.data);
  b.length = out_length;
  b.token = token;
  *values = b.data;
  *values_length = out_length;
  return Status::Ok();
}

}  // namespace zcw::bindings
