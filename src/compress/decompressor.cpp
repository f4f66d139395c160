// Decompressor: the exact and bounded decodes over the per-format decoders
// (frame_decoders.h), and the contexts they reuse.
#include "compress/decompressor.h"

#include <libdeflate.h>
#include <zstd.h>

#include <algorithm>
#include <string>

#include "compress/decoded_bound.h"
#include "compress/frame_decoders.h"

namespace zcw {

using compress_internal::Filled;
using compress_internal::most_decoded;

namespace {

std::string bytes_text(uint64_t n) { return std::to_string(n) + " bytes"; }

// The first output a bounded decode without a size claim tries: the
// common compression ratios of image chunks fit, and it doubles from
// there (so the work stays within twice a decode of the final size).
uint64_t first_guess(uint64_t in_size, uint64_t max_out) {
  const uint64_t guess = in_size > (UINT64_MAX / 8) ? UINT64_MAX : std::max<uint64_t>(uint64_t{1} << 16, in_size * 8);
  return std::min(guess, max_out);
}

// The compressed bytes a frame of `in_size` bytes decodes from, and at
// what ratio (decoded_bound.h): numcodecs' lz4 is a 4-byte size header and
// a block. blosc's frame is settled by its own walk (blosc_settled_size),
// which knows its inner codec.
struct Bound {
  uint64_t bytes;
  uint64_t ratio;
  uint64_t most() const { return most_decoded(bytes, ratio); }
};
Bound bound_of(Compression kind, uint64_t in_size) {
  switch (kind) {
    case Compression::kZstd: return {in_size, compress_internal::kZstdRatio};
    case Compression::kLz4: return {in_size < 4 ? 0 : in_size - 4, compress_internal::kLz4Ratio};
    default: return {in_size, compress_internal::kDeflateRatio};
  }
}

std::string bound_text(Compression kind, const Bound& b) {
  return (kind == Compression::kLz4 ? "its " + std::to_string(b.bytes) + "-byte block" : "its " + bytes_text(b.bytes)) +
         " can hold (at most " + std::to_string(b.ratio) + " per byte: " + std::to_string(b.most()) + ")";
}

}  // namespace

Decompressor::~Decompressor() {
  ZSTD_freeDCtx(zstd_);
  libdeflate_free_decompressor(deflate_);
}

Status Decompressor::zstd_context(ZSTD_DCtx_s** out) {
  if (zstd_ == nullptr) zstd_ = ZSTD_createDCtx();
  if (zstd_ == nullptr) return Status(ErrorCode::kOutOfMemory, "zstd: out of memory for a decoder context");
  *out = zstd_;
  return Status::Ok();
}

Status Decompressor::deflate_context(libdeflate_decompressor** out) {
  if (deflate_ == nullptr) deflate_ = libdeflate_alloc_decompressor();
  if (deflate_ == nullptr) return Status(ErrorCode::kOutOfMemory, "gzip/zlib: out of memory for a decoder");
  *out = deflate_;
  return Status::Ok();
}

Status Decompressor::decompress(Compression kind, const uint8_t* in, uint64_t in_size, uint8_t* out,
                                uint64_t out_size) {
  const char* name = compression_name(kind);
  if ((in == nullptr && in_size != 0) || (out == nullptr && out_size != 0)) {
    return Status(ErrorCode::kInvalidInput, std::string(name) + ": no buffer for the chunk's bytes");
  }
  Filled filled;
  Status s;
  switch (kind) {
    case Compression::kLz4: return compress_internal::lz4_decode(in, in_size, out, out_size);
    case Compression::kBlosc: {
      ZSTD_DCtx_s* dctx = nullptr;
      libdeflate_decompressor* d = nullptr;
      s = zstd_context(&dctx);
      if (s.ok()) s = deflate_context(&d);
      if (!s.ok()) return s;
      return compress_internal::blosc_decode({dctx, d, &blosc_scratch_}, in, in_size, out, out_size);
    }
    case Compression::kZstd: {
      bool known = false;
      uint64_t declared = 0;
      s = compress_internal::zstd_declared_size(in, in_size, &known, &declared);
      if (!s.ok()) return s;
      if (known && declared != out_size) {
        return Status(ErrorCode::kLengthMismatch, "zstd: the frame says it decodes to " + bytes_text(declared) +
                                                      " (its content size), the chunk's decoded size is " +
                                                      bytes_text(out_size));
      }
      ZSTD_DCtx_s* dctx = nullptr;
      s = zstd_context(&dctx);
      if (s.ok()) s = compress_internal::zstd_fill(dctx, in, in_size, out, out_size, &filled);
      break;
    }
    case Compression::kGzip:
    case Compression::kZlib: {
      libdeflate_decompressor* d = nullptr;
      s = deflate_context(&d);
      if (s.ok()) {
        s = kind == Compression::kGzip ? compress_internal::gzip_fill(d, in, in_size, out, out_size, &filled)
                                       : compress_internal::zlib_fill(d, in, in_size, out, out_size, &filled);
      }
      break;
    }
    default: return Status(ErrorCode::kInvalidInput, "decompress: unknown compression");
  }
  if (!s.ok()) return s;
  if (filled.overflow) return overflow_status(kind, in, in_size, out_size);
  if (filled.bytes != out_size) {
    return Status(ErrorCode::kLengthMismatch, std::string(name) + ": the frame decodes to " +
                                                  bytes_text(filled.bytes) + ", the chunk's decoded size is " +
                                                  bytes_text(out_size));
  }
  return Status::Ok();
}

// A frame that does not fit the chunk: too long, or, for DEFLATE, maybe
// truncated. libdeflate reads bits past the end of a truncated stream as
// zeros (a few bytes' worth at most, then it reports bad data), and those
// can decode to more output before the end is noticed. Decoding once more
// with a little room to spare tells the two apart; this runs only on the
// error path, and allocates the chunk's size plus 64 KiB, never what the
// frame says.
Status Decompressor::overflow_status(Compression kind, const uint8_t* in, uint64_t in_size, uint64_t out_size) {
  const std::string name = compression_name(kind);
  const Status more(ErrorCode::kLengthMismatch, name + ": the frame decodes to more than the chunk's decoded size of " +
                                                    bytes_text(out_size));
  if (kind != Compression::kGzip && kind != Compression::kZlib) return more;
  const uint64_t room = out_size + (uint64_t{1} << 16);
  MallocBytes spare;
  if (room < out_size || !spare.resize(room)) return more;
  Filled filled;
  const Status s = kind == Compression::kGzip
                       ? compress_internal::gzip_fill(deflate_, in, in_size, spare.data(), room, &filled)
                       : compress_internal::zlib_fill(deflate_, in, in_size, spare.data(), room, &filled);
  if (!s.ok()) return s;
  if (filled.overflow) return more;
  return Status(ErrorCode::kLengthMismatch, name + ": the frame decodes to " + bytes_text(filled.bytes) +
                                                ", the chunk's decoded size is " + bytes_text(out_size));
}

Status Decompressor::decompress_bounded(Compression kind, const uint8_t* in, uint64_t in_size, uint64_t max_out,
                                        MallocBytes* out) {
  const std::string name = compression_name(kind);
  out->resize(0);
  if (in == nullptr && in_size != 0) return Status(ErrorCode::kInvalidInput, name + ": no buffer for the chunk's bytes");
  if (static_cast<int>(kind) < 0 || static_cast<int>(kind) >= kCompressionKinds) {
    return Status(ErrorCode::kInvalidInput, "decompress: unknown compression");
  }

  // A size the frame declares: checked against what its bytes can decode
  // to (blosc: its whole structure settled) and the limit, then an exact
  // decode into that much memory.
  bool known = false;
  uint64_t declared = 0;
  Status s;
  switch (kind) {
    case Compression::kZstd: s = compress_internal::zstd_declared_size(in, in_size, &known, &declared); break;
    case Compression::kLz4:
      s = compress_internal::lz4_declared_size(in, in_size, &declared);
      known = true;
      break;
    case Compression::kBlosc:
      s = compress_internal::blosc_settled_size(in, in_size, &declared);
      known = true;
      break;
    default: break;
  }
  if (!s.ok()) return s;
  const Bound bound = bound_of(kind, in_size);
  if (known) {
    const bool lies = kind != Compression::kBlosc && declared > bound.most();
    if (lies || declared > max_out) {
      return Status(lies ? ErrorCode::kCorruptData : ErrorCode::kLengthMismatch,
                    name + (kind == Compression::kZstd ? ": the frame" : ": the header") + " says it decodes to " +
                        bytes_text(declared) + ", more than " +
                        (lies ? bound_text(kind, bound) : "the limit of " + bytes_text(max_out)));
    }
    if (!out->resize(declared)) {
      return Status(ErrorCode::kOutOfMemory, name + ": out of memory for " + bytes_text(declared) + " of output");
    }
    s = decompress(kind, in, in_size, out->data(), declared);
    if (!s.ok()) out->resize(0);
    return s;
  }

  // No claim (zlib, gzip, zstd from a streaming writer): decode into a
  // buffer that doubles, up to the limit or what the bytes can decode to,
  // while the data goes on.
  const uint64_t most = std::min(max_out, bound.most());
  uint64_t capacity = first_guess(in_size, most);
  uint64_t hint = 0;
  if (kind == Compression::kGzip && compress_internal::gzip_last_member_size(in, in_size, &hint) && hint <= most &&
      hint > capacity) {
    capacity = hint;  // a single member's size, mod 2^32: right unless it lies
  }
  ZSTD_DCtx_s* dctx = nullptr;
  libdeflate_decompressor* d = nullptr;
  s = kind == Compression::kZstd ? zstd_context(&dctx) : deflate_context(&d);
  if (!s.ok()) return s;
  for (;;) {
    if (!out->resize(capacity)) {
      out->resize(0);
      return Status(ErrorCode::kOutOfMemory, name + ": out of memory for " + bytes_text(capacity) + " of output");
    }
    Filled filled;
    switch (kind) {
      case Compression::kZstd: s = compress_internal::zstd_fill(dctx, in, in_size, out->data(), capacity, &filled); break;
      case Compression::kGzip: s = compress_internal::gzip_fill(d, in, in_size, out->data(), capacity, &filled); break;
      default: s = compress_internal::zlib_fill(d, in, in_size, out->data(), capacity, &filled); break;
    }
    if (!s.ok()) {
      out->resize(0);
      return s;
    }
    if (!filled.overflow) {
      out->resize(filled.bytes);  // shrinking cannot fail
      return Status::Ok();
    }
    if (capacity == most) {
      out->resize(0);
      if (most < max_out) {
        return Status(ErrorCode::kCorruptData, name + ": the frame decodes to more than " + bound_text(kind, bound));
      }
      return Status(ErrorCode::kLengthMismatch,
                    name + ": the frame decodes to more than the limit of " + bytes_text(max_out));
    }
    capacity = capacity > most / 2 ? most : std::max<uint64_t>(capacity * 2, 1);
  }
}

}  // namespace zcw
