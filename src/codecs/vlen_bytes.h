// The `vlen-bytes` codec's layout (zarr-extensions codecs/vlen-bytes;
// numcodecs' VLenBytes, which zarr-python 2 and 3 write): a chunk is a
// u32 little-endian item count, then per item, in C order, a u32
// little-endian byte length and that many bytes. Nothing follows the last
// item.
//
// Decoding parses and checks that layout and hands out two things: the
// items' bytes one after another (the headers dropped), and each item's
// length as a u32 little-endian. The JS layer makes one Uint8Array view per
// item of the first, by the second. Every length and offset is bounded
// before a byte is written: a count that differs from the chunk's element
// count, a header cut short, an item that runs past the end, and bytes
// after the last item are each refused with the offset they happen at.
//
// Like the streaming codecs (codec.h), a chunk passes through the fixed
// scratch blocks (items may straddle them), so wasm memory does not grow
// with chunk size. Encoding is the JS layer's: the items are JS arrays
// that would each cross into wasm on their own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "codecs/io.h"
#include "common/chunk_shape.h"
#include "common/status.h"

namespace zcw {

class VlenBytesCodec {
 public:
  // A u32 counts the items, so a chunk holds at most 2^32 - 1.
  static constexpr uint64_t kMaxItems = 0xFFFFFFFFu;

  // `shape` is the chunk shape (its element count is the item count).
  explicit VlenBytesCodec(std::vector<uint64_t> shape);

  const Status& status() const { return status_; }
  const ChunkShape& shape() const { return shape_; }
  uint64_t items() const { return shape_.elements; }

  // The bytes of the items alone in a well-formed chunk of `in_length`
  // encoded bytes (in_length - 4 - 4 * items); false where `in_length`
  // cannot hold the count and every item's length.
  bool item_bytes_for(uint64_t in_length, uint64_t* out) const;

  // `in` holds the chunk (`in_length` bytes). The items' bytes go to
  // `data`, which takes exactly item_bytes_for(in_length) bytes
  // (`data_length`), and their lengths to `lengths` (4 * items bytes). A
  // refused chunk may have written part of both.
  Status decode(ByteSource& in, uint64_t in_length, ByteSink& data,
                uint64_t data_length, ByteSink& lengths, Scratch& scratch) const;

 private:
  // "vlen-bytes: chunk shape [2, 3]": the start of messages.
  std::string describe() const;
  Status layout_error(const std::string& what) const;

  Status status_;
  ChunkShape shape_;
};

}  // namespace zcw
