/* zlib's compress2 and uncompress for c-blosc, over libdeflate (zlib.h says
 * why). blosc calls them once per split of a block, so the libdeflate
 * objects are kept between calls instead of being allocated per split: one
 * decompressor, and one compressor for the last level asked for. They are
 * per thread, because c-blosc may run its splits on threads of its own. */
#include "zlib.h"

#include <libdeflate.h>
#include <stddef.h>

/* wasm without threads (this module) has no thread-local storage, and no
 * second thread to need it. */
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define ZCW_PER_THREAD
#else
#define ZCW_PER_THREAD _Thread_local
#endif

static ZCW_PER_THREAD struct libdeflate_decompressor* g_decompressor;
static ZCW_PER_THREAD struct libdeflate_compressor* g_compressor;
static ZCW_PER_THREAD int g_compressor_level = -1;

int uncompress(Bytef* dest, uLongf* dest_len, const Bytef* source, uLong source_len) {
  size_t in_used = 0;
  size_t out_used = 0;
  enum libdeflate_result r;
  if (g_decompressor == NULL) {
    g_decompressor = libdeflate_alloc_decompressor();
    if (g_decompressor == NULL) return Z_MEM_ERROR;
  }
  r = libdeflate_zlib_decompress_ex(g_decompressor, source, source_len, dest, *dest_len, &in_used,
                                    &out_used);
  if (r == LIBDEFLATE_INSUFFICIENT_SPACE) return Z_BUF_ERROR;
  /* A split is one stream exactly: trailing bytes are corruption. */
  if (r != LIBDEFLATE_SUCCESS || in_used != source_len) return Z_DATA_ERROR;
  *dest_len = out_used;
  return Z_OK;
}

int compress2(Bytef* dest, uLongf* dest_len, const Bytef* source, uLong source_len, int level) {
  size_t written;
  if (level == -1) level = 6; /* Z_DEFAULT_COMPRESSION */
  if (level < 0 || level > 9) return Z_STREAM_ERROR;
  if (g_compressor == NULL || g_compressor_level != level) {
    libdeflate_free_compressor(g_compressor);
    g_compressor = libdeflate_alloc_compressor(level);
    g_compressor_level = g_compressor ? level : -1;
    if (g_compressor == NULL) return Z_MEM_ERROR;
  }
  written = libdeflate_zlib_compress(g_compressor, source, source_len, dest, *dest_len);
  if (written == 0) return Z_BUF_ERROR;
  *dest_len = written;
  return Z_OK;
}
