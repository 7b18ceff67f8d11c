#!/usr/bin/env bash
# The whole test suite: builds the normal and the ASan+UBSan configurations with warnings as
# errors and runs every test (labels unit and blackbox) in both; then builds the libFuzzer
# harnesses with clang and replays every committed input once (label fuzz; no exploration, which
# is scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

jobs="$(nproc 2>/dev/null || echo 2)"
generator=()
if command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi

# The OpenAPI validator test runs on Node modules pinned in tests/openapi/package-lock.json.
if [ -f tests/openapi/package-lock.json ]; then
  npm ci --prefix tests/openapi --no-audit --no-fund --loglevel=error
fi

run_configuration() {
  local name="$1"
  shift
  local dir="build/test-$name"
  echo "==> $name: configure, build, test"
  cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_COMPILE_WARNING_AS_ERROR=ON "$@"
  cmake --build "$dir" -j "$jobs"
  ctest --test-dir "$dir" --output-on-failure --timeout 900
}

run_configuration normal
run_configuration sanitize -DASHARE_SANITIZE="address;undefined"
run_configuration fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DASHARE_FUZZ=ON
echo "==> all configurations passed"
