// Blosc chunks: c-blosc 1.x frames (format version 2), as numcodecs and
// zarr-python write them (c-blosc's README_CHUNK_FORMAT.rst):
//
//   16-byte header: version 2, the inner codec's format version, flags,
//   typesize, nbytes, blocksize, cbytes (int32 little-endian); then, unless
//   the frame is memcpyed, one int32 offset per block; each block is one
//   stream, or `typesize` streams (one per byte of the type) where c-blosc
//   splits it, each stream an int32 length and its bytes (a length equal to
//   the stream's decoded size means stored as is); a block decodes, then
//   is unshuffled (byte or bit) into place.
//
// The walk over the frame is ours; the kernels are c-blosc's and the
// libraries' (blosclz_decompress, LZ4_decompress_safe, zstd with the
// Decompressor's context, zlib through libdeflate, and c-blosc's unshuffle
// and bit-unshuffle, SSE2 in wasm: src/compress/glue/blosc_shuffle_wasm.c).
// Why not blosc.c's own decoder (docs/architecture.md, "Compressed
// chunks"): it trusts the header's cbytes for the input's length, does not
// check its scratch allocation, allocates a zstd context per stream, and
// runs compression and decompression through one function, which would put
// every compressor in the read module. Here every size is checked against
// the frame and the chunk before a byte is decoded or allocated: the
// header, the layout, every block's offset and every stream's length
// within the frame, nbytes within what the bytes after the header can
// decode to at the inner codec's ratio, and each stream's size within what
// its length can (decoded_bound.h); every stream must decode to exactly
// its size, scratch is the Decompressor's and reused, and the output is
// written only within the chunk.
#include <libdeflate.h>
#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

#include "compress/decoded_bound.h"
#include "compress/frame_decoders.h"

// c-blosc's kernels (C, hidden visibility in a static library).
extern "C" {
#include <blosclz.h>
#include <shuffle.h>
}

