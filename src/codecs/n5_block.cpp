#include "codecs/n5_block.h"

#include <algorithm>
#include <cstring>

#include "kernels/byteswap.h"
#include "kernels/transpose.h"

namespace zcw {
namespace {

// C-order strides of `shape`, in units of `unit`.
std::vector<uint64_t> c_strides(const std::vector<uint64_t>& shape,
                                uint64_t unit) {
  std::vector<uint64_t> strides(shape.size(), unit);
  for (size_t k = shape.size(); k-- > 1;) strides[k - 1] = strides[k] * shape[k];
  return strides;
}

std::vector<uint64_t> reversed(const std::vector<uint64_t>& v) {
  return std::vector<uint64_t>(v.rbegin(), v.rend());
}

// `count` copies of one `width`-byte element: the first copied, then
// doubling.
void fill_elements(uint8_t* out, uint64_t count, const uint8_t* element,
                   unsigned width) {
  const uint64_t total = count * width;
  if (total == 0) return;
  std::memcpy(out, element, width);
  for (uint64_t done = width; done < total;) {
    const uint64_t n = std::min(done, total - done);
    std::memcpy(out + done, out, n);
    done += n;
  }
}

// Big-endian elements to native ones (a copy for one-byte types).
void swap_elements(Impl impl, const uint8_t* in, uint8_t* out, uint64_t count,
                   unsigned width) {
  if (width == 1) {
    std::memcpy(out, in, count);
  } else {
    byteswap(impl, in, out, count, width);
  }
}

// The runs of a C-order box `box` inside a C-order array `shape`: `f(from,
// to, count)` for each run of `count` elements that lies contiguous at
// element `from` of the array and at element `to` of the box laid out on
// its own. The trailing axes the box spans whole join one run.
template <typename F>
void for_each_run(const std::vector<uint64_t>& shape,
                  const std::vector<uint64_t>& box, F f) {
  const size_t n = shape.size();
  if (n == 0) {
    f(0, 0, 1);
    return;
  }
  for (uint64_t d : box) {
    if (d == 0) return;
  }
  size_t axis = n - 1;
  while (axis > 0 && box[axis] == shape[axis]) --axis;
  const std::vector<uint64_t> from_strides = c_strides(shape, 1);
  const std::vector<uint64_t> to_strides = c_strides(box, 1);
  const uint64_t run = box[axis] * from_strides[axis];
  std::vector<uint64_t> index(axis, 0);
  while (true) {
    uint64_t from = 0, to = 0;
    for (size_t k = 0; k < axis; ++k) {
      from += index[k] * from_strides[k];
      to += index[k] * to_strides[k];
    }
    f(from, to, run);
    size_t k = axis;
    while (k-- > 0) {
      if (++index[k] < box[k]) break;
      index[k] = 0;
    }
    if (k == static_cast<size_t>(-1)) return;
  }
}

// Output in blocks of the scratch region, written to `out` in order.
class BandWriter {
 public:
  BandWriter(ByteSink& out, uint8_t* band) : out_(out), band_(band) {}
  // Room for up to `want` bytes (at least one element: the band is a
  // multiple of every width, and so is everything written to it).
  uint8_t* room(uint64_t want, uint64_t* got) {
    if (used_ == Scratch::kBytes) flush();
    *got = std::min<uint64_t>(want, Scratch::kBytes - used_);
    return band_ + used_;
  }
  void advance(uint64_t n) { used_ += n; }
  void flush() {
    if (used_ == 0) return;
    out_.write(written_, band_, used_);
    written_ += used_;
    used_ = 0;
  }

