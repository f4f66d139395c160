# The compression libraries (zstd, lz4, libdeflate, c-blosc) as static
# libraries, built from the upstream sources that
# scripts/fetch-compressor-sources.sh unpacks into ZCW_THIRD_PARTY (pinned
# in cmake/compressor-sources.pin; nothing of theirs is in this repository).
# One set per build: under Emscripten with the module's flags, natively for
# the tests, fuzzers and benchmarks.
#
#   zcw_zstd_decompress   lib/common + lib/decompress (no legacy formats,
#                         no dictionary builder)
#   zcw_zstd_compress     lib/compress (the encoder module, tests, bench)
#   zcw_lz4               lz4.c (block decoder and fast encoder)
#   zcw_lz4hc             lz4hc.c (encoder only)
#   zcw_deflate_decompress, zcw_deflate_compress   libdeflate's halves
#   zcw_blosc_kernels     c-blosc's blosclz and shuffle kernels (decoding)
#   zcw_blosc             c-blosc 1.x's blosc.c (encoding) with our
#                         zlib-over-libdeflate glue, linked to the libraries
#                         above (one copy of each)
#
# Under Emscripten the read module's budget counts every byte (docs/where-
# it-runs.md), so each decoder file is built at the smallest level that
# costs no measured speed (below); the compressors (the encoder module)
# are all built for speed.

if(DEFINED ENV{ZCW_THIRD_PARTY} AND NOT "$ENV{ZCW_THIRD_PARTY}" STREQUAL "")
  set(zcw_third_party_default "$ENV{ZCW_THIRD_PARTY}")
else()
  set(zcw_third_party_default "${CMAKE_CURRENT_SOURCE_DIR}/third_party")
endif()
set(ZCW_THIRD_PARTY "${zcw_third_party_default}" CACHE PATH
  "where scripts/fetch-compressor-sources.sh unpacked the compression libraries")

# Each library must be there, unpacked from its pinned tarball, Debian's or
# upstream's (the fetch script stamps each tree with its pin lines, the
# same whichever it came from). `patch` and `upstream` lines are about how
# a library is fetched, not libraries.
set(zcw_pin_file "${CMAKE_CURRENT_SOURCE_DIR}/cmake/compressor-sources.pin")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${zcw_pin_file}")
file(STRINGS "${zcw_pin_file}" zcw_pin_lines REGEX "^[a-z]")
set(zcw_sources_problems "")
foreach(line IN LISTS zcw_pin_lines)
  string(REGEX MATCH "^[^ \t]+" dir "${line}")
  if(dir STREQUAL "patch" OR dir STREQUAL "upstream")
    continue()
  endif()
  set(stamp "${ZCW_THIRD_PARTY}/${dir}/.zcw-pin")
  if(NOT EXISTS "${stamp}")
    string(APPEND zcw_sources_problems "\n    ${dir}: missing (no ${stamp})")
  else()
    file(READ "${stamp}" stamp_text)
    string(FIND "${stamp_text}" "${line}" at)
    if(at EQUAL -1)
      string(APPEND zcw_sources_problems "\n    ${dir}: not the version cmake/compressor-sources.pin names")
    endif()
  endif()
endforeach()
if(zcw_sources_problems)
  message(FATAL_ERROR
    "zarr-codecs-wasm: the compression libraries' sources are not in ${ZCW_THIRD_PARTY}:"
    "${zcw_sources_problems}\n"
    "  They are dependencies, not kept in git. Get them with\n"
    "    bash scripts/fetch-compressor-sources.sh\n"
    "  (Debian and Ubuntu, through apt; bash scripts/setup.sh does it with the rest of the setup), or\n"
    "    bash scripts/fetch-compressor-sources.sh --from-tarballs DIR\n"
    "  with the tarballs downloaded into DIR by hand (any system: docs/development.md, \"Without apt\"),\n"
    "  or point ZCW_THIRD_PARTY (environment variable, or cmake -DZCW_THIRD_PARTY=...) at a folder\n"
    "  that script filled, e.g.\n"
    "    ZCW_THIRD_PARTY=/path/to/another/clone/third_party npm run build")
endif()

set(zcw_zstd "${ZCW_THIRD_PARTY}/zstd/lib")
set(zcw_lz4 "${ZCW_THIRD_PARTY}/lz4/lib")
set(zcw_deflate "${ZCW_THIRD_PARTY}/libdeflate")
set(zcw_blosc "${ZCW_THIRD_PARTY}/c-blosc/blosc")
set(zcw_glue "${CMAKE_CURRENT_SOURCE_DIR}/src/compress/glue")

