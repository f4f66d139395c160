// The JS-visible surface of the core, apart from the kernels (kernels.cpp).
// Everything here is a stateless function: plans travel to JS as plain
// objects, so JS never holds an embind object that would need .delete().
#include <emscripten/bind.h>

#include "../src/bytes_codec.h"
#include "../src/data_type.h"
#include "../src/implementation.h"
#include "../src/numcodecs_packbits.h"
#include "../src/packbits_codec.h"
#include "active_impl.h"
#include "convert.h"

namespace zcw::bindings {
namespace {

bool set_implementation(const std::string& name) {
  Impl impl;
  if (!parse_impl(name, &impl) || !impl_available(impl)) return false;
  active_impl() = impl;
  return true;
}

std::string implementation_name() { return impl_name(active_impl()); }

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

// ---- packbits ---------------------------------------------------------------

struct PackBitsPlanJs {
  std::string code = "OK";
  std::string message;
  DataTypeJs dataType;
  uint32_t firstBit = 0;
  uint32_t bits = 0;
  bool signExtend = false;
  bool isBool = false;
  std::string padding;
  uint32_t paddingBits = 0;
  double elements = 0;
  double components = 0;
  double bitsPerElement = 0;
  double bodyBytes = 0;
  double encodedBytes = 0;
  double decodedBytes = 0;
};

Status plan_packbits_from_js(const std::string& data_type,
                             const emscripten::val& first_bit,
                             const emscripten::val& last_bit,
                             const emscripten::val& padding,
                             const emscripten::val& shape, PackBitsPlan* plan) {
  std::optional<int64_t> first, last;
  std::vector<uint64_t> dims;
  if (Status s = bit_index_from_js("first_bit", first_bit, &first); !s.ok()) return s;
  if (Status s = bit_index_from_js("last_bit", last_bit, &last); !s.ok()) return s;
  if (Status s = shape_from_js("packbits", shape, &dims); !s.ok()) return s;
  std::optional<std::string> padding_text = optional_string(padding);
  return plan_packbits(data_type, first, last,
                       padding_text ? std::optional<std::string_view>(*padding_text)
                                    : std::nullopt,
                       std::move(dims), plan);
}

PackBitsPlanJs plan_packbits_js(const std::string& data_type,
                                const emscripten::val& first_bit,
                                const emscripten::val& last_bit,
                                const emscripten::val& padding,
                                const emscripten::val& shape) {
  PackBitsPlanJs out;
  PackBitsPlan plan;
  Status s = plan_packbits_from_js(data_type, first_bit, last_bit, padding,
                                   shape, &plan);
  set_outcome(out, s);
  if (!s.ok()) return out;
  out.dataType = data_type_info("packbits", plan.type.name);
  out.firstBit = plan.layout.first_bit;
  out.bits = plan.layout.bits;
  out.signExtend = plan.layout.sign_extend;
  out.isBool = plan.layout.is_bool;
  out.padding = plan.padding == PaddingEncoding::kNone        ? "none"
                : plan.padding == PaddingEncoding::kFirstByte ? "first_byte"
                                                              : "last_byte";
  out.paddingBits = plan.padding_bits;
  out.elements = static_cast<double>(plan.shape.elements);
  out.components = static_cast<double>(plan.components);
  out.bitsPerElement = static_cast<double>(plan.bits_per_element);
  out.bodyBytes = static_cast<double>(plan.body_bytes);
  out.encodedBytes = static_cast<double>(plan.encoded_bytes);
  out.decodedBytes = static_cast<double>(plan.decoded_bytes);
  return out;
}

// The message for a bad frame, rebuilt from the configuration; called only
// on that path. `stored_padding` is the padding byte's value.
Outcome packbits_frame_error(const std::string& data_type,
                             const emscripten::val& first_bit,
                             const emscripten::val& last_bit,
                             const emscripten::val& padding,
                             const emscripten::val& shape, double length,
                             uint32_t stored_padding) {
  PackBitsPlan plan;
  Status s = plan_packbits_from_js(data_type, first_bit, last_bit, padding,
                                   shape, &plan);
  if (!s.ok()) return to_outcome(s);
  return to_outcome(check_packbits_frame(plan, static_cast<uint64_t>(length),
                                         static_cast<uint8_t>(stored_padding)));
}

// The message for an encode input of the wrong size.
Outcome packbits_input_error(const std::string& data_type,
                             const emscripten::val& first_bit,
                             const emscripten::val& last_bit,
                             const emscripten::val& padding,
                             const emscripten::val& shape, double length) {
  PackBitsPlan plan;
  Status s = plan_packbits_from_js(data_type, first_bit, last_bit, padding,
                                   shape, &plan);
  if (!s.ok()) return to_outcome(s);
  return to_outcome(check_packbits_decoded(plan, "bytes of input",
                                           static_cast<uint64_t>(length)));
}

// ---- numcodecs.packbits ---------------------------------------------------

struct NumcodecsPlanJs {
  std::string code = "OK";
  std::string message;
  double elements = 0;
  double bodyBytes = 0;
  uint32_t paddingBits = 0;
  double encodedBytes = 0;
};

Status plan_numcodecs_from_js(const std::string& data_type,
                              const emscripten::val& shape,
                              NumcodecsPackBitsPlan* plan) {
  std::vector<uint64_t> dims;
  if (Status s = shape_from_js("numcodecs.packbits", shape, &dims); !s.ok()) return s;
  return plan_numcodecs_packbits(data_type, std::move(dims), plan);
}

NumcodecsPlanJs plan_numcodecs_js(const std::string& data_type,
                                  const emscripten::val& shape) {
  NumcodecsPlanJs out;
  NumcodecsPackBitsPlan plan;
  Status s = plan_numcodecs_from_js(data_type, shape, &plan);
  set_outcome(out, s);
  if (!s.ok()) return out;
  out.elements = static_cast<double>(plan.shape.elements);
  out.bodyBytes = static_cast<double>(plan.body_bytes);
  out.paddingBits = plan.padding_bits;
  out.encodedBytes = static_cast<double>(plan.encoded_bytes);
  return out;
}

Outcome numcodecs_frame_error(const std::string& data_type,
                              const emscripten::val& shape, double length,
                              uint32_t stored_padding) {
  NumcodecsPackBitsPlan plan;
  Status s = plan_numcodecs_from_js(data_type, shape, &plan);
  if (!s.ok()) return to_outcome(s);
  return to_outcome(check_numcodecs_frame(plan, static_cast<uint64_t>(length),
                                          static_cast<uint8_t>(stored_padding)));
}

Outcome numcodecs_input_error(const std::string& data_type,
                              const emscripten::val& shape, double length) {
  NumcodecsPackBitsPlan plan;
  Status s = plan_numcodecs_from_js(data_type, shape, &plan);
  if (!s.ok()) return to_outcome(s);
  return to_outcome(check_numcodecs_decoded(plan, "bytes of input",
                                            static_cast<uint64_t>(length)));
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

  value_object<PackBitsPlanJs>("PackBitsPlan")
      .field("code", &PackBitsPlanJs::code)
      .field("message", &PackBitsPlanJs::message)
      .field("dataType", &PackBitsPlanJs::dataType)
      .field("firstBit", &PackBitsPlanJs::firstBit)
      .field("bits", &PackBitsPlanJs::bits)
      .field("signExtend", &PackBitsPlanJs::signExtend)
      .field("isBool", &PackBitsPlanJs::isBool)
      .field("padding", &PackBitsPlanJs::padding)
      .field("paddingBits", &PackBitsPlanJs::paddingBits)
      .field("elements", &PackBitsPlanJs::elements)
      .field("components", &PackBitsPlanJs::components)
      .field("bitsPerElement", &PackBitsPlanJs::bitsPerElement)
      .field("bodyBytes", &PackBitsPlanJs::bodyBytes)
      .field("encodedBytes", &PackBitsPlanJs::encodedBytes)
      .field("decodedBytes", &PackBitsPlanJs::decodedBytes);

  value_object<NumcodecsPlanJs>("NumcodecsPackBitsPlan")
      .field("code", &NumcodecsPlanJs::code)
      .field("message", &NumcodecsPlanJs::message)
      .field("elements", &NumcodecsPlanJs::elements)
      .field("bodyBytes", &NumcodecsPlanJs::bodyBytes)
      .field("paddingBits", &NumcodecsPlanJs::paddingBits)
      .field("encodedBytes", &NumcodecsPlanJs::encodedBytes);

  function("dataTypeInfo", &data_type_info);
  function("planPackBits", &plan_packbits_js);
  function("packbitsFrameError", &packbits_frame_error);
  function("packbitsInputError", &packbits_input_error);
  function("planNumcodecsPackBits", &plan_numcodecs_js);
  function("numcodecsFrameError", &numcodecs_frame_error);
  function("numcodecsInputError", &numcodecs_input_error);
  function("planBytes", &plan_bytes_js);
  function("bytesLengthError", &bytes_length_error);
  function("setImplementation", &set_implementation);
  function("implementation", &implementation_name);
}
