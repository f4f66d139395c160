#!/usr/bin/env bash
# Fails when a SIMD kernel in the wasm build contains lane-by-lane code.
# clang-14 silently scalarises wasm vector shifts by run-time counts (and
# multiplies by constant powers of two it turns into such shifts), making a
# kernel several times slower while every test still passes; see
# src/simd/v128.h. Run after scripts/build-wasm.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
objdump=$(command -v llvm-objdump-14 || command -v llvm-objdump)
status=0
for src in packbits_simd byteswap widen low_bits value_kernels; do
  obj=$(find build/wasm -name "$src.cpp.o" -path "*zarr-codecs-wasm_core*" | head -1)
  [ -n "$obj" ] || { echo "check-simd-codegen: no wasm object for $src.cpp; build first" >&2; exit 1; }
  # A scalarised op reads every lane out (extract_lane); building a constant
  # vector in a kernel's set-up only writes lanes (replace_lane), harmlessly.
  lanes=$("$objdump" -d "$obj" | grep -c "extract_lane" || true)
  if [ "$lanes" -ne 0 ]; then
    echo "check-simd-codegen: $src.cpp reads $lanes vector lanes one by one (a scalarised vector op)" >&2
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "check-simd-codegen: SIMD kernels compile to whole-vector code"
exit "$status"
