// n5_default's blocks: any header shape (smaller than the chunk, larger,
// 0, past the 512 MiB bound) and any payload, into a chunk whose axes are
// the header's or their reverse. The three implementations agree on the
// status and the bytes; a decode that succeeds matches the definition
// element by element (the N5 spec's F order, padded with the fill or
// cropped to the chunk, as the n5_default page's step 4 says); a whole
// chunk encodes back to its payload.
#include <cstring>

#include "codecs/n5_block.h"
#include "fuzz_input.h"
#include "../native/n5_reference.h"

using namespace zcw;
using fuzz::check;

namespace {

const char* const kTypes[] = {"uint8", "int16", "uint32", "float64", "int4"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  const char* type = kTypes[in.byte() % 5];
  const N5Axes axes = in.byte() % 2 ? N5Axes::kReversed : N5Axes::kN5;
  const std::vector<uint64_t> chunk = in.shape(4000);
  // The header: the chunk's rank (mostly), each dimension near the chunk's
  // or anything.
  std::vector<uint64_t> block(in.byte() % 8 == 0 ? in.byte() % 4 : chunk.size());
  for (auto& d : block) {
    const uint8_t pick = in.byte();
    d = pick < 200 ? pick % 70 : pick < 250 ? (uint64_t{1} << (pick % 33)) - 1 : 0xFFFFFFFFu;
  }
  const bool matching = in.byte() % 4 != 0;
  const std::vector<uint8_t> fill = {in.byte(), in.byte(), in.byte(), in.byte(), in.byte(), in.byte(), in.byte(), in.byte()};
  std::vector<uint8_t> rest = in.rest();

  const N5BlockCodec codec(type, chunk, axes);
  if (!codec.status().ok()) return 0;
  const unsigned w = static_cast<unsigned>(codec.type().element_bytes());
  uint64_t implied = 0;
  const bool bounded = block.size() != chunk.size() || codec.payload_bytes(block, &implied).ok();
  // A payload of the header's size where it is small (cycled from the
  // input), or the input's bytes as they are.
  std::vector<uint8_t> payload =
      matching && bounded && block.size() == chunk.size() && implied <= (uint64_t{1} << 20) ? fuzz::cycled(rest, implied) : rest;
  const std::vector<uint8_t> element_fill(fill.begin(), fill.begin() + w);

  std::vector<uint8_t> outs[3];
  Status status[3];
  Workspace ws;
  for (int i = 0; i < 3; ++i) {
    MemorySource src(payload.data());
    outs[i].assign(codec.chunk_bytes(), 0xEE);
    MemorySink sink(outs[i].data());
    status[i] = codec.decode(block, element_fill, src, payload.size(), sink, outs[i].size(), fuzz::scratch(), ws,
                             fuzz::kImpls[i]);
    check(status[i].code() == status[0].code() && status[i].message() == status[0].message());
  }
  if (!status[0].ok()) return 0;
  check(outs[1] == outs[0] && outs[2] == outs[0]);
  check(outs[0] == reference::n5_block_by_definition(axes, chunk, block, w, payload, element_fill));
  // The header's order is the chunk's (kN5) or its reverse: a whole chunk
  // encodes back to the payload it came from.
  const std::vector<uint64_t> header = axes == N5Axes::kN5 ? chunk : std::vector<uint64_t>(chunk.rbegin(), chunk.rend());
  if (block == header) {
    for (Impl impl : fuzz::kImpls) {
      std::vector<uint8_t> back(codec.chunk_bytes(), 0xEE);
      MemorySource src(outs[0].data());
      MemorySink sink(back.data());
      check(codec.encode(src, outs[0].size(), sink, back.size(), fuzz::scratch(), ws, impl).ok());
      check(back == payload);
    }
  }
  return 0;
}
