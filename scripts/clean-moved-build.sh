#!/usr/bin/env bash
# Removes a CMake build folder that was configured somewhere else, saying
# so in one line on stderr: usage: clean-moved-build.sh <build folder>.
# CMake keeps the absolute paths it was configured with in the folder's
# CMakeCache.txt and refuses to build a clone that was copied or moved
# ("The current CMakeCache.txt directory ... is different than the
# directory ... where CMakeCache.txt was created"); a cache reused that
# way would also write into the original's dist/ (ZCW_DIST_DIR is cached).
# The folder holds only what the build makes, so the build starts over in
# a clean one. Called by the scripts that configure build/ folders.
set -euo pipefail
dir="${1:?usage: clean-moved-build.sh <build folder>}"
cache="$dir/CMakeCache.txt"
[ -f "$cache" ] || exit 0
made_in="$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$cache")"
# Either spelling of this folder (through a symbolic link, or not) is its own.
here_logical="$(cd "$dir" && pwd -L)"
here_physical="$(cd "$dir" && pwd -P)"
if [ "$made_in" = "$here_logical" ] || [ "$made_in" = "$here_physical" ]; then exit 0; fi
echo "zarr-codecs-wasm: $dir was configured in ${made_in:-(CMakeCache.txt names no folder)}, not here (a copied or moved clone): building in a clean $dir" >&2
rm -rf "$dir"
