// JavaScript values -> the core's arguments: configuration objects as they
// appear in Zarr metadata, and chunk shapes. Everything is checked here,
// once, when a codec is constructed; messages describe values the way the
// JS side does (js/errors.js describe()).
#pragma once

#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "common/chunk_shape.h"
#include "common/status.h"

namespace zcw::bindings {

using emscripten::val;

// A number as JavaScript shows it, near enough: 2.5, -1, 1e+300, NaN.
inline std::string describe_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", v);
  return text;
}

inline std::string article(const std::string& name) {
  const char c = name.empty() ? 'x' : name[0];
  return (c == 'A' || c == 'E' || c == 'I' || c == 'O' ? "an " : "a ") + name;
}

// A short, bounded description of any value.
inline std::string describe_js(const val& v) {
  if (v.isNull()) return "null";
  if (v.isUndefined()) return "undefined";
  const std::string type = v.typeOf().as<std::string>();
  if (type == "string") {
    std::string s = v.as<std::string>();
    if (s.size() > 40) s.resize(40);
    std::string quoted = "\"";
    for (char c : s) quoted += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return quoted + "\"";
  }
  if (type == "number") return describe_number(v.as<double>());
  if (type == "boolean") return v.as<bool>() ? "true" : "false";
  if (type == "bigint") return val::global("String")(v).as<std::string>() + "n";
  if (type == "symbol") return val::global("String")(v).as<std::string>();
  if (type != "object") return "a " + type;
  if (val::global("Array").call<bool>("isArray", v)) {
    return "an Array of length " + describe_number(v["length"].as<double>());
  }
  const val ctor = v["constructor"];
  if (!ctor.isUndefined() && !ctor.isNull() && ctor["name"].isString()) {
    const std::string name = ctor["name"].as<std::string>();
    if (!name.empty() && name != "Object") return article(name);
  }
  return "an object";
}

// A configuration: absent (undefined or null: the defaults) or a plain
// object whose members are all in `members`. An unknown member (a typo
// such as "endianness") is an error naming what is allowed.
inline Status check_configuration(const std::string& codec, const val& config,
                                  std::initializer_list<const char*> members,
                                  const char* expected) {
  if (config.isUndefined() || config.isNull()) return Status::Ok();
  if (config.typeOf().as<std::string>() != "object" ||
      val::global("Array").call<bool>("isArray", config)) {
    return Status(ErrorCode::kInvalidConfiguration,
                  codec + ": configuration must be an object, got " +
                      describe_js(config));
  }
  const val keys = val::global("Object").call<val>("keys", config);
  const int n = keys["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const std::string key = keys[i].as<std::string>();
    bool known = false;
    for (const char* m : members) known = known || key == m;
    if (!known) {
      return Status(ErrorCode::kInvalidConfiguration,
                    codec + ": unknown configuration member " +
                        describe_js(keys[i]) + " " + expected);
    }
  }
  return Status::Ok();
}

// A member of a configuration that passed check_configuration.
inline val member(const val& config, const char* name) {
  if (config.isUndefined() || config.isNull()) return val::undefined();
  return config[name];
}

// A string member: absent (undefined or null) or a string.
inline Status optional_string(const std::string& codec, const char* name,
                              const val& v, const char* expected,
                              std::optional<std::string>* out) {
  if (v.isUndefined() || v.isNull()) return Status::Ok();
  if (!v.isString()) {
    return Status(ErrorCode::kInvalidConfiguration,
                  codec + ": " + name + " must be " + expected + ", got " +
                      describe_js(v));
  }
  *out = v.as<std::string>();
  return Status::Ok();
}

// A bit index: absent (undefined or null) or an integer.
inline Status optional_bit_index(const char* name, const val& v,
                                 std::optional<int64_t>* out) {
  if (v.isUndefined() || v.isNull()) return Status::Ok();
  if (!v.isNumber()) {
    return Status(ErrorCode::kInvalidConfiguration,
                  std::string("packbits: ") + name +
                      " must be an integer or null, got " + describe_js(v));
  }
  const double d = v.as<double>();
  if (!(std::fabs(d) <= 9007199254740991.0) || d != std::floor(d)) {
    return Status(ErrorCode::kInvalidConfiguration,
                  std::string("packbits: ") + name +
                      " must be an integer, got " + describe_number(d));
  }
  *out = static_cast<int64_t>(d);
  return Status::Ok();
}

// A chunk shape: an Array of non-negative integers below 2^53.
inline Status shape_from_js(const std::string& codec, const val& shape,
                            std::vector<uint64_t>* out) {
  if (!val::global("Array").call<bool>("isArray", shape)) {
    return Status(ErrorCode::kInvalidShape,
                  codec + ": meta.shape must be an array of non-negative "
                          "integers, got " + describe_js(shape));
  }
  const double rank = shape["length"].as<double>();
  if (rank > 64) {
    // numpy's limit too; a longer list is not a chunk shape.
    return Status(ErrorCode::kInvalidShape,
                  codec + ": meta.shape has " + describe_number(rank) +
                      " dimensions; at most 64 are supported");
  }
  const int n = static_cast<int>(rank);
  std::vector<double> dims;
  for (int i = 0; i < n; ++i) {
    const val d = shape[i];
    if (!d.isNumber()) {
      return Status(ErrorCode::kInvalidShape,
                    codec + ": meta.shape must hold numbers, got " + describe_js(d));
    }
    dims.push_back(d.as<double>());
  }
  for (double d : dims) {
    if (!(d >= 0) || d != std::floor(d) || d > static_cast<double>(kMaxByteLength)) {
      std::string text = "[";
      for (size_t i = 0; i < dims.size(); ++i) {
        text += (i ? ", " : "") + describe_number(dims[i]);
      }
      return Status(ErrorCode::kInvalidShape,
                    codec + ": shape must hold non-negative integers, got " +
                        text + "]");
    }
  }
  for (double d : dims) out->push_back(static_cast<uint64_t>(d));
  return Status::Ok();
}

}  // namespace zcw::bindings
