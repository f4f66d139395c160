// The few arguments JavaScript passes to the constructors, as primitives
// the JS layer has already checked (js/codecs/arguments.js): shapes as
// decimal text "4,4", absent numbers as NaN, absent strings as "". Nothing
// here reads a JavaScript object, so no JavaScript code runs (and nothing
// can throw) while a C++ frame is on the stack.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/chunk_shape.h"
#include "common/status.h"

namespace zcw::bindings {

// "4,4" -> {4, 4}; "" -> {} (a scalar chunk). Refuses anything else.
inline Status parse_shape(const std::string& codec, std::string_view text,
                          std::vector<uint64_t>* out) {
  const Status bad(ErrorCode::kInvalidShape,
                   codec + ": shape must be decimal integers separated by "
                           "commas, got \"" +
                       std::string(text.substr(0, 64)) + "\"");
  out->clear();
  if (text.empty()) return Status::Ok();
  size_t at = 0;
  while (true) {
    const size_t comma = text.find(',', at);
    const std::string_view part = text.substr(at, comma - at);
    if (part.empty() || part.size() > 16 || out->size() == 64) return bad;
    uint64_t v = 0;
    for (char c : part) {
      if (c < '0' || c > '9') return bad;
      v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    if (v > kMaxByteLength) return bad;
    out->push_back(v);
    if (comma == std::string_view::npos) return Status::Ok();
    at = comma + 1;
  }
}

inline std::optional<int64_t> optional_integer(double v) {
  if (std::isnan(v)) return std::nullopt;
  return static_cast<int64_t>(v);
}

inline std::optional<std::string_view> optional_text(const std::string& v) {
  if (v.empty()) return std::nullopt;
  return std::string_view(v);
}

}  // namespace zcw::bindings
