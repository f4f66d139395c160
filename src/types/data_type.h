// The one data-type table both codecs read (the zarrs idea: each type declares
// its traits once). A component is one real number: complex types have two,
// a fixed-length string one per code point, a record one per byte.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "types/float_format.h"

namespace zcw {

enum class TypeClass : uint8_t {
  kBool,
  kSignedInt,    // two's complement; packbits sign-extends these
  kUnsignedInt,
  kFloat,        // IEEE and sub-byte float formats, kept as bit patterns
  kRaw,          // r8, r16, ...: opaque bytes, never swapped
  kString,       // fixed_length_utf32: 4-byte code units
  kRecord,       // struct: packed fields, each in its own byte order
};

struct RecordLayout;

struct DataType {
  std::string name;            // canonical name (complex_float32 -> complex64)
  TypeClass type_class;
  uint32_t component_bits;     // N of the packbits spec: bits per component
  uint32_t component_count;    // 2 for complex, code points, record bytes; else 1
  uint32_t container_bytes;    // bytes per component in the decoded array
  const FloatFormat* format = nullptr;  // floats narrower than float32
  std::shared_ptr<const RecordLayout> record;  // kRecord only

  // int2/int4/uint2/uint4 and float4/float6: fewer bits than their byte
  // container, so a container value can lie outside the type.
  bool sub_byte() const {
    return type_class != TypeClass::kBool && component_bits < 8;
  }

  uint64_t element_bytes() const {
    return uint64_t{container_bytes} * component_count;
  }
  bool is_signed() const { return type_class == TypeClass::kSignedInt; }
  // Multi-byte components are swapped one by one; raw bytes never are, and
  // a record's fields are swapped by its layout, not here.
  uint32_t swap_width() const {
    return (type_class == TypeClass::kRaw || type_class == TypeClass::kRecord ||
            container_bytes < 2)
               ? 1
               : container_bytes;
  }
  // The bytes codec needs an `endian` for this type.
  bool has_byte_order() const;
  // The type as messages name it: "int4", "fixed_length_utf32 of 12 code
  // points", "struct of 13 bytes".
  std::string label() const;
};

// The byte order of a record's field: the bytes codec's, or its own (a
// Zarr v2 structured dtype gives each field one: [["a", ">i2"], ...]).
enum class FieldOrder : uint8_t { kCodec, kLittle, kBig };

// One field of a record that is not itself a record (nested structs are
// flattened, depth first): `count` values of `type` at byte `offset`.
struct RecordLeaf {
  uint64_t offset;
  uint64_t count;
  DataType type;
  FieldOrder order = FieldOrder::kCodec;
  uint64_t bytes() const { return count * type.element_bytes(); }
};

// A record as the struct page lays it out: leaves packed in order, no
// padding.
struct RecordLayout {
  uint64_t bytes = 0;
  std::vector<RecordLeaf> leaves;

  // A multi-byte component the bytes codec reverses.
  struct Swap {
    uint32_t offset;
    uint32_t width;  // 2, 4 or 8
  };
  // The components stored big-endian, where the codec's order is big or
  // not: the ones to reverse into (or out of) little-endian.
  std::vector<Swap> swaps_for(bool codec_big) const;
  // Some multi-byte leaf takes the codec's order (so it needs an endian).
  bool follows_codec_order() const;
};

// Records and fixed-length strings are refused above this size: a whole
// element must fit the codecs' 64 KiB scratch block.
constexpr uint64_t kMaxElementBytes = 64 * 1024;
// At most this many leaves in a record (numpy allows far fewer in practice).
constexpr uint64_t kMaxRecordLeaves = 4096;

// Looks up a data type by its descriptor, the canonical text the JS layer
// builds from metadata:
//   a Zarr v3 name     "uint16", "complex_float32", "r24", "numpy.datetime64"
//                      (an object-form type by its name; its configuration
//                      is checked where the JSON is read);
//   a string type      "fixed_length_utf32/48"  (length_bytes);
//   a record           "struct:int32,uint8,float64*3"  (leaves in order,
//                      each a descriptor other than a struct, `*n` for a
//                      field of n values, a final `<` or `>` for a field
//                      stored little- or big-endian whatever the codec
//                      says, as Zarr v2 structured dtypes have it).
// `codec` names the caller in the error message.
Status lookup_data_type(std::string_view codec, std::string_view descriptor,
                        DataType* out);

const char* type_class_name(TypeClass type_class);

// A prefix of `text` of at most `max_bytes` bytes that does not cut a UTF-8
// sequence, for quoting input in messages.
std::string utf8_prefix(std::string_view text, size_t max_bytes);

}  // namespace zcw
