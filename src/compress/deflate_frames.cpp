// gzip (RFC 1952) and zlib (RFC 1950) chunks: their framing read here, the
// DEFLATE data between inflated by libdeflate's whole-buffer decoder, which
// stops at the end of the output it is given instead of growing it. The
// framing is ours so that each fault has its own answer: a checksum that
// disagrees (CRC-32 and ISIZE, Adler-32) is CHECKSUM_MISMATCH, a stream cut
// short or followed by other bytes is CORRUPT_DATA.
#include <libdeflate.h>

#include <string>

#include "compress/frame_decoders.h"

namespace zcw::compress_internal {
namespace {

uint32_t le32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}
uint32_t be32(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
}

std::string hex32(uint32_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string s = "0x00000000";
  for (int i = 0; i < 8; ++i) s[9 - i] = digits[(v >> (4 * i)) & 15];
  return s;
}

// One raw DEFLATE stream at in[0, in_size) into out[0, capacity).
// `*used` is the stream's length in bytes.
Status inflate(libdeflate_decompressor* d, const char* codec, const uint8_t* in, uint64_t in_size,
               uint8_t* out, uint64_t capacity, uint64_t* used, Filled* filled) {
  size_t in_used = 0;
  size_t out_used = 0;
  const libdeflate_result r =
      libdeflate_deflate_decompress_ex(d, in, in_size, out, capacity, &in_used, &out_used);
  if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
    filled->overflow = true;
    return Status::Ok();
  }
  if (r != LIBDEFLATE_SUCCESS) {
    return Status(ErrorCode::kCorruptData,
                  std::string(codec) + ": the DEFLATE data is corrupt or truncated");
  }
  *used = in_used;
  filled->bytes += out_used;
  return Status::Ok();
}

// A gzip member's header: its length, or an error.
Status gzip_header(const uint8_t* in, uint64_t in_size, uint64_t* length) {
  const Status truncated(ErrorCode::kCorruptData, "gzip: a member's header is truncated");
  if (in_size < 10) return truncated;
  if (in[0] != 0x1f || in[1] != 0x8b) {
    return Status(ErrorCode::kCorruptData, "gzip: expected a gzip member (bytes 1f 8b), found " +
                                               hex32(uint32_t{in[0]} << 8 | in[1]).substr(6));
  }
  if (in[2] != 8) {
    return Status(ErrorCode::kCorruptData,
                  "gzip: compression method " + std::to_string(in[2]) + ", expected 8 (DEFLATE)");
  }
  const uint8_t flags = in[3];
  if (flags & 0xe0) return Status(ErrorCode::kCorruptData, "gzip: reserved header flags are set");
  uint64_t at = 10;
  if (flags & 0x04) {  // FEXTRA
    if (in_size - at < 2) return truncated;
    at += 2 + (uint64_t{in[at]} | uint64_t{in[at + 1]} << 8);
    if (at > in_size) return truncated;
  }
  for (uint8_t zero_terminated : {uint8_t{0x08}, uint8_t{0x10}}) {  // FNAME, FCOMMENT
    if (!(flags & zero_terminated)) continue;
    while (at < in_size && in[at] != 0) ++at;
    if (at == in_size) return truncated;
    ++at;
  }
  // FHCRC: skipped unchecked, as zlib and Python's gzip do.
  if (flags & 0x02) at += 2;
  if (at > in_size) return truncated;
  *length = at;
  return Status::Ok();
}

}  // namespace

