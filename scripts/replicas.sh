#!/usr/bin/env bash
# Several machines, on one (issue 14, docs/deployment.md): a throwaway PostgreSQL on a
# Unix socket holds the bars, keys and credits, three `ashare serve` replicas on 127.0.0.1 share
# it, nginx balances them with
# deploy/nginx-replicas.conf's rules. Sends REQUESTS metered requests through nginx and prints
# which replica answered each, with the balance after it; then kills one replica with SIGKILL
# and shows the others answering. Everything is stopped and removed at the end.
#
# Usage: scripts/replicas.sh [REQUESTS]     (default 9; installs nginx-light when missing)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -z "${ASHARE_TEST_POSTGRES:-}" ]; then
  exec "$root/scripts/with-postgres.sh" "$0" "$@"
fi
requests="${1:-9}"
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends nginx-light curl
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
ashare="${ASHARE_BIN:-$root/build/release/src/cli/ashare}"
if [ ! -x "$ashare" ]; then
  generator=()
  command -v ninja >/dev/null && generator=(-G Ninja)
  cmake -S "$root" -B "$root/build/release" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DASHARE_BUILD_TESTS=OFF >/dev/null
  cmake --build "$root/build/release" -j "$(nproc)" >/dev/null
fi

work="$(mktemp -d /tmp/ashare-replicas.XXXXXX)"
pids=()
cleanup() {
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$PG_BINDIR/psql" "$ASHARE_TEST_POSTGRES" -v ON_ERROR_STOP=1 -qc "CREATE DATABASE ashare"
store="$ASHARE_TEST_POSTGRES&dbname=ashare" # bars, keys and credits: --db alone
"$ashare" --db "$store" import "$root"/data/sample/tushare/*.csv >/dev/null
key="$("$ashare" --db "$store" keys create --plan pro --credits 100 --label replicas | tail -1)"
echo "bars, keys and credits: $(sed 's/password=[^&]*/password=***/' <<<"$store")"

ports=()
for i in 1 2 3; do
  "$ashare" --db "$store" serve --listen 127.0.0.1:0 \
    >"$work/replica$i.out" 2>"$work/replica$i.err" &
  pids+=("$!")
  for _ in $(seq 100); do
    port="$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/replica$i.out")"
    [ -n "$port" ] && break
    sleep 0.05
  done
  [ -n "$port" ] || { cat "$work/replica$i.err" >&2; exit 1; }
  ports+=("$port")
  echo "replica $i: 127.0.0.1:$port (pid ${pids[-1]})"
done

nginx_port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
mkdir -p "$work/tmp"
{
  echo "pid $work/nginx.pid; error_log $work/nginx-error.log; daemon on; worker_processes 1;"
  echo "events { worker_connections 256; }"
  echo "http { access_log off;"
  for temp in client_body proxy fastcgi uwsgi scgi; do echo "  ${temp}_temp_path $work/tmp;"; done
  echo "  upstream ashare {"
  for port in "${ports[@]}"; do echo "    server 127.0.0.1:$port max_fails=1 fail_timeout=5s;"; done
  echo "    keepalive 16; }"
  # The location block of deploy/nginx-replicas.conf, on loopback without TLS.
  echo "  server { listen 127.0.0.1:$nginx_port;"
  sed -n '/^  location \/ {/,/^  }/p' "$root/deploy/nginx-replicas.conf"
  echo "  } }"
} >"$work/nginx.conf"
"$nginx_bin" -c "$work/nginx.conf" -p "$work" -e "$work/nginx-error.log"
echo "nginx: 127.0.0.1:$nginx_port"

replica_of() {
  local i
  for i in 0 1 2; do
    [ "$1" = "127.0.0.1:${ports[$i]}" ] && { echo "replica $((i + 1))"; return; }
  done
  echo "$1"
}
ask() {
  local headers status upstream credits
  headers="$(curl -s -D - -o /dev/null -H "Authorization: Bearer $key" \
    "http://127.0.0.1:$nginx_port/v1/ohlc/range/1/day/2024-01-02/2024-06-28?symbol=600519.SH")"
  status="$(sed -n '1s/HTTP\/1.1 \([0-9]*\).*/\1/p' <<<"$headers")"
  upstream="$(sed -n 's/^X-Upstream: \([^\r]*\).*/\1/ip' <<<"$headers")"
  credits="$(sed -n 's/^X-Credits-Remaining: \([0-9]*\).*/\1/ip' <<<"$headers")"
  echo "request $1: $status from $(replica_of "${upstream##*, }") (${upstream}), credits left $credits"
}
for i in $(seq "$requests"); do ask "$i"; done
echo "kill -9 replica 2"
{ kill -9 "${pids[1]}" && wait "${pids[1]}"; } 2>/dev/null || true
for i in $(seq "$((requests + 1))" "$((requests * 2))"); do ask "$i"; done
echo "balance in PostgreSQL: $("$PG_BINDIR/psql" "$store" -Atc 'SELECT credits FROM api_keys')"
