#include "codecs/codec.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "kernels/low_bits.h"
#include "kernels/narrow.h"

namespace zcw {

bool parse_presentation(std::string_view name, Presentation* out) {
  if (name == "stored") {
    *out = Presentation::kStored;
  } else if (name == "float32") {
    *out = Presentation::kFloat32;
  } else {
    return false;
  }
  return true;
}

Status check_presentation(std::string_view codec, const DataType& type,
                          Presentation presentation) {
  if (presentation == Presentation::kFloat32 && type.format == nullptr) {
    return Status(ErrorCode::kInvalidConfiguration,
                  std::string(codec) + ": data type " + type.label() +
                      " cannot be presented as float32: that is for float "
                      "formats narrower than float32 (float16, bfloat16, "
                      "float8_*, float6_*, float4_e2m1fn and their complex "
                      "forms)");
  }
  return Status::Ok();
}

std::string Codec::describe() const {
  return name_ + ": " + type_.label() + " shape " + shape_.text;
}

void Codec::set_geometry(const Geometry& g, uint64_t encoded_bytes) {
  geometry_ = g;
  encoded_bytes_ = encoded_bytes;
  decoded_bytes_ = g.values * value_bytes_;
  const uint64_t widest =
      std::max({g.encoded_unit, g.mid_unit, g.decoded_unit, uint64_t{1}});
  units_per_block_ = std::max<uint64_t>(1, Scratch::kBytes / widest);
}

Status Codec::encoded_size_for(uint64_t decoded_byte_length,
                               uint64_t* out) const {
  if (!status_.ok()) return status_;
  // Same bytes in and out, unless a subclass frames or packs them.
  const uint64_t per_value = value_bytes_;
  if (decoded_byte_length % per_value != 0) {
    return Status(ErrorCode::kInvalidInput,
                  describe() + ": " + std::to_string(decoded_byte_length) +
                      " decoded bytes are not a whole number of " +
                      std::to_string(per_value) + "-byte values");
  }
  *out = decoded_byte_length / per_value * geometry_.encoded_unit /
         geometry_.values_per_unit;
  return Status::Ok();
}

Status Codec::check_encoded(ByteSource& in, uint64_t length) const {
  if (length != encoded_bytes_) {
    return Status(ErrorCode::kLengthMismatch,
                  describe() + " needs " + std::to_string(encoded_bytes_) +
                      " " + length_noun_ +
                      (padding_byte_ ? padding_byte_->layout : "") + ", got " +
                      std::to_string(length));
  }
  if (!padding_byte_) return Status::Ok();
  uint8_t stored = 0;
  in.read(padding_byte_->first ? 0 : length - 1, 1, &stored);
  if (stored == padding_byte_->bits) return Status::Ok();
  return Status(ErrorCode::kPaddingMismatch,
                describe() + ": " + padding_byte_->name + " says " +
                    std::to_string(stored) + " padding bits, but the data has " +
                    std::to_string(padding_byte_->bits));
}

void Codec::write_framing(ByteSink& out) const {
  if (!padding_byte_) return;
  out.write(padding_byte_->first ? 0 : encoded_bytes_ - 1, &padding_byte_->bits, 1);
}

namespace {

// A float32 as JavaScript prints it, near enough: 2.5, -0, NaN, Infinity.
std::string float_text(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "Infinity" : "-Infinity";
  if (f == 0) return std::signbit(f) ? "-0" : "0";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(f));
  return text;
}

}  // namespace

std::string low_bits_refusal(const DataType& type, uint8_t byte) {
  const uint32_t bits = type.component_bits;
  if (type.is_signed()) {
    return "value " + std::to_string(static_cast<int8_t>(byte)) + " is outside " +
           type.label() + "'s range " + std::to_string(-(1 << (bits - 1))) +
           ".." + std::to_string((1 << (bits - 1)) - 1);
  }
  const std::string top = std::to_string((1 << bits) - 1);
  return "value " + std::to_string(byte) + " is " +
         (type.format ? "not a " + type.name + " bit pattern (0.." + top + ")"
                      : "outside " + type.name + "'s range 0.." + top);
}

Status Codec::check_low_bits(const uint8_t* in, uint64_t first,
                             uint64_t values) const {
  const size_t bad =
      find_out_of_range(type_.component_bits, type_.is_signed(), in, values);
  if (bad == values) return Status::Ok();
  // "value 9 at index 3 is outside int4's range -8..7"
  std::string text = low_bits_refusal(type_, in[bad]);
  const size_t verb = text.find(" is ");
  text.insert(verb, " at index " + std::to_string(first + bad));
  return Status(ErrorCode::kValueOutOfRange, describe() + ": " + text);
}

