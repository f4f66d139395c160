// The JS-visible surface of the core. Everything here is a stateless function:
// plans travel to JS as plain objects and kernels take heap pointers, so JS
// never holds an embind object that would need .delete().
#include <emscripten/bind.h>

#include "../src/bytes_codec.h"
#include "../src/data_type.h"
#include "../src/implementation.h"
#include "convert.h"

namespace zcw::bindings {
namespace {

// Tests and the benchmark force an implementation, as simdutf allows.
Impl g_impl = fastest_impl();

Impl active_impl() { return g_impl; }

bool set_implementation(const std::string& name) {
  Impl impl;
  if (!parse_impl(name, &impl) || !impl_available(impl)) return false;
  g_impl = impl;
  return true;
}

std::string implementation_name() { return impl_name(g_impl); }

struct DataTypeJs {
  std::string code = "OK";
  std::string message;
  std::string name;
  std::string typeClass;
  uint32_t componentBits = 0;
  uint32_t componentCount = 0;
  uint32_t containerBytes = 0;
};

DataTypeJs data_type_info(const std::string& codec, const std::string& name) {
  DataTypeJs out;
  DataType type;
  Status s = lookup_data_type(codec, name, &type);
  set_outcome(out, s);
  if (!s.ok()) return out;
  out.name = type.name;
  out.typeClass = type_class_name(type.type_class);
  out.componentBits = type.component_bits;
  out.componentCount = type.component_count;
  out.containerBytes = type.container_bytes;
  return out;
}

struct BytesPlanJs {
  std::string code = "OK";
  std::string message;
  DataTypeJs dataType;
  std::string shapeText;
  double byteLength = 0;
  uint32_t swapWidth = 1;
  bool normalizeBool = false;
};

BytesPlanJs plan_bytes_js(const std::string& data_type,
                          const emscripten::val& endian,
                          const emscripten::val& shape) {
  BytesPlanJs out;
  std::vector<uint64_t> dims;
  Status s = shape_from_js("bytes", shape, &dims);
  BytesPlan plan;
  if (s.ok()) {
    std::optional<std::string> endian_text;
    if (endian.isString()) endian_text = endian.as<std::string>();
    s = plan_bytes(data_type,
                   endian_text ? std::optional<std::string_view>(*endian_text)
                               : std::nullopt,
                   std::move(dims), &plan);
  }
  set_outcome(out, s);
  if (!s.ok()) return out;
  out.dataType = data_type_info("bytes", plan.type.name);
  out.shapeText = plan.shape.text;
  out.byteLength = static_cast<double>(plan.byte_length);
  out.swapWidth = plan.swap_width;
  out.normalizeBool = plan.normalize_bool;
  return out;
}

// The message for a buffer of the wrong size; called only on that path.
Outcome bytes_length_error(const BytesPlanJs& js, const std::string& what,
                           double length) {
  BytesPlan plan;
  plan.type.name = js.dataType.name;
  plan.shape.text = js.shapeText;
  plan.byte_length = static_cast<uint64_t>(js.byteLength);
  return to_outcome(
      check_bytes_length(plan, what, static_cast<uint64_t>(length)));
}

void bytes_transform_js(uint32_t swap_width, bool normalize_bool,
                        uintptr_t src, uintptr_t dst, uint32_t bytes) {
  bytes_transform(active_impl(), swap_width, normalize_bool,
                  reinterpret_cast<const uint8_t*>(src),
                  reinterpret_cast<uint8_t*>(dst), bytes);
}

}  // namespace
}  // namespace zcw::bindings

EMSCRIPTEN_BINDINGS(zarr_codecs_wasm) {
  using namespace emscripten;
  using namespace zcw::bindings;

  value_object<Outcome>("Outcome")
      .field("code", &Outcome::code)
      .field("message", &Outcome::message);

  value_object<DataTypeJs>("DataType")
      .field("code", &DataTypeJs::code)
      .field("message", &DataTypeJs::message)
      .field("name", &DataTypeJs::name)
      .field("typeClass", &DataTypeJs::typeClass)
      .field("componentBits", &DataTypeJs::componentBits)
      .field("componentCount", &DataTypeJs::componentCount)
      .field("containerBytes", &DataTypeJs::containerBytes);

  value_object<BytesPlanJs>("BytesPlan")
      .field("code", &BytesPlanJs::code)
      .field("message", &BytesPlanJs::message)
      .field("dataType", &BytesPlanJs::dataType)
      .field("shapeText", &BytesPlanJs::shapeText)
      .field("byteLength", &BytesPlanJs::byteLength)
      .field("swapWidth", &BytesPlanJs::swapWidth)
      .field("normalizeBool", &BytesPlanJs::normalizeBool);

  function("dataTypeInfo", &data_type_info);
  function("planBytes", &plan_bytes_js);
  function("bytesLengthError", &bytes_length_error);
  function("bytesTransform", &bytes_transform_js);
  function("setImplementation", &set_implementation);
  function("implementation", &implementation_name);
}
