#!/usr/bin/env bash
# Builds the wasm module(s) into dist/ with Debian's Emscripten.
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's emcc needs its acorn from /usr/share/nodejs (see DESIGN.md).
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
command -v emcmake >/dev/null || { echo "emcmake not found: run scripts/setup.sh (apt-get install emscripten)" >&2; exit 1; }
mkdir -p build
emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >build/wasm-configure.log 2>&1 ||
  { cat build/wasm-configure.log >&2; exit 1; }
cmake --build build/wasm -j"$(nproc)"
