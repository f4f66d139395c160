#!/usr/bin/env bash
# npm's lifecycle hooks for installs from source. The package's JavaScript
# imports dist/ (the wasm module and its glue), which is built, not kept in
# git, so every way a copy of the sources turns into an installed package
# passes through here:
#   prepare  npm install from a git URL (npm builds the clone, then packs
#            it), and npm install inside a clone: builds dist/ when
#            Emscripten is there; a clone already built is fine without it;
#            otherwise fails, saying how to build.
#   prepack  npm pack and npm publish: builds, so the tarball holds dist/
#            as the sources make it, or fails; never a tarball without the
#            wasm.
# Neither builds where dist/ is what these sources build: its stamp
# (dist/.stamp, written by scripts/build-wasm.sh) names the sources'
# digest and dist/'s own, and both still match (scripts/dist-stamp.sh).
# So a built clone packs as it is, also where it was copied or moved (its
# build/ folder remembers the old place, which CMake refuses: a build
# there starts in a clean folder, scripts/clean-moved-build.sh), and the
# tests' many `npm pack`s cost no build each. Each outcome says so in one
# line on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
hook="${1:?usage: prepare.sh prepare|prepack}"
dist=(dist/zarr-codecs-wasm.mjs dist/zarr-codecs-wasm.wasm dist/zarr-codecs-wasm.inline.mjs)

built() {
  local f
  for f in "${dist[@]}"; do [ -s "$f" ] || return 1; done
}

# The compression libraries' sources (scripts/fetch-compressor-sources.sh;
# ZCW_THIRD_PARTY points at a download elsewhere).
sources="${ZCW_THIRD_PARTY:-$PWD/third_party}"
have_sources() {
  local d
  for d in zstd lz4 libdeflate c-blosc; do [ -f "$sources/$d/.zcw-pin" ] || return 1; done
}

if built && [ -f dist/.stamp ] && [ "$(bash scripts/dist-stamp.sh)" = "$(cat dist/.stamp)" ]; then
  echo "zarr-codecs-wasm: dist/ is the build of these sources (dist/.stamp matches them): not building it again ($hook)" >&2
  exit 0
fi
if command -v emcmake >/dev/null && [ -x node_modules/.bin/esbuild ] && have_sources; then
  if [ -f dist/.stamp ]; then
    echo "zarr-codecs-wasm: building the wasm module ($hook): the sources or dist/ changed since dist/.stamp was written" >&2
  else
    echo "zarr-codecs-wasm: building the wasm module ($hook)" >&2
  fi
  bash scripts/build-wasm.sh >&2
  built || { echo "zarr-codecs-wasm: the build finished without ${dist[*]}" >&2; exit 1; }
  exit 0
fi
if [ "$hook" = prepare ] && built; then exit 0; fi

# npm builds a git dependency in a temporary clone that is gone by the time
# anyone reads this: point at a clone of one's own instead.
here="$PWD"
case "$here" in
  */_cacache/tmp/git-clone*) here="" ;;
esac
{
  echo
  echo "zarr-codecs-wasm: cannot build the WebAssembly module here ($hook)."
  echo "  This copy comes from the sources (a git clone or folder), which do not hold"
  echo "  the built module (dist/zarr-codecs-wasm.wasm and its glue). Building it needs"
  echo "  Emscripten, the compression libraries' sources and the package's npm dev"
  echo "  dependencies; missing here:"
  command -v emcmake >/dev/null || echo "    - Emscripten (emcmake is not on PATH)"
  [ -x node_modules/.bin/esbuild ] || echo "    - the npm dev dependencies (no node_modules/.bin/esbuild in $PWD)"
  have_sources || echo "    - the compression libraries' sources (none in $sources; bash scripts/fetch-compressor-sources.sh fetches them, or set ZCW_THIRD_PARTY to a folder it filled)"
  echo "  To build it, in order (docs/development.md, \"Building\"; other systems: \"Without apt\"):"
  if [ -n "$here" ]; then
    echo "    1. install Emscripten (Debian, Ubuntu: sudo apt-get install emscripten)"
    echo "    2. cd '$here' && bash scripts/fetch-compressor-sources.sh   (the compression libraries' sources)"
    echo "    3. npm install   (there: it builds the wasm; on Debian, bash scripts/setup.sh does all three)"
    echo "  then install this folder again, or the tarball npm pack makes there."
  else
    echo "    1. install Emscripten (Debian, Ubuntu: sudo apt-get install emscripten)"
    echo "    2. git clone the repository, and in the clone: bash scripts/fetch-compressor-sources.sh"
    echo "    3. npm install && npm pack   (in the clone: builds the wasm, then packs it)"
    echo "  and install the .tgz npm pack writes (npm install <clone>/zarr-codecs-wasm-<version>.tgz)."
  fi
  echo "  The package is not on npm yet: building it is the way to install it."
  echo
} >&2
exit 1
