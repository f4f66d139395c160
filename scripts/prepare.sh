#!/usr/bin/env bash
# npm's lifecycle hooks for installs from source. The package's JavaScript
# imports dist/ (the wasm module and its glue), which is built, not kept in
# git, so every way a copy of the sources turns into an installed package
# passes through here:
#   prepare  npm install from a git URL (npm builds the clone, then packs
#            it), and npm install inside a clone: builds dist/ when
#            Emscripten is there; a clone already built is fine without it;
#            otherwise fails, saying how to build.
#   prepack  npm pack and npm publish: always builds, so the tarball holds
#            dist/ as the sources make it, or fails; never a tarball
#            without the wasm.
set -euo pipefail
cd "$(dirname "$0")/.."
hook="${1:?usage: prepare.sh prepare|prepack}"
dist=(dist/zarr-codecs-wasm.mjs dist/zarr-codecs-wasm.wasm dist/zarr-codecs-wasm.inline.mjs)

built() {
  local f
  for f in "${dist[@]}"; do [ -s "$f" ] || return 1; done
}

if command -v emcmake >/dev/null && [ -x node_modules/.bin/esbuild ]; then
  echo "zarr-codecs-wasm: building the wasm module ($hook)" >&2
  bash scripts/build-wasm.sh >&2
  built || { echo "zarr-codecs-wasm: the build finished without ${dist[*]}" >&2; exit 1; }
  exit 0
fi
if [ "$hook" = prepare ] && built; then exit 0; fi

steps=()
command -v emcmake >/dev/null ||
  steps+=("install Emscripten (Debian, Ubuntu: sudo apt-get install emscripten)")
steps+=("cd $PWD && npm install && npm run build")
{
  echo
  echo "zarr-codecs-wasm: cannot build the WebAssembly module here ($hook)."
  echo "  This copy comes from the sources (a git clone or folder), which do not hold"
  echo "  the built module (dist/zarr-codecs-wasm.wasm and its glue). Building it needs"
  echo "  Emscripten and the package's npm dev dependencies; missing here:"
  command -v emcmake >/dev/null || echo "    - Emscripten (emcmake is not on PATH)"
  [ -x node_modules/.bin/esbuild ] || echo "    - the npm dev dependencies (no node_modules/.bin/esbuild in $PWD)"
  echo "  Either install the published package (npm install zarr-codecs-wasm), or build"
  echo "  this copy, then install it again:"
  for step in "${steps[@]}"; do echo "    $step"; done
  echo "  (In a clone, bash scripts/setup.sh installs everything and builds.)"
  echo
} >&2
exit 1
