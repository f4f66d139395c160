// Blosc chunks: c-blosc 1.x frames (format version 2), as numcodecs and
// zarr-python write them. The 16-byte header, the block offsets and the
// split layout are checked here first, against the chunk, because c-blosc
// trusts them: it never learns the input's length (it reads `cbytes` from
// the header), it allocates scratch from the header's blocksize without
// checking the allocation, and a split block whose size is not a multiple
// of the type size leaves bytes of its scratch unwritten. What passes is
// decoded by blosc_decompress_ctx on the calling thread.
#include <blosc.h>

#include <cstdlib>
#include <string>

#include "compress/frame_decoders.h"

namespace zcw::compress_internal {
namespace {

struct BloscHeader {
  uint8_t version = 0;
  uint8_t compversion = 0;
  uint8_t flags = 0;
  uint8_t typesize = 0;
  int64_t nbytes = 0;
  int64_t blocksize = 0;
  int64_t cbytes = 0;
};

int64_t le32s(const uint8_t* p) {
  return static_cast<int32_t>(uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24);
}

// blosc.h's flag bits (the shuffles are c-blosc's business), and c-blosc's rule for splitting a block into one
// stream per byte of the type (blosc.c, blosc_d).
constexpr uint8_t kFlagMemcpyed = BLOSC_MEMCPYED;
constexpr uint8_t kFlagFuture = 0x08;
constexpr uint8_t kFlagDontSplit = 0x10;
constexpr int64_t kMaxSplits = 16;
constexpr int64_t kMinSplitElements = 128;

const char* inner_name(uint8_t flags) {
  switch (flags >> 5) {
    case BLOSC_BLOSCLZ_FORMAT: return "blosclz";
    case BLOSC_LZ4_FORMAT: return "lz4";
    case BLOSC_SNAPPY_FORMAT: return "snappy";
    case BLOSC_ZLIB_FORMAT: return "zlib";
    case BLOSC_ZSTD_FORMAT: return "zstd";
  }
  return "an unknown compressor";
}

Status corrupt(const std::string& what) { return Status(ErrorCode::kCorruptData, "blosc: " + what); }

Status read_header(const uint8_t* in, uint64_t in_size, BloscHeader* h) {
  if (in == nullptr || in_size < BLOSC_MIN_HEADER_LENGTH) {
    return corrupt("the chunk has " + std::to_string(in_size) + " bytes, a blosc frame at least 16 (its header)");
  }
  h->version = in[0];
  h->compversion = in[1];
  h->flags = in[2];
  h->typesize = in[3];
  h->nbytes = le32s(in + 4);
  h->blocksize = le32s(in + 8);
  h->cbytes = le32s(in + 12);
  if (h->version != BLOSC_VERSION_FORMAT) {
    if (h->version >= 3 && h->version <= 5) {
      return Status(ErrorCode::kUnsupportedCodec,
                    "blosc: format version " + std::to_string(h->version) +
                        " (a c-blosc2 chunk); only version 2, c-blosc 1.x's (numcodecs' Blosc), is supported");
    }
    return corrupt("expected format version 2 (c-blosc 1.x), found " + std::to_string(h->version));
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

// Everything c-blosc would read, within the frame and consistent.
Status check_layout(const uint8_t* in, const BloscHeader& h) {
  if (h.nbytes == 0) {
    return h.cbytes == BLOSC_MIN_HEADER_LENGTH
               ? Status::Ok()
               : corrupt("an empty frame has 16 bytes, this one " + std::to_string(h.cbytes));
  }
  if (h.typesize == 0) return corrupt("the header's typesize is 0");
  if (h.blocksize == 0 || h.blocksize > h.nbytes || h.blocksize > static_cast<int64_t>(BLOSC_MAX_BLOCKSIZE)) {
    return corrupt("the header's blocksize " + std::to_string(h.blocksize) + " is not within 1.." +
                   std::to_string(h.nbytes) + " (nbytes)");
  }
  if (h.flags & kFlagMemcpyed) {
    if (h.cbytes != h.nbytes + BLOSC_MAX_OVERHEAD) {
      return corrupt("a memcpyed frame of " + std::to_string(h.nbytes) + " bytes has " +
                     std::to_string(h.nbytes + BLOSC_MAX_OVERHEAD) + " bytes, this one " + std::to_string(h.cbytes));
    }
    return Status::Ok();
  }
  switch (h.flags >> 5) {
    case BLOSC_BLOSCLZ_FORMAT:
    case BLOSC_LZ4_FORMAT:
    case BLOSC_ZLIB_FORMAT:
    case BLOSC_ZSTD_FORMAT: break;
    case BLOSC_SNAPPY_FORMAT:
      return Status(ErrorCode::kUnsupportedCodec, "blosc: the frame is compressed with snappy, which is not built in "
                                                  "(blosclz, lz4, lz4hc, zlib and zstd are)");
    default: return corrupt("unknown compressor code " + std::to_string(h.flags >> 5) + " in the header's flags");
  }
  if (h.compversion != 1) {
    return Status(ErrorCode::kUnsupportedCodec, std::string("blosc: ") + inner_name(h.flags) + " format version " +
                                                    std::to_string(h.compversion) + ", expected 1");
  }
  const bool split = !(h.flags & kFlagDontSplit) && h.typesize <= kMaxSplits &&
                     h.blocksize / h.typesize >= kMinSplitElements;
  if (split && h.blocksize % h.typesize != 0) {
    return corrupt("a block split into " + std::to_string(h.typesize) + " streams has " +
                   std::to_string(h.blocksize) + " bytes, not a multiple of the typesize");
  }
  const int64_t nblocks = (h.nbytes + h.blocksize - 1) / h.blocksize;
  const int64_t data_start = BLOSC_MAX_OVERHEAD + 4 * nblocks;
  if (data_start > h.cbytes) {
    return corrupt("the frame has " + std::to_string(h.cbytes) + " bytes, too few for the offsets of its " +
                   std::to_string(nblocks) + " blocks");
  }
  for (int64_t j = 0; j < nblocks; ++j) {
    const int64_t start = le32s(in + BLOSC_MAX_OVERHEAD + 4 * j);
    if (start < data_start || start > h.cbytes - 4) {
      return corrupt("block " + std::to_string(j) + " starts at byte " + std::to_string(start) +
                     ", outside the frame's data (" + std::to_string(data_start) + ".." + std::to_string(h.cbytes - 4) +
                     ")");
    }
  }
  return Status::Ok();
}

}  // namespace

Status blosc_declared_size(const uint8_t* in, uint64_t in_size, uint64_t* bytes) {
  BloscHeader h;
  Status s = read_header(in, in_size, &h);
  if (!s.ok()) return s;
  *bytes = static_cast<uint64_t>(h.nbytes);
  return Status::Ok();
}

Status blosc_decode(const uint8_t* in, uint64_t in_size, uint8_t* out, uint64_t out_size) {
  BloscHeader h;
  Status s = read_header(in, in_size, &h);
  if (!s.ok()) return s;
  if (static_cast<uint64_t>(h.nbytes) != out_size) {
    return Status(ErrorCode::kLengthMismatch, "blosc: the header says " + std::to_string(h.nbytes) +
                                                  " bytes (nbytes), the chunk has " + std::to_string(out_size));
  }
  s = check_layout(in, h);
  if (!s.ok() || h.nbytes == 0) return s;
  // c-blosc allocates its scratch (two blocks and the splits' sizes)
  // without checking; where wasm memory is at its limit, learn it here.
  const int64_t scratch = 2 * h.blocksize + int64_t{h.typesize} * 4 + 64;
  void* probe = std::malloc(static_cast<size_t>(scratch));
  if (probe == nullptr) {
    return Status(ErrorCode::kOutOfMemory, "blosc: out of memory for the decoder's " + std::to_string(scratch) +
                                               " bytes of scratch");
  }
  std::free(probe);
  const int r = blosc_decompress_ctx(in, nonnull(out), out_size, 1);
  if (r < 0) {
    return corrupt(std::string("a block's ") + inner_name(h.flags) +
                   " data is corrupt or does not decode to the block's size");
  }
  if (r != h.nbytes) {
    return Status(ErrorCode::kLengthMismatch, "blosc: the frame decodes to " + std::to_string(r) +
                                                  " bytes, its header says " + std::to_string(h.nbytes));
  }
  return Status::Ok();
}

}  // namespace zcw::compress_internal
