#!/usr/bin/env bash
# npm run bench: builds the wasm module with and without SIMD and the native
# kernels and decoders (-O3), then runs bench/run.mjs with the given
# arguments, then the read pool's benchmark (bench/pool.mjs, with --quick
# and --no-write where given), then compressed reads end to end against
# zarrita (bench/compressed-reads.mjs, the same), then wasm memory through
# a burst of reads (bench/memory.mjs, the same), then array -> array codecs
# (scale_offset + cast_value, a float64 read as float32) against zarrita
# (bench/array-to-array.mjs, the same; about 2 s at --quick). `npm run
# bench -- pool [--no-write]` runs the read pool's alone, `npm run bench
# -- compressed [--no-write]` the compressed reads alone, `npm run bench
# -- memory [--quick] [--no-write]` the memory one alone, `npm run bench
# -- array-to-array [--quick] [--no-write] [--rounds=N]` the array ->
# array one alone; `npm run bench --
# network [options]` reads over a loopback network (bench/network.mjs;
# --browser: in Chromium, bench/network-browser.mjs); `npm run bench --
# session [options]` a viewer's session over a user's link
# (bench/session.mjs; --browser: in Chromium, bench/session-browser.mjs);
# `npm run bench -- --compressors [options]` runs bench/compressors.mjs
# (decompression alone) instead. With --quick the whole run ends with smoke
# runs of the network bench (the 1024x1024 store at 0 ms: about 20 s,
# values checked) and of the session bench (the same store, one round:
# about 16 s with its five readers on a loaded machine, values checked); without,
# both are left to `npm run bench -- network` (at 0, 25 and 100 ms it
# takes 10 minutes and more) and `npm run bench -- session`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == pool ]]; then
  shift
  bash scripts/build-wasm.sh >/dev/null
  # The same malloc thresholds as below.
  GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824 exec node --expose-gc bench/pool.mjs "$@"
fi
if [[ "${1:-}" == memory ]]; then
  shift
  bash scripts/build-wasm.sh >/dev/null
  exec node --expose-gc bench/memory.mjs "$@"
fi
if [[ "${1:-}" == network || "${1:-}" == session ]]; then
  # bench/<name>.mjs in Node, or with --browser bench/<name>-browser.mjs in Chromium.
  name=$1
  shift
  bash scripts/build-wasm.sh >/dev/null
  if [[ "${1:-}" == --browser ]]; then
    shift
    exec node "bench/$name-browser.mjs" "$@"
  fi
  exec node --expose-gc "bench/$name.mjs" "$@"
fi
if [[ "${1:-}" == array-to-array ]]; then
  shift
  bash scripts/build-wasm.sh >/dev/null
  GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824 exec node --expose-gc bench/array-to-array.mjs "$@"
fi
if [[ "${1:-}" == compressed ]]; then
  shift
  bash scripts/build-wasm.sh >/dev/null
  GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824 exec node --expose-gc bench/compressed-reads.mjs "$@"
fi
bash scripts/build-wasm.sh zarr-codecs-wasm-nosimd >/dev/null
cxx=clang++-14 cc=clang-14
command -v "$cxx" >/dev/null || cxx=c++
command -v "$cc" >/dev/null || cc=cc
bash scripts/clean-moved-build.sh build/native-release
cmake -S . -B build/native-release -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" >/dev/null
cmake --build build/native-release --target zcw_native_bench zcw_native_compressors -j"$(nproc)" >/dev/null
# glibc serves allocations above an adaptive threshold (128 KiB to 32 MiB)
# with fresh mmap()s, whose pages fault in on first write, and returns freed
# heap tops to the system. Whether a 16 MiB round paid ~4,000 page faults
# then depended on what earlier rounds left behind, and ratios at 16 MiB
# moved by up to 3x between runs. Pinning both thresholds makes every
# contender reuse warm memory, so the ratios measure the work each does.
export GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824
# --compressors: decompression alone (bench/compressors.mjs), instead of
# the kernels and codecs.
if [ "${1:-}" = --compressors ]; then
  shift
  exec node --expose-gc bench/compressors.mjs "$@"
fi
node --expose-gc bench/run.mjs "$@"
pool_args=()
for arg in "$@"; do
  case "$arg" in --quick|--no-write) pool_args+=("$arg") ;; esac
done
node --expose-gc bench/pool.mjs "${pool_args[@]}"
node --expose-gc bench/compressed-reads.mjs "${pool_args[@]}"
node --expose-gc bench/memory.mjs "${pool_args[@]}"
node --expose-gc bench/array-to-array.mjs "${pool_args[@]}"
for arg in "$@"; do
  if [[ "$arg" == --quick ]]; then
    node --expose-gc bench/network.mjs --quick --latency=0
    node --expose-gc bench/session.mjs --quick
    break
  fi
done
