// numcodecs.packbits: decode of any bytes for any bool shape; the three
// implementations agree; encode after decode gives the input back but for
// the unused low bits of the last byte; encode of any bools decodes back.
#include "codecs/numcodecs_packbits.h"
#include "fuzz_input.h"

using namespace zcw;
using fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  const bool as_bool = in.byte() % 8 != 0;
  std::vector<uint64_t> shape = in.shape(20000);
  const std::vector<uint8_t> payload = in.rest();
  const NumcodecsPackBitsCodec codec(as_bool ? "bool" : "uint8", shape);
  if (!codec.status().ok()) {
    check(!as_bool);
    return 0;
  }
  std::vector<uint8_t> decoded;
  if (fuzz::decode_agreeing(codec, payload, &decoded).ok()) {
    for (uint8_t b : decoded) check(b <= 1);
    std::vector<uint8_t> again;
    check(fuzz::encode_agreeing(codec, decoded, &again).ok());
    std::vector<uint8_t> want = payload;
    if (codec.padding_bits()) want.back() &= static_cast<uint8_t>(0xFF << codec.padding_bits());
    check(again == want);
  }
  std::vector<uint8_t> bools = fuzz::cycled(payload, codec.decoded_bytes());
  for (auto& b : bools) b &= 1;
  std::vector<uint8_t> encoded, round;
  check(fuzz::encode_agreeing(codec, bools, &encoded).ok());
  check(fuzz::decode(codec, Impl::kPortable, encoded, &round).ok());
  check(round == bools);
  return 0;
}
