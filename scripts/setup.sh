#!/usr/bin/env bash
# Installs what building and testing need, skipping what is already there:
# Debian's Emscripten (with clang-14 and its sanitizer runtimes), GoogleTest,
# Chromium for the browser tests, zarr-python 2 (an independent N5 reader
# for the write tests), the compression libraries' sources (pinned Debian
# source packages, scripts/fetch-compressor-sources.sh), and the npm dev
# dependencies. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v emcc >/dev/null || need+=(emscripten)
command -v clang++-14 >/dev/null || need+=(clang-14)
dpkg -s libclang-rt-14-dev >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
dpkg -s libgtest-dev >/dev/null 2>&1 || need+=(libgtest-dev)
command -v cmake >/dev/null || need+=(cmake)
# Unpacking and patching the compressors' sources.
command -v xz >/dev/null || need+=(xz-utils)
command -v patch >/dev/null || need+=(patch)
# The browser tests drive Debian's Chromium (never a downloaded browser).
[ -x /usr/bin/chromium ] || need+=(chromium)
# The N5 write tests read their blocks back with Debian's zarr-python 2.
/usr/bin/python3 -c "import zarr.n5, numcodecs" 2>/dev/null || need+=(python3-zarr python3-numcodecs)
if ((${#need[@]})); then
  echo "setup: installing ${need[*]} from Debian"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

# zstd, lz4, libdeflate and c-blosc: dependencies built by our CMake from
# Debian's source packages, never copied into the repository.
bash scripts/fetch-compressor-sources.sh

# `npm ci` installs exactly what package-lock.json pins, and fails where
# the lock and package.json disagree, so CI tests the lock users get. (The
# lock holds every platform's optional packages, as `npm ci` requires:
# tests/js/lock-files.test.js checks that it is accepted and that a
# clone's `npm install` leaves it unchanged.)
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi

# The apps the tests build or import (tests/apps/*/package.json): viv's
# loaders with zarrita 0.5.4, fizarrita's worker pool with zarrita 0.7.5,
# and ome-zarr.js with @fideus-labs/ngff-zarr as three npm installs lay them
# out (each library's own zarrita; overrides; zarrita pinned to ~0.6.2).
for app in tests/apps/*/; do
  [ -f "$app/package.json" ] || continue
  if [ ! -d "$app/node_modules" ] || [ "$app/package-lock.json" -nt "$app/node_modules/.package-lock.json" ]; then
    echo "setup: installing npm dependencies of $app (npm ci)"
    (cd "$app" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done
