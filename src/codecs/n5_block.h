// The n5_default codec's block layout, after the header and the inner
// bytes-to-bytes codec: an N5 block's values, big-endian, in N5 order (the
// header's first dimension fastest), at the shape the block's header gives.
// Decoding turns that into the chunk's C order at the chunk's shape,
// padding a truncated boundary block (Java N5 writes them) with the fill
// value and cropping a block larger than the chunk (the codec page's step
// 4); encoding writes a whole chunk.
//
// The chunk's axes are either the header's (N5Axes::kN5, the codec page's
// metadata: a transposition, kernels/transpose.h) or the header's reversed
// (N5Axes::kReversed, numpy's order as zarr-python 2 presents N5): then a
// block's F order is the chunk's C order, and decoding is a byte swap that
// streams through the scratch blocks like the bytes codec, padding and
// cropping by rows.
//
// A transposed block is decoded whole: input and output stay in the
// caller's Workspace for the call (N5 blocks are small; the workspace grows
// to the largest block seen). So a chunk is bounded (kMaxChunkBytes), and a
// workspace that cannot grow is a status, never an abort.
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

// How a chunk's axes stand to the block header's (which lists N5's fastest
// axis first).
enum class N5Axes : uint8_t {
  kN5,       // the same order: the codec page's metadata (a transposition)
  kReversed  // reversed: numpy's order, as zarr-python 2's N5Store has it
};

// "n5" or "reversed".
bool parse_n5_axes(std::string_view name, N5Axes* out);

class N5BlockCodec {
 public:
  // A chunk's bytes at most, and the most a block's header may say it
  // holds: a transposed block is held twice (as read, as decoded) in wasm
  // memory, which is 2 GiB at most, beside everything else, and any block
  // is held whole after its compressor.
  static constexpr uint64_t kMaxChunkBytes = uint64_t{512} << 20;

  // `data_type` one of N5's (u)int8..64, float32, float64; `chunk` the
  // chunk shape in the array's axis order, which is the header's order
  // (kN5) or its reverse (kReversed).
  N5BlockCodec(std::string_view data_type, std::vector<uint64_t> chunk,
               N5Axes axes = N5Axes::kN5);

  const Status& status() const { return status_; }
  const DataType& type() const { return type_; }
  N5Axes axes() const { return axes_; }
  uint64_t chunk_bytes() const { return chunk_bytes_; }

  // The payload bytes a header's shape (N5 order) says the block holds:
  // SIZE_OVERFLOW past kMaxChunkBytes (checked before a compressor runs).
  Status payload_bytes(const std::vector<uint64_t>& block,
                       uint64_t* out) const;

  // `block` is the header's shape (N5 order); `in` the payload after the
  // compressor: exactly payload_bytes(block). `fill` is one element's
  // little-endian bytes, or empty where the fill value is not known (then
  // a block that does not cover the chunk is refused). kReversed streams
  // through `scratch`; kN5 uses `workspace`.
  Status decode(const std::vector<uint64_t>& block,
                const std::vector<uint8_t>& fill, ByteSource& in,
                uint64_t in_length, ByteSink& out, uint64_t out_length,
                Scratch& scratch, Workspace& workspace, Impl impl) const;
  // A whole chunk, C order, to the block payload of the chunk's shape
  // (whose header is the chunk's shape in N5 order).
  Status encode(ByteSource& in, uint64_t in_length, ByteSink& out,
                uint64_t out_length, Scratch& scratch, Workspace& workspace,
                Impl impl) const;

 private:
  std::string describe() const;
  // The workspace for a block of `in_bytes` bytes and the chunk.
  Status fit(Workspace& ws, uint64_t in_bytes) const;
  Status decode_transposed(const std::vector<uint64_t>& block, bool padded,
                           const std::vector<uint8_t>& fill, ByteSource& in,
                           uint64_t in_length, ByteSink& out, Workspace& ws,
                           Impl impl) const;
  Status decode_in_order(const std::vector<uint64_t>& block,
                         const std::vector<uint8_t>& fill, ByteSource& in,
                         uint64_t in_length, ByteSink& out, Scratch& scratch,
                         Impl impl) const;

  Status status_;
  DataType type_{};
  N5Axes axes_ = N5Axes::kN5;
  ChunkShape chunk_;
  // The chunk's shape in the header's order (N5's).
  std::vector<uint64_t> n5_chunk_;
  uint64_t chunk_bytes_ = 0;
};

}  // namespace zcw
