// read's chain in wasm: a chunk's compressed frame, copied into wasm memory
// once by the JS layer, decoded here into the chain buffer (the module's
// own, grown to the largest chunk seen and kept), from which the package's
// array -> bytes codec decodes it straight into its place in a band of the
// output, or it is copied there as it is (bindings.cpp: zcw_read_chain,
// zcw_read_n5_chain). The decoded size is the metadata's (the codec's
// encoded size, the chunk's bytes, an N5 block's header): any frame that
// decodes to another is refused (src/compress/decompressor.h). A chunk
// placed into several bands is decoded once: the JS layer names each chunk
// with a token, and the buffer holds the last token's bytes.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "common/status.h"
#include "compress/compression.h"
#include "compress_exports.h"

namespace zcw::bindings {

struct ChainBuffer {
  uint8_t* data = nullptr;
  uint64_t capacity = 0;
  uint64_t length = 0;
  double token = 0;  // 0: nothing held
};

inline ChainBuffer& chain_buffer() {
  static ChainBuffer buffer;
  return buffer;
}

// The decoded bytes of frame in[0, in_length) (exactly decoded_length of
// them) at *decoded, decoded now or kept from the same token's last call.
inline Status chain_decoded(int kind, const uint8_t* in, double in_length, double decoded_length, double token,
                            const uint8_t** decoded) {
  Compression compression;
  Status s = decompress_arguments(kind, in, in_length, decoded_length, &compression);
  if (!s.ok()) return s;
  ChainBuffer& b = chain_buffer();
  const uint64_t n = static_cast<uint64_t>(decoded_length);
  if (token != 0 && b.token == token && b.length == n) {
    *decoded = b.data;
    return Status::Ok();
  }
  if (b.capacity < n || b.data == nullptr) {
    std::free(b.data);
    b.data = static_cast<uint8_t*>(std::malloc(n ? n : 1));
    b.capacity = b.data ? n : 0;
    b.token = 0;
    if (!b.data) {
      return Status(ErrorCode::kOutOfMemory, std::string(compression_name(compression)) +
                                                 ": wasm memory cannot grow by " + std::to_string(n) +
                                                 " bytes for a decoded chunk");
    }
  }
  b.token = 0;
  s = decompressor().decompress(compression, in, static_cast<uint64_t>(in_length), b.data, n);
  if (!s.ok()) return s;
  b.length = n;
  b.token = token;
  *decoded = b.data;
  return Status::Ok();
}

}  // namespace zcw::bindings
