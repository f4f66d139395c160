#!/usr/bin/env bash
# Builds the C++ core, the compression layer with its C libraries, and
# their GoogleTest suite with AddressSanitizer and UndefinedBehaviorSanitizer
# (clang-14), then runs it under CTest. The encoder tests have Debian's
# numcodecs decode what the encoders write (/usr/bin/python3).
set -euo pipefail
cd "$(dirname "$0")/.."
cxx=clang++-14 cc=clang-14
command -v "$cxx" >/dev/null || cxx=c++
command -v "$cc" >/dev/null || cc=cc
bash scripts/clean-moved-build.sh build/native-asan
cmake -S . -B build/native-asan -DZCW_SANITIZE=ON -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/native-asan --target zcw_native_tests -j"$(nproc)"
cd build/native-asan
# A failed allocation is an answer the core handles (codecs/n5_block.h), as
# in wasm, where malloc returns null at the memory limit: ASan's default
# would abort instead.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1" ctest --output-on-failure -j"$(nproc)"
