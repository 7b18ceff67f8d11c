#!/usr/bin/env bash
# kill -9 at random points of every writer (import, remove, keys credit, sync into the cache, a
# server charging credits under load), CYCLES times each (default 50; CI runs 10), on a normal
# Release build. Prints the seed of the kill points (ASHARE_CRASH_SEED replays a run).
#   scripts/crash.sh 200
set -euo pipefail
cd "$(dirname "$0")/.."

cycles="${1:-50}"
build=build/crash
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DASHARE_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target ashare ashare_net \
  ashare_blackbox_tests >/dev/null
start=$(date +%s)
ASHARE_CRASH_CYCLES="$cycles" ASHARE_BIN="$PWD/$build/src/cli/ashare" \
  ASHARE_TEST_DATA_DIR="$PWD/tests/data" \
  "$build/tests/blackbox/ashare_blackbox_tests" -tc='crash:*' -s 2>&1 \
  | grep -E 'ASHARE_CRASH_SEED|kills that landed|ERROR|test cases|assertions|Status'
echo "crash.sh: $cycles cycles per writer in $(( $(date +%s) - start )) s"
