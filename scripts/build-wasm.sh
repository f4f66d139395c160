#!/usr/bin/env bash
# Builds the wasm module(s) into dist/ with Debian's Emscripten: the
# Emscripten glue (minified), the .wasm beside it, and the base64 copy the
# main entry inlines. Arguments are extra build targets
# (zarr-codecs-wasm-nosimd for the benchmark).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's emcc needs its acorn from /usr/share/nodejs, which Node does not
# search (docs/architecture.md, toolchain facts).
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
command -v emcmake >/dev/null || { echo "emcmake not found: run scripts/setup.sh (apt-get install emscripten)" >&2; exit 1; }
mkdir -p build
emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >build/wasm-configure.log 2>&1 ||
  { cat build/wasm-configure.log >&2; exit 1; }
cmake --build build/wasm -j"$(nproc)" --target zarr-codecs-wasm "$@"
for name in zarr-codecs-wasm "$@"; do
  glue="dist/$name.mjs"
  # Minify once per link (the glue is rewritten in place).
  if [ ! -f "build/wasm/$name.minified" ] || [ "$glue" -nt "build/wasm/$name.minified" ]; then
    node_modules/.bin/esbuild "$glue" --minify --format=esm --log-level=warning \
      --outfile="$glue" --allow-overwrite
    touch "build/wasm/$name.minified"
  fi
done
node scripts/write-inline-wasm.mjs dist/zarr-codecs-wasm.wasm dist/zarr-codecs-wasm.inline.mjs
# No path of this machine may reach a bundle.
built=(dist/zarr-codecs-wasm.mjs dist/zarr-codecs-wasm.inline.mjs)
for name in "$@"; do built+=("dist/$name.mjs"); done
if grep -l "$PWD\|import\.meta" "${built[@]}"; then
  echo "build-wasm: the files above mention $PWD or import.meta" >&2
  exit 1
fi
ls -l dist/zarr-codecs-wasm.mjs dist/zarr-codecs-wasm.wasm dist/zarr-codecs-wasm.inline.mjs | awk '{print "build-wasm: " $9 " " $5 " bytes"}'
