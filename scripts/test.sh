#!/usr/bin/env bash
# The test suite. With no argument: one build (Debug, warnings as errors) and every test in it:
# unit, black-box on SQLite and on a throwaway PostgreSQL, crash cycles, docs and completions,
# about 12 minutes on 2 cores cold, less warm (what .ci/run runs). With --all: that, then the ASan+UBSan build
# running the unit and black-box tests again, then the libFuzzer harnesses built with clang
# replaying every committed input once (no exploration: that is scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: scripts/test.sh [--all]"
all=false
case "${1-}" in
  "") ;;
  --all) all=true ;;
  -h | --help) echo "$usage"; exit 0 ;;
  *) echo "$usage" >&2; exit 2 ;;
esac

# What the build and the tests need, installed when missing (a fresh machine works).
scripts/install-deps.sh

# ccache (when installed, cmake/Ccache.cmake compiles through it) set so that a clone in another
# folder reuses what this machine compiled before (issue 43; docs/testing.md): paths under the
# clone's root hashed relative to it, the working directory left out of the hash (an object's
# debug info may then name the other clone's folder), and the sloppiness precompiled headers need.
# Booleans are set by name in ccache's environment: CCACHE_HASHDIR=false would be an error.
export CCACHE_BASEDIR="$PWD"
export CCACHE_NOHASHDIR=1
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime

jobs="$(nproc 2>/dev/null || echo 2)"
generator=()
if command -v ninja >/dev/null; then
  generator=(-G Ninja)
fi
# lld (installed by install-deps.sh) links a test program in a fifth of the CPU time GNU ld takes:
# about 25 s of a cold build's CPU over the seven programs (docs/testing.md). The release build
# keeps the system's linker.
linker=()
if command -v ld.lld >/dev/null; then
  linker=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld)
fi

# The OpenAPI validator test runs on Node modules pinned in tests/openapi/package-lock.json.
if [ -f tests/openapi/package-lock.json ]; then
  npm ci --prefix tests/openapi --no-audit --no-fund --loglevel=error
fi

run_configuration() {
  local name="$1"
  shift
  local dir="build/test-$name"
  local started=$SECONDS
  echo "==> $name: configure, build, test"
  # The bench programs are never run by ctest: a test build leaves them out. -g1 (line tables:
  # backtraces and sanitizer reports name functions and lines) in place of Debug's -g compiles a
  # test file in three quarters of the time (docs/testing.md); a debugger wants a build of its own.
  cmake -S . -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
    -DCMAKE_COMPILE_WARNING_AS_ERROR=ON -DASHARE_BUILD_BENCHMARKS=OFF "${linker[@]}" "$@"
  cmake --build "$dir" -j "$jobs"
  # One test more than cores: the tests wait on servers and timers, and at -j "$jobs" a core sat
  # idle a sixth of the run (docs/testing.md).
  ctest --test-dir "$dir" --output-on-failure --timeout 900 -j "$((jobs + 1))"
  echo "==> $name: passed in $((SECONDS - started)) s"
}

# The normal configuration is a unity build (CMake compiles a target's files in batches of 16 as
# one): it halves a cold build's CPU (docs/testing.md). The sanitizer and fuzz builds compile each
# file alone, which also checks that every file includes what it uses.
run_configuration normal -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16
if $all; then
  run_configuration sanitize -DASHARE_SANITIZE="address;undefined"
  run_configuration fuzz -DCMAKE_CXX_COMPILER=clang++-14 -DASHARE_FUZZ=ON
fi
echo "==> all configurations passed in $SECONDS s"
