// The vlen-bytes layout (numcodecs' VLenBytes): hand-worked chunks from the
// spec text, long chunks whose items straddle the 64 KiB scratch blocks
// against a reference parser that follows the text byte by byte, and every
// malformed layout refused with the offset it happens at.
#include "codecs/vlen_bytes.h"

#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace zcw {
namespace {

using Bytes = std::vector<uint8_t>;
using testing::VectorSink;

void put_le32(Bytes* out, uint32_t v) {
  for (int k = 0; k < 4; ++k) out->push_back(static_cast<uint8_t>(v >> (8 * k)));
}

// The layout, written from the codec page: u32le count, then per item a
// u32le length and the bytes.
Bytes encode_by_hand(const std::vector<Bytes>& items) {
  Bytes out;
  put_le32(&out, static_cast<uint32_t>(items.size()));
  for (const Bytes& item : items) {
    put_le32(&out, static_cast<uint32_t>(item.size()));
    out.insert(out.end(), item.begin(), item.end());
  }
  return out;
}

struct Decoded {
  Status status;
  std::vector<Bytes> items;
};

// A chunk through the codec's streaming decode, split into items by the
// lengths it hands out.
Decoded decode(const VlenBytesCodec& codec, const Bytes& in) {
  uint64_t item_bytes = 0;
  if (!codec.item_bytes_for(in.size(), &item_bytes)) item_bytes = 0;
  VectorSink data(item_bytes), lengths(4 * codec.items());
  MemorySource src(in.data());
  Decoded out;
  out.status = codec.decode(src, in.size(), data, item_bytes, lengths, testing::scratch());
  if (!out.status.ok()) return out;
  uint64_t at = 0;
  for (uint64_t i = 0; i < codec.items(); ++i) {
    const uint8_t* l = lengths.bytes.data() + 4 * i;
    const uint64_t n = l[0] | l[1] << 8 | l[2] << 16 | static_cast<uint64_t>(l[3]) << 24;
    out.items.emplace_back(data.bytes.begin() + at, data.bytes.begin() + at + n);
    at += n;
  }
  EXPECT_EQ(at, item_bytes);
  return out;
}

Bytes text(const std::string& s) { return Bytes(s.begin(), s.end()); }

TEST(VlenBytes, HandWorkedChunk) {
  // numcodecs' docstring example: [b'foo', b'bar', b'baz'].
  const Bytes chunk = {3, 0, 0, 0,  3, 0, 0, 0, 'f', 'o', 'o',  3, 0, 0, 0, 'b', 'a', 'r',
                       3, 0, 0, 0, 'b', 'a', 'z'};
  const VlenBytesCodec codec({3});
  ASSERT_TRUE(codec.status().ok());
  const Decoded d = decode(codec, chunk);
  ASSERT_TRUE(d.status.ok()) << d.status.message();
  EXPECT_EQ(d.items, (std::vector<Bytes>{text("foo"), text("bar"), text("baz")}));
}

TEST(VlenBytes, EmptyItemsAnyBytesAndEmptyChunks) {
  // Empty items, NULs and bytes past 0x7F pass as they are; a 2-d chunk
  // is its elements in C order.
  const std::vector<Bytes> items = {{}, {0, 0}, {0xFF, 0x00, 0x80}, {}, {'a'}, {0xC3}};
  const VlenBytesCodec codec({2, 3});
  const Decoded d = decode(codec, encode_by_hand(items));
  ASSERT_TRUE(d.status.ok()) << d.status.message();
  EXPECT_EQ(d.items, items);
  // A chunk with no elements is its count alone: numcodecs writes 00000000.
  const VlenBytesCodec none({0, 5});
  const Decoded e = decode(none, Bytes{0, 0, 0, 0});
  ASSERT_TRUE(e.status.ok()) << e.status.message();
  EXPECT_TRUE(e.items.empty());
  // A scalar chunk holds one item.
  const VlenBytesCodec scalar({});
  EXPECT_EQ(decode(scalar, encode_by_hand({text("only")})).items, std::vector<Bytes>{text("only")});
}

TEST(VlenBytes, LongChunksAcrossBlocksMatchTheReference) {
  // Items from 0 bytes to past a block (70,000), so headers and items
  // straddle the 64 KiB blocks at every offset the mix produces.
  std::mt19937 rng(24);
  for (size_t n : {1u, 17u, 5000u, 40000u}) {
    std::vector<Bytes> items(n);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t pick = rng() % 100;
      const size_t length = pick < 60 ? rng() % 9 : pick < 95 ? rng() % 300 : rng() % 70000;
      items[i] = testing::random_bytes(length, static_cast<uint32_t>(i));
    }
    const VlenBytesCodec codec({n});
    const Decoded d = decode(codec, encode_by_hand(items));
    ASSERT_TRUE(d.status.ok()) << d.status.message();
    EXPECT_EQ(d.items, items) << n;
  }
}

