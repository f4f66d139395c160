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

// Decimal digits without sign or leading zero, at most `max`.
bool parse_count(std::string_view text, uint64_t max, uint64_t* out) {
  if (text.empty() || text.size() > 19 || text[0] == '0') return false;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (value > max) return false;
  *out = value;
  return true;
}

// r<N>: N a positive multiple of 8, written without sign or leading zero.
bool parse_raw_bits(std::string_view name, uint32_t* bits) {
  if (name.size() < 2 || name[0] != 'r') return false;
  uint64_t value = 0;
  // The bound keeps element sizes far from any size arithmetic overflow.
  if (!parse_count(name.substr(1), uint64_t{1} << 24, &value)) return false;
  if (value % 8 != 0) return false;
  *bits = static_cast<uint32_t>(value);
  return true;
}

Status unknown(std::string_view codec, std::string_view name) {
  return Status(ErrorCode::kUnknownDataType,
                std::string(codec) + ": unknown data type \"" +
                    utf8_prefix(name, 64) +
                    "\" (expected a Zarr v3 data type such as uint16, "
                    "complex64 or r16)");
}

Status lookup_named(std::string_view codec, std::string_view name,
                    DataType* out) {
  for (const Entry& e : kTable) {
    if (name != e.name) continue;
    if (e.component_bits == 0) {
      return Status(ErrorCode::kUnsupportedDataType,
                    std::string(codec) + ": data type " + std::string(name) +
                        " has no fixed size, so no array -> bytes codec of "
                        "this package can encode it");
    }
    *out = DataType{};
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
    *out = DataType{};
    out->name = std::string(name);
    out->type_class = TypeClass::kRaw;
    out->component_bits = bits;
    out->component_count = 1;
    out->container_bytes = bits / 8;
    return Status::Ok();
  }
  return unknown(codec, name);
}

constexpr std::string_view kUtf32Prefix = "fixed_length_utf32/";
constexpr std::string_view kStructPrefix = "struct:";

Status lookup_string(std::string_view codec, std::string_view descriptor,
                     DataType* out) {
  uint64_t length_bytes = 0;
  if (!parse_count(descriptor.substr(kUtf32Prefix.size()), UINT64_MAX / 2,
                   &length_bytes) ||
      length_bytes % 4 != 0) {
    return Status(ErrorCode::kUnknownDataType,
                  std::string(codec) +
                      ": fixed_length_utf32 needs a length_bytes that is a "
                      "positive multiple of 4, got \"" +
                      utf8_prefix(descriptor.substr(kUtf32Prefix.size()), 24) +
                      "\"");
  }
  if (length_bytes > kMaxElementBytes) {
    return Status(ErrorCode::kUnsupportedDataType,
                  std::string(codec) + ": fixed_length_utf32 of " +
                      std::to_string(length_bytes) +
                      " bytes per string is larger than the " +
                      std::to_string(kMaxElementBytes) +
                      " bytes this package supports");
  }
  *out = DataType{};
  out->name = "fixed_length_utf32";
  out->type_class = TypeClass::kString;
  out->component_bits = 32;
  out->component_count = static_cast<uint32_t>(length_bytes / 4);
  out->container_bytes = 4;
  return Status::Ok();
}

