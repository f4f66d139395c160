#include "codecs/vlen_bytes.h"

#include <algorithm>
#include <cstring>

namespace zcw {
namespace {

constexpr uint64_t kHeader = 4;  // a u32: the count, or one item's length

// "1 byte", "5 bytes".
std::string bytes_text(uint64_t n) {
  return std::to_string(n) + (n == 1 ? " byte" : " bytes");
}

uint32_t load_le32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}

// The chunk, read block by block into the scratch's input block; items and
// headers may straddle two blocks.
class BlockReader {
 public:
  BlockReader(ByteSource& source, uint64_t length, uint8_t* block)
      : source_(source), length_(length), block_(block) {}

  uint64_t position() const { return start_ + at_; }

  // The next `n` bytes (n <= what is left) into `into`.
  void take(uint8_t* into, uint64_t n) {
    while (n > 0) {
      if (at_ == size_) next_block();
      const uint64_t k = std::min(n, size_ - at_);
      std::memcpy(into, block_ + at_, k);
      into += k;
      at_ += k;
      n -= k;
    }
  }

  uint32_t u32() {
    if (size_ - at_ >= kHeader) {  // the common case: no straddling
      const uint32_t v = load_le32(block_ + at_);
      at_ += kHeader;
      return v;
    }
    uint8_t bytes[kHeader];
    take(bytes, kHeader);
    return load_le32(bytes);
  }

  // The next `n` bytes (n <= what is left), handed to `put` a run at a time.
  template <typename Put>
  void pass(uint64_t n, Put&& put) {
    while (n > 0) {
      if (at_ == size_) next_block();
      const uint64_t k = std::min(n, size_ - at_);
      put(block_ + at_, k);
      at_ += k;
      n -= k;
    }
  }

 private:
  void next_block() {
    start_ += size_;
    size_ = std::min<uint64_t>(Scratch::kBytes, length_ - start_);
    source_.read(start_, size_, block_);
    at_ = 0;
  }

  ByteSource& source_;
  uint64_t length_;
  uint8_t* block_;
  uint64_t start_ = 0;  // the block's offset in the chunk
  uint64_t size_ = 0;   // its bytes
  uint64_t at_ = 0;     // the next byte's offset in the block
};

// One output, gathered in a scratch block and written a block at a time;
// a run at least a block long goes to the sink directly.
class BlockWriter {
 public:
  BlockWriter(ByteSink& sink, uint8_t* block) : sink_(sink), block_(block) {}

  void put(const uint8_t* from, uint64_t n) {
    if (fill_ + n > Scratch::kBytes) flush();
    if (n >= Scratch::kBytes) {
      sink_.write(written_, from, n);
      written_ += n;
      return;
    }
    std::memcpy(block_ + fill_, from, n);
    fill_ += n;
  }

  void put_u32(uint32_t v) {
    const uint8_t bytes[kHeader] = {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8),
                                    static_cast<uint8_t>(v >> 16), static_cast<uint8_t>(v >> 24)};
    put(bytes, kHeader);
  }

  void flush() {
    if (fill_ == 0) return;
    sink_.write(written_, block_, fill_);
    written_ += fill_;
    fill_ = 0;
  }

 private:
  ByteSink& sink_;
  uint8_t* block_;
  uint64_t written_ = 0;  // bytes the sink has
  uint64_t fill_ = 0;     // bytes waiting in the block
};

}  // namespace

VlenBytesCodec::VlenBytesCodec(std::vector<uint64_t> shape) {
  status_ = make_chunk_shape("vlen-bytes", std::move(shape), &shape_);
  if (status_.ok() && shape_.elements > kMaxItems) {
    status_ = Status(ErrorCode::kInvalidShape,
                     describe() + " has " + std::to_string(shape_.elements) +
                         " elements, more than the 4294967295 a chunk's u32 "
                         "item count can hold");
  }
}

std::string VlenBytesCodec::describe() const {
  return "vlen-bytes: chunk shape " + shape_.text;
}

Status VlenBytesCodec::layout_error(const std::string& what) const {
  return Status(ErrorCode::kLengthMismatch, describe() + ": " + what);
}

bool VlenBytesCodec::item_bytes_for(uint64_t in_length, uint64_t* out) const {
  // items <= 2^32 - 1, so this neither overflows nor passes 2^53.
  const uint64_t headers = kHeader + kHeader * items();
  if (!status_.ok() || in_length < headers) return false;
  *out = in_length - headers;
  return true;
}

Status VlenBytesCodec::decode(ByteSource& in, uint64_t in_length, ByteSink& data,
                              uint64_t data_length, ByteSink& lengths,
                              Scratch& scratch) const {
  if (!status_.ok()) return status_;
  const uint64_t n = items();
  if (in_length < kHeader) {
    return layout_error("a chunk starts with its 4-byte item count, got " +
                        bytes_text(in_length));
  }
  BlockReader reader(in, in_length, scratch.in);
  const uint64_t count = reader.u32();
  if (count != n) {
    return layout_error("the chunk's item count is " + std::to_string(count) +
                        ", but the chunk holds " + std::to_string(n) + " elements");
  }
  uint64_t item_bytes = 0;
  if (!item_bytes_for(in_length, &item_bytes)) {
    return layout_error(std::to_string(n) + " items need at least " +
                        std::to_string(kHeader + kHeader * n) +
                        " bytes (the count and a 4-byte length per item), got " +
                        std::to_string(in_length));
  }
  if (data_length != item_bytes) {
    return Status(ErrorCode::kInvalidInput,
                  describe() + ": a chunk of " + std::to_string(in_length) +
                      " bytes has " + std::to_string(item_bytes) +
                      " bytes of items, but the output holds " +
                      std::to_string(data_length));
  }
  BlockWriter items_out(data, scratch.out);
  BlockWriter lengths_out(lengths, scratch.mid);
  // Bytes the items may still take: what is left of the chunk after the
  // lengths of the items not read yet. Checked per item, so nothing is
  // written past `data_length`.
  uint64_t budget = item_bytes;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t at = reader.position();
    const uint64_t length = reader.u32();
    if (length > budget) {
      const uint64_t later = n - 1 - i;
      return layout_error(
          "item " + std::to_string(i) + " is " + bytes_text(length) +
          " long (its length is at byte " + std::to_string(at) +
          "), more than the " + bytes_text(budget) + " left in the " +
          std::to_string(in_length) + "-byte chunk" +
          (later == 1   ? " beside the length of the item after it"
           : later > 1 ? " beside the lengths of the " + std::to_string(later) +
                             " items after it"
                       : ""));
    }
    budget -= length;
    lengths_out.put_u32(static_cast<uint32_t>(length));
    reader.pass(length, [&](const uint8_t* run, uint64_t k) { items_out.put(run, k); });
  }
  if (budget != 0) {
    return layout_error(bytes_text(budget) + (budget == 1 ? " follows" : " follow") + " the last item (its items end at byte " +
                        std::to_string(in_length - budget) + " of the " +
                        std::to_string(in_length) + "-byte chunk)");
  }
  items_out.flush();
  lengths_out.flush();
  return Status::Ok();
}

}  // namespace zcw
