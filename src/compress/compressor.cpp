// The encoders behind Compressor (compressor.h).
#include "compress/compressor.h"

#include <blosc.h>
#include <libdeflate.h>
#include <lz4.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <climits>
#include <string>

namespace zcw {
namespace {

Status bad_option(const char* codec, const std::string& what) {
  return Status(ErrorCode::kInvalidConfiguration, std::string(codec) + ": " + what);
}

Status check_options(Compression kind, const CompressionOptions& o) {
  switch (kind) {
    case Compression::kZstd:
      if (o.level < ZSTD_minCLevel() || o.level > ZSTD_maxCLevel()) {
        return bad_option("zstd", "level must be within " + std::to_string(ZSTD_minCLevel()) + ".." +
                                      std::to_string(ZSTD_maxCLevel()) + ", got " + std::to_string(o.level));
      }
      return Status::Ok();
    case Compression::kGzip:
    case Compression::kZlib:
      if (o.level < -1 || o.level > 9) {
        return bad_option(compression_name(kind), "level must be within -1..9, got " + std::to_string(o.level));
      }
      return Status::Ok();
    case Compression::kLz4: return Status::Ok();
    case Compression::kBlosc:
      switch (o.blosc_inner) {
        case BloscInner::kBloscLz:
        case BloscInner::kLz4:
        case BloscInner::kLz4Hc:
        case BloscInner::kZlib:
        case BloscInner::kZstd: break;
        default:
          return bad_option("blosc", "cname code must be 0 (blosclz), 1 (lz4), 2 (lz4hc), 4 (zlib) or 5 (zstd), got " +
                                         std::to_string(static_cast<int>(o.blosc_inner)));
      }
      if (o.level < 0 || o.level > 9) return bad_option("blosc", "clevel must be within 0..9, got " + std::to_string(o.level));
      if (static_cast<int>(o.blosc_shuffle) < -1 || static_cast<int>(o.blosc_shuffle) > 2) {
        return bad_option("blosc", "shuffle must be -1 (auto), 0, 1 or 2, got " +
                                       std::to_string(static_cast<int>(o.blosc_shuffle)));
      }
      if (o.typesize < 1 || o.typesize > BLOSC_MAX_TYPESIZE) {
        return bad_option("blosc", "typesize must be within 1..255, got " + std::to_string(o.typesize));
      }
      if (o.blocksize > BLOSC_MAX_BLOCKSIZE) {
        return bad_option("blosc", "blocksize must be at most " + std::to_string(BLOSC_MAX_BLOCKSIZE) + ", got " +
                                       std::to_string(o.blocksize));
      }
      return Status::Ok();
  }
  return Status(ErrorCode::kInvalidInput, "compress: unknown compression");
}

// The largest input each format takes in one frame.
uint64_t max_input(Compression kind) {
  switch (kind) {
    case Compression::kLz4: return LZ4_MAX_INPUT_SIZE;
    case Compression::kBlosc: return BLOSC_MAX_BUFFERSIZE;
    default: return uint64_t{1} << 40;  // beyond any wasm memory; keeps the bounds' arithmetic exact
  }
}

const char* blosc_cname(BloscInner inner) {
  switch (inner) {
    case BloscInner::kBloscLz: return BLOSC_BLOSCLZ_COMPNAME;
    case BloscInner::kLz4: return BLOSC_LZ4_COMPNAME;
    case BloscInner::kLz4Hc: return BLOSC_LZ4HC_COMPNAME;
    case BloscInner::kZlib: return BLOSC_ZLIB_COMPNAME;
    case BloscInner::kZstd: return BLOSC_ZSTD_COMPNAME;
  }
  return "";
}

}  // namespace

Compressor::~Compressor() {
  ZSTD_freeCCtx(zstd_);
  libdeflate_free_compressor(deflate_);
}

Status Compressor::bound(Compression kind, const CompressionOptions& options, uint64_t in_size, uint64_t* bytes) {
  Status s = check_options(kind, options);
  if (!s.ok()) return s;
  if (in_size > max_input(kind)) {
    return Status(ErrorCode::kSizeOverflow, std::string(compression_name(kind)) + ": " + std::to_string(in_size) +
                                                " bytes are more than one frame holds (" +
                                                std::to_string(max_input(kind)) + ")");
  }
  const size_t n = static_cast<size_t>(in_size);
  switch (kind) {
    case Compression::kZstd: *bytes = ZSTD_compressBound(n); break;
    case Compression::kGzip: *bytes = libdeflate_gzip_compress_bound(nullptr, n); break;
    case Compression::kZlib: *bytes = libdeflate_zlib_compress_bound(nullptr, n); break;
    case Compression::kLz4: *bytes = 4 + static_cast<uint64_t>(LZ4_compressBound(static_cast<int>(n))); break;
    case Compression::kBlosc: *bytes = in_size + BLOSC_MAX_OVERHEAD; break;
  }
  return Status::Ok();
}

Status Compressor::deflate_context(int level, libdeflate_compressor** out) {
  if (deflate_ == nullptr || deflate_level_ != level) {
    libdeflate_free_compressor(deflate_);
    deflate_ = libdeflate_alloc_compressor(level);
    deflate_level_ = deflate_ ? level : -1;
  }
  if (deflate_ == nullptr) return Status(ErrorCode::kOutOfMemory, "gzip/zlib: out of memory for a compressor");
  *out = deflate_;
  return Status::Ok();
}

Status Compressor::compress(Compression kind, const CompressionOptions& options, const uint8_t* in, uint64_t in_size,
                            uint8_t* out, uint64_t out_capacity, uint64_t* written) {
  *written = 0;
  const std::string name = compression_name(kind);
  uint64_t most = 0;
  Status s = bound(kind, options, in_size, &most);
  if (!s.ok()) return s;
  if ((in == nullptr && in_size != 0) || out == nullptr) {
    return Status(ErrorCode::kInvalidInput, name + ": no buffer for the chunk's bytes");
  }
  static const uint8_t kEmpty[1] = {0};
  if (in == nullptr) in = kEmpty;
  const Status no_room(ErrorCode::kLengthMismatch, name + ": the frame does not fit in " +
                                                       std::to_string(out_capacity) + " bytes (at most " +
                                                       std::to_string(most) + " are needed)");
  const size_t n = static_cast<size_t>(in_size);
  const size_t cap = static_cast<size_t>(std::min<uint64_t>(out_capacity, SIZE_MAX));
  switch (kind) {
    case Compression::kZstd: {
      if (zstd_ == nullptr) zstd_ = ZSTD_createCCtx();
      if (zstd_ == nullptr) return Status(ErrorCode::kOutOfMemory, "zstd: out of memory for a compressor context");
      ZSTD_CCtx_reset(zstd_, ZSTD_reset_session_and_parameters);
      ZSTD_CCtx_setParameter(zstd_, ZSTD_c_compressionLevel, options.level);
      ZSTD_CCtx_setParameter(zstd_, ZSTD_c_checksumFlag, options.checksum ? 1 : 0);
      const size_t r = ZSTD_compress2(zstd_, out, cap, in, n);
      if (ZSTD_isError(r)) {
        if (ZSTD_getErrorCode(r) == ZSTD_error_dstSize_tooSmall) return no_room;
        if (ZSTD_getErrorCode(r) == ZSTD_error_memory_allocation) {
          return Status(ErrorCode::kOutOfMemory, "zstd: out of memory for the compressor's tables");
        }
        return Status(ErrorCode::kInvalidInput, std::string("zstd: ") + ZSTD_getErrorName(r));
      }
      *written = r;
      return Status::Ok();
    }
    case Compression::kGzip:
    case Compression::kZlib: {
      libdeflate_compressor* c = nullptr;
      s = deflate_context(options.level == -1 ? 6 : options.level, &c);
      if (!s.ok()) return s;
      const size_t r = kind == Compression::kGzip ? libdeflate_gzip_compress(c, in, n, out, cap)
                                                  : libdeflate_zlib_compress(c, in, n, out, cap);
      if (r == 0) return no_room;
      *written = r;
      return Status::Ok();
    }
    case Compression::kLz4: {
      if (out_capacity < 4) return no_room;
      const int body = static_cast<int>(std::min<uint64_t>(out_capacity - 4, INT_MAX));
      const int r = LZ4_compress_fast(reinterpret_cast<const char*>(in), reinterpret_cast<char*>(out + 4),
                                      static_cast<int>(n), body, options.acceleration < 1 ? 1 : options.acceleration);
      if (r <= 0) return no_room;
      for (int i = 0; i < 4; ++i) out[i] = static_cast<uint8_t>(in_size >> (8 * i));
      *written = 4 + static_cast<uint64_t>(r);
      return Status::Ok();
    }
    case Compression::kBlosc: {
      int shuffle = static_cast<int>(options.blosc_shuffle);
      if (options.blosc_shuffle == BloscShuffle::kAuto) shuffle = options.typesize == 1 ? BLOSC_BITSHUFFLE : BLOSC_SHUFFLE;
      const int r = blosc_compress_ctx(options.level, shuffle, options.typesize, n, in, out, cap,
                                       blosc_cname(options.blosc_inner), static_cast<size_t>(options.blocksize), 1);
      if (r == 0) return no_room;
      if (r < 0) {
        return Status(ErrorCode::kInvalidInput, "blosc: c-blosc refused to compress (" + std::to_string(r) + ")");
      }
      *written = static_cast<uint64_t>(r);
      return Status::Ok();
    }
  }
  return Status(ErrorCode::kInvalidInput, "compress: unknown compression");
}

}  // namespace zcw