Status Codec::narrow_block(const uint8_t* in, uint8_t* codes, uint64_t first,
                           uint64_t values) const {
  const FloatFormat& f = *type_.format;
  const size_t bad = narrow_from_float32(f, in, codes, values);
  if (bad == values) return Status::Ok();
  uint32_t bits;
  std::memcpy(&bits, in + 4 * bad, 4);
  const char* why = f.kind == FloatKind::kE8m0
                        ? "the format holds only powers of two from 2^-127 "
                          "to 2^127, and NaN"
                        : "the format has no NaN or infinity";
  return Status(ErrorCode::kValueOutOfRange,
                describe() + ": value " + float_text(bits) + " at index " +
                    std::to_string(first + bad) + " has no " + type_.name +
                    " code (" + why +
                    "); to store such values, write the format's bit "
                    "patterns instead (withDataTypes option floats: \"bits\")");
}

Status Codec::length_error(uint64_t expected, const char* what,
                           uint64_t length) const {
  return Status(ErrorCode::kLengthMismatch,
                describe() + " needs " + std::to_string(expected) + " " + what +
                    ", got " + std::to_string(length));
}

Status Codec::decode(ByteSource& in, uint64_t in_length, ByteSink& out,
                     uint64_t out_length, Scratch& scratch, Impl impl) const {
  if (!status_.ok()) return status_;
  if (Status s = check_encoded(in, in_length); !s.ok()) return s;
  // Messages are built only on failure: this is every call's path.
  if (out_length != decoded_bytes_) {
    return length_error(decoded_bytes_, "bytes of output", out_length);
  }
  const Geometry& g = geometry_;
  for (uint64_t u = 0; u < g.units; u += units_per_block_) {
    const uint64_t end = std::min(g.units, u + units_per_block_);
    const uint64_t s0 = std::min(u * g.encoded_unit, g.body_bytes);
    const uint64_t s1 = std::min(end * g.encoded_unit, g.body_bytes);
    const uint64_t d0 = std::min(u * g.decoded_unit, decoded_bytes_);
    const uint64_t d1 = std::min(end * g.decoded_unit, decoded_bytes_);
    const uint64_t first = u * g.values_per_unit;
    const uint64_t values = std::min(end * g.values_per_unit, g.values) - first;
    in.read(g.body_offset + s0, s1 - s0, scratch.in);
    if (Status s = decode_block(impl, scratch.in, scratch.mid, scratch.out,
                                first, values);
        !s.ok()) {
      return s;
    }
    out.write(d0, scratch.out, d1 - d0);
  }
  return Status::Ok();
}

void Codec::run_block(bool decoding, int repetitions, Scratch& scratch,
                      Impl impl) const {
  const Geometry& g = geometry_;
  const uint64_t values =
      std::min(std::min(units_per_block_, g.units) * g.values_per_unit, g.values);
  for (int r = 0; r < repetitions; ++r) {
    if (decoding) {
      (void)decode_block(impl, scratch.in, scratch.mid, scratch.out, 0, values);
    } else {
      (void)encode_block(impl, scratch.in, scratch.mid, scratch.out, 0, values);
    }
  }
}

Status Codec::encode(ByteSource& in, uint64_t in_length, ByteSink& out,
                     uint64_t out_length, Scratch& scratch, Impl impl) const {
  if (!status_.ok()) return status_;
  if (in_length != decoded_bytes_) {
    return length_error(decoded_bytes_, "bytes of input", in_length);
  }
  if (out_length != encoded_bytes_) {
    return check_encoded_output(describe(), encoded_bytes_, out_length);
  }
  const Geometry& g = geometry_;
  for (uint64_t u = 0; u < g.units; u += units_per_block_) {
    const uint64_t end = std::min(g.units, u + units_per_block_);
    const uint64_t s0 = std::min(u * g.decoded_unit, decoded_bytes_);
    const uint64_t s1 = std::min(end * g.decoded_unit, decoded_bytes_);
    const uint64_t d0 = std::min(u * g.encoded_unit, g.body_bytes);
    const uint64_t d1 = std::min(end * g.encoded_unit, g.body_bytes);
    const uint64_t first = u * g.values_per_unit;
    const uint64_t values = std::min(end * g.values_per_unit, g.values) - first;
    in.read(s0, s1 - s0, scratch.in);
    if (Status s = encode_block(impl, scratch.in, scratch.mid, scratch.out,
                                first, values);
        !s.ok()) {
      return s;
    }
    out.write(g.body_offset + d0, scratch.out, d1 - d0);
  }
  write_framing(out);
  return Status::Ok();
}

Status decode_buffer(const Codec& codec, Impl impl, const uint8_t* in,
                     uint64_t in_length, uint8_t* out, uint64_t out_length,
                     Scratch& scratch) {
  MemorySource src(in);
  MemorySink dst(out);
  return codec.decode(src, in_length, dst, out_length, scratch, impl);
}

Status encode_buffer(const Codec& codec, Impl impl, const uint8_t* in,
                     uint64_t in_length, uint8_t* out, uint64_t out_length,
                     Scratch& scratch) {
  MemorySource src(in);
  MemorySink dst(out);
  return codec.encode(src, in_length, dst, out_length, scratch, impl);
}

}  // namespace zcw
