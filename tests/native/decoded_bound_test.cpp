// Claims bounded before anything is allocated (src/compress/decoded_bound.h):
// where no decoded size comes from the metadata (a v2 object array, an inner
// chunk whose size the chain computes later), a frame's claim is taken only
// as far as its bytes could decode to, for blosc at its inner codec's ratio
// with its header, layout and every stream checked first. The frames are
// made here by hand from the formats (c-blosc's README_CHUNK_FORMAT.rst,
// numcodecs' lz4 framing, RFC 8878); the bounds are worked out here from
// the formats too: 255 per byte for lz4 and blosclz, 1032 for DEFLATE,
// 32768 for zstd. AllocationProbe (ASan's malloc hooks) shows the largest
// allocation of each call: a hostile claim must never be one.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "allocation_probe.h"
#include "compress/compressor.h"
#include "compress/decompressor.h"

namespace zcw {
namespace {

using Bytes = std::vector<uint8_t>;
using testing::AllocationProbe;

constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr uint64_t kMiB = uint64_t{1} << 20;

void put_le32(Bytes* b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*b)[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// A blosc 1.x frame of `cbytes` bytes: the 16-byte header (format version
// 2, inner format version 1), the rest zeros.
Bytes blosc_frame(uint8_t flags, uint8_t typesize, uint32_t nbytes, uint32_t blocksize, uint32_t cbytes) {
  Bytes b(cbytes, 0);
  b[0] = 2;
  b[1] = 1;
  b[2] = flags;
  b[3] = typesize;
  put_le32(&b, 4, nbytes);
  put_le32(&b, 8, blocksize);
  put_le32(&b, 12, cbytes);
  return b;
}

// blosc's flags: byte shuffle 0x01, memcpyed 0x02, bit shuffle 0x04, do
// not split 0x10, the inner codec in the top three bits.
constexpr uint8_t kShuffle = 0x01, kMemcpyed = 0x02, kDontSplit = 0x10;
constexpr uint8_t kInnerLz4 = 1 << 5, kInnerZstd = 4 << 5;

struct Outcome {
  Status status;
  uint64_t out_size = 0;
  const uint8_t* out_data = nullptr;
  size_t largest_allocation = 0;
  double seconds = 0;
};

Outcome bounded(Decompressor& d, Compression kind, const Bytes& in, uint64_t max_out, Bytes* decoded = nullptr) {
  MallocBytes out;
  Outcome o;
  const auto start = std::chrono::steady_clock::now();
  {
    AllocationProbe probe;
    o.status = d.decompress_bounded(kind, in.data(), in.size(), max_out, &out);
    o.largest_allocation = probe.largest_bytes();
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  o.out_size = out.size();
  o.out_data = out.data();
  if (decoded) decoded->assign(out.data(), out.data() + out.size());
  return o;
}

// Refused with `code` (and `message` where given), nothing decoded, no
// allocation of more than `most_allocated` bytes, at once.
void expect_refused(const Outcome& o, ErrorCode code, const std::string& message, size_t most_allocated,
                    const std::string& what) {
  EXPECT_EQ(error_code_name(o.status.code()), std::string(error_code_name(code))) << what << ": " << o.status.message();
  if (!message.empty()) EXPECT_EQ(o.status.message(), message) << what;
  EXPECT_EQ(o.out_size, 0u) << what;
  EXPECT_EQ(o.out_data, nullptr) << what;
  EXPECT_LT(o.seconds, 1.0) << what;
  if (AllocationProbe::available()) EXPECT_LE(o.largest_allocation, most_allocated) << what;
}

// The probe sees what the code under test allocates (in the sanitized
// build; elsewhere the allocation checks below are skipped).
TEST(DecodedBoundTest, TheAllocationProbeSeesAllocations) {
  if (!AllocationProbe::available()) GTEST_SKIP() << "no AddressSanitizer: allocations are not observed";
  AllocationProbe probe;
  MallocBytes bytes;
  ASSERT_TRUE(bytes.resize(3 * kMiB));
  EXPECT_EQ(probe.largest_bytes(), 3 * kMiB);
}

// The frame of issue 33: 32 KiB with lz4 inside, claiming 1 GiB, in a v2
// object array (no decoded size from the metadata). The bounded decode took
// zstd's ratio for every blosc frame (32 KiB could then hold 1 GiB) and
// allocated the claim before checking the layout: 1.1 GiB of wasm memory,
// kept for good. lz4's bytes hold at most 255 times as many.
TEST(DecodedBoundTest, ABloscLz4FrameOf32KiBClaimingOneGiBAllocatesNothing) {
  Decompressor d;
  Bytes frame = blosc_frame(kShuffle | kDontSplit | kInnerLz4, 1, 1u << 30, 1u << 16, 32768);
  for (size_t at = 16; at < frame.size(); ++at) frame[at] = static_cast<uint8_t>(at * 131);
  // 255 * (32768 - 16) = 8351760
  expect_refused(bounded(d, Compression::kBlosc, frame, 2 * kGiB), ErrorCode::kCorruptData,
                 "blosc: the header says it decodes to 1073741824 bytes (nbytes), more than its 32752 bytes of lz4 "
                 "after the header can hold (at most 255 per byte: 8351760)",
                 64 * 1024, "blosc lz4 claiming 1 GiB");
  // One byte past the bound, and the bound itself, which passes the claim
  // (the zeros after the header then fail as offsets).
  put_le32(&frame, 4, 8351761);
  expect_refused(bounded(d, Compression::kBlosc, frame, 2 * kGiB), ErrorCode::kCorruptData, "", 64 * 1024,
                 "blosc lz4 one past 255 per byte");
  EXPECT_NE(bounded(d, Compression::kBlosc, frame, 2 * kGiB).status.message().find("can hold"), std::string::npos);
  put_le32(&frame, 4, 8351760);
  const Outcome at_bound = bounded(d, Compression::kBlosc, frame, 2 * kGiB);
  EXPECT_EQ(at_bound.status.code(), ErrorCode::kCorruptData);
  EXPECT_EQ(at_bound.status.message().find("can hold"), std::string::npos) << at_bound.status.message();
}

// A memcpyed frame holds its nbytes verbatim after the header: cbytes is
// exactly nbytes + 16. A 32 KiB memcpyed frame claiming 1 GiB was within
// zstd's ratio, so 1 GiB was allocated before the layout was checked.
TEST(DecodedBoundTest, AMemcpyedFrameIsExactlyItsBytes) {
  Decompressor d;
  Bytes frame = blosc_frame(kMemcpyed, 1, 1u << 30, 1u << 16, 32768);
  expect_refused(bounded(d, Compression::kBlosc, frame, 2 * kGiB), ErrorCode::kCorruptData,
                 "blosc: a memcpyed frame holds its nbytes (1073741824) after its 16-byte header, so it has "
                 "1073741840 bytes; this one has 32768 (cbytes)",
                 64 * 1024, "memcpyed claiming 1 GiB");
  for (uint32_t nbytes : {32751u, 32753u}) {
    put_le32(&frame, 4, nbytes);
    put_le32(&frame, 8, nbytes);
    expect_refused(bounded(d, Compression::kBlosc, frame, 2 * kGiB), ErrorCode::kCorruptData, "", 64 * 1024,
                   "memcpyed nbytes " + std::to_string(nbytes));
    Bytes out(nbytes);
    EXPECT_EQ(d.decompress(Compression::kBlosc, frame.data(), frame.size(), out.data(), out.size()).code(),
              ErrorCode::kCorruptData)
        << nbytes;
  }
  // nbytes = cbytes - 16: the bytes after the header, as they are.
  put_le32(&frame, 4, 32752);
  put_le32(&frame, 8, 32752);
  for (size_t at = 16; at < frame.size(); ++at) frame[at] = static_cast<uint8_t>(at ^ (at >> 8));
  Bytes decoded;
  const Outcome ok = bounded(d, Compression::kBlosc, frame, 2 * kGiB, &decoded);
  ASSERT_TRUE(ok.status.ok()) << ok.status.message();
  EXPECT_EQ(decoded, Bytes(frame.begin() + 16, frame.end()));
}

// zstd inside: 512 MiB from 32 KiB is within zstd's ratio (32768 per
// byte), so the layout decides, before anything is allocated: block
// offsets outside the frame's data, or streams too short for their blocks.
TEST(DecodedBoundTest, ZstdInsideWithABadLayoutAllocatesNothing) {
  Decompressor d;
  // 512 blocks of 1 MiB: offsets at 16..2064, data from 2064.
  Bytes frame = blosc_frame(kDontSplit | kInnerZstd, 1, 1u << 29, 1u << 20, 32768);
  expect_refused(bounded(d, Compression::kBlosc, frame, 2 * kGiB), ErrorCode::kCorruptData,
                 "blosc: block 0's stream 0 starts at byte 0, outside the frame's data (2064..32764)", 64 * 1024,
                 "offsets into the header");
  // Every block's offset at 2064, where a stream says it has 20 bytes:
  // 20 bytes of zstd make at most 655360, not a block of 1048576.
  for (uint32_t j = 0; j < 512; ++j) put_le32(&frame, 16 + 4 * j, 2064);
  put_le32(&frame, 2064, 20);
  expect_refused(bounded(d, Compression::kBlosc, frame, 2 * kGiB), ErrorCode::kCorruptData,
                 "blosc: block 0's stream 0 has 20 bytes of zstd, which cannot decode to its 1048576 (at most 32768 "
                 "per byte)",
                 64 * 1024, "a stream too short for its block");
  // The last block's offset past the frame's end.
  put_le32(&frame, 2064, 40);
  put_le32(&frame, 16 + 4 * 511, 32768);
  expect_refused(bounded(d, Compression::kBlosc, frame, 2 * kGiB), ErrorCode::kCorruptData,
                 "blosc: block 511's stream 0 starts at byte 32768, outside the frame's data (2064..32764)", 64 * 1024,
                 "the last offset past the end");
  // 1 GiB from 32768 bytes after the header is zstd's ratio exactly, but
  // in blocks of 8 KiB its 131072 offsets alone need 512 KiB.
  Bytes offsets = blosc_frame(kDontSplit | kInnerZstd, 1, 1u << 30, 1u << 13, 32784);
  expect_refused(bounded(d, Compression::kBlosc, offsets, 2 * kGiB), ErrorCode::kCorruptData,
                 "blosc: the frame has 32784 bytes, too few for the offsets of its 131072 blocks", 64 * 1024,
                 "too few bytes for the offsets");
}

// Each stream is bounded by its own length too: a frame whose total is
// within lz4's ratio but one of whose streams is not.
TEST(DecodedBoundTest, EachStreamIsBoundedByItsLength) {
  Decompressor d;
  // Two blocks of 65536, one stream each: 300 bytes (up to 76500) and 200
  // bytes (up to 51000). 16 + 8 + (4 + 300) + (4 + 200) = 532 bytes; the
  // whole is within 255 * 516 = 131580.
  Bytes frame = blosc_frame(kDontSplit | kInnerLz4, 1, 131072, 65536, 532);
  put_le32(&frame, 16, 24);
  put_le32(&frame, 20, 328);
  put_le32(&frame, 24, 300);
  put_le32(&frame, 328, 200);
  expect_refused(bounded(d, Compression::kBlosc, frame, kGiB), ErrorCode::kCorruptData,
                 "blosc: block 1's stream 0 has 200 bytes of lz4, which cannot decode to its 65536 (at most 255 per "
                 "byte)",
                 4096, "the second stream");
  // The same through the exact decode: the scratch and output are the
  // caller's size, and nothing is decoded.
  Bytes out(131072, 0xEE);
  EXPECT_EQ(d.decompress(Compression::kBlosc, frame.data(), frame.size(), out.data(), out.size()).message(),
            "blosc: block 1's stream 0 has 200 bytes of lz4, which cannot decode to its 65536 (at most 255 per byte)");
  // Split streams (typesize 4, shuffled, blocks of at least 128 elements):
  // each of the four is bounded on its own.
  Bytes split = blosc_frame(kShuffle | kInnerLz4, 4, 65536, 65536, 16 + 4 + 4 * (4 + 100));
  uint32_t at = 20;
  put_le32(&split, 16, at);
  for (int k = 0; k < 4; ++k, at += 104) put_le32(&split, at, k == 2 ? 60 : 100);
  expect_refused(bounded(d, Compression::kBlosc, split, kGiB), ErrorCode::kCorruptData,
                 "blosc: block 0's stream 2 has 60 bytes of lz4, which cannot decode to its 16384 (at most 255 per "
                 "byte)",
                 4096, "a split stream");
}

// numcodecs' lz4: a 4-byte size, then one block, whose bytes hold at most
// 255 times as many.
TEST(DecodedBoundTest, AnLz4ClaimBeyond255PerByteOfItsBlockAllocatesNothing) {
  Decompressor d;
  Bytes frame(4 + 100, 0);
  for (size_t at = 4; at < frame.size(); ++at) frame[at] = static_cast<uint8_t>(at * 37);
  put_le32(&frame, 0, 25501);  // 255 * 100 + 1
  expect_refused(bounded(d, Compression::kLz4, frame, kGiB), ErrorCode::kCorruptData,
                 "lz4: the header says it decodes to 25501 bytes, more than its 100-byte block can hold (at most 255 "
                 "per byte: 25500)",
                 4096, "lz4 one past its bound");
  put_le32(&frame, 0, 1u << 30);
  expect_refused(bounded(d, Compression::kLz4, frame, 2 * kGiB), ErrorCode::kCorruptData, "", 4096,
                 "lz4 claiming 1 GiB");
  // At the bound the claim stands; the block's bytes do not make 25500.
  put_le32(&frame, 0, 25500);
  const Outcome at_bound = bounded(d, Compression::kLz4, frame, kGiB);
  EXPECT_FALSE(at_bound.status.ok());
  EXPECT_EQ(at_bound.status.message().find("can hold"), std::string::npos) << at_bound.status.message();
  // 32 KiB claiming 1 GiB (the frame of issue 33, without blosc).
  Bytes big(32768, 0x11);
  put_le32(&big, 0, 1u << 30);
  expect_refused(bounded(d, Compression::kLz4, big, 2 * kGiB), ErrorCode::kCorruptData, "", 64 * 1024,
                 "lz4 of 32 KiB claiming 1 GiB");
}

// BLOSC_MAX_BLOCKSIZE is (INT32_MAX - 255 * 4) / 3 = 715827542: a larger
// blocksize is named against that range, not against nbytes (within which
// it was).
TEST(DecodedBoundTest, ABlocksizePastBloscsLargestNamesThatRange) {
  Decompressor d;
  const Bytes frame = blosc_frame(kDontSplit | kInnerLz4, 1, 1u << 30, 715827543, 32768);
  expect_refused(bounded(d, Compression::kBlosc, frame, 2 * kGiB), ErrorCode::kCorruptData,
                 "blosc: the header's blocksize 715827543 is not within 1..715827542 (c-blosc's largest block, "
                 "BLOSC_MAX_BLOCKSIZE)",
                 64 * 1024, "blocksize past BLOSC_MAX_BLOCKSIZE");
  const Bytes small = blosc_frame(kDontSplit | kInnerLz4, 1, 4096, 4097, 64);
  Bytes out(4096);
  EXPECT_EQ(d.decompress(Compression::kBlosc, small.data(), small.size(), out.data(), out.size()).message(),
            "blosc: the header's blocksize 4097 is not within 1..4096 (nbytes)");
}

// Where a frame claims nothing (gzip, zlib, zstd from a streaming writer)
// the output grows as the data goes, never past what the bytes can decode
// to: the largest allocation is within 1032 (DEFLATE) or 32768 (zstd)
// times the frame, whatever the limit. Real frames of the densest data
// (zeros), and zstd RLE blocks at their densest, decode whole.
TEST(DecodedBoundTest, WithoutAClaimTheOutputGrowsNoFurtherThanTheBytesCanDecodeTo) {
  Decompressor d;
  const Bytes zeros(size_t{32} << 20, 0);
  CompressionOptions o;
  o.level = 9;
  for (Compression kind : {Compression::kGzip, Compression::kZlib}) {
    Compressor c;
    uint64_t room = 0;
    ASSERT_TRUE(Compressor::bound(kind, o, zeros.size(), &room).ok());
    Bytes frame(room);
    uint64_t written = 0;
    ASSERT_TRUE(c.compress(kind, o, zeros.data(), zeros.size(), frame.data(), frame.size(), &written).ok());
    frame.resize(written);
    const Outcome r = bounded(d, kind, frame, 2 * kGiB);
    ASSERT_TRUE(r.status.ok()) << compression_name(kind) << ": " << r.status.message();
    EXPECT_EQ(r.out_size, zeros.size());
    if (AllocationProbe::available()) EXPECT_LE(r.largest_allocation, 1032 * frame.size()) << compression_name(kind);
  }
  // RFC 8878 by hand: magic, a descriptor without content size (a window
  // descriptor follows: 2^(10 + 7) = 128 KiB), then 100 RLE blocks of
  // 128 KiB, the last marked: 406 bytes for 13107200.
  Bytes rle = {0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38};
  for (int k = 0; k < 100; ++k) {
    const uint32_t header = (k == 99 ? 1u : 0u) | (1u << 1) | (131072u << 3);
    rle.insert(rle.end(), {static_cast<uint8_t>(header), static_cast<uint8_t>(header >> 8),
                           static_cast<uint8_t>(header >> 16), 0x5a});
  }
  ASSERT_EQ(rle.size(), 406u);
  Bytes decoded;
  const Outcome r = bounded(d, Compression::kZstd, rle, 2 * kGiB, &decoded);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(decoded, Bytes(13107200, 0x5a));
  if (AllocationProbe::available()) EXPECT_LE(r.largest_allocation, 32768 * rle.size());
  // blosc's inner codecs at their densest: 32 MiB of zeros decode whole
  // within their ratios (none of c-blosc's encoders comes near them).
  for (BloscInner inner : {BloscInner::kBloscLz, BloscInner::kLz4, BloscInner::kLz4Hc, BloscInner::kZlib, BloscInner::kZstd}) {
    CompressionOptions bo;
    bo.level = 9;
    bo.blosc_inner = inner;
    bo.blosc_shuffle = BloscShuffle::kNone;
    Compressor c;
    uint64_t room = 0;
    ASSERT_TRUE(Compressor::bound(Compression::kBlosc, bo, zeros.size(), &room).ok());
    Bytes frame(room);
    uint64_t written = 0;
    ASSERT_TRUE(c.compress(Compression::kBlosc, bo, zeros.data(), zeros.size(), frame.data(), frame.size(), &written).ok());
    frame.resize(written);
    const Outcome b = bounded(d, Compression::kBlosc, frame, kGiB);
    ASSERT_TRUE(b.status.ok()) << static_cast<int>(inner) << ": " << b.status.message();
    EXPECT_EQ(b.out_size, zeros.size());
  }
}

}  // namespace
}  // namespace zcw
