// JS values -> core arguments. The JS wrapper checks member types; here the
// numbers themselves are checked before they become uint64 sizes.
#pragma once

#include <emscripten/val.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../src/chunk_shape.h"
#include "../src/status.h"

namespace zcw::bindings {

// The outcome of a fallible call, as JS sees it: code "OK" or an error code
// with its message.
struct Outcome {
  std::string code = "OK";
  std::string message;
};

inline Outcome to_outcome(const Status& s) {
  return Outcome{error_code_name(s.code()), s.message()};
}

// Plans carry the same two members as an Outcome.
template <typename Plan>
void set_outcome(Plan& plan, const Status& s) {
  plan.code = error_code_name(s.code());
  plan.message = s.message();
}

// A number as JS would show it, near enough: 2.5, -1, 1e+300, NaN.
inline std::string describe_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", v);
  return text;
}

// A chunk shape given as JS numbers: each a non-negative integer below 2^53.
inline Status shape_from_js(const std::string& codec, const emscripten::val& js,
                            std::vector<uint64_t>* out) {
  std::vector<double> dims = emscripten::vecFromJSArray<double>(js);
  for (double d : dims) {
    if (!(d >= 0) || d != std::floor(d) ||
        d > static_cast<double>(kMaxByteLength)) {
      std::string text = "[";
      for (size_t i = 0; i < dims.size(); ++i) {
        text += (i ? ", " : "") + describe_number(dims[i]);
      }
      return Status(ErrorCode::kInvalidShape,
                    codec + ": shape must hold non-negative integers, got " +
                        text + "]");
    }
    out->push_back(static_cast<uint64_t>(d));
  }
  return Status::Ok();
}

// A bit index from JS: null/undefined is "omitted", else an integer.
inline Status bit_index_from_js(const std::string& name,
                                const emscripten::val& js,
                                std::optional<int64_t>* out) {
  if (js.isNull() || js.isUndefined()) {
    out->reset();
    return Status::Ok();
  }
  const double v = js.as<double>();
  if (!(std::fabs(v) <= 9007199254740991.0) || v != std::floor(v)) {
    return Status(ErrorCode::kInvalidConfiguration,
                  "packbits: " + name + " must be an integer, got " +
                      describe_number(v));
  }
  *out = static_cast<int64_t>(v);
  return Status::Ok();
}

// A string member from JS: null/undefined is "omitted".
inline std::optional<std::string> optional_string(const emscripten::val& js) {
  if (js.isString()) return js.as<std::string>();
  return std::nullopt;
}

}  // namespace zcw::bindings
