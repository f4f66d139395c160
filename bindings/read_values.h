// read's array -> array steps in wasm (src/values/value_program.h): a
// chunk's decoded bytes (decompressed into the chain buffer, or copied in
// as they are) run through a value program a block at a time, each block
// placed as it comes out: the chunk's values never exist whole, and the
// block stays in cache between the program and its place.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"
#include "read/placement.h"
#include "read_placement.h"
#include "values/value_program.h"

namespace zcw::bindings {

// The values of `decoded` (decoded_length bytes of the program's input
// type), placed by `p` into `band`.
inline Status place_program_values(const ValueProgram& program, const uint8_t* decoded, uint64_t decoded_length,
                                   Impl impl, const Placement& p, uint8_t* band) {
  const uint64_t in_bytes = value_type_bytes(program.input());
  const uint64_t out_bytes = value_type_bytes(program.output());
  if (decoded_length % in_bytes != 0) {
    return Status(ErrorCode::kInvalidInput, "read: a chunk of " + std::to_string(decoded_length) +
                                                " bytes is no whole number of " + std::to_string(in_bytes) +
                                                "-byte elements");
  }
  const uint64_t n = decoded_length / in_bytes;
  Status s = copy_length(n * out_bytes, p);
  if (!s.ok()) return s;
  constexpr uint64_t kBlock = 2048;  // elements: 16 KiB of float64 at most
  // The module's memory, not the stack's (a small wasm stack).
  alignas(16) static uint8_t block[8 * kBlock];
  PlacingSink sink(p, band);
  for (uint64_t at = 0; at < n; at += kBlock) {
    const uint64_t m = n - at < kBlock ? n - at : kBlock;
    s = run_value_program(impl, program, decoded + at * in_bytes, static_cast<size_t>(m), block);
    if (!s.ok()) return s;
    sink.write(at * out_bytes, block, m * out_bytes);
  }
  return Status::Ok();
}

}  // namespace zcw::bindings
