#!/usr/bin/env bash
# Warns, without failing, when emcc is not a version the build is tested
# with (docs/development.md, "Emscripten versions"): the link settings in
# CMakeLists.txt and the glue checks in scripts/build-wasm.sh were worked
# out against these, and another version may build a module that differs
# (or fail where the build checks the glue). Called by scripts/build-wasm.sh.
set -euo pipefail
tested="3.1.6" # Debian bookworm's emscripten 3.1.6~dfsg-5, what CI builds with
found="$(emcc --version 2>/dev/null | head -n 1 | grep -oE '[0-9]+\.[0-9]+\.[0-9]+' | head -n 1 || true)"
for version in $tested; do
  [ "$found" = "$version" ] && exit 0
done
{
  echo "zarr-codecs-wasm: warning: emcc ${found:-(its version could not be read from emcc --version)} is not a version this build is tested with ($tested)."
  echo "  The build goes on; check the module it makes with the test suite (npm test). What depends on the"
  echo "  version: docs/development.md, \"Emscripten versions\"."
} >&2
