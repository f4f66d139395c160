// vlen-bytes: decode of any bytes for any chunk shape, with outputs exactly
// as long as the codec asks (ASan catches any write past them). The codec
// accepts exactly the chunks a reference parser written from the codec page
// accepts; what it accepts re-encodes to the input, byte for byte; and any
// items cut from the payload encode to a chunk that decodes back to them.
#include <cstring>

#include "codecs/vlen_bytes.h"
#include "fuzz_input.h"

using namespace zcw;
using fuzz::check;

namespace {

using Bytes = std::vector<uint8_t>;

void put_le32(Bytes* out, uint64_t v) {
  for (int k = 0; k < 4; ++k) out->push_back(static_cast<uint8_t>(v >> (8 * k)));
}

uint64_t le32(const Bytes& b, uint64_t at) {
  return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | static_cast<uint64_t>(b[at + 3]) << 24;
}

// The page's layout read byte by byte: count == n, then n (length, bytes),
// then nothing.
bool reference_accepts(const Bytes& in, uint64_t n) {
  if (in.size() < 4 || le32(in, 0) != n) return false;
  uint64_t at = 4;
  for (uint64_t i = 0; i < n; ++i) {
    if (in.size() - at < 4) return false;
    const uint64_t length = le32(in, at);
    at += 4;
    if (in.size() - at < length) return false;
    at += length;
  }
  return at == in.size();
}

// Decodes through the codec; returns whether it accepted, with the
// chunk re-encoded from what it handed out.
bool decode(const VlenBytesCodec& codec, const Bytes& in, Bytes* reencoded) {
  uint64_t item_bytes = 0;
  if (!codec.item_bytes_for(in.size(), &item_bytes)) item_bytes = 0;
  // Heap buffers of exactly the sizes given, so ASan sees any overrun.
  std::unique_ptr<uint8_t[]> data(new uint8_t[item_bytes + 1]);
  std::unique_ptr<uint8_t[]> lengths(new uint8_t[4 * codec.items() + 1]);
  MemorySource src(in.data());
  MemorySink data_sink(data.get()), lengths_sink(lengths.get());
  const Status s = codec.decode(src, in.size(), data_sink, item_bytes, lengths_sink, fuzz::scratch());
  if (!s.ok()) {
    check(s.code() == ErrorCode::kLengthMismatch && !s.message().empty());
    return false;
  }
  reencoded->clear();
  put_le32(reencoded, codec.items());
  uint64_t at = 0;
  for (uint64_t i = 0; i < codec.items(); ++i) {
    const Bytes l(lengths.get() + 4 * i, lengths.get() + 4 * i + 4);
    const uint64_t length = le32(l, 0);
    put_le32(reencoded, length);
    reencoded->insert(reencoded->end(), data.get() + at, data.get() + at + length);
    at += length;
  }
  check(at == item_bytes);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Input in(data, size);
  const std::vector<uint64_t> shape = in.shape(300);
  const Bytes payload = in.rest();
  const VlenBytesCodec codec(shape);
  check(codec.status().ok());
  const uint64_t n = codec.items();

  Bytes again;
  const bool accepted = decode(codec, payload, &again);
  check(accepted == reference_accepts(payload, n));
  if (accepted) check(again == payload);

  // n items cut from the payload (lengths from its bytes), encoded by the
  // page's layout, decode back to the same chunk.
  Bytes chunk;
  put_le32(&chunk, n);
  size_t at = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const size_t length = payload.empty() ? 0 : payload[i % payload.size()] % 40;
    put_le32(&chunk, length);
    for (size_t k = 0; k < length; ++k) chunk.push_back(payload.empty() ? 0 : payload[at++ % payload.size()]);
  }
  check(decode(codec, chunk, &again) && again == chunk);
  return 0;
}
