// bytes: plans from any type and endian; decode of any bytes of the right
// length, the three implementations agreeing; encode after decode gives the
// input back (bool normalised to 0/1); decode after encode likewise.

#include "bytes_codec.h"
#include "fuzz_input.h"

using namespace zcw;
using fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  const auto& names = fuzz::type_names();
  const std::string type = names[in.byte() % names.size()];
  const char* endians[] = {"little", "big", "middle"};
  const uint8_t e = in.byte() % 4;
  std::optional<std::string_view> endian;
  if (e < 3) endian = endians[e];
  std::vector<uint64_t> shape = in.shape(4096);
  const std::vector<uint8_t> payload = in.rest();

  BytesPlan plan;
  if (!plan_bytes(type, endian, shape, &plan).ok()) return 0;

  std::vector<uint8_t> decoded[3];
  Status status[3];
  for (int i = 0; i < 3; ++i) {
    decoded[i].assign(plan.byte_length, 0xEE);
    status[i] = bytes_decode(plan, fuzz::kImpls[i], payload.data(), payload.size(),
                             decoded[i].data(), decoded[i].size());
    check(status[i].ok() == status[0].ok());
  }
  check(status[0].ok() == (payload.size() == plan.byte_length));

  std::vector<uint8_t> values = fuzz::cycled(payload, plan.byte_length);
  std::vector<uint8_t> normalised = values;
  if (plan.normalize_bool) {
    for (auto& b : normalised) b = b != 0;
  }
  if (status[0].ok()) {
    check(decoded[1] == decoded[0] && decoded[2] == decoded[0]);
    std::vector<uint8_t> again(plan.byte_length);
    check(bytes_encode(plan, Impl::kSimd, decoded[0].data(), decoded[0].size(), again.data(), again.size()).ok());
    check(again == normalised);  // payload == values when the length is right
  }
  std::vector<uint8_t> encoded[3];
  for (int i = 0; i < 3; ++i) {
    encoded[i].assign(plan.byte_length, 0xEE);
    check(bytes_encode(plan, fuzz::kImpls[i], values.data(), values.size(), encoded[i].data(), encoded[i].size()).ok());
  }
  check(encoded[1] == encoded[0] && encoded[2] == encoded[0]);
  std::vector<uint8_t> round(plan.byte_length);
  check(bytes_decode(plan, Impl::kPortable, encoded[0].data(), encoded[0].size(), round.data(), round.size()).ok());
  check(round == normalised);
  return 0;
}
