#include "codecs/n5_block.h"

#include <algorithm>
#include <cstring>

#include "kernels/transpose.h"

namespace zcw {
namespace {

// C-order byte strides of `shape`.
std::vector<uint64_t> c_strides(const std::vector<uint64_t>& shape,
                                uint64_t width) {
  std::vector<uint64_t> strides(shape.size(), width);
  for (size_t k = shape.size(); k-- > 1;) strides[k - 1] = strides[k] * shape[k];
  return strides;
}

}  // namespace

N5BlockCodec::N5BlockCodec(std::string_view data_type,
                           std::vector<uint64_t> chunk) {
  if (status_ = lookup_data_type("n5_default", data_type, &type_);
      !status_.ok()) {
    return;
  }
  static constexpr std::string_view kN5Types[] = {
      "uint8", "int8", "uint16", "int16", "uint32", "int32",
      "uint64", "int64", "float32", "float64"};
  if (std::find(std::begin(kN5Types), std::end(kN5Types), type_.name) ==
      std::end(kN5Types)) {
    status_ = Status(ErrorCode::kUnsupportedDataType,
                     "n5_default: data type " + type_.label() +
                         " is not one of N5's (uint8..uint64, int8..int64, "
                         "float32, float64)");
    return;
  }
  if (chunk.size() > 65535) {
    status_ = Status(ErrorCode::kInvalidShape,
                     "n5_default: an N5 block has at most 65535 dimensions");
    return;
  }
  for (uint64_t d : chunk) {
    if (d > 0xFFFFFFFFu) {
      status_ = Status(ErrorCode::kInvalidShape,
                       "n5_default: chunk shape " + shape_text(chunk) +
                           " has a dimension past 2^32 - 1, which an N5 "
                           "block header cannot hold");
      return;
    }
  }
  if (status_ = make_chunk_shape("n5_default", std::move(chunk), &chunk_);
      !status_.ok()) {
    return;
  }
  if (!checked_mul(chunk_.elements, type_.element_bytes(), &chunk_bytes_)) {
    status_ = Status(ErrorCode::kSizeOverflow,
                     describe() + " needs more than 2^53 bytes");
  } else if (chunk_bytes_ > kMaxChunkBytes) {
    status_ = Status(ErrorCode::kSizeOverflow,
                     describe() + " holds " + std::to_string(chunk_bytes_) +
                         " bytes; a block is decoded whole in wasm memory, "
                         "so a chunk may hold " +
                         std::to_string(kMaxChunkBytes) + " (512 MiB) at most");
  }
}

Status N5BlockCodec::fit(Workspace& ws, uint64_t in_length) const {
  if (ws.in.fit(in_length) && ws.out.fit(chunk_bytes_)) return Status::Ok();
  return Status(ErrorCode::kOutOfMemory,
                describe() + ": wasm memory cannot grow to hold a block of " +
                    std::to_string(chunk_bytes_) + " bytes twice");
}

std::string N5BlockCodec::describe() const {
  return "n5_default: " + type_.label() + " chunk " + chunk_.text;
}

Status N5BlockCodec::decode(const std::vector<uint64_t>& block,
                            const std::vector<uint8_t>& fill, ByteSource& in,
                            uint64_t in_length, ByteSink& out,
                            uint64_t out_length, Workspace& ws,
                            Impl impl) const {
  if (!status_.ok()) return status_;
  const size_t rank = chunk_.dims.size();
  if (block.size() != rank) {
    return Status(ErrorCode::kInvalidInput,
                  describe() + ": the block header has " +
                      std::to_string(block.size()) +
                      " dimensions, but the array has " + std::to_string(rank));
  }
  bool truncated = false;
  for (size_t k = 0; k < rank; ++k) {
    if (block[k] > chunk_.dims[k]) {
      return Status(ErrorCode::kInvalidInput,
                    describe() + ": the block header's shape " +
                        shape_text(block) + " is larger than the chunk");
    }
    truncated = truncated || block[k] < chunk_.dims[k];
  }
  uint64_t elements = 1;
  for (uint64_t d : block) elements *= d;  // <= the chunk's count
  const unsigned width = static_cast<unsigned>(type_.element_bytes());
  if (in_length != elements * width) {
    return Status(ErrorCode::kLengthMismatch,
                  describe() + ": a block of shape " + shape_text(block) +
                      " needs " + std::to_string(elements * width) +
                      " bytes after its header, got " +
                      std::to_string(in_length));
  }
  if (out_length != chunk_bytes_) {
    return Status(ErrorCode::kLengthMismatch,
                  describe() + " needs " + std::to_string(chunk_bytes_) +
                      " bytes of output, got " + std::to_string(out_length));
  }
  if (truncated && fill.size() != width) {
    return Status(ErrorCode::kInvalidInput,
                  describe() + ": the block is truncated to " +
                      shape_text(block) +
                      ", and the array's fill value, which pads it, is not "
                      "known to this codec (zarrita 0.5 and 0.6 do not pass "
                      "it; read through withN5, or with zarrita >= 0.7)");
  }
  if (Status s = fit(ws, in_length); !s.ok()) return s;
  in.read(0, in_length, ws.in.data());
  if (truncated) {
    for (uint64_t i = 0; i < chunk_.elements; ++i) {
      std::memcpy(ws.out.data() + i * width, fill.data(), width);
    }
  }
  // The payload is C order over the block's axes reversed; reversed back,
  // element (i0, ..., in-1) lands at the chunk's C-order offset.
  const std::vector<uint64_t> strides = c_strides(chunk_.dims, width);
  const std::vector<uint64_t> payload_shape(block.rbegin(), block.rend());
  const std::vector<uint64_t> out_strides(strides.rbegin(), strides.rend());
  reverse_axes(impl, ws.in.data(), payload_shape, ws.out.data(), out_strides,
               width, width, true);
  out.write(0, ws.out.data(), chunk_bytes_);
  return Status::Ok();
}

Status N5BlockCodec::encode(ByteSource& in, uint64_t in_length, ByteSink& out,
                            uint64_t out_length, Workspace& ws,
                            Impl impl) const {
  if (!status_.ok()) return status_;
  if (in_length != chunk_bytes_ || out_length != chunk_bytes_) {
    return Status(ErrorCode::kLengthMismatch,
                  describe() + " needs " + std::to_string(chunk_bytes_) +
                      " bytes in and out, got " + std::to_string(in_length) +
                      " and " + std::to_string(out_length));
  }
  const unsigned width = static_cast<unsigned>(type_.element_bytes());
  if (Status s = fit(ws, in_length); !s.ok()) return s;
  in.read(0, in_length, ws.in.data());
  // The chunk is C order over its axes; the payload is C order over the
  // axes reversed.
  const std::vector<uint64_t> reversed(chunk_.dims.rbegin(), chunk_.dims.rend());
  const std::vector<uint64_t> strides = c_strides(reversed, width);
  const std::vector<uint64_t> out_strides(strides.rbegin(), strides.rend());
  reverse_axes(impl, ws.in.data(), chunk_.dims, ws.out.data(), out_strides,
               width, width, true);
  out.write(0, ws.out.data(), chunk_bytes_);
  return Status::Ok();
}

}  // namespace zcw
