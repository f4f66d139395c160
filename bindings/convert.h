// JS values -> core arguments. The JS wrapper checks member types; here the
// numbers themselves are checked before they become uint64 sizes.
#pragma once

#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
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

inline std::string describe_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  std::string text = std::to_string(v);
  // Trim "3.500000" to "3.5" and "-1.000000" to "-1".
  text.erase(text.find_last_not_of('0') + 1);
  if (!text.empty() && text.back() == '.') text.pop_back();
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

}  // namespace zcw::bindings
