// packbits: plans from any configuration; decode of any bytes; the three
// implementations agree; encode after decode gives the input back, all but
// the padding bits (which decode ignores and encode writes as 0); encode of
// any values decodes back to those values as the bit range keeps them.
#include <cstring>

#include "fuzz_input.h"
#include "packbits_codec.h"

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
  std::vector<uint64_t> shape = in.shape(4096);
  const std::vector<uint8_t> payload = in.rest();

  PackBitsPlan plan;
  if (!plan_packbits(type, first, last, padding, shape, &plan).ok()) return 0;
  check(plan.encoded_bytes == plan.body_bytes + (plan.padding == PaddingEncoding::kNone ? 0 : 1));

  // Decode the payload as it is.
  std::vector<uint8_t> decoded[3];
  Status status[3];
  for (int i = 0; i < 3; ++i) {
    decoded[i].assign(plan.decoded_bytes, 0xEE);
    status[i] = packbits_decode_chunk(plan, fuzz::kImpls[i], payload.data(), payload.size(),
                                      decoded[i].data(), decoded[i].size());
    check(status[i].ok() == status[0].ok() && status[i].code() == status[0].code());
  }
  if (status[0].ok()) {
    check(decoded[1] == decoded[0] && decoded[2] == decoded[0]);
    for (Impl impl : fuzz::kImpls) {
      std::vector<uint8_t> again(plan.encoded_bytes);
      check(packbits_encode_chunk(plan, impl, decoded[0].data(), decoded[0].size(),
                                  again.data(), again.size()).ok());
      std::vector<uint8_t> want = payload;
      if (plan.padding_bits) {
        want[plan.body_offset() + plan.body_bytes - 1] &= static_cast<uint8_t>(0xFF >> plan.padding_bits);
      }
      check(again == want);
    }
  }

  // Encode values made from the payload, then decode them back.
  const std::vector<uint8_t> values = fuzz::cycled(payload, plan.decoded_bytes);
  std::vector<uint8_t> encoded[3];
  for (int i = 0; i < 3; ++i) {
    encoded[i].assign(plan.encoded_bytes, 0xEE);
    check(packbits_encode_chunk(plan, fuzz::kImpls[i], values.data(), values.size(),
                                encoded[i].data(), encoded[i].size()).ok());
  }
  check(encoded[1] == encoded[0] && encoded[2] == encoded[0]);
  std::vector<uint8_t> round(plan.decoded_bytes);
  check(packbits_decode_chunk(plan, Impl::kSimd, encoded[0].data(), encoded[0].size(),
                              round.data(), round.size()).ok());
  // Encoding the decoded values again changes nothing: decode keeps exactly
  // the bits encode stores.
  std::vector<uint8_t> twice(plan.encoded_bytes);
  check(packbits_encode_chunk(plan, Impl::kPortable, round.data(), round.size(),
                              twice.data(), twice.size()).ok());
  check(twice == encoded[0]);
  return 0;
}
