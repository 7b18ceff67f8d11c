#!/usr/bin/env bash
# Explore new inputs with every libFuzzer harness of tests/fuzz for SECONDS each (default 60),
# one after another, then merge what adds coverage into tests/fuzz/corpus/NAME (commit it: CI
# replays the corpus). Prints executions, coverage and corpus size per harness. A crash stops
# with its input in build/fuzz/artifacts/: fix it, add the input to tests/fuzz/regressions/NAME.
#   scripts/fuzz.sh 3600          # an hour per harness
#   scripts/fuzz.sh 60 dispatch   # one harness
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
shift || true
build=build/fuzz
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++-14 -DASHARE_FUZZ=ON -DCMAKE_COMPILE_WARNING_AS_ERROR=ON >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null

harnesses=("$@")
if [ "${#harnesses[@]}" -eq 0 ]; then
  harnesses=(parsers parse import dispatch remote_json config tushare_reply tdx_reply)
fi
mkdir -p "$build/artifacts"
printf '%-12s %12s %10s %8s %8s %s\n' harness executions exec/s cov ft corpus
for name in "${harnesses[@]}"; do
  binary="$build/tests/fuzz/fuzz_$name"
  corpus="tests/fuzz/corpus/$name"
  work="$build/explore/$name"
  mkdir -p "$corpus" "$work"
  dict=()
  if [ -f "tests/fuzz/dict/$name.dict" ]; then
    dict=(-dict="tests/fuzz/dict/$name.dict")
  fi
  inputs=("$corpus")
  for folder in seeds regressions; do
    [ -d "tests/fuzz/$folder/$name" ] && inputs+=("tests/fuzz/$folder/$name")
  done
  log="$build/explore/$name.log"
  if ! "$binary" "${dict[@]}" -max_total_time="$seconds" -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$name-" -max_len=8192 "$work" "${inputs[@]}" \
      >"$log" 2>&1; then
    echo "fuzz_$name found a failure: see $log and $build/artifacts/" >&2
    tail -n 30 "$log" >&2
    exit 1
  fi
  # Keep in the committed corpus only what adds coverage to it.
  "$binary" -merge=1 "$corpus" "$work" >>"$log" 2>&1
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  last=$(grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "$log" | grep -v MERGE | tail -n 1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  printf '%-12s %12s %10s %8s %8s %s files\n' "$name" "$executions" "$rate" "$cov" "$ft" \
    "$(find "$corpus" -type f | wc -l)"
done
