#include "codecs/numcodecs_packbits.h"

#include <array>
#include <string>

#include "kernels/packbits_kernels.h"

namespace zcw {
namespace {

// MSB-first is LSB-first with each byte's bits reversed, so the packbits
// kernels do the work on bytes reversed in the middle scratch block.
constexpr std::array<uint8_t, 256> make_reversal_table() {
  std::array<uint8_t, 256> t{};
  for (unsigned i = 0; i < 256; ++i) {
    unsigned r = 0;
    for (unsigned b = 0; b < 8; ++b) r |= ((i >> b) & 1u) << (7 - b);
    t[i] = static_cast<uint8_t>(r);
  }
  return t;
}
constexpr std::array<uint8_t, 256> kReversed = make_reversal_table();

PackBitsLayout bool_layout() {
  PackBitsLayout l;
  l.is_bool = true;
  return l;
}

}  // namespace

NumcodecsPackBitsCodec::NumcodecsPackBitsCodec(std::string_view data_type,
                                               std::vector<uint64_t> shape)
    : Codec("numcodecs.packbits") {
  if (data_type != "bool") {
    status_ = Status(ErrorCode::kUnsupportedDataType,
                     "numcodecs.packbits: only bool arrays can be packed, got " +
                         utf8_prefix(data_type, 64));
    return;
  }
  lookup_data_type("numcodecs.packbits", "bool", &type_);
  if (status_ = make_chunk_shape("numcodecs.packbits", std::move(shape), &shape_);
      !status_.ok()) {
    return;
  }
  value_bytes_ = 1;
  const uint64_t n = shape_.elements;
  Geometry g;
  g.values = n;
  g.units = (n + 7) / 8;
  g.values_per_unit = 8;
  g.encoded_unit = 1;
  g.mid_unit = 1;
  g.decoded_unit = 8;
  g.body_offset = 1;
  g.body_bytes = g.units;
  padding_bits_ = static_cast<uint32_t>(g.units * 8 - n);
  length_noun_ = "bytes";
  padding_byte_ = PaddingByte{true, static_cast<uint8_t>(padding_bits_),
                              "the padding-count byte",
                              " (a padding-count byte, then the bits)"};
  set_geometry(g, g.units + 1);
}

Status NumcodecsPackBitsCodec::decode_block(Impl impl, const uint8_t* in,
                                            uint8_t* mid, uint8_t* out,
                                            uint64_t, uint64_t values) const {
  const uint64_t bytes = (values + 7) / 8;
  for (uint64_t i = 0; i < bytes; ++i) mid[i] = kReversed[in[i]];
  packbits_decode(impl, bool_layout(), mid, out, values);
  return Status::Ok();
}

Status NumcodecsPackBitsCodec::encode_block(Impl impl, const uint8_t* in,
                                            uint8_t* mid, uint8_t* out,
                                            uint64_t, uint64_t values) const {
  packbits_encode(impl, bool_layout(), in, mid, values);
  const uint64_t bytes = (values + 7) / 8;
  for (uint64_t i = 0; i < bytes; ++i) out[i] = kReversed[mid[i]];
  return Status::Ok();
}

}  // namespace zcw