Status gzip_fill(libdeflate_decompressor* d, const uint8_t* in, uint64_t in_size, uint8_t* out,
                 uint64_t capacity, Filled* filled) {
  in = nonnull(in);
  out = nonnull(out);
  *filled = Filled{};
  if (in_size == 0) return Status(ErrorCode::kCorruptData, "gzip: the chunk is empty, expected a gzip member");
  uint64_t at = 0;
  for (int member = 1;; ++member) {
    uint64_t header = 0;
    Status s = gzip_header(in + at, in_size - at, &header);
    if (!s.ok()) return s;
    at += header;
    const uint64_t start = filled->bytes;
    uint64_t used = 0;
    s = inflate(d, "gzip", in + at, in_size - at, out + start, capacity - start, &used, filled);
    if (!s.ok() || filled->overflow) return s;
    at += used;
    if (in_size - at < 8) return Status(ErrorCode::kCorruptData, "gzip: the stream is truncated (no trailer)");
    const uint64_t produced = filled->bytes - start;
    const uint32_t crc = libdeflate_crc32(0, out + start, produced);
    if (crc != le32(in + at)) {
      return Status(ErrorCode::kChecksumMismatch, "gzip: member " + std::to_string(member) +
                                                      "'s CRC-32 is " + hex32(le32(in + at)) +
                                                      ", its data's is " + hex32(crc));
    }
    if (static_cast<uint32_t>(produced) != le32(in + at + 4)) {
      return Status(ErrorCode::kChecksumMismatch,
                    "gzip: member " + std::to_string(member) + "'s trailer says " +
                        std::to_string(le32(in + at + 4)) + " bytes (ISIZE), it decodes to " +
                        std::to_string(produced));
    }
    at += 8;
    // Another member, or the end. Zero bytes after a member are padding,
    // as Python's gzip (numcodecs' GZip) reads them; anything else must be
    // another member.
    while (at < in_size && in[at] == 0) ++at;
    if (at == in_size) return Status::Ok();
    if (in_size - at < 2 || in[at] != 0x1f || in[at + 1] != 0x8b) {
      return Status(ErrorCode::kCorruptData, "gzip: " + std::to_string(in_size - at) + " bytes after member " +
                                                 std::to_string(member) + " that are not another member");
    }
  }
}

bool gzip_last_member_size(const uint8_t* in, uint64_t in_size, uint64_t* bytes) {
  if (in == nullptr || in_size < 18) return false;
  *bytes = le32(in + in_size - 4);
  return true;
}

Status zlib_fill(libdeflate_decompressor* d, const uint8_t* in, uint64_t in_size, uint8_t* out,
                 uint64_t capacity, Filled* filled) {
  in = nonnull(in);
  out = nonnull(out);
  *filled = Filled{};
  if (in_size < 2) {
    return Status(ErrorCode::kCorruptData,
                  "zlib: the chunk has " + std::to_string(in_size) + " bytes, a zlib stream at least 6");
  }
  const uint8_t cmf = in[0];
  const uint8_t flg = in[1];
  if ((cmf & 0x0f) != 8 || (cmf >> 4) > 7 || (uint32_t{cmf} << 8 | flg) % 31 != 0) {
    return Status(ErrorCode::kCorruptData,
                  "zlib: expected a zlib header (DEFLATE, a window of at most 32 KiB, its check bits), found " +
                      hex32(uint32_t{cmf} << 8 | flg).substr(6));
  }
  if (flg & 0x20) {
    return Status(ErrorCode::kUnsupportedCodec,
                  "zlib: the stream needs a preset dictionary; those are not supported");
  }
  uint64_t used = 0;
  Status s = inflate(d, "zlib", in + 2, in_size - 2, out, capacity, &used, filled);
  if (!s.ok() || filled->overflow) return s;
  const uint64_t at = 2 + used;
  if (in_size - at < 4) return Status(ErrorCode::kCorruptData, "zlib: the stream is truncated (no Adler-32)");
  const uint32_t adler = libdeflate_adler32(1, out, filled->bytes);
  if (adler != be32(in + at)) {
    return Status(ErrorCode::kChecksumMismatch,
                  "zlib: the stream's Adler-32 is " + hex32(be32(in + at)) + ", its data's is " + hex32(adler));
  }
  if (in_size - at > 4) {
    return Status(ErrorCode::kCorruptData,
                  "zlib: " + std::to_string(in_size - at - 4) + " bytes after the end of the stream");
  }
  return Status::Ok();
}

}  // namespace zcw::compress_internal
