/* The part of zlib's API that c-blosc calls (compress2, uncompress), served
 * by libdeflate (zlib_over_libdeflate.c). c-blosc's blosc.c includes
 * "zlib.h" when built with HAVE_ZLIB; cmake/compressors.cmake puts this
 * folder first on its include path, so blosc's zlib splits are inflated by
 * the same libdeflate the module uses for gzip and zlib chunks, and the
 * module carries one DEFLATE implementation instead of two. The frames are
 * the zlib format either way (RFC 1950). */
#ifndef ZCW_GLUE_ZLIB_H
#define ZCW_GLUE_ZLIB_H

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned char Bytef;
typedef unsigned long uLong;
typedef unsigned long uLongf;

#define Z_OK 0
#define Z_MEM_ERROR (-4)
#define Z_BUF_ERROR (-5)
#define Z_DATA_ERROR (-3)
#define Z_STREAM_ERROR (-2)

/* What blosc_get_complib_info reports as zlib's version. */
#define ZLIB_VERSION "libdeflate"

/* zlib's contract: `*dest_len` is the capacity on entry and the length
 * written on success. Levels -1 (default, 6) and 0..9 as zlib's. */
int compress2(Bytef* dest, uLongf* dest_len, const Bytef* source, uLong source_len, int level);

/* One whole zlib stream that must fill at most `*dest_len` bytes; Z_OK and
 * the decoded length in `*dest_len`, else Z_DATA_ERROR (corrupt, or bytes
 * after the stream), Z_BUF_ERROR (it decodes to more) or Z_MEM_ERROR. */
int uncompress(Bytef* dest, uLongf* dest_len, const Bytef* source, uLong source_len);

#ifdef __cplusplus
}
#endif

#endif /* ZCW_GLUE_ZLIB_H */
