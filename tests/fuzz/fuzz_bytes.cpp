// bytes: codecs from any type (records and fixed-length strings too),
// endian and presentation; decode of any bytes, the three implementations
// agreeing; encode after decode gives the input back in its canonical form
// (bool as 0/1, sub-byte values extended, NaN codes as the spec's, and the
// same for each leaf of a record); decode fails exactly where a string's
// code unit is past U+10FFFF, encode exactly where a value has no stored
// form (a sub-byte value outside its bits, a string unit that is no
// Unicode scalar value, in a record's leaves too), and otherwise decodes
// back.
#include <cmath>
#include <cstring>

#include "codecs/bytes_codec.h"
#include "fuzz_input.h"
#include "kernels/byteswap.h"
#include "kernels/low_bits.h"
#include "kernels/narrow.h"
#include "kernels/widen.h"

using namespace zcw;
using fuzz::check;

namespace {

float widened(const FloatFormat& f, uint32_t code) {
  const uint32_t bits = widen_code_reference(f, code);
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

// Each record leaf's one-byte values (bools and sub-byte types sit at the
// same offsets stored and presented), as the types' pages define them:
// bools written as 0/1, sub-byte values kept to their low bits.
void canonical_leaves(const DataType& t, std::vector<uint8_t>* bytes, bool bools, bool low_bits) {
  const uint64_t r = t.element_bytes();
  for (size_t at = 0; at + r <= bytes->size(); at += r) {
    for (const RecordLeaf& leaf : t.record->leaves) {
      const uint64_t n = leaf.count * leaf.type.component_count;
      uint8_t* v = bytes->data() + at + leaf.offset;
      if (bools && leaf.type.type_class == TypeClass::kBool) {
        for (uint64_t i = 0; i < n; ++i) v[i] = v[i] != 0;
      }
      if (low_bits && leaf.type.sub_byte()) {
        const uint32_t up = 8 - leaf.type.component_bits;
        for (uint64_t i = 0; i < n; ++i) {
          v[i] = leaf.type.is_signed() ? static_cast<uint8_t>(static_cast<int8_t>(v[i] << up) >> up)
                                       : static_cast<uint8_t>(v[i] & (0xFFu >> up));
        }
      }
    }
  }
}

// Whether little-endian code units are Unicode scalar values (a writer's
// rule) or code points (a reader's).
bool units_hold(const uint8_t* units, uint64_t n, bool scalar_values) {
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t u;
    std::memcpy(&u, units + 4 * i, 4);
    if (u > 0x10FFFF || (scalar_values && u >= 0xD800 && u <= 0xDFFF)) return false;
  }
  return true;
}

// Whether presented records hold only values each leaf's type can store.
bool records_hold(const DataType& t, const std::vector<uint8_t>& values) {
  const uint64_t r = t.element_bytes();
  for (size_t at = 0; at + r <= values.size(); at += r) {
    for (const RecordLeaf& leaf : t.record->leaves) {
      const uint64_t n = leaf.count * leaf.type.component_count;
      const uint8_t* v = values.data() + at + leaf.offset;
      if (leaf.type.type_class == TypeClass::kString && !units_hold(v, n, true)) return false;
      if (!leaf.type.sub_byte()) continue;
      const int bits = static_cast<int>(leaf.type.component_bits);
      for (uint64_t i = 0; i < n; ++i) {
        const int x = leaf.type.is_signed() ? static_cast<int8_t>(v[i]) : v[i];
        const int lo = leaf.type.is_signed() ? -(1 << (bits - 1)) : 0;
        const int hi = leaf.type.is_signed() ? (1 << (bits - 1)) - 1 : (1 << bits) - 1;
        if (x < lo || x > hi) return false;
      }
    }
  }
  return true;
}

// The stored bytes a decode-then-encode gives back for `payload`.
std::vector<uint8_t> canonical(const BytesCodec& c, const std::vector<uint8_t>& payload,
                               bool big) {
  const DataType& t = c.type();
  std::vector<uint8_t> out = payload;
  if (t.type_class == TypeClass::kRecord) {
    canonical_leaves(t, &out, true, true);
  } else if (t.type_class == TypeClass::kBool) {
    for (auto& b : out) b = b != 0;
  } else if (t.sub_byte() && c.presentation() == Presentation::kStored) {
    extend_low_bits(t.component_bits, t.is_signed(), out.data(), out.data(), out.size());
  } else if (c.presentation() == Presentation::kFloat32) {
    const FloatFormat& f = *t.format;
    const unsigned w = f.bits == 16 ? 2 : 1;
    if (big) byteswap(Impl::kReference, out.data(), out.data(), out.size() / w, w);
    for (size_t i = 0; i < out.size() / w; ++i) {
      uint32_t code = w == 2 ? out[2 * i] | (out[2 * i + 1] << 8) : out[i] & ((1u << f.bits) - 1);
      if (std::isnan(widened(f, code))) code = f.nan_code;
      if (w == 2) {
        out[2 * i] = static_cast<uint8_t>(code);
        out[2 * i + 1] = static_cast<uint8_t>(code >> 8);
      } else {
        out[i] = static_cast<uint8_t>(code);
      }
    }
    if (big) byteswap(Impl::kReference, out.data(), out.data(), out.size() / w, w);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  const auto& names = fuzz::type_names();
  const std::string type = names[in.byte() % names.size()];
  const char* endians[] = {"little", "big", "middle"};
  const uint8_t e = in.byte() % 4;
  std::optional<std::string_view> endian;
  if (e < 3) endian = endians[e];
  const Presentation presentation = in.byte() % 2 ? Presentation::kFloat32 : Presentation::kStored;
  std::vector<uint64_t> shape = in.shape(4096);
  const std::vector<uint8_t> payload = in.rest();

  const BytesCodec codec(type, endian, shape, presentation);
  if (!codec.status().ok()) return 0;
  const bool big = endian && *endian == "big";

  const DataType& t = codec.type();
  const bool strings = t.type_class == TypeClass::kString;
  std::vector<uint8_t> stored_le = payload;
  if (strings && big) byteswap(Impl::kReference, stored_le.data(), stored_le.data(), stored_le.size() / 4, 4);
  std::vector<uint8_t> decoded;
  const Status decoded_status = fuzz::decode_agreeing(codec, payload, &decoded);
  const bool right_length = payload.size() == codec.encoded_bytes();
  check(decoded_status.ok() ==
        (right_length && (!strings || units_hold(stored_le.data(), stored_le.size() / 4, false))));
  if (right_length && !decoded_status.ok()) check(decoded_status.code() == ErrorCode::kInvalidInput);
  if (decoded_status.ok()) {
    // What was read writes back, except what a writer refuses: surrogate
    // code units (which a reader accepts), and string leaves of records
    // (read as stored, checked when written).
    bool rewritable = true;
    if (strings) rewritable = units_hold(decoded.data(), decoded.size() / 4, true);
    if (t.type_class == TypeClass::kRecord) rewritable = records_hold(t, decoded);
    std::vector<uint8_t> again;
    const Status again_status = fuzz::encode_agreeing(codec, decoded, &again);
    check(again_status.ok() == rewritable);
    if (again_status.ok()) check(again == canonical(codec, payload, big));
  }

  // Encode values made from the payload.
  const std::vector<uint8_t> values = fuzz::cycled(payload, codec.decoded_bytes());
  bool holdable = true;
  if (strings) {
    holdable = units_hold(values.data(), values.size() / 4, true);
  } else if (t.type_class == TypeClass::kRecord) {
    holdable = records_hold(t, values);
  } else if (presentation == Presentation::kFloat32) {
    for (size_t i = 0; i + 4 <= values.size(); i += 4) {
      uint32_t bits, code;
      std::memcpy(&bits, values.data() + i, 4);
      holdable = holdable && narrow_float32(*t.format, bits, &code);
    }
  } else if (t.sub_byte()) {
    holdable = find_out_of_range(t.component_bits, t.is_signed(), values.data(), values.size()) == values.size();
  }
  std::vector<uint8_t> encoded;
  const Status encoded_status = fuzz::encode_agreeing(codec, values, &encoded);
  check(encoded_status.ok() == holdable);
  if (!encoded_status.ok()) {
    check(encoded_status.code() == ErrorCode::kValueOutOfRange);
    return 0;
  }
  std::vector<uint8_t> round;
  check(fuzz::decode(codec, Impl::kPortable, encoded, &round).ok());
  if (presentation == Presentation::kFloat32) {
    // Each value comes back as its narrowed value, widened.
    for (size_t i = 0; i + 4 <= values.size(); i += 4) {
      uint32_t bits, code, back;
      std::memcpy(&bits, values.data() + i, 4);
      check(narrow_float32(*t.format, bits, &code));
      std::memcpy(&back, round.data() + i, 4);
      check(back == widen_code_reference(*t.format, code));
    }
  } else {
    std::vector<uint8_t> want = values;
    if (t.type_class == TypeClass::kBool) {
      for (auto& b : want) b = b != 0;
    } else if (t.type_class == TypeClass::kRecord) {
      canonical_leaves(t, &want, true, false);
    }
    check(round == want);
  }
  return 0;
}
