#!/usr/bin/env bash
# npm run bench: builds the wasm module with and without SIMD and the native
# kernels (-O3), then runs bench/run.mjs with the given arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-wasm.sh zarr-codecs-wasm-nosimd >/dev/null
cxx=clang++-14
command -v "$cxx" >/dev/null || cxx=c++
cmake -S . -B build/native-release -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
cmake --build build/native-release --target zcw_native_bench -j"$(nproc)" >/dev/null
node --expose-gc bench/run.mjs "$@"