set(ZCW_WASM_SMALL "-Os" CACHE STRING "wasm: the level of the decoders' hot files that are as fast at it")
set(ZCW_WASM_SMALLEST "-Oz" CACHE STRING "wasm: the level of the decoders' cold files")

# Flags every library gets: their warnings are not ours to fix, and under
# Emscripten the module's instruction sets (bulk memory for memcpy, SIMD).
# The level is the build type's (-O3), but for the files below.
function(zcw_third_party_library name)
  target_compile_options(${name} PRIVATE -w)
  if(EMSCRIPTEN)
    target_compile_options(${name} PRIVATE -mbulk-memory -msimd128)
  endif()
endfunction()

# Under Emscripten, the decoders' files by level, as measured (docs/
# architecture.md, "Compressed chunks"):
#   -O3 (the build type's): zstd's sequence and Huffman decoders (2x slower
#       at -Os) and c-blosc's SSE2 bit unshuffle (1.25x slower at -Os);
#   ZCW_WASM_SMALL (-Os): the hot files that measured as fast at -Os as at
#       -O3 (lz4, libdeflate's inflate and checksums, blosclz, the byte
#       unshuffle); -Oz cost them 10 to 20%;
#   ZCW_WASM_SMALLEST (-Oz): where decoding does not spend its time (frame
#       and header handling, table set-up, error strings, generic
#       fallbacks).
# Per file, and nothing library-wide: emcc 3.1.6 does not build a file at
# -O3 when -Os comes before -O3 on its command line.
set(zcw_wasm_small_files
  ${zcw_deflate}/lib/deflate_decompress.c
  ${zcw_deflate}/lib/adler32.c
  ${zcw_deflate}/lib/crc32.c
  ${zcw_lz4}/lz4.c
  ${zcw_blosc}/blosclz.c
  ${zcw_blosc}/fastcopy.c
  ${zcw_blosc}/shuffle-sse2.c)
set(zcw_wasm_smallest_files
  ${zcw_zstd}/common/entropy_common.c
  ${zcw_zstd}/common/error_private.c
  ${zcw_zstd}/common/fse_decompress.c
  ${zcw_zstd}/common/xxhash.c
  ${zcw_zstd}/common/zstd_common.c
  ${zcw_zstd}/decompress/zstd_ddict.c
  ${zcw_zstd}/decompress/zstd_decompress.c
  ${zcw_deflate}/lib/utils.c
  ${zcw_deflate}/lib/zlib_decompress.c
  ${zcw_deflate}/lib/gzip_decompress.c
  ${zcw_blosc}/shuffle-generic.c
  ${zcw_blosc}/bitshuffle-generic.c
  ${zcw_glue}/blosc_shuffle_wasm.c)
if(EMSCRIPTEN)
  set_property(SOURCE ${zcw_wasm_small_files} APPEND PROPERTY COMPILE_OPTIONS ${ZCW_WASM_SMALL})
  set_property(SOURCE ${zcw_wasm_smallest_files} APPEND PROPERTY COMPILE_OPTIONS ${ZCW_WASM_SMALLEST})
endif()

# zstd. No assembly (wasm has none, and the native floor is the same C),
# no legacy formats, no tracing hooks, no threads, and only the
# short-offsets sequence decoder: the long one differs by prefetching (for
# windows past 16 MiB), which wasm lacks, so in the read module it would be
# 5 KB more of the same work; natively it is left out too, so the tests
# and fuzzers run the code wasm runs (and its prefetch address arithmetic,
# undefined behaviour on corrupt input that UBSan reports, is not built).
set(zcw_zstd_definitions ZSTD_LEGACY_SUPPORT=0 ZSTD_DISABLE_ASM ZSTD_TRACE=0 ZSTD_FORCE_DECOMPRESS_SEQUENCES_SHORT)
# Its error strings (2 KB) too: src/compress names the errors itself.
if(EMSCRIPTEN)
  list(APPEND zcw_zstd_definitions ZSTD_STRIP_ERROR_STRINGS)
endif()
add_library(zcw_zstd_decompress STATIC
  ${zcw_zstd}/common/entropy_common.c
  ${zcw_zstd}/common/error_private.c
  ${zcw_zstd}/common/fse_decompress.c
  ${zcw_zstd}/common/xxhash.c
  ${zcw_zstd}/common/zstd_common.c
  ${zcw_zstd}/decompress/huf_decompress.c
  ${zcw_zstd}/decompress/zstd_ddict.c
  ${zcw_zstd}/decompress/zstd_decompress.c
  ${zcw_zstd}/decompress/zstd_decompress_block.c)
