#!/usr/bin/env bash
# Install the Debian packages ashare builds and tests with (needs root or sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  # The build compiles through it when present (cmake/Ccache.cmake): a second run reuses objects.
  ccache
  # The test builds link with it when present (scripts/test.sh): it links a test program in a
  # fifth of the CPU time GNU ld takes.
  lld
  libcli11-dev nlohmann-json3-dev libsqlitecpp-dev libsqlite3-dev doctest-dev
  libssl-dev libboost-dev zlib1g-dev
  # The black-box tests' HTTP client (tests/blackbox); ashare itself does not use it.
  libcpp-httplib-dev
  # PostgreSQL (issue 14): the client library and header, and a server for the tests
  # (scripts/with-postgres.sh).
  libpq-dev postgresql-15
  sqlite3 openssl curl python3 nodejs npm zsh fish
  # The store views' test reads them with pandas (tests/blackbox/test_store_views.cpp).
  python3-pandas
  # The fuzz harnesses (tests/fuzz): clang and libFuzzer. The compiler runtime is only a
  # recommendation of clang, and the install runs without recommendations: name it.
  clang libfuzzer-14-dev libclang-rt-14-dev
)

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
# node and npm may come from outside Debian on a developer machine; do not replace them.
if command -v node >/dev/null && command -v npm >/dev/null; then
  filtered=()
  for package in "${missing[@]}"; do
    [ "$package" = nodejs ] || [ "$package" = npm ] || filtered+=("$package")
  done
  missing=("${filtered[@]}")
fi
if [ "${#missing[@]}" -gt 0 ]; then
  $sudo apt-get update
  $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
