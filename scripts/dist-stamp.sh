#!/usr/bin/env bash
# Prints what dist/ was built from and what it holds: one sha256 of the
# build's inputs (the C++ sources, the bindings, the CMake files with the
# compression libraries' pins, the ABI version, the build scripts) and one
# of the files the package ships from dist/. scripts/build-wasm.sh writes
# it to dist/.stamp after a build; scripts/prepare.sh compares it, so that
# `npm pack` and `npm install <folder>` of a built clone (copied or moved
# elsewhere, too) pack its dist/ as it is instead of building it again.
# Paths are relative to the repository, so a copy prints what the
# original does. The toolchain is not an input: a build with another
# Emscripten is still a build of these sources (npm run build always
# rebuilds).
set -euo pipefail
cd "$(dirname "$0")/.."
inputs=(CMakeLists.txt cmake src bindings js/wasm/abi-version.js scripts/build-wasm.sh scripts/write-inline-wasm.mjs)
shipped=(dist/zarr-codecs-wasm.mjs dist/zarr-codecs-wasm.wasm dist/zarr-codecs-wasm.inline.mjs
  dist/zarr-codecs-wasm-encode.mjs dist/zarr-codecs-wasm-encode.wasm dist/licenses)
# One sha256 of the files' names and contents (a missing file changes it),
# in an order that does not depend on the locale or the file system.
digest() {
  find "$@" -type f -print0 2>/dev/null | LC_ALL=C sort -z | xargs -0 -r sha256sum | sha256sum | cut -d' ' -f1
}
echo "sources $(digest "${inputs[@]}")"
echo "dist $(digest "${shipped[@]}")"
