// What every codec is: resolved once against a data type, a configuration
// and a chunk shape (TensorStore's phase: validation and size arithmetic
// happen in the constructor, never in a kernel loop), then asked to decode
// and encode whole chunks. A chunk streams through the scratch blocks in
// units that start on byte boundaries on both sides; subclasses say how
// big a unit is and run their kernels on a block of units.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "codecs/io.h"
#include "common/chunk_shape.h"
#include "common/implementation.h"
#include "common/status.h"
#include "types/data_type.h"

namespace zcw {

// The decoded container: the data type's own (docs/data-types.md), or
// float32 for float formats narrower than float32, widened exactly.
enum class Presentation : uint8_t { kStored, kFloat32 };

// "stored", "float32".
bool parse_presentation(std::string_view name, Presentation* out);

// A presentation the type allows: float32 only for float formats narrower
// than float32 (and complex types of them).
Status check_presentation(std::string_view codec, const DataType& type,
                          Presentation presentation);

// Why a container byte is no value of the sub-byte `type` (int2, int4,
// uint2, uint4, float4, float6): "value 9 is outside int4's range -8..7",
// "value 16 is not a float4_e2m1fn bit pattern (0..15)".
std::string low_bits_refusal(const DataType& type, uint8_t byte);

class Codec {
 public:
  virtual ~Codec() = default;
  Codec(const Codec&) = delete;
  Codec& operator=(const Codec&) = delete;

  // Why the configuration was refused; every call below returns it too.
  const Status& status() const { return status_; }

  const DataType& type() const { return type_; }
  const ChunkShape& shape() const { return shape_; }
  Presentation presentation() const { return presentation_; }
  // Bytes of one decoded component: the container's, or 4 for float32.
  uint32_t value_bytes() const { return value_bytes_; }
  uint64_t decoded_bytes() const { return decoded_bytes_; }
  uint64_t encoded_bytes() const { return encoded_bytes_; }

  // Decoding (encoding) copies bytes unchanged: a reader may use them in
  // place (zarrita's zero-copy path for little-endian data).
  virtual bool decode_is_copy() const { return false; }
  virtual bool encode_is_copy() const { return false; }
  // The whole chunk fits one block.
  bool single_block() const { return geometry_.units <= units_per_block_; }

  // The encoded size of a chunk of `decoded_byte_length` decoded bytes of
  // this type and configuration (sharding sizes its index with it).
  virtual Status encoded_size_for(uint64_t decoded_byte_length,
                                  uint64_t* out) const;

  // Whole chunks, block by block through `scratch`. Every length is
  // checked first (the frame too: padding bytes); nothing is written past
  // the lengths given. `impl` chooses the kernels (tests force each).
  Status decode(ByteSource& in, uint64_t in_length, ByteSink& out,
                uint64_t out_length, Scratch& scratch, Impl impl) const;
  Status encode(ByteSource& in, uint64_t in_length, ByteSink& out,
                uint64_t out_length, Scratch& scratch, Impl impl) const;

  // The benchmark's "kernel alone": one full block, `repetitions` times,
  // scratch to scratch (whatever the scratch holds).
  void run_block(bool decoding, int repetitions, Scratch& scratch,
                 Impl impl) const;

 protected:
  explicit Codec(std::string name) : name_(std::move(name)) {}

  // "packbits: uint16 bits 0..11 shape [64, 64]": the start of messages.
  virtual std::string describe() const;

  // A byte of the frame that counts the padding bits of the body
  // (packbits' first_byte / last_byte, numcodecs' PackBits header).
  struct PaddingByte {
    bool first;          // before the body, else after it
    uint8_t bits;        // the count it must hold
    std::string name;    // "the first_byte padding byte"
    std::string layout;  // " (with the first_byte padding byte)"
  };

  // Set by subclasses once the type, shape and presentation are known.
  struct Geometry {
    uint64_t units = 0;            // byte-aligned pieces of the chunk
    uint64_t values_per_unit = 1;  // decoded container values in one unit
    uint64_t encoded_unit = 1;     // bytes of a unit in the encoded body
    uint64_t mid_unit = 0;         // bytes in the middle stage (0: unused)
    uint64_t decoded_unit = 1;     // bytes of a unit decoded
    uint64_t body_offset = 0;      // bytes before the body (a padding byte)
    uint64_t body_bytes = 0;       // encoded bytes without framing
    uint64_t values = 0;           // decoded container values in the chunk
  };
  // Finishes construction: sizes from `g`, and the units a block holds.
  void set_geometry(const Geometry& g, uint64_t encoded_bytes);

  // `values` container values starting at value `first`: encoded bytes in
  // `in` to decoded bytes in `out` (`mid` free for an intermediate stage).
  // Refuses bytes that are no value of the type (a code unit past
  // U+10FFFF), naming the first.
  virtual Status decode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                              uint8_t* out, uint64_t first,
                              uint64_t values) const = 0;
  // The reverse; refuses values the stored type cannot hold, naming the
  // first (its index counts from the chunk's start).
  virtual Status encode_block(Impl impl, const uint8_t* in, uint8_t* mid,
                              uint8_t* out, uint64_t first,
                              uint64_t values) const = 0;

  // "<describe()> needs <expected> <what>, got <length>".
  Status length_error(uint64_t expected, const char* what,
                      uint64_t length) const;

  // Encode's checks of what a container holds, for `values` values from
  // value `first`: sub-byte types must fit their bits (int4 -8..7, float4
  // codes 0..15); float32 values must have a code in the format.
  Status check_low_bits(const uint8_t* in, uint64_t first,
                        uint64_t values) const;
  Status narrow_block(const uint8_t* in, uint8_t* codes, uint64_t first,
                      uint64_t values) const;

  Status status_;
  std::string name_;  // "bytes", "packbits", "numcodecs.packbits"
  // How length messages name the encoded bytes ("encoded bytes", "bytes").
  std::string length_noun_ = "encoded bytes";
  std::optional<PaddingByte> padding_byte_;
  DataType type_{};
  ChunkShape shape_;
  Presentation presentation_ = Presentation::kStored;
  uint32_t value_bytes_ = 0;

 private:
  // The frame of an encoded chunk: its exact length, and the padding byte.
  Status check_encoded(ByteSource& in, uint64_t length) const;
  void write_framing(ByteSink& out) const;

  Geometry geometry_;
  uint64_t units_per_block_ = 1;
  uint64_t decoded_bytes_ = 0;
  uint64_t encoded_bytes_ = 0;
};

// Whole chunks between memory buffers: the streaming above with memory as
// source and sink (native callers, tests and fuzzers).
Status decode_buffer(const Codec& codec, Impl impl, const uint8_t* in,
                     uint64_t in_length, uint8_t* out, uint64_t out_length,
                     Scratch& scratch);
Status encode_buffer(const Codec& codec, Impl impl, const uint8_t* in,
                     uint64_t in_length, uint8_t* out, uint64_t out_length,
                     Scratch& scratch);

}  // namespace zcw
