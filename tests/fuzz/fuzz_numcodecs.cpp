// numcodecs.packbits: decode of any bytes for any bool shape; the three
// implementations agree; encode after decode gives the input back but for
// the unused low bits of the last byte; encode of any bools decodes back.

#include "fuzz_input.h"
#include "numcodecs_packbits.h"

using namespace zcw;
using fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  const bool as_bool = in.byte() % 8 != 0;
  std::vector<uint64_t> shape = in.shape(20000);
  const std::vector<uint8_t> payload = in.rest();
  NumcodecsPackBitsPlan plan;
  if (!plan_numcodecs_packbits(as_bool ? "bool" : "uint8", shape, &plan).ok()) {
    check(!as_bool);
    return 0;
  }
  const size_t n = plan.shape.elements;
  std::vector<uint8_t> decoded[3];
  Status status[3];
  for (int i = 0; i < 3; ++i) {
    decoded[i].assign(n, 0xEE);
    status[i] = numcodecs_packbits_decode_chunk(plan, fuzz::kImpls[i], payload.data(), payload.size(),
                                                decoded[i].data(), n);
    check(status[i].ok() == status[0].ok());
  }
  if (status[0].ok()) {
    check(decoded[1] == decoded[0] && decoded[2] == decoded[0]);
    for (uint8_t b : decoded[0]) check(b <= 1);
    std::vector<uint8_t> again(plan.encoded_bytes);
    check(numcodecs_packbits_encode_chunk(plan, Impl::kSimd, decoded[0].data(), n, again.data(), again.size()).ok());
    std::vector<uint8_t> want = payload;
    if (plan.padding_bits) want.back() &= static_cast<uint8_t>(0xFF << plan.padding_bits);
    check(again == want);
  }
  std::vector<uint8_t> bools = fuzz::cycled(payload, n);
  for (auto& b : bools) b &= 1;
  std::vector<uint8_t> encoded[3];
  for (int i = 0; i < 3; ++i) {
    encoded[i].assign(plan.encoded_bytes, 0xEE);
    check(numcodecs_packbits_encode_chunk(plan, fuzz::kImpls[i], bools.data(), n, encoded[i].data(), encoded[i].size()).ok());
  }
  check(encoded[1] == encoded[0] && encoded[2] == encoded[0]);
  std::vector<uint8_t> round(n);
  check(numcodecs_packbits_decode_chunk(plan, Impl::kPortable, encoded[0].data(), encoded[0].size(), round.data(), n).ok());
  check(round == bools);
  return 0;
}
