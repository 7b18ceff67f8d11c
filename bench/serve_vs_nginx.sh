#!/usr/bin/env bash
# Issue 9's benchmark in one command: installs wrk and nginx-light from Debian when missing,
# builds ashare (Release) in build/release, and prints P1, P1m and P1h as ratios to nginx
# measured in the same run (bench/serve_vs_nginx.py). Arguments are passed to the script, e.g.
#   bench/serve_vs_nginx.sh --rounds 5 --seconds 5
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
missing=()
for package in wrk nginx-light openssl python3; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
# nginx-light starts a system nginx on port 80 when installed; the bench runs its own.
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build/release "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DASHARE_BUILD_TESTS=OFF >/dev/null
cmake --build build/release -j "$(nproc)" --target ashare >/dev/null
exec python3 bench/serve_vs_nginx.py build/release/src/cli/ashare "$@"
