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
// the workspace grows to the largest block seen). So a chunk is bounded
// (kMaxChunkBytes), and a workspace that cannot grow is a status, never an
// abort.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "codecs/io.h"
#include "common/chunk_shape.h"
#include "common/implementation.h"
#include "common/status.h"
#include "types/data_type.h"

namespace zcw {

// Memory that grows to the largest size asked for and keeps it; allocated
// with malloc, whose failure (wasm memory at its limit) is an answer here,
// where std::vector would abort the instance.
class GrowingBuffer {
 public:
  GrowingBuffer() = default;
  GrowingBuffer(const GrowingBuffer&) = delete;
  GrowingBuffer& operator=(const GrowingBuffer&) = delete;
  ~GrowingBuffer() { std::free(data_); }

  // At least `bytes` bytes (contents not kept); false where memory ran out.
  bool fit(uint64_t bytes) {
    if (bytes <= size_) return true;
    if (bytes > SIZE_MAX) return false;
    std::free(data_);
    data_ = static_cast<uint8_t*>(std::malloc(static_cast<size_t>(bytes)));
    size_ = data_ ? bytes : 0;
    return data_ != nullptr;
  }
  uint8_t* data() { return data_; }

 private:
  uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
};

struct Workspace {
  GrowingBuffer in, out;
};

class N5BlockCodec {
 public:
  // A chunk's bytes at most: a block is held twice (as read, as decoded) in
  // wasm memory, which is 2 GiB at most, beside everything else.
  static constexpr uint64_t kMaxChunkBytes = uint64_t{512} << 20;

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
  // The workspace for a block of `in_length` bytes and the chunk.
  Status fit(Workspace& ws, uint64_t in_length) const;

  Status status_;
  DataType type_{};
  ChunkShape chunk_;
  uint64_t chunk_bytes_ = 0;
};

}  // namespace zcw
