// packbits: codecs from any configuration and presentation; decode of any
// bytes; the three implementations agree; encode after decode gives the
// input back, all but the padding bits (which decode ignores and encode
// writes as 0) and NaN codes (written as the spec's); encode of any values
// fails exactly where a value has no stored form, and otherwise decodes
// back to what the bit range keeps.
#include <cmath>
#include <cstring>

#include "codecs/packbits_codec.h"
#include "fuzz_input.h"
#include "kernels/low_bits.h"
#include "kernels/narrow.h"
#include "kernels/widen.h"

using namespace zcw;
using fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  const auto& names = fuzz::type_names();
  const std::string type = names[in.byte() % names.size()];
  const uint8_t f = in.byte(), l = in.byte(), pad = in.byte();
  std::optional<int64_t> first = f == 255 ? std::nullopt : std::optional<int64_t>(static_cast<int8_t>(f));
  std::optional<int64_t> last = l == 255 ? std::nullopt : std::optional<int64_t>(static_cast<int8_t>(l));
  const char* paddings[] = {"none", "first_byte", "last_byte", "middle_byte"};
  std::optional<std::string_view> padding;
  if (pad % 5 < 4) padding = paddings[pad % 5];
  const Presentation presentation = in.byte() % 2 ? Presentation::kFloat32 : Presentation::kStored;
  std::vector<uint64_t> shape = in.shape(4096);
  const std::vector<uint8_t> payload = in.rest();

  const PackBitsCodec codec(type, first, last, padding, shape, presentation);
  if (!codec.status().ok()) return 0;
  const DataType& t = codec.type();
  const bool widened = presentation == Presentation::kFloat32;
  const uint64_t body_offset = codec.padding() == PaddingEncoding::kFirstByte ? 1 : 0;
  const uint64_t body_bytes = codec.encoded_bytes() - (codec.padding() == PaddingEncoding::kNone ? 0 : 1);

  std::vector<uint8_t> decoded;
  if (fuzz::decode_agreeing(codec, payload, &decoded).ok()) {
    // Widened NaN codes come back as the spec's NaN code: only compare
    // where every decoded value is a number.
    bool any_nan = false;
    if (widened) {
      for (size_t i = 0; i + 4 <= decoded.size(); i += 4) {
        float v;
        std::memcpy(&v, decoded.data() + i, 4);
        any_nan = any_nan || std::isnan(v);
      }
    }
    std::vector<uint8_t> again;
    check(fuzz::encode_agreeing(codec, decoded, &again).ok());
    if (!any_nan) {
      std::vector<uint8_t> want = payload;
      if (codec.padding_bits()) {
        want[body_offset + body_bytes - 1] &= static_cast<uint8_t>(0xFF >> codec.padding_bits());
      }
      check(again == want);
    }
  }

  // Encode values made from the payload, then decode them back.
  const std::vector<uint8_t> values = fuzz::cycled(payload, codec.decoded_bytes());
  bool holdable = true;
  if (widened) {
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
  check(fuzz::decode(codec, Impl::kSimd, encoded, &round).ok());
  // Encoding the decoded values again changes nothing: decode keeps exactly
  // the bits encode stores (and widened values narrow back to their codes).
  std::vector<uint8_t> twice;
  check(fuzz::encode(codec, Impl::kPortable, round, &twice).ok());
  check(twice == encoded);
  return 0;
}
