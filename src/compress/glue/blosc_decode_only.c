/* c-blosc's blosc.c for the read module, which only decodes.
 *
 * blosc.c runs compression and decompression through one function
 * (serial_blosc), so its decoder reaches blosc_c and, through it, every
 * compressor it can call: lz4's and lz4hc's, zstd's whole compressor,
 * zlib's compress2 (libdeflate's compressor here) and blosclz's. The linker
 * cannot drop what is reachable, and they would more than double the read
 * module. Here blosc.c is compiled as it is, with those five calls renamed
 * to functions that refuse (the read module never asks blosc to compress),
 * so the compressors stay out of the module. The encoder module, the native
 * tests and the benchmark build blosc.c itself (cmake/compressors.cmake). */
#define LZ4_compress_fast zcw_read_only_lz4_compress_fast
#define LZ4_compress_HC zcw_read_only_lz4_compress_hc
#define ZSTD_compress zcw_read_only_zstd_compress
#define ZSTD_maxCLevel zcw_read_only_zstd_max_clevel
#define compress2 zcw_read_only_compress2
#define blosclz_compress zcw_read_only_blosclz_compress

#include "blosc.c"

/* Each answers as its library does when the output does not fit, which
 * blosc takes for "store the block as it is". */
int zcw_read_only_lz4_compress_fast(const char* src, char* dst, int n, int cap, int acceleration) {
  (void)src, (void)dst, (void)n, (void)cap, (void)acceleration;
  return 0;
}

int zcw_read_only_lz4_compress_hc(const char* src, char* dst, int n, int cap, int level) {
  (void)src, (void)dst, (void)n, (void)cap, (void)level;
  return 0;
}

size_t zcw_read_only_zstd_compress(void* dst, size_t cap, const void* src, size_t n, int level) {
  (void)dst, (void)cap, (void)src, (void)n, (void)level;
  return (size_t)-70; /* ZSTD_error_dstSize_tooSmall, as an error code */
}

int zcw_read_only_zstd_max_clevel(void) { return 22; }

int zcw_read_only_compress2(Bytef* dest, uLongf* dest_len, const Bytef* source, uLong source_len, int level) {
  (void)dest, (void)dest_len, (void)source, (void)source_len, (void)level;
  return Z_BUF_ERROR;
}

int zcw_read_only_blosclz_compress(int opt_level, const void* input, int length, void* output, int maxout,
                                   int split_block) {
  (void)opt_level, (void)input, (void)length, (void)output, (void)maxout, (void)split_block;
  return 0;
}
