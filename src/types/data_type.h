// The one data-type table both codecs read (the zarrs idea: each type declares
// its traits once). A component is one real number: complex types have two.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"
#include "types/float_format.h"

namespace zcw {

enum class TypeClass : uint8_t {
  kBool,
  kSignedInt,    // two's complement; packbits sign-extends these
  kUnsignedInt,
  kFloat,        // IEEE and sub-byte float formats, kept as bit patterns
  kRaw,          // r8, r16, ...: opaque bytes, never swapped
};

struct DataType {
  std::string name;            // canonical name (complex_float32 -> complex64)
  TypeClass type_class;
  uint32_t component_bits;     // N of the packbits spec: bits per component
  uint32_t component_count;    // 2 for complex types, else 1
  uint32_t container_bytes;    // bytes per component in the decoded array
  const FloatFormat* format = nullptr;  // floats narrower than float32

  // int2/int4/uint2/uint4 and float4/float6: fewer bits than their byte
  // container, so a container value can lie outside the type.
  bool sub_byte() const {
    return type_class != TypeClass::kBool && component_bits < 8;
  }

  uint64_t element_bytes() const {
    return uint64_t{container_bytes} * component_count;
  }
  bool is_signed() const { return type_class == TypeClass::kSignedInt; }
  // Multi-byte components are swapped one by one; raw bytes never are.
  uint32_t swap_width() const {
    return (type_class == TypeClass::kRaw || container_bytes < 2)
               ? 1
               : container_bytes;
  }
};

// Looks up a Zarr v3 data type name ("uint16", "complex_float32", "r24",
// "numpy.datetime64": the name of an object-form type; its configuration is
// checked where the JSON is read).
// `codec` names the caller in the error message.
Status lookup_data_type(std::string_view codec, std::string_view name,
                        DataType* out);

const char* type_class_name(TypeClass type_class);

}  // namespace zcw
