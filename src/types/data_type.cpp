#include "types/data_type.h"

#include <array>

namespace zcw {
namespace {

struct Entry {
  const char* name;
  const char* canonical;  // alias target, or nullptr
  TypeClass type_class;
  uint32_t component_bits;
  uint32_t component_count;
};

constexpr TypeClass B = TypeClass::kBool;
constexpr TypeClass S = TypeClass::kSignedInt;
constexpr TypeClass U = TypeClass::kUnsignedInt;
constexpr TypeClass F = TypeClass::kFloat;

// Every named type of the bytes and packbits specs and the zarr-extensions
// registry (raw r<N> are parsed).
constexpr std::array<Entry, 48> kTable = {{
    {"bool", nullptr, B, 1, 1},
    {"int2", nullptr, S, 2, 1},
    {"uint2", nullptr, U, 2, 1},
    {"int4", nullptr, S, 4, 1},
    {"uint4", nullptr, U, 4, 1},
    {"float4_e2m1fn", nullptr, F, 4, 1},
    {"float6_e2m3fn", nullptr, F, 6, 1},
    {"float6_e3m2fn", nullptr, F, 6, 1},
    {"int8", nullptr, S, 8, 1},
    {"uint8", nullptr, U, 8, 1},
    {"int16", nullptr, S, 16, 1},
    {"uint16", nullptr, U, 16, 1},
    {"int32", nullptr, S, 32, 1},
    {"uint32", nullptr, U, 32, 1},
    {"int64", nullptr, S, 64, 1},
    {"uint64", nullptr, U, 64, 1},
    {"float16", nullptr, F, 16, 1},
    {"bfloat16", nullptr, F, 16, 1},
    {"float32", nullptr, F, 32, 1},
    {"float64", nullptr, F, 64, 1},
    {"complex64", nullptr, F, 32, 2},
    {"complex128", nullptr, F, 64, 2},
    {"complex_float32", "complex64", F, 32, 2},
    {"complex_float64", "complex128", F, 64, 2},
    {"complex_float16", nullptr, F, 16, 2},
    {"complex_bfloat16", nullptr, F, 16, 2},
    {"complex_float4_e2m1fn", nullptr, F, 4, 2},
    {"complex_float6_e2m3fn", nullptr, F, 6, 2},
    {"complex_float6_e3m2fn", nullptr, F, 6, 2},
    {"float8_e3m4", nullptr, F, 8, 1},
    {"float8_e4m3", nullptr, F, 8, 1},
    {"float8_e4m3b11fnuz", nullptr, F, 8, 1},
    {"float8_e4m3fnuz", nullptr, F, 8, 1},
    {"float8_e5m2", nullptr, F, 8, 1},
    {"float8_e5m2fnuz", nullptr, F, 8, 1},
    {"float8_e8m0fnu", nullptr, F, 8, 1},
    {"complex_float8_e3m4", nullptr, F, 8, 2},
    {"complex_float8_e4m3", nullptr, F, 8, 2},
    {"complex_float8_e4m3b11fnuz", nullptr, F, 8, 2},
    {"complex_float8_e4m3fnuz", nullptr, F, 8, 2},
    {"complex_float8_e5m2", nullptr, F, 8, 2},
    {"complex_float8_e5m2fnuz", nullptr, F, 8, 2},
    {"complex_float8_e8m0fnu", nullptr, F, 8, 2},
    // numpy's datetime64 / timedelta64: int64 counts of a unit (NaT is
    // -2^63); every codec treats them as int64.
    {"numpy.datetime64", nullptr, S, 64, 1},
    {"numpy.timedelta64", nullptr, S, 64, 1},
    // Variable-length and v2 string types are real Zarr types that neither
    // codec can pack; naming them gives a clearer error than "unknown".
    {"string", nullptr, TypeClass::kRaw, 0, 0},
    {"v2:object", nullptr, TypeClass::kRaw, 0, 0},
    {"bytes", nullptr, TypeClass::kRaw, 0, 0},
}};

uint32_t container_bytes_for(uint32_t bits) {
  if (bits <= 8) return 1;
  if (bits <= 16) return 2;
  if (bits <= 32) return 4;
  return 8;
}

// r<N>: N a positive multiple of 8, written without sign or leading zero.
bool parse_raw_bits(std::string_view name, uint32_t* bits) {
  if (name.size() < 2 || name.size() > 11 || name[0] != 'r') return false;
  if (name[1] == '0') return false;
  uint64_t value = 0;
  for (size_t i = 1; i < name.size(); ++i) {
    char c = name[i];
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  // The bound keeps element sizes far from any size arithmetic overflow.
  if (value % 8 != 0 || value > (uint64_t{1} << 24)) return false;
  *bits = static_cast<uint32_t>(value);
  return true;
}

}  // namespace

const char* type_class_name(TypeClass type_class) {
  switch (type_class) {
    case TypeClass::kBool: return "bool";
    case TypeClass::kSignedInt: return "signed";
    case TypeClass::kUnsignedInt: return "unsigned";
    case TypeClass::kFloat: return "float";
    case TypeClass::kRaw: return "raw";
  }
  return "raw";
}

Status lookup_data_type(std::string_view codec, std::string_view name,
                        DataType* out) {
  for (const Entry& e : kTable) {
    if (name != e.name) continue;
    if (e.component_bits == 0) {
      return Status(ErrorCode::kUnsupportedDataType,
                    std::string(codec) + ": data type " + std::string(name) +
                        " has no fixed size, so it cannot be encoded by " +
                        std::string(codec));
    }
    out->name = e.canonical ? e.canonical : e.name;
    out->type_class = e.type_class;
    out->component_bits = e.component_bits;
    out->component_count = e.component_count;
    out->container_bytes = container_bytes_for(e.component_bits);
    out->format = e.type_class == F ? float_format_named(out->name) : nullptr;
    return Status::Ok();
  }
  uint32_t bits = 0;
  if (parse_raw_bits(name, &bits)) {
    out->name = std::string(name);
    out->type_class = TypeClass::kRaw;
    out->component_bits = bits;
    out->component_count = 1;
    out->container_bytes = bits / 8;
    out->format = nullptr;
    return Status::Ok();
  }
  std::string shown(name.substr(0, 64));
  return Status(ErrorCode::kUnknownDataType,
                std::string(codec) + ": unknown data type \"" + shown +
                    "\" (expected a Zarr v3 data type such as uint16, "
                    "complex64 or r16)");
}

}  // namespace zcw
