#!/usr/bin/env bash
# Set up ashare on a fresh Debian machine and run it on the bundled sample data: install the
# packages, build, load the sample bars into the default store, create a key, start
# `ashare serve` on a free loopback port and ask it for 600519.SH over 2024-01-01..2024-06-30.
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

echo "==> loading the sample data into the default store"
"$ashare" import --source "tushare (sample)" tests/data/bancob_600519.SH.csv \
  tests/data/bancob_600036.SH.csv tests/data/bancob_002594.SZ.csv
key="$("$ashare" keys create --plan pro --label quickstart | tail -n 1)"

echo "==> serving the v1 API"
log="$(mktemp)"
"$ashare" serve --listen 127.0.0.1:0 >"$log" 2>/dev/null &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 50); do
  grep -q '^listening on ' "$log" && break
  sleep 0.1
done
base="$(sed -n 's/^listening on //p' "$log")"
echo "listening on $base"

echo "==> GET $base/v1/ohlc/range/1/day/2024-01-01/2024-06-30?symbol=600519.SH&include=summary"
curl -fsS -H "Authorization: Bearer $key" \
  "$base/v1/ohlc/range/1/day/2024-01-01/2024-06-30?symbol=600519.SH&include=summary" \
  | python3 -c "$(cat <<'PY'
import json, sys
body = json.load(sys.stdin)
print(f"{body['symbol']}  {body['from']} .. {body['to']}  adjusted={body['adjusted']}")
print(f"{'trade_date':<12}{'open':>12}{'high':>12}{'low':>12}{'close':>12}{'volume':>14}")
for bar in body["ohlc"]:
    print(f"{bar['trade_date']:<12}{bar['open']:>12}{bar['high']:>12}{bar['low']:>12}"
          f"{bar['close']:>12}{bar['volume']:>14,}")
print("summary:", json.dumps(body["summary"]))
print("meta:", json.dumps(body["meta"]))
PY
)"
