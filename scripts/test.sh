#!/usr/bin/env bash
# The whole test suite: native C++ tests under ASan/UBSan (CTest), then the
# wasm build and the Jest suites against it.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
echo "== native core tests (clang-14, ASan + UBSan, CTest)"
bash scripts/test-native.sh
echo "== fuzz smoke run (libFuzzer + ASan + UBSan, 5 s per target; the JS fuzzers run in Jest)"
bash scripts/fuzz.sh 5 native
echo "== wasm build"
bash scripts/build-wasm.sh
bash scripts/check-simd-codegen.sh
echo "== benchmark smoke run (builds the no-SIMD and native variants; timings not checked)"
bash scripts/bench.sh --quick --no-write >/dev/null
echo "== Jest suites"
node --experimental-vm-modules node_modules/jest/bin/jest.js --ci
echo "== all tests passed in $((SECONDS - start)) s"