Status status_of(std::vector<uint64_t> shape, const Bytes& chunk) {
  return decode(VlenBytesCodec(std::move(shape)), chunk).status;
}

TEST(VlenBytes, RefusesMalformedChunksNamingWhere) {
  const Bytes good = encode_by_hand({text("ab"), text("cde")});  // 4 + 6 + 7 = 17 bytes
  ASSERT_TRUE(status_of({2}, good).ok());

  // A truncated count.
  Status s = status_of({2}, Bytes{2, 0, 0});
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(), "vlen-bytes: chunk shape [2]: a chunk starts with its 4-byte item count, got 3 bytes");
  EXPECT_EQ(status_of({0}, Bytes{}).code(), ErrorCode::kLengthMismatch);

  // A count that disagrees with the chunk's elements, either way, and one
  // past any chunk (its items' lengths could never fit).
  s = status_of({3}, good);
  EXPECT_EQ(s.message(), "vlen-bytes: chunk shape [3]: the chunk's item count is 2, but the chunk holds 3 elements");
  Bytes huge = good;
  huge[0] = huge[1] = huge[2] = huge[3] = 0xFF;
  s = status_of({2}, huge);
  EXPECT_EQ(s.code(), ErrorCode::kLengthMismatch);
  EXPECT_EQ(s.message(), "vlen-bytes: chunk shape [2]: the chunk's item count is 4294967295, but the chunk holds 2 elements");

  // Too short for the items' lengths (a header cut short).
  s = status_of({2}, Bytes(good.begin(), good.begin() + 10));
  EXPECT_EQ(s.message(), "vlen-bytes: chunk shape [2]: 2 items need at least 12 bytes (the count and a 4-byte length per item), got 10");

  // An item that runs past the end, past the next item's length, or whose
  // length is beyond any chunk (2^32 - 1).
  Bytes cut(good.begin(), good.end() - 1);
  s = status_of({2}, cut);
  EXPECT_EQ(s.message(), "vlen-bytes: chunk shape [2]: item 1 is 3 bytes long (its length is at byte 10), more than the 2 bytes left in the 16-byte chunk");
  Bytes overlong = good;
  overlong[4] = 9;  // item 0 claims 9 bytes: its own 2, then item 1's length and 3 bytes
  s = status_of({2}, overlong);
  EXPECT_EQ(s.message(), "vlen-bytes: chunk shape [2]: item 0 is 9 bytes long (its length is at byte 4), more than the 5 bytes left in the 17-byte chunk beside the length of the item after it");
  Bytes giant = good;
  giant[4] = giant[5] = giant[6] = giant[7] = 0xFF;
  EXPECT_EQ(status_of({2}, giant).code(), ErrorCode::kLengthMismatch);

  // Bytes after the last item.
  Bytes trailing = good;
  trailing.push_back(0);
  trailing.push_back(7);
  s = status_of({2}, trailing);
  EXPECT_EQ(s.message(), "vlen-bytes: chunk shape [2]: 2 bytes follow the last item (its items end at byte 17 of the 19-byte chunk)");
  EXPECT_EQ(status_of({0}, Bytes{0, 0, 0, 0, 1}).code(), ErrorCode::kLengthMismatch);
}

TEST(VlenBytes, RefusesChunksTooBigForItsCountAndBadCalls) {
  const VlenBytesCodec big({65536, 65536});
  EXPECT_EQ(big.status().code(), ErrorCode::kInvalidShape);
  EXPECT_EQ(big.status().message(), "vlen-bytes: chunk shape [65536, 65536] has 4294967296 elements, more than the 4294967295 a chunk's u32 item count can hold");
  EXPECT_EQ(VlenBytesCodec({uint64_t{1} << 40, uint64_t{1} << 40}).status().code(), ErrorCode::kSizeOverflow);

  // An output that is not the chunk's item bytes: the caller's mistake.
  const VlenBytesCodec codec({1});
  const Bytes chunk = encode_by_hand({text("abc")});
  VectorSink data(2), lengths(4);
  MemorySource src(chunk.data());
  const Status s = codec.decode(src, chunk.size(), data, 2, lengths, testing::scratch());
  EXPECT_EQ(s.code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(data.bytes, Bytes(2, 0xEE));  // nothing written
}

TEST(VlenBytes, ManyFailuresLeaveTheCodecUsable) {
  const VlenBytesCodec codec({4});
  const Bytes good = encode_by_hand({text("w"), {}, text("xyz"), text("q")});
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    Bytes bad = good;
    bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    if (rng() % 2) bad.resize(rng() % (bad.size() + 3), 0);
    (void)decode(codec, bad);  // refused or a valid re-reading; never past its buffers (ASan)
  }
  EXPECT_EQ(decode(codec, good).items, (std::vector<Bytes>{text("w"), {}, text("xyz"), text("q")}));
}

}  // namespace
}  // namespace zcw