 private:
  ByteSink& out_;
  uint8_t* band_;
  uint64_t used_ = 0, written_ = 0;
};

// Input read a scratch block at a time, forward: the rows a decode takes
// come in increasing order.
class WindowReader {
 public:
  WindowReader(ByteSource& in, uint64_t length, uint8_t* window)
      : in_(in), length_(length), window_(window) {}
  // Bytes from `offset`: up to `want` of them, at least one element.
  const uint8_t* at(uint64_t offset, uint64_t want, uint64_t* got) {
    if (offset < start_ || offset >= end_) {
      start_ = offset;
      end_ = std::min<uint64_t>(length_, offset + Scratch::kBytes);
      in_.read(start_, end_ - start_, window_);
    }
    *got = std::min(want, end_ - offset);
    return window_ + (offset - start_);
  }

 private:
  ByteSource& in_;
  uint64_t length_;
  uint8_t* window_;
  uint64_t start_ = 0, end_ = 0;
};

}  // namespace

bool parse_n5_axes(std::string_view name, N5Axes* out) {
  if (name == "n5") {
    *out = N5Axes::kN5;
  } else if (name == "reversed") {
    *out = N5Axes::kReversed;
  } else {
    return false;
  }
  return true;
}

N5BlockCodec::N5BlockCodec(std::string_view data_type,
                           std::vector<uint64_t> chunk, N5Axes axes)
    : axes_(axes) {
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
  n5_chunk_ = axes_ == N5Axes::kN5 ? chunk : reversed(chunk);
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
                         (axes_ == N5Axes::kN5
                              ? " bytes; a block is decoded whole in wasm "
                                "memory, so a chunk may hold "
                              : " bytes; a block is held whole after its "
                                "compressor, so a chunk may hold ") +
                         std::to_string(kMaxChunkBytes) + " (512 MiB) at most");
  }
}

Status N5BlockCodec::fit(Workspace& ws, uint64_t in_bytes) const {
  if (ws.in.fit(in_bytes) && ws.out.fit(chunk_bytes_)) return Status::Ok();
  return Status(ErrorCode::kOutOfMemory,
                describe() + ": wasm memory cannot grow to hold a block of " +
                    std::to_string(chunk_bytes_) + " bytes twice");
}

std::string N5BlockCodec::describe() const {
  return "n5_default: " + type_.label() + " chunk " + chunk_.text +
         (axes_ == N5Axes::kReversed ? " (axes reversed)" : "");
}

Status N5BlockCodec::payload_bytes(const std::vector<uint64_t>& block,
                                   uint64_t* out) const {
  if (!status_.ok()) return status_;
  uint64_t bytes = type_.element_bytes();
  for (uint64_t d : block) {
    // Past the bound, or a dimension of 0 after a huge one: the product is
    // checked step by step against the bound, never wrapped.
    if (d != 0 && bytes > kMaxChunkBytes / d) {
      bool empty = false;
      for (uint64_t e : block) empty = empty || e == 0;
      if (empty) break;
      return Status(ErrorCode::kSizeOverflow,
                    describe() + ": the block header's shape " +
                        shape_text(block) + " holds more than " +
                        std::to_string(kMaxChunkBytes) +
                        " bytes (512 MiB), the most a block may hold");
    }
    bytes *= d;
  }
  for (uint64_t d : block) {
    if (d == 0) bytes = 0;
  }
  *out = bytes;
  return Status::Ok();
}