target_include_directories(zcw_zstd_decompress SYSTEM PUBLIC ${zcw_zstd})
target_compile_definitions(zcw_zstd_decompress PUBLIC ${zcw_zstd_definitions})
zcw_third_party_library(zcw_zstd_decompress)

add_library(zcw_zstd_compress STATIC
  ${zcw_zstd}/compress/fse_compress.c
  ${zcw_zstd}/compress/hist.c
  ${zcw_zstd}/compress/huf_compress.c
  ${zcw_zstd}/compress/zstd_compress.c
  ${zcw_zstd}/compress/zstd_compress_literals.c
  ${zcw_zstd}/compress/zstd_compress_sequences.c
  ${zcw_zstd}/compress/zstd_compress_superblock.c
  ${zcw_zstd}/compress/zstd_double_fast.c
  ${zcw_zstd}/compress/zstd_fast.c
  ${zcw_zstd}/compress/zstd_lazy.c
  ${zcw_zstd}/compress/zstd_ldm.c
  ${zcw_zstd}/compress/zstd_opt.c)
target_link_libraries(zcw_zstd_compress PUBLIC zcw_zstd_decompress)
zcw_third_party_library(zcw_zstd_compress)

# lz4: the block format only (numcodecs' framing and blosc's splits).
add_library(zcw_lz4 STATIC ${zcw_lz4}/lz4.c)
target_include_directories(zcw_lz4 SYSTEM PUBLIC ${zcw_lz4})
zcw_third_party_library(zcw_lz4)
add_library(zcw_lz4hc STATIC ${zcw_lz4}/lz4hc.c)
target_link_libraries(zcw_lz4hc PUBLIC zcw_lz4)
zcw_third_party_library(zcw_lz4hc)

# libdeflate: whole-buffer DEFLATE, zlib and gzip. Natively it picks its
# x86 kernels (crc32, adler32, the decoder's BMI2 variant) at run time as
# upstream builds it.
set(zcw_deflate_platform "")
if(NOT EMSCRIPTEN)
  list(APPEND zcw_deflate_platform ${zcw_deflate}/lib/x86/cpu_features.c ${zcw_deflate}/lib/arm/cpu_features.c)
endif()
add_library(zcw_deflate_decompress STATIC
  ${zcw_deflate}/lib/deflate_decompress.c
  ${zcw_deflate}/lib/zlib_decompress.c
  ${zcw_deflate}/lib/gzip_decompress.c
  ${zcw_deflate}/lib/adler32.c
  ${zcw_deflate}/lib/crc32.c
  ${zcw_deflate}/lib/utils.c
  ${zcw_deflate_platform})
target_include_directories(zcw_deflate_decompress SYSTEM PUBLIC ${zcw_deflate})
zcw_third_party_library(zcw_deflate_decompress)
add_library(zcw_deflate_compress STATIC
  ${zcw_deflate}/lib/deflate_compress.c
  ${zcw_deflate}/lib/zlib_compress.c
  ${zcw_deflate}/lib/gzip_compress.c)
target_link_libraries(zcw_deflate_compress PUBLIC zcw_deflate_decompress)
zcw_third_party_library(zcw_deflate_compress)

# c-blosc 1.x, in two parts.
#   zcw_blosc_kernels  what decoding needs: blosclz and the shuffle kernels.
#                      src/compress/blosc_frames.cpp walks the frames
#                      itself (it says why) and calls these.
#   zcw_blosc          blosc.c, for the encoders: its compressors are ours
#                      (lz4, lz4hc, zstd), and its zlib calls (compress2,
#                      uncompress) go to libdeflate through
#                      src/compress/glue/zlib.h, one DEFLATE in the module.
# c-blosc's shuffle.c chooses the SSE2/AVX2 kernels by cpuid, on x86 only:
# natively that is upstream's dispatch; under Emscripten it would always
# take the generic kernels, so there the SSE2 kernels (Emscripten maps SSE2
# intrinsics to wasm SIMD) are called through our dispatch,
# src/compress/glue/blosc_shuffle_wasm.c, in place of shuffle.c.
add_library(zcw_blosc_kernels STATIC
  ${zcw_blosc}/blosclz.c
  ${zcw_blosc}/fastcopy.c
  ${zcw_blosc}/shuffle-generic.c
  ${zcw_blosc}/bitshuffle-generic.c
  ${zcw_blosc}/shuffle-sse2.c
  ${zcw_blosc}/bitshuffle-sse2.c)
