// The n5_default codec's block layout, after the header and the inner
// bytes-to-bytes codec: an N5 block's values, big-endian, in N5 order (the
// first dimension fastest, i.e. the chunk's axes reversed), at the shape
// the block's header gives. Decoding turns that into the chunk's C order
// at the chunk's shape, padding a truncated boundary block (Java N5 writes
// them) with the fill value; encoding writes a whole chunk. Both in one
// pass (kernels/transpose.h).
//
// Unlike the streaming codecs, a block is transposed whole: input and
// output stay in the caller's Workspace for the call (N5 blocks are small;
// the workspace grows to the largest block seen).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/io.h"
#include "common/chunk_shape.h"
#include "common/implementation.h"
#include "common/status.h"
#include "types/data_type.h"

namespace zcw {

struct Workspace {
  std::vector<uint8_t> in, out;
};

class N5BlockCodec {
 public:
  // `data_type` one of N5's (u)int8..64, float32, float64; `chunk` the
  // chunk shape in the array's axis order (the N5 attributes' order).
  N5BlockCodec(std::string_view data_type, std::vector<uint64_t> chunk);

  const Status& status() const { return status_; }
  const DataType& type() const { return type_; }
  uint64_t chunk_bytes() const { return chunk_bytes_; }

  // `block` is the header's shape (N5 order, which is the array's); `fill`
  // one element's little-endian bytes, or empty where the fill value is not
  // known (then a truncated block is refused).
  Status decode(const std::vector<uint64_t>& block,
                const std::vector<uint8_t>& fill, ByteSource& in,
                uint64_t in_length, ByteSink& out, uint64_t out_length,
                Workspace& workspace, Impl impl) const;
  // A whole chunk, C order, to the block payload of the chunk's shape.
  Status encode(ByteSource& in, uint64_t in_length, ByteSink& out,
                uint64_t out_length, Workspace& workspace, Impl impl) const;

 private:
  std::string describe() const;

  Status status_;
  DataType type_{};
  ChunkShape chunk_;
  uint64_t chunk_bytes_ = 0;
};

}  // namespace zcw
