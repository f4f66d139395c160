/* c-blosc's shuffle dispatch for WebAssembly, in place of its shuffle.c.
 *
 * shuffle.c picks the SSE2 or AVX2 kernels by executing cpuid, which exists
 * on x86 only; built by Emscripten it can only take the generic (scalar)
 * kernels. Emscripten compiles SSE2 intrinsics to wasm SIMD (-msse2
 * -msimd128), so here the four entry points blosc.c calls go straight to
 * c-blosc's own SSE2 kernels (shuffle-sse2.c, bitshuffle-sse2.c): the
 * module is built with SIMD, so there is nothing to detect. The measured
 * gain is in docs/architecture.md ("Decisions").
 *
 * The contract each entry point keeps is shuffle.h's: byte (un)shuffle of
 * `blocksize` bytes of `bytesoftype`-byte elements (the kernels handle a
 * tail that is not a whole element themselves); bit (un)shuffle only where
 * the element count is a multiple of eight, the bytes past the last whole
 * element copied as they are, and otherwise the block copied unchanged. */
#include <string.h>

#include "bitshuffle-generic.h"
#include "bitshuffle-sse2.h"
#include "shuffle-generic.h"
#include "shuffle-sse2.h"
#include "shuffle.h"

/* ZCW_BLOSC_GENERIC_SHUFFLE (a CMake option, for measuring this file's
 * worth only) takes c-blosc's generic kernels, as its shuffle.c would. */
#if defined(ZCW_BLOSC_GENERIC_SHUFFLE)
#define zcw_shuffle blosc_internal_shuffle_generic
#define zcw_unshuffle blosc_internal_unshuffle_generic
#define zcw_bitshuffle blosc_internal_bshuf_trans_bit_elem_scal
#define zcw_bitunshuffle blosc_internal_bshuf_untrans_bit_elem_scal
#else
#define zcw_shuffle blosc_internal_shuffle_sse2
#define zcw_unshuffle blosc_internal_unshuffle_sse2
#define zcw_bitshuffle blosc_internal_bshuf_trans_bit_elem_sse2
#define zcw_bitunshuffle blosc_internal_bshuf_untrans_bit_elem_sse2
#endif

#if !defined(__SSE2__) || !defined(__wasm_simd128__)
#error "blosc_shuffle_wasm.c is for Emscripten with -msse2 -msimd128 (cmake/compressors.cmake)"
#endif

void blosc_internal_shuffle(const size_t bytesoftype, const size_t blocksize, const uint8_t* _src,
                            const uint8_t* _dest) {
  zcw_shuffle(bytesoftype, blocksize, _src, (uint8_t*)_dest);
}

void blosc_internal_unshuffle(const size_t bytesoftype, const size_t blocksize, const uint8_t* _src,
                              const uint8_t* _dest) {
  zcw_unshuffle(bytesoftype, blocksize, _src, (uint8_t*)_dest);
}

/* The element count must be a multiple of eight for the bit transposes. */
typedef int64_t (*bit_transpose)(void* in, void* out, size_t size, size_t elem_size, void* tmp);

static int bit_transpose_block(bit_transpose transpose, size_t bytesoftype, size_t blocksize,
                               const uint8_t* src, uint8_t* dest, uint8_t* tmp) {
  const size_t elements = blocksize / bytesoftype;
  if (elements % 8 != 0) {
    memcpy(dest, src, blocksize);
    return (int)elements;
  }
  {
    const int64_t result = transpose((void*)src, dest, elements, bytesoftype, tmp);
    const size_t whole = elements * bytesoftype;
    memcpy(dest + whole, src + whole, blocksize - whole);
    return (int)result;
  }
}

int blosc_internal_bitshuffle(const size_t bytesoftype, const size_t blocksize,
                              const uint8_t* const _src, const uint8_t* _dest, const uint8_t* _tmp) {
  return bit_transpose_block((bit_transpose)zcw_bitshuffle, bytesoftype, blocksize, _src,
                             (uint8_t*)_dest, (uint8_t*)_tmp);
}

int blosc_internal_bitunshuffle(const size_t bytesoftype, const size_t blocksize,
                                const uint8_t* const _src, const uint8_t* _dest, const uint8_t* _tmp) {
  return bit_transpose_block((bit_transpose)zcw_bitunshuffle, bytesoftype, blocksize, _src,
                             (uint8_t*)_dest, (uint8_t*)_tmp);
}