target_include_directories(zcw_blosc_kernels SYSTEM PUBLIC ${zcw_blosc})
if(EMSCRIPTEN)
  target_sources(zcw_blosc_kernels PRIVATE ${zcw_glue}/blosc_shuffle_wasm.c)
  set_property(SOURCE ${zcw_blosc}/shuffle-sse2.c ${zcw_blosc}/bitshuffle-sse2.c ${zcw_glue}/blosc_shuffle_wasm.c
    APPEND PROPERTY COMPILE_OPTIONS -msse2)
  # ON builds the dispatch over c-blosc's generic kernels instead, to
  # measure what the SSE2 ones are worth (docs/architecture.md).
  option(ZCW_BLOSC_WASM_GENERIC_SHUFFLE "wasm: c-blosc's generic shuffle kernels (measurement only)" OFF)
  if(ZCW_BLOSC_WASM_GENERIC_SHUFFLE)
    target_compile_definitions(zcw_blosc_kernels PRIVATE ZCW_BLOSC_GENERIC_SHUFFLE)
  endif()
else()
  target_sources(zcw_blosc_kernels PRIVATE ${zcw_blosc}/shuffle.c)
  # On x86, c-blosc reads unaligned words through casts (undefined
  # behaviour, which UBSan reports); BLOSC_STRICT_ALIGN makes them memcpy,
  # the path it takes under Emscripten anyway (blosc-common.h), which
  # compiles to the same loads at -O3.
  target_compile_definitions(zcw_blosc_kernels PUBLIC BLOSC_STRICT_ALIGN)
  # Its strict-alignment word read, `(p)[3]<<24`, shifts a promoted byte
  # into an int's sign bit (blosclz's compressor, on any byte >= 128):
  # UBSan's shift-base check stops the encoder tests there. What clang
  # compiles it to is the intended little-endian load; the check is off
  # for that one file, the rest of UBSan stays on.
  if(ZCW_SANITIZE OR ZCW_FUZZ)
    set_property(SOURCE ${zcw_blosc}/blosclz.c APPEND PROPERTY COMPILE_OPTIONS -fno-sanitize=shift-base)
  endif()
  target_compile_definitions(zcw_blosc_kernels PRIVATE SHUFFLE_SSE2_ENABLED)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    target_sources(zcw_blosc_kernels PRIVATE ${zcw_blosc}/shuffle-avx2.c ${zcw_blosc}/bitshuffle-avx2.c)
    target_compile_definitions(zcw_blosc_kernels PRIVATE SHUFFLE_AVX2_ENABLED)
    set_property(SOURCE ${zcw_blosc}/shuffle-avx2.c ${zcw_blosc}/bitshuffle-avx2.c APPEND PROPERTY COMPILE_OPTIONS -mavx2)
  endif()
  find_package(Threads REQUIRED)  # shuffle.c's pthread_once
  target_link_libraries(zcw_blosc_kernels PUBLIC Threads::Threads)
endif()
zcw_third_party_library(zcw_blosc_kernels)

add_library(zcw_blosc STATIC ${zcw_blosc}/blosc.c ${zcw_glue}/zlib_over_libdeflate.c)
# Our zlib.h before any system one.
target_include_directories(zcw_blosc BEFORE PRIVATE ${zcw_glue})
target_compile_definitions(zcw_blosc PRIVATE HAVE_LZ4 HAVE_ZLIB HAVE_ZSTD)
target_link_libraries(zcw_blosc PUBLIC zcw_blosc_kernels zcw_lz4 zcw_lz4hc zcw_zstd_compress zcw_deflate_compress)
zcw_third_party_library(zcw_blosc)

# The license texts that ship with the built modules (dist/licenses/).
set(ZCW_THIRD_PARTY_LICENSES "")
foreach(line IN LISTS zcw_pin_lines)
  string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
  list(GET fields 0 dir)
  if(dir STREQUAL "patch" OR dir STREQUAL "upstream")
    continue()
  endif()
  list(GET fields 5 licenses)
  string(REPLACE "," ";" licenses "${licenses}")
  foreach(license IN LISTS licenses)
    list(APPEND ZCW_THIRD_PARTY_LICENSES "${dir}|${ZCW_THIRD_PARTY}/${dir}/${license}")
  endforeach()
endforeach()