Status N5BlockCodec::decode(const std::vector<uint64_t>& block,
                            const std::vector<uint8_t>& fill, ByteSource& in,
                            uint64_t in_length, ByteSink& out,
                            uint64_t out_length, Scratch& scratch,
                            Workspace& ws, Impl impl) const {
  if (!status_.ok()) return status_;
  const size_t rank = n5_chunk_.size();
  if (block.size() != rank) {
    return Status(ErrorCode::kInvalidInput,
                  describe() + ": the block header has " +
                      std::to_string(block.size()) +
                      " dimensions, but the array has " + std::to_string(rank));
  }
  uint64_t expected = 0;
  if (Status s = payload_bytes(block, &expected); !s.ok()) return s;
  if (in_length != expected) {
    return Status(ErrorCode::kLengthMismatch,
                  describe() + ": a block of shape " + shape_text(block) +
                      " needs " + std::to_string(expected) +
                      " bytes after its header, got " +
                      std::to_string(in_length));
  }
  if (out_length != chunk_bytes_) {
    return Status(ErrorCode::kLengthMismatch,
                  describe() + " needs " + std::to_string(chunk_bytes_) +
                      " bytes of output, got " + std::to_string(out_length));
  }
  // Padded where the block leaves part of the chunk uncovered (a truncated
  // boundary block); cropped where it reaches past it (the page's step 4).
  bool padded = false;
  for (size_t k = 0; k < rank; ++k) padded = padded || block[k] < n5_chunk_[k];
  const unsigned width = static_cast<unsigned>(type_.element_bytes());
  if (padded && chunk_bytes_ > 0 && fill.size() != width) {
    return Status(ErrorCode::kInvalidInput,
                  describe() + ": the block is truncated to " +
                      shape_text(block) +
                      ", and the array's fill value, which pads it, is not "
                      "known to this codec (zarrita 0.5 and 0.6 do not pass "
                      "it; read through withN5, or with zarrita >= 0.7)");
  }
  if (axes_ == N5Axes::kReversed) {
    return decode_in_order(block, fill, in, in_length, out, scratch, impl);
  }
  return decode_transposed(block, padded, fill, in, in_length, out, ws, impl);
}

Status N5BlockCodec::decode_transposed(const std::vector<uint64_t>& block,
                                       bool padded,
                                       const std::vector<uint8_t>& fill,
                                       ByteSource& in, uint64_t in_length,
                                       ByteSink& out, Workspace& ws,
                                       Impl impl) const {
  const unsigned width = static_cast<unsigned>(type_.element_bytes());
  const size_t rank = block.size();
  // The part of the block inside the chunk (N5 order).
  std::vector<uint64_t> box(rank);
  bool cropped = false;
  uint64_t box_elements = 1;
  for (size_t k = 0; k < rank; ++k) {
    box[k] = std::min(block[k], n5_chunk_[k]);
    cropped = cropped || block[k] > n5_chunk_[k];
    box_elements *= box[k];
  }
  if (Status s = fit(ws, box_elements * width); !s.ok()) return s;
  // The payload is C order over the header's axes reversed; the box is
  // gathered from it (only the runs inside the chunk are read).
  const std::vector<uint64_t> payload_shape = reversed(block);
  const std::vector<uint64_t> box_shape = reversed(box);
  if (!cropped) {
    in.read(0, in_length, ws.in.data());
  } else {
    for_each_run(payload_shape, box_shape,
                 [&](uint64_t from, uint64_t to, uint64_t count) {
                   in.read(from * width, count * width,
                           ws.in.data() + to * width);
                 });
  }
  if (padded) fill_elements(ws.out.data(), chunk_.elements, fill.data(), width);
  // Reversed back, element (i0, ..., in-1) of the box lands at the chunk's
  // C-order offset.
  const std::vector<uint64_t> out_strides = reversed(c_strides(chunk_.dims, width));
  reverse_axes(impl, ws.in.data(), box_shape, ws.out.data(), out_strides,
               width, width, true);
  out.write(0, ws.out.data(), chunk_bytes_);
  return Status::Ok();
}

