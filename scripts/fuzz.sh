#!/usr/bin/env bash
# npm run fuzz [-- SECONDS [native|js|all]]: the fuzzers, each for SECONDS
# (default 60):
#   native  the libFuzzer targets of the core (clang-14, with ASan and
#           UBSan), starting from the seed corpus in tests/fuzz/corpus; new
#           corpus entries go to build/fuzz/ (not the repository);
#   js      the metadata, codec-configuration, N5, read-differential,
#           filters-differential, compressed-chunk and hostile-claims
#           fuzzers (tests/fuzz/js/, seeded with the date; the seed is
#           printed).
# Exits non-zero on any crash, leak or failed check.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
which="${2:-all}"
if [ "$which" = js ] || [ "$which" = all ]; then
  seed=$(date +%s)
  node tests/fuzz/js/metadata.mjs "$seconds" "$((seed % 100000))" 2>/dev/null
  node tests/fuzz/js/codec-config.mjs "$seconds" "$((seed % 100000))" 2>/dev/null
  node tests/fuzz/js/n5.mjs "$seconds" "$((seed % 100000))" 2>/dev/null
  # Its failures (the seed, the run, a minimized repro) are on stderr.
  node tests/fuzz/js/read-differential.mjs "$seconds" "$((seed % 100000))"
  node tests/fuzz/js/filters-differential.mjs "$seconds" "$((seed % 100000))"
  node tests/fuzz/js/compressed.mjs "$seconds" "$((seed % 100000))"
  node tests/fuzz/js/claims.mjs "$seconds" "$((seed % 100000))"
fi
[ "$which" = js ] && exit 0
bash scripts/clean-moved-build.sh build/fuzz
cmake -S . -B build/fuzz -DZCW_FUZZ=ON -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/fuzz -j"$(nproc)" >/dev/null
# The targets run as many at a time as there are cores (libFuzzer runs on
# one thread), each for the whole SECONDS with a core of its own: on 2
# cores the run takes half the time it took one target at a time. Their
# reports are printed in the targets' order.
targets=(bytes packbits numcodecs vlen_bytes n5 decompress)
at_once=$(nproc)
run_target() {
  local target=$1 corpus="build/fuzz/corpus-$1"
  mkdir -p "$corpus" "build/fuzz/crashes-$target"
  "build/fuzz/fuzz_$target" "$corpus" "tests/fuzz/corpus/$target" \
    -max_total_time="$seconds" -print_final_stats=1 -max_len=4096 -timeout=10 \
    -artifact_prefix="build/fuzz/crashes-$target/" >"build/fuzz/$target.log" 2>&1
}
for ((first = 0; first < ${#targets[@]}; first += at_once)); do
  batch=("${targets[@]:first:at_once}")
  pids=()
  for target in "${batch[@]}"; do
    run_target "$target" &
    pids+=($!)
  done
  for i in "${!batch[@]}"; do
    target=${batch[$i]}
    log="build/fuzz/$target.log"
    if ! wait "${pids[$i]}"; then
      kill "${pids[@]}" 2>/dev/null || true
      tail -40 "$log" >&2
      echo "fuzz: fuzz_$target failed; the input is in build/fuzz/crashes-$target/" >&2
      exit 1
    fi
    corpus="build/fuzz/corpus-$target"
    runs=$(grep -oE "stat::number_of_executed_units: *[0-9]+" "$log" | grep -oE "[0-9]+$")
    cov=$(grep -oE "cov: [0-9]+" "$log" | tail -1 | grep -oE "[0-9]+")
    ft=$(grep -oE "ft: [0-9]+" "$log" | tail -1 | grep -oE "[0-9]+")
    echo "fuzz: fuzz_$target: ${runs} executions in ${seconds} s, coverage ${cov} edges, ${ft} features, $(ls "$corpus" | wc -l) corpus entries, no crashes"
  done
done
