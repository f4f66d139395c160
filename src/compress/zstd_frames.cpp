// zstd chunks: one or more frames (RFC 8878), as numcodecs writes them
// (content size in the header) or as streaming writers do (no size).
// Decoded in one shot by a reused ZSTD_DCtx straight into the caller's
// buffer, so the frame's window size never becomes an allocation.
#define ZSTD_STATIC_LINKING_ONLY  // ZSTD_findDecompressedSize
#include <zstd.h>
#include <zstd_errors.h>

#include <string>

#include "compress/frame_decoders.h"

namespace zcw::compress_internal {

Status zstd_declared_size(const uint8_t* in, uint64_t in_size, bool* known, uint64_t* bytes) {
  in = nonnull(in);
  if (in_size == 0) return Status(ErrorCode::kCorruptData, "zstd: the chunk is empty, expected a zstd frame");
  if (ZSTD_getFrameContentSize(in, in_size) == ZSTD_CONTENTSIZE_ERROR) {
    return Status(ErrorCode::kCorruptData,
                  "zstd: the chunk does not start with a zstd frame header (" + std::to_string(in_size) +
                      " bytes)");
  }
  const unsigned long long total = ZSTD_findDecompressedSize(in, in_size);
  if (total == ZSTD_CONTENTSIZE_ERROR) {
    return Status(ErrorCode::kCorruptData,
                  "zstd: the frames are truncated or followed by bytes that are not a frame (" +
                      std::to_string(in_size) + " bytes)");
  }
  *known = total != ZSTD_CONTENTSIZE_UNKNOWN;
  *bytes = *known ? total : 0;
  return Status::Ok();
}

Status zstd_fill(ZSTD_DCtx_s* dctx, const uint8_t* in, uint64_t in_size, uint8_t* out, uint64_t capacity,
                 Filled* filled) {
  in = nonnull(in);
  out = nonnull(out);
  *filled = Filled{};
  if (in_size == 0) return Status(ErrorCode::kCorruptData, "zstd: the chunk is empty, expected a zstd frame");
  // Every call starts a new frame; nothing of a failed chunk stays behind.
  ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only);
  const size_t r = ZSTD_decompressDCtx(dctx, out, capacity, in, in_size);
  if (!ZSTD_isError(r)) {
    filled->bytes = r;
    return Status::Ok();
  }
  switch (ZSTD_getErrorCode(r)) {
    case ZSTD_error_dstSize_tooSmall:
      filled->overflow = true;
      filled->bytes = capacity;
      return Status::Ok();
    case ZSTD_error_checksum_wrong:
      return Status(ErrorCode::kChecksumMismatch,
                    "zstd: the frame's content checksum does not match the data it decodes to");
    case ZSTD_error_dictionary_wrong:
      return Status(ErrorCode::kUnsupportedCodec,
                    "zstd: the frame needs dictionary " + std::to_string(ZSTD_getDictID_fromFrame(in, in_size)) +
                        "; frames compressed with a dictionary are not supported");
    case ZSTD_error_memory_allocation:
      return Status(ErrorCode::kOutOfMemory, "zstd: out of memory for the decoder's tables");
    case ZSTD_error_srcSize_wrong:
      return Status(ErrorCode::kCorruptData,
                    "zstd: the frame is truncated, or followed by bytes that are not a frame (" +
                        std::to_string(in_size) + " bytes)");
    case ZSTD_error_prefix_unknown:
      return Status(ErrorCode::kCorruptData, "zstd: a frame does not start with zstd's magic number");
    case ZSTD_error_frameParameter_windowTooLarge:
      return Status(ErrorCode::kCorruptData, "zstd: a frame's window is larger than zstd allows");
    default:
      // (The read module is built without zstd's error strings: the code.)
      return Status(ErrorCode::kCorruptData,
                    "zstd: the frame is corrupt (zstd error " + std::to_string(ZSTD_getErrorCode(r)) + ")");
  }
}

}  // namespace zcw::compress_internal