// The chunk's axes are the header's reversed: the payload is C order over
// the chunk's axes at the block's shape. The chunk is written row by row,
// where a row spans the trailing axes on which block and chunk agree (the
// whole chunk for a full block): its first part from the block's row, the
// rest (and the rows past the block) the fill.
Status N5BlockCodec::decode_in_order(const std::vector<uint64_t>& block,
                                     const std::vector<uint8_t>& fill,
                                     ByteSource& in, uint64_t in_length,
                                     ByteSink& out, Scratch& scratch,
                                     Impl impl) const {
  const unsigned width = static_cast<unsigned>(type_.element_bytes());
  // A 0-D chunk is one element: a row of one.
  const std::vector<uint64_t> payload = block.empty() ? std::vector<uint64_t>{1} : reversed(block);
  const std::vector<uint64_t> chunk = block.empty() ? std::vector<uint64_t>{1} : chunk_.dims;
  const size_t n = chunk.size();
  for (uint64_t d : chunk) {
    if (d == 0) return Status::Ok();
  }
  size_t axis = n - 1;
  while (axis > 0 && payload[axis] == chunk[axis]) --axis;
  uint64_t span = 1;  // elements of one index of `axis`
  for (size_t k = axis + 1; k < n; ++k) span *= chunk[k];
  const uint64_t row_bytes = chunk[axis] * span * width;
  const uint64_t take_bytes = std::min(payload[axis], chunk[axis]) * span * width;
  const std::vector<uint64_t> payload_strides = c_strides(payload, width);

  BandWriter writer(out, scratch.out);
  WindowReader reader(in, in_length, scratch.in);
  auto copy = [&](uint64_t from, uint64_t bytes) {
    while (bytes > 0) {
      uint64_t room = 0, have = 0;
      uint8_t* to = writer.room(bytes, &room);
      const uint8_t* src = reader.at(from, room, &have);
      swap_elements(impl, src, to, have / width, width);
      writer.advance(have);
      from += have;
      bytes -= have;
    }
  };
  auto pad = [&](uint64_t bytes) {
    while (bytes > 0) {
      uint64_t room = 0;
      uint8_t* to = writer.room(bytes, &room);
      fill_elements(to, room / width, fill.data(), width);
      writer.advance(room);
      bytes -= room;
    }
  };
  // The rows: every index of the axes before `axis`, in C order.
  std::vector<uint64_t> index(axis, 0);
  while (true) {
    bool inside = true;
    uint64_t from = 0;
    for (size_t k = 0; k < axis; ++k) {
      inside = inside && index[k] < payload[k];
      from += index[k] * payload_strides[k];
    }
    const uint64_t taken = inside ? take_bytes : 0;
    copy(from, taken);
    pad(row_bytes - taken);
    size_t k = axis;
    while (k-- > 0) {
      if (++index[k] < chunk[k]) break;
      index[k] = 0;
    }
    if (k == static_cast<size_t>(-1)) break;
  }
  writer.flush();
  return Status::Ok();
}

Status N5BlockCodec::encode(ByteSource& in, uint64_t in_length, ByteSink& out,
                            uint64_t out_length, Scratch& scratch,
                            Workspace& ws, Impl impl) const {
  if (!status_.ok()) return status_;
  if (in_length != chunk_bytes_ || out_length != chunk_bytes_) {
    return Status(ErrorCode::kLengthMismatch,
                  describe() + " needs " + std::to_string(chunk_bytes_) +
                      " bytes in and out, got " + std::to_string(in_length) +
                      " and " + std::to_string(out_length));
  }
  const unsigned width = static_cast<unsigned>(type_.element_bytes());
  if (axes_ == N5Axes::kReversed) {
    // The chunk's C order is the block's: a swap, block by block.
    for (uint64_t at = 0; at < chunk_bytes_; at += Scratch::kBytes) {
      const uint64_t n = std::min<uint64_t>(Scratch::kBytes, chunk_bytes_ - at);
      in.read(at, n, scratch.in);
      swap_elements(impl, scratch.in, scratch.out, n / width, width);
      out.write(at, scratch.out, n);
    }
    return Status::Ok();
  }
  if (Status s = fit(ws, in_length); !s.ok()) return s;
  in.read(0, in_length, ws.in.data());
  // The chunk is C order over its axes; the payload is C order over the
  // axes reversed.
  const std::vector<uint64_t> out_strides =
      reversed(c_strides(reversed(chunk_.dims), width));
  reverse_axes(impl, ws.in.data(), chunk_.dims, ws.out.data(), out_strides,
               width, width, true);
  out.write(0, ws.out.data(), chunk_bytes_);
  return Status::Ok();
}

}  // namespace zcw
