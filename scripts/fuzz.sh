#!/usr/bin/env bash
# npm run fuzz [-- SECONDS]: builds the libFuzzer targets (clang-14, with
# ASan and UBSan) and runs each for SECONDS (default 60), starting from the
# seed corpus in tests/fuzz/corpus. New corpus entries go to build/fuzz/
# (not the repository). Exits non-zero on any crash, leak or failed check.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
cmake -S . -B build/fuzz -DZCW_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/fuzz -j"$(nproc)" >/dev/null
for target in bytes packbits numcodecs; do
  corpus="build/fuzz/corpus-$target"
  mkdir -p "$corpus" "build/fuzz/crashes-$target"
  log="build/fuzz/$target.log"
  if ! "build/fuzz/fuzz_$target" "$corpus" "tests/fuzz/corpus/$target" \
      -max_total_time="$seconds" -print_final_stats=1 -max_len=4096 -timeout=10 \
      -artifact_prefix="build/fuzz/crashes-$target/" >"$log" 2>&1; then
    tail -40 "$log" >&2
    echo "fuzz: fuzz_$target failed; the input is in build/fuzz/crashes-$target/" >&2
    exit 1
  fi
  runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$")
  cov=$(grep -oE "cov: [0-9]+" "$log" | tail -1 | grep -oE "[0-9]+")
  ft=$(grep -oE "ft: [0-9]+" "$log" | tail -1 | grep -oE "[0-9]+")
  echo "fuzz: fuzz_$target: ${runs} executions in ${seconds} s, coverage ${cov} edges, ${ft} features, $(ls "$corpus" | wc -l) corpus entries, no crashes"
done
