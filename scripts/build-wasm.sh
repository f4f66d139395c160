#!/usr/bin/env bash
# Builds the wasm modules into dist/ with Debian's Emscripten: the read
# module (the Emscripten glue, minified, the .wasm beside it, and the base64
# copy the main entry inlines), the encoder module (zarr-codecs-wasm-encode,
# loaded only to compress), and the compression libraries' licenses
# (dist/licenses/). Arguments are extra build targets
# (zarr-codecs-wasm-nosimd for the benchmark). The compression libraries'
# sources must have been fetched (scripts/fetch-compressor-sources.sh, or
# ZCW_THIRD_PARTY): the configure step says so otherwise. After a build,
# dist/.stamp records what dist/ was built from (scripts/dist-stamp.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# Debian's emcc needs its acorn from /usr/share/nodejs, which Node does not
# search (docs/architecture.md, toolchain facts).
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
command -v emcmake >/dev/null || { echo "emcmake not found: run scripts/setup.sh (apt-get install emscripten)" >&2; exit 1; }
bash scripts/check-emscripten-version.sh
mkdir -p build
# No stamp while dist/ is being rewritten: a build that stops halfway
# leaves none, so scripts/prepare.sh builds again.
rm -f dist/.stamp
bash scripts/clean-moved-build.sh build/wasm
emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >build/wasm-configure.log 2>&1 ||
  { cat build/wasm-configure.log >&2; exit 1; }
cmake --build build/wasm -j"$(nproc)" --target zarr-codecs-wasm zarr-codecs-wasm-encode "$@"
for name in zarr-codecs-wasm zarr-codecs-wasm-encode "$@"; do
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
built=(dist/zarr-codecs-wasm.mjs dist/zarr-codecs-wasm.inline.mjs dist/zarr-codecs-wasm-encode.mjs)
for name in "$@"; do built+=("dist/$name.mjs"); done
if grep -l "$PWD\|import\.meta" "${built[@]}"; then
  echo "build-wasm: the files above mention $PWD or import.meta" >&2
  exit 1
fi
bash scripts/dist-stamp.sh >dist/.stamp
# Sizes as the package ships them (docs/where-it-runs.md, "Loading the wasm").
for f in dist/zarr-codecs-wasm.mjs dist/zarr-codecs-wasm.wasm dist/zarr-codecs-wasm.inline.mjs \
  dist/zarr-codecs-wasm-encode.mjs dist/zarr-codecs-wasm-encode.wasm; do
  echo "build-wasm: $f $(stat -c %s "$f") bytes, $(gzip -9 -c "$f" | wc -c) gzip -9"
done
