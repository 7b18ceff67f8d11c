#!/usr/bin/env bash
# Every measured figure in one command (issues 9 and 11): builds a Release binary and the bench
# programs in build/release, then prints P1/P1m/P1h/P1z (serve against nginx, P1z with gzip
# against nginx's gzip_static, and the bytes an answer moves on the wire), the CPU gzip costs per
# answer compressed per request against once per ETag (D17), a body sent by copy, writev or
# sendfile in a minimal server (issue 35), P2 (a one-shot query
# against the sqlite3 CLI), P3 (import against sqlite3 .import, peak memory, and P5's bytes per
# bar), P4 (indicator against bars requests, in process), P5 (a full market against 10 symbols
# under serve: latency and RSS) and P6 (remote mode from the cache against local mode), each with
# its baseline measured in the same run, and D20's members on a day against a bars query; then the timings the tests check only by order
# (bench/serve_timings.py: deadlines, drains, requests beside held work).
# Each part ends with bench/quiet.py's verdict: a run marked BUSY is not a figure.
# --quick runs fewer and shorter rounds on less data (a smoke run; its figures are noisier).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
quick=0
[ "${1:-}" = "--quick" ] && quick=1
for tool in wrk nginx sqlite3 python3 openssl; do
  command -v "$tool" >/dev/null || { echo "bench: $tool is missing (bench/serve_vs_nginx.sh installs wrk and nginx-light)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (apt-get install time): P3 reads peak memory with it" >&2; exit 2; }
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
cmake -S . -B build/release "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DASHARE_BUILD_TESTS=OFF >/dev/null
cmake --build build/release -j "$(nproc)" --target ashare ashare_bench_indicators ashare_bench_gzip \
  ashare_bench_send_modes >/dev/null
ashare=build/release/src/cli/ashare
if [ "$quick" = 1 ]; then
  p1=(--rounds 1 --seconds 2) oneshot=(--rounds 2 --processes 20) loop=(--loop 500) p4=(5000 50)
  p3=(--symbols 60 --days 3000 --rounds 1) p5=(--symbols 300 --requests 3000 --cold 100)
  timings=(--rounds 1)
else
  p1=(--rounds 5 --seconds 5) oneshot=(--rounds 5 --processes 100) loop=(--loop 5000) p4=(5000 300)
  p3=(--symbols 700 --days 3000 --rounds 3) p5=(--symbols 5000 --requests 100000)
  timings=(--rounds 5)
fi
echo "== P1, P1m, P1h, P1z: ashare serve against nginx; bytes on the wire"
python3 bench/serve_vs_nginx.py "$ashare" "${p1[@]}"
echo "== a cached body sent by copy, writev or sendfile, alone (issue 35)"
python3 bench/send_modes.py build/release/bench/ashare_bench_send_modes "${p1[@]}"
echo "== gzip per one-year answer: compressed per request against once per ETag (D17)"
gzip_body="$(mktemp)"
store="$(mktemp -d)"
ASHARE_DB="$store/ashare.db" scripts/load-sample.sh "$ashare" >/dev/null
"$ashare" --db "$store/ashare.db" bars 600519.SH 2024-01-01 2024-12-31 --format json >"$gzip_body"
python3 bench/quiet.py build/release/bench/ashare_bench_gzip "$gzip_body" "$([ "$quick" = 1 ] && echo 200 || echo 2000)"
rm -rf "$gzip_body" "$store"
echo "== P2: a one-shot query against the sqlite3 CLI"
python3 bench/oneshot_vs_sqlite3.py "$ashare" "${oneshot[@]}" "${loop[@]}"
echo "== P3: import against sqlite3 .import (and P5's bytes per bar)"
python3 bench/import_vs_sqlite3.py "$ashare" "${p3[@]}"
echo "== P4: indicator requests against a bars request of the same 5,000 bars, in process"
python3 bench/quiet.py build/release/bench/ashare_bench_indicators "${p4[@]}"
echo "== P5: a full market against 10 symbols, under serve"
python3 bench/market_vs_small.py "$ashare" "${p5[@]}"
echo "== P6: remote mode from the cache against local mode"
python3 bench/remote_cache_vs_local.py "$ashare" "${oneshot[@]}"
echo "== D20: an index's members on a day against a one-year bars query (issue 44)"
python3 bench/members_vs_bars.py "$ashare" "${oneshot[@]}"
echo "== timings the tests check only by order: deadlines, drains, requests beside held work"
python3 bench/serve_timings.py "$ashare" "${timings[@]}"
