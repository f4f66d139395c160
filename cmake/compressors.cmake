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
#   zcw_blosc             c-blosc 1.x with our zlib-over-libdeflate glue,
#                         linked to the libraries above (one copy of each);
#   zcw_blosc_decode      under Emscripten, the same without its compressors
#
# Optimisation levels per library under Emscripten are the measured ones
# (docs/architecture.md, "Decisions"): each library's decoder at the level
# that is smallest without costing speed.

if(DEFINED ENV{ZCW_THIRD_PARTY} AND NOT "$ENV{ZCW_THIRD_PARTY}" STREQUAL "")
  set(zcw_third_party_default "$ENV{ZCW_THIRD_PARTY}")
else()
  set(zcw_third_party_default "${CMAKE_CURRENT_SOURCE_DIR}/third_party")
endif()
set(ZCW_THIRD_PARTY "${zcw_third_party_default}" CACHE PATH
  "where scripts/fetch-compressor-sources.sh unpacked the compression libraries")

# Each library must be there, unpacked from its pinned tarball (the fetch
# script stamps each tree with its pin lines).
set(zcw_pin_file "${CMAKE_CURRENT_SOURCE_DIR}/cmake/compressor-sources.pin")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${zcw_pin_file}")
file(STRINGS "${zcw_pin_file}" zcw_pin_lines REGEX "^[a-z]")
set(zcw_sources_problems "")
foreach(line IN LISTS zcw_pin_lines)
  string(REGEX MATCH "^[^ \t]+" dir "${line}")
  if(dir STREQUAL "patch")
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
    "  They are dependencies fetched from Debian's source packages, not kept in git. Get them with\n"
    "    bash scripts/fetch-compressor-sources.sh\n"
    "  (or bash scripts/setup.sh, which does it with the rest of the setup), or point ZCW_THIRD_PARTY\n"
    "  (environment variable, or cmake -DZCW_THIRD_PARTY=...) at a folder that script filled, e.g.\n"
    "    ZCW_THIRD_PARTY=/path/to/another/clone/third_party npm run build")
endif()

set(zcw_zstd "${ZCW_THIRD_PARTY}/zstd/lib")
set(zcw_lz4 "${ZCW_THIRD_PARTY}/lz4/lib")
set(zcw_deflate "${ZCW_THIRD_PARTY}/libdeflate")
set(zcw_blosc "${ZCW_THIRD_PARTY}/c-blosc/blosc")
set(zcw_glue "${CMAKE_CURRENT_SOURCE_DIR}/src/compress/glue")

# Flags every library gets: their warnings are not ours to fix, and under
# Emscripten the module's instruction sets (bulk memory for memcpy, SIMD).
# `opt` is the level under Emscripten (native builds keep the build type's).
function(zcw_third_party_library name opt)
  target_compile_options(${name} PRIVATE -w)
  if(EMSCRIPTEN)
    target_compile_options(${name} PRIVATE -mbulk-memory -msimd128 ${opt})
  endif()
endfunction()

set(ZCW_WASM_OPT_ZSTD "-O3" CACHE STRING "zstd's level under Emscripten")
set(ZCW_WASM_OPT_LZ4 "-O3" CACHE STRING "lz4's level under Emscripten")
set(ZCW_WASM_OPT_DEFLATE "-O3" CACHE STRING "libdeflate's level under Emscripten")
set(ZCW_WASM_OPT_BLOSC "-O3" CACHE STRING "c-blosc's level under Emscripten")

# zstd. No assembly (wasm has none, and the native floor is the same C),
# no legacy formats, no tracing hooks, no threads.
set(zcw_zstd_definitions ZSTD_LEGACY_SUPPORT=0 ZSTD_DISABLE_ASM ZSTD_TRACE=0)
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
zcw_third_party_library(zcw_zstd_decompress ${ZCW_WASM_OPT_ZSTD})

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
zcw_third_party_library(zcw_zstd_compress -O3)

# lz4: the block format only (numcodecs' framing and blosc's splits).
add_library(zcw_lz4 STATIC ${zcw_lz4}/lz4.c)
target_include_directories(zcw_lz4 SYSTEM PUBLIC ${zcw_lz4})
zcw_third_party_library(zcw_lz4 ${ZCW_WASM_OPT_LZ4})
add_library(zcw_lz4hc STATIC ${zcw_lz4}/lz4hc.c)
target_link_libraries(zcw_lz4hc PUBLIC zcw_lz4)
zcw_third_party_library(zcw_lz4hc -O3)

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
zcw_third_party_library(zcw_deflate_decompress ${ZCW_WASM_OPT_DEFLATE})
add_library(zcw_deflate_compress STATIC
  ${zcw_deflate}/lib/deflate_compress.c
  ${zcw_deflate}/lib/zlib_compress.c
  ${zcw_deflate}/lib/gzip_compress.c)
target_link_libraries(zcw_deflate_compress PUBLIC zcw_deflate_decompress)
zcw_third_party_library(zcw_deflate_compress -O3)