namespace zcw::compress_internal {
namespace {

// blosc.h's constants.
constexpr uint64_t kHeaderBytes = 16;
constexpr uint8_t kFormatVersion = 2;
constexpr uint8_t kFlagShuffle = 0x01;
constexpr uint8_t kFlagMemcpyed = 0x02;
constexpr uint8_t kFlagBitShuffle = 0x04;
constexpr uint8_t kFlagFuture = 0x08;
constexpr uint8_t kFlagDontSplit = 0x10;
constexpr int64_t kMaxBlockSize = (INT32_MAX - 255 * 4) / 3;  // BLOSC_MAX_BLOCKSIZE
// c-blosc's rule for splitting a block into one stream per byte of the
// type (blosc.c, blosc_d): at most 16 streams, of at least 128 elements.
constexpr int64_t kMaxSplits = 16;
constexpr int64_t kMinSplitElements = 128;

enum Inner : uint8_t { kBloscLz = 0, kLz4 = 1, kSnappy = 2, kZlib = 3, kZstd = 4 };

struct Header {
  uint8_t compversion = 0;
  uint8_t flags = 0;
  uint8_t typesize = 0;
  int64_t nbytes = 0;
  int64_t blocksize = 0;
  int64_t cbytes = 0;
  uint8_t inner() const { return flags >> 5; }
};

int64_t le32s(const uint8_t* p) {
  return static_cast<int32_t>(uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24);
}

const char* inner_name(uint8_t inner) {
  switch (inner) {
    case kBloscLz: return "blosclz";
    case kLz4: return "lz4";
    case kSnappy: return "snappy";
    case kZlib: return "zlib";
    case kZstd: return "zstd";
  }
  return "an unknown compressor";
}

Status corrupt(const std::string& what) { return Status(ErrorCode::kCorruptData, "blosc: " + what); }

Status read_header(const uint8_t* in, uint64_t in_size, Header* h) {
  if (in == nullptr || in_size < kHeaderBytes) {
    return corrupt("the chunk has " + std::to_string(in_size) + " bytes, a blosc frame at least 16 (its header)");
  }
  const uint8_t version = in[0];
  h->compversion = in[1];
  h->flags = in[2];
  h->typesize = in[3];
  h->nbytes = le32s(in + 4);
  h->blocksize = le32s(in + 8);
  h->cbytes = le32s(in + 12);
  if (version != kFormatVersion) {
    if (version >= 3 && version <= 5) {
      return Status(ErrorCode::kUnsupportedCodec,
                    "blosc: format version " + std::to_string(version) +
                        " (a c-blosc2 chunk); only version 2, c-blosc 1.x's (numcodecs' Blosc), is supported");
    }
    return corrupt("expected format version 2 (c-blosc 1.x), found " + std::to_string(version));
  }
  if (h->flags & kFlagFuture) {
    return Status(ErrorCode::kUnsupportedCodec, "blosc: the header sets flags of a later format (0x08)");
  }
  if (h->nbytes < 0 || h->cbytes < 0 || h->blocksize < 0) {
    return corrupt("the header's sizes are negative (nbytes " + std::to_string(h->nbytes) + ", blocksize " +
                   std::to_string(h->blocksize) + ", cbytes " + std::to_string(h->cbytes) + ")");
  }
  if (static_cast<uint64_t>(h->cbytes) != in_size) {
    return corrupt("the header says the frame has " + std::to_string(h->cbytes) + " bytes (cbytes), the chunk has " +
                   std::to_string(in_size) + (static_cast<uint64_t>(h->cbytes) > in_size ? " (truncated)" : ""));
  }
  return Status::Ok();
}

// The most one compressed byte of the frame's inner codec decodes to
// (decoded_bound.h).
uint64_t inner_ratio(const Header& h) {
  switch (h.inner()) {
    case kZlib: return kDeflateRatio;
    case kZstd: return kZstdRatio;
    case kLz4: return kLz4Ratio;
    default: return kBloscLzRatio;
  }
}

// What the header says, consistent and within what the frame's bytes can
// decode to; the block offsets within the frame.
Status check_layout(const Header& h) {
  if (h.nbytes == 0) {
    return h.cbytes == static_cast<int64_t>(kHeaderBytes)
               ? Status::Ok()
               : corrupt("an empty frame has 16 bytes, this one " + std::to_string(h.cbytes));
  }
  if (h.typesize == 0) return corrupt("the header's typesize is 0");
  const int64_t most_block = std::min(h.nbytes, kMaxBlockSize);
  if (h.blocksize == 0 || h.blocksize > most_block) {
    return corrupt("the header's blocksize " + std::to_string(h.blocksize) + " is not within 1.." +
                   std::to_string(most_block) +
                   (most_block == h.nbytes ? " (nbytes)" : " (c-blosc's largest block, BLOSC_MAX_BLOCKSIZE)"));
  }
  if (h.flags & kFlagMemcpyed) {
    // The nbytes themselves, verbatim after the header.
    if (h.cbytes != h.nbytes + static_cast<int64_t>(kHeaderBytes)) {
      return corrupt("a memcpyed frame holds its nbytes (" + std::to_string(h.nbytes) +
                     ") after its 16-byte header, so it has " + std::to_string(h.nbytes + 16) +
                     " bytes; this one has " + std::to_string(h.cbytes) + " (cbytes)");
    }
    return Status::Ok();
  }
  switch (h.inner()) {
    case kBloscLz:
    case kLz4:
    case kZlib:
    case kZstd: break;
    case kSnappy:
      return Status(ErrorCode::kUnsupportedCodec, "blosc: the frame is compressed with snappy, which is not built in "
                                                  "(blosclz, lz4, lz4hc, zlib and zstd are)");
    default: return corrupt("unknown compressor code " + std::to_string(h.inner()) + " in the header's flags");
  }
  if (h.compversion != 1) {
    return Status(ErrorCode::kUnsupportedCodec, std::string("blosc: ") + inner_name(h.inner()) + " format version " +
                                                    std::to_string(h.compversion) + ", expected 1");
  }
  // Every decoded byte comes from the frame's bytes after the header, at
  // most the inner codec's ratio each (a stream stored as is: one each).
  const uint64_t ratio = inner_ratio(h);
  const uint64_t most = most_decoded(static_cast<uint64_t>(h.cbytes) - kHeaderBytes, ratio);
  if (static_cast<uint64_t>(h.nbytes) > most) {
    return corrupt("the header says it decodes to " + std::to_string(h.nbytes) + " bytes (nbytes), more than its " +
                   std::to_string(h.cbytes - 16) + " bytes of " + inner_name(h.inner()) +
                   " after the header can hold (at most " + std::to_string(ratio) + " per byte: " +
                   std::to_string(most) + ")");
  }
  const bool split = !(h.flags & kFlagDontSplit) && h.typesize <= kMaxSplits &&
                     h.blocksize / h.typesize >= kMinSplitElements;
  if (split && h.blocksize % h.typesize != 0) {
    return corrupt("a block split into " + std::to_string(h.typesize) + " streams has " +
                   std::to_string(h.blocksize) + " bytes, not a multiple of the typesize");
  }
  const int64_t nblocks = (h.nbytes + h.blocksize - 1) / h.blocksize;
  const int64_t data_start = static_cast<int64_t>(kHeaderBytes) + 4 * nblocks;
  if (data_start > h.cbytes) {
    return corrupt("the frame has " + std::to_string(h.cbytes) + " bytes, too few for the offsets of its " +
                   std::to_string(nblocks) + " blocks");
  }
  return Status::Ok();
}

// One stream of a compressed frame: `length` bytes at `src` that decode to
// `bytes` bytes at `offset` within block `block`'s `block_bytes`, the
// stream `index` of the block's `count`.
struct Stream {
  int64_t block = 0, block_bytes = 0;
  int64_t index = 0, count = 0;
  int64_t offset = 0, bytes = 0;
  const uint8_t* src = nullptr;
  int64_t length = 0;
};

// Calls `visit(const Stream&)` for each stream of a frame that passed
// check_layout, in order, stopping at its first error; each stream's place
// and length are checked against the frame first, and its length against
// what it must decode to (stored as is, or at most the inner codec's
// ratio per byte). One walk checks a frame before anything is allocated
// (a visit that does nothing), another decodes it.
template <typename Visit>
Status for_each_stream(const Header& h, const uint8_t* in, Visit visit) {
  const int64_t nblocks = (h.nbytes + h.blocksize - 1) / h.blocksize;
  const int64_t data_start = static_cast<int64_t>(kHeaderBytes) + 4 * nblocks;
  const uint64_t ratio = inner_ratio(h);
  Stream s;
  for (s.block = 0; s.block < nblocks; ++s.block) {
    const bool last_short = s.block == nblocks - 1 && h.nbytes % h.blocksize != 0;
    s.block_bytes = last_short ? h.nbytes % h.blocksize : h.blocksize;
    s.count = !(h.flags & kFlagDontSplit) && h.typesize <= kMaxSplits &&
                      s.block_bytes / h.typesize >= kMinSplitElements && !last_short
                  ? h.typesize
                  : 1;
    s.bytes = s.block_bytes / s.count;
    int64_t at = le32s(in + kHeaderBytes + 4 * s.block);
    for (s.index = 0; s.index < s.count; ++s.index) {
      auto which = [&s] { return "block " + std::to_string(s.block) + "'s stream " + std::to_string(s.index); };
      if (at < data_start || at > h.cbytes - 4) {
        return corrupt(which() + " starts at byte " + std::to_string(at) + ", outside the frame's data (" +
                       std::to_string(data_start) + ".." + std::to_string(h.cbytes - 4) + ")");
      }
      s.length = le32s(in + at);
      at += 4;
      if (s.length < 0 || s.length > h.cbytes - at) {
        return corrupt(which() + " says it has " + std::to_string(s.length) + " bytes, the frame has " +
                       std::to_string(h.cbytes - at) + " after it");
      }
      if (s.length != s.bytes && most_decoded(static_cast<uint64_t>(s.length), ratio) < static_cast<uint64_t>(s.bytes)) {
        return corrupt(which() + " has " + std::to_string(s.length) + " bytes of " + inner_name(h.inner()) +
                       ", which cannot decode to its " + std::to_string(s.bytes) + " (at most " +
                       std::to_string(ratio) + " per byte)");
      }
      s.src = in + at;
      s.offset = s.index * s.bytes;
      if (Status st = visit(static_cast<const Stream&>(s)); !st.ok()) return st;
      at += s.length;
    }
  }
  return Status::Ok();
}

// The frame's size settled from its structure: header, layout, every
// stream within the frame and able to decode to its size.
Status settle(const uint8_t* in, uint64_t in_size, Header* h) {
  Status s = read_header(in, in_size, h);
  if (s.ok()) s = check_layout(*h);
  if (!s.ok() || h->nbytes == 0 || (h->flags & kFlagMemcpyed)) return s;
  return for_each_stream(*h, in, [](const Stream&) { return Status::Ok(); });
}

}  // namespace

Status blosc_settled_size(const uint8_t* in, uint64_t in_size, uint64_t* bytes) {
  Header h;
  Status s = settle(in, in_size, &h);
  if (!s.ok()) return s;
  *bytes = static_cast<uint64_t>(h.nbytes);
  return Status::Ok();
}

Status blosc_decode(const BloscContexts& c, const uint8_t* in, uint64_t in_size, uint8_t* out, uint64_t out_size) {
  Header h;
  Status s = read_header(in, in_size, &h);
  if (!s.ok()) return s;
  if (static_cast<uint64_t>(h.nbytes) != out_size) {
    return Status(ErrorCode::kLengthMismatch, "blosc: the header says it decodes to " + std::to_string(h.nbytes) +
                                                  " bytes (nbytes), the chunk's decoded size is " +
                                                  std::to_string(out_size) + " bytes");
  }
  s = settle(in, in_size, &h);
  if (!s.ok() || h.nbytes == 0) return s;
  if (h.flags & kFlagMemcpyed) {
    std::memcpy(out, in + kHeaderBytes, out_size);
    return Status::Ok();
  }

  const int64_t typesize = h.typesize;
  // A block decodes into scratch where it is then unshuffled into place
  // (bit-unshuffle needs a second block of scratch), else straight into
  // place. The scratch is only as large as the frame's shuffle needs.
  const bool shuffle = (h.flags & kFlagShuffle) && typesize > 1;
  const bool bit_shuffle = !shuffle && (h.flags & kFlagBitShuffle);
  const uint64_t scratch_bytes = static_cast<uint64_t>(h.blocksize) * (shuffle ? 1 : bit_shuffle ? 2 : 0);
  if (c.scratch->size() < scratch_bytes && !c.scratch->resize(scratch_bytes)) {
    return Status(ErrorCode::kOutOfMemory, "blosc: out of memory for " + std::to_string(scratch_bytes) +
                                               " bytes of scratch");
  }
  uint8_t* tmp = c.scratch->data();
  uint8_t* tmp2 = bit_shuffle ? tmp + h.blocksize : nullptr;
  const char* name = inner_name(h.inner());
  return for_each_stream(h, in, [&](const Stream& st) {
    uint8_t* dest = out + st.block * h.blocksize;
    const bool bit_shuffled = bit_shuffle && st.block_bytes >= typesize;
    uint8_t* dst = (shuffle || bit_shuffled ? tmp : dest) + st.offset;
    int64_t decoded = -1;
    if (st.length == st.bytes) {
      std::memcpy(dst, st.src, static_cast<size_t>(st.length));  // stored as is
      decoded = st.length;
    } else {
      switch (h.inner()) {
        case kBloscLz: decoded = blosclz_decompress(st.src, static_cast<int>(st.length), dst, static_cast<int>(st.bytes)); break;
        case kLz4:
          decoded = LZ4_decompress_safe(reinterpret_cast<const char*>(st.src), reinterpret_cast<char*>(dst),
                                        static_cast<int>(st.length), static_cast<int>(st.bytes));
          break;
        case kZstd: {
          const size_t r = ZSTD_decompressDCtx(c.zstd, dst, static_cast<size_t>(st.bytes), st.src, static_cast<size_t>(st.length));
          if (!ZSTD_isError(r)) decoded = static_cast<int64_t>(r);
          break;
        }
        case kZlib: {
          Filled filled;
          if (zlib_fill(c.deflate, st.src, static_cast<uint64_t>(st.length), dst, static_cast<uint64_t>(st.bytes), &filled).ok() &&
              !filled.overflow) {
            decoded = static_cast<int64_t>(filled.bytes);
          }
          break;
        }
      }
    }
    if (decoded != st.bytes) {
      return corrupt("block " + std::to_string(st.block) + "'s stream " + std::to_string(st.index) + " (" + name +
                     ", " + std::to_string(st.length) + " bytes) " +
                     (decoded < 0 ? std::string("is corrupt") : "decodes to " + std::to_string(decoded) + " bytes") +
                     ", expected " + std::to_string(st.bytes));
    }
    if (st.index == st.count - 1) {
      const size_t bsize = static_cast<size_t>(st.block_bytes);
      if (shuffle) {
        blosc_internal_unshuffle(static_cast<size_t>(typesize), bsize, tmp, dest);
      } else if (bit_shuffled && blosc_internal_bitunshuffle(static_cast<size_t>(typesize), bsize, tmp, dest, tmp2) < 0) {
        return corrupt("block " + std::to_string(st.block) + " does not bit-unshuffle");
      }
    }
    return Status::Ok();
  });
}

}  // namespace zcw::compress_internal
