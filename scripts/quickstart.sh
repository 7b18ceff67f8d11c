#!/usr/bin/env bash
# Set up ashare on a fresh Debian machine and run it on the bundled sample data: install the
# packages, build, load the sample bars into the default store and print 600519.SH over
# 2024-01-01..2024-06-30 as a table.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
generator=()
if command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
cmake -S . -B build/release "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DASHARE_BUILD_TESTS=OFF
cmake --build build/release -j "$(nproc 2>/dev/null || echo 2)"
ashare=build/release/src/cli/ashare

echo "==> loading the sample data (data/sample/) into the default store"
scripts/load-sample.sh "$ashare"
echo "==> ashare bars 600519.SH 2024-01-01 2024-06-30"
"$ashare" bars 600519.SH 2024-01-01 2024-06-30 --format table --summary
