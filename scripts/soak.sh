#!/usr/bin/env bash
# Soak `ashare serve` for SECONDS (default 600) under mixed load with an import landing midway
# (scripts/soak.py says what and what fails it); prints requests, statuses, p50/p99 and RSS
# every 10 s. Not part of the default test run.
#   scripts/soak.sh 600
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-600}"
build=build/release
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DASHARE_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target ashare ashare_net >/dev/null
exec python3 scripts/soak.py "$seconds" "$PWD/$build/src/cli/ashare"