Status lookup_record(std::string_view codec, std::string_view descriptor,
                     DataType* out) {
  auto layout = std::make_shared<RecordLayout>();
  std::string_view rest = descriptor.substr(kStructPrefix.size());
  const auto malformed = [&](std::string_view why) {
    return Status(ErrorCode::kUnknownDataType,
                  std::string(codec) + ": struct data type " +
                      std::string(why));
  };
  if (rest.empty()) return malformed("has no fields");
  while (true) {
    const size_t comma = rest.find(',');
    std::string_view leaf = rest.substr(0, comma);
    FieldOrder order = FieldOrder::kCodec;
    if (!leaf.empty() && (leaf.back() == '<' || leaf.back() == '>')) {
      order = leaf.back() == '>' ? FieldOrder::kBig : FieldOrder::kLittle;
      leaf.remove_suffix(1);
    }
    uint64_t count = 1;
    const size_t star = leaf.rfind('*');
    if (star != std::string_view::npos) {
      if (!parse_count(leaf.substr(star + 1), kMaxElementBytes, &count)) {
        return malformed("has a field count \"" +
                         utf8_prefix(leaf.substr(star + 1), 24) +
                         "\" that is not a positive integer");
      }
      leaf = leaf.substr(0, star);
    }
    if (leaf.substr(0, kStructPrefix.size()) == kStructPrefix) {
      return malformed("nests a struct in a leaf (nested fields are "
                       "flattened into leaves)");
    }
    if (layout->leaves.size() == kMaxRecordLeaves) {
      return malformed("has more than " + std::to_string(kMaxRecordLeaves) +
                       " fields");
    }
    RecordLeaf f{layout->bytes, count, DataType{}, order};
    if (Status s = lookup_data_type(codec, leaf, &f.type); !s.ok()) return s;
    // count <= 64 KiB and element bytes <= 2 MiB: no overflow here.
    if (f.bytes() > kMaxElementBytes - layout->bytes) {
      return Status(ErrorCode::kUnsupportedDataType,
                    std::string(codec) +
                        ": a struct record larger than " +
                        std::to_string(kMaxElementBytes) +
                        " bytes is not supported");
    }
    layout->bytes += f.bytes();
    layout->leaves.push_back(std::move(f));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  if (layout->bytes == 0) return malformed("has no bytes");
  *out = DataType{};
  out->name = "struct";
  out->type_class = TypeClass::kRecord;
  out->component_bits = 8;
  out->component_count = static_cast<uint32_t>(layout->bytes);
  out->container_bytes = 1;
  out->record = std::move(layout);
  return Status::Ok();
}

}  // namespace

const char* type_class_name(TypeClass type_class) {
  switch (type_class) {
    case TypeClass::kBool: return "bool";
    case TypeClass::kSignedInt: return "signed";
    case TypeClass::kUnsignedInt: return "unsigned";
    case TypeClass::kFloat: return "float";
    case TypeClass::kRaw: return "raw";
    case TypeClass::kString: return "string";
    case TypeClass::kRecord: return "record";
  }
  return "raw";
}

bool DataType::has_byte_order() const {
  if (type_class == TypeClass::kRecord) return record->follows_codec_order();
  return swap_width() > 1;
}

std::vector<RecordLayout::Swap> RecordLayout::swaps_for(bool codec_big) const {
  std::vector<Swap> swaps;
  for (const RecordLeaf& f : leaves) {
    const uint32_t width = f.type.swap_width();
    const bool big = f.order == FieldOrder::kBig ||
                     (f.order == FieldOrder::kCodec && codec_big);
    if (width < 2 || !big) continue;
    const uint64_t components = f.count * f.type.component_count;
    for (uint64_t c = 0; c < components; ++c) {
      swaps.push_back({static_cast<uint32_t>(f.offset + c * width), width});
    }
  }
  return swaps;
}

bool RecordLayout::follows_codec_order() const {
  for (const RecordLeaf& f : leaves) {
    if (f.order == FieldOrder::kCodec && f.type.swap_width() > 1) return true;
  }
  return false;
}

std::string DataType::label() const {
  if (type_class == TypeClass::kString) {
    return name + " of " + std::to_string(component_count) + " code points";
  }
  if (type_class == TypeClass::kRecord) {
    return name + " of " + std::to_string(component_count) + " bytes";
  }
  return name;
}

std::string utf8_prefix(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  size_t end = max_bytes;
  // Back up over continuation bytes (10xxxxxx) to a sequence's start.
  while (end > 0 && (static_cast<uint8_t>(text[end]) & 0xC0) == 0x80) --end;
  return std::string(text.substr(0, end));
}

Status lookup_data_type(std::string_view codec, std::string_view descriptor,
                        DataType* out) {
  if (descriptor.substr(0, kUtf32Prefix.size()) == kUtf32Prefix) {
    return lookup_string(codec, descriptor, out);
  }
  if (descriptor.substr(0, kStructPrefix.size()) == kStructPrefix) {
    return lookup_record(codec, descriptor, out);
  }
  return lookup_named(codec, descriptor, out);
}

}  // namespace zcw