# c-blosc 1.x. Its zlib calls (compress2, uncompress) go to libdeflate
# through src/compress/glue/zlib.h, so the module has one DEFLATE
# implementation. Its shuffle.c chooses SSE2/AVX2 kernels by cpuid, on x86
# only: natively that is upstream's dispatch; under Emscripten it would
# always take the generic kernels, so there the SSE2 kernels (Emscripten
# maps SSE2 intrinsics to wasm SIMD) are called through our dispatch,
# src/compress/glue/blosc_shuffle_wasm.c, instead of shuffle.c.
# Two builds under Emscripten: zcw_blosc (the encoder module) and
# zcw_blosc_decode (the read module, without the compressors blosc.c
# names: src/compress/glue/blosc_decode_only.c says why).
set(zcw_blosc_common_sources
  ${zcw_blosc}/blosclz.c
  ${zcw_blosc}/fastcopy.c
  ${zcw_blosc}/shuffle-generic.c
  ${zcw_blosc}/bitshuffle-generic.c
  ${zcw_blosc}/shuffle-sse2.c
  ${zcw_blosc}/bitshuffle-sse2.c
  ${zcw_glue}/zlib_over_libdeflate.c)
if(EMSCRIPTEN)
  list(APPEND zcw_blosc_common_sources ${zcw_glue}/blosc_shuffle_wasm.c)
  set_source_files_properties(${zcw_blosc}/shuffle-sse2.c ${zcw_blosc}/bitshuffle-sse2.c
    ${zcw_glue}/blosc_shuffle_wasm.c PROPERTIES COMPILE_OPTIONS "-msse2")
else()
  list(APPEND zcw_blosc_common_sources ${zcw_blosc}/shuffle.c)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
    list(APPEND zcw_blosc_common_sources ${zcw_blosc}/shuffle-avx2.c ${zcw_blosc}/bitshuffle-avx2.c)
    set_source_files_properties(${zcw_blosc}/shuffle-avx2.c ${zcw_blosc}/bitshuffle-avx2.c
      PROPERTIES COMPILE_OPTIONS "-mavx2")
  endif()
endif()
# ZCW_BLOSC_WASM_GENERIC_SHUFFLE=ON builds the wasm dispatch over c-blosc's
# generic kernels instead: the comparison of docs/architecture.md.
option(ZCW_BLOSC_WASM_GENERIC_SHUFFLE "wasm: c-blosc's generic shuffle kernels (measurement only)" OFF)

# `blosc_c_file`: blosc.c itself, or (the read module) our wrapper that
# compiles it with its compressor calls refused (blosc_decode_only.c).
function(zcw_add_blosc name blosc_c_file)
  add_library(${name} STATIC ${blosc_c_file} ${zcw_blosc_common_sources})
  target_include_directories(${name} SYSTEM PUBLIC ${zcw_blosc})
  # Our zlib.h before any system one.
  target_include_directories(${name} BEFORE PRIVATE ${zcw_glue})
  target_compile_definitions(${name} PRIVATE HAVE_LZ4 HAVE_ZLIB HAVE_ZSTD)
  if(EMSCRIPTEN)
    if(ZCW_BLOSC_WASM_GENERIC_SHUFFLE)
      target_compile_definitions(${name} PRIVATE ZCW_BLOSC_GENERIC_SHUFFLE)
    endif()
  else()
    target_compile_definitions(${name} PRIVATE SHUFFLE_SSE2_ENABLED)
    if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
      target_compile_definitions(${name} PRIVATE SHUFFLE_AVX2_ENABLED)
    endif()
    find_package(Threads REQUIRED)
    target_link_libraries(${name} PUBLIC Threads::Threads)
  endif()
  target_link_libraries(${name} PUBLIC zcw_lz4 zcw_zstd_decompress zcw_deflate_decompress)
  zcw_third_party_library(${name} ${ZCW_WASM_OPT_BLOSC})
endfunction()
zcw_add_blosc(zcw_blosc ${zcw_blosc}/blosc.c)
target_link_libraries(zcw_blosc PUBLIC zcw_lz4hc zcw_zstd_compress zcw_deflate_compress)
if(EMSCRIPTEN)
  zcw_add_blosc(zcw_blosc_decode ${zcw_glue}/blosc_decode_only.c)
endif()

# The license texts that ship with the built modules (dist/licenses/).
set(ZCW_THIRD_PARTY_LICENSES "")
foreach(line IN LISTS zcw_pin_lines)
  string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
  list(GET fields 0 dir)
  if(dir STREQUAL "patch")
    continue()
  endif()
  list(GET fields 5 licenses)
  string(REPLACE "," ";" licenses "${licenses}")
  foreach(license IN LISTS licenses)
    list(APPEND ZCW_THIRD_PARTY_LICENSES "${dir}|${ZCW_THIRD_PARTY}/${dir}/${license}")
  endforeach()
endforeach()
