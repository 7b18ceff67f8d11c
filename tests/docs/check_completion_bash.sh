#!/usr/bin/env bash
# Load completions/ashare.bash in a real bash and check a few completions (issue 5). The binary's
# directory goes first on PATH so that symbol completion asks this build's `ashare symbols`; a
# server of this build on 127.0.0.1:0 fills a remote-mode cache for the --base-url cases.
# Usage: check_completion_bash.sh ASHARE_BIN REPO_DIR
set -u
bin="$1"
repo="$2"
work="$(mktemp -d)"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/bin"
ln -s "$bin" "$work/bin/ashare"
unset ASHARE_BASE_URL ASHARE_CACHE_DB ASHARE_API_KEY
export PATH="$work/bin:$PATH" ASHARE_DB="$work/ashare.db"
"$bin" import "$repo/tests/data/bancob_600519.SH.csv" "$repo/tests/data/bancob_600036.SH.csv" >/dev/null
"$bin" --db "$work/one.db" import "$repo/tests/data/bancob_600519.SH.csv" >/dev/null

# Remote mode: serve the store, and sync one of its two symbols into the client's cache.
key="$("$bin" keys create --plan pro | tail -n 1)"
"$bin" serve --listen 127.0.0.1:0 >"$work/serve.out" 2>/dev/null &
server=$!
url=""
for _ in $(seq 100); do
  url="$(sed -n 's/^listening on //p' "$work/serve.out")"
  [ -n "$url" ] && break
  sleep 0.1
done
"$bin" --db "$work/client.db" --base-url "$url" --api-key "$key" sync 600036.SH --from 2024-01-01 \
  >/dev/null 2>&1 || echo "FAIL: could not sync from $url"

# shellcheck source=/dev/null
source "$repo/completions/ashare.bash"
passed=0
failed=0
expect() { # expect "WORDS..." "EXPECTED COMPLETIONS"
  local line="$1" want="$2"
  read -r -a COMP_WORDS <<<"$line"
  if [[ "$line" == *" " ]]; then COMP_WORDS+=(""); fi
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _ashare
  local got
  got="$(printf '%s\n' "${COMPREPLY[@]}" | sort | xargs)"
  if [ "$got" = "$want" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: completing '$line': got '$got', want '$want'"
  fi
}

expect "ashare b" "bars bbands"
expect "ashare keys " "copy create credit list revoke"
expect "ashare bars --format " "csv json ndjson table"
expect "ashare import --format " "akshare auto baostock canonical members tdx tdx-text trade_cal tushare"
expect "ashare rsi --series h" "high"
expect "ashare bars 600" "600036.SH 600519.SH"
expect "ashare bars 600519.SH 2" ""
expect "ashare --timeout 5 sma 600519.SH,6000" "600519.SH,600036.SH"
expect "ashare chart 6005" "600519.SH"
expect "ashare import --symbol 6000" "600036.SH"
expect "ashare keys create --plan " "basic free pro"
expect "ashare bars --s" "--sort --summary"
expect "ashare kdj --m" "--m1 --m2"
expect "ashare chart 600519.SH --overlay sma:20,m" "sma:20,macd"
expect "ashare macd --s" "--series --signal --slow"
expect "ashare atr --s" ""
expect "ashare --timeout 5 kdj --n 5 6005" "600519.SH"
expect "ashare import --a" "--adj-factor --adjusted-input --api-key"
expect "ashare fetch tushare --m" "--max-lag --members"
expect "ashare fetch tdx --m" "--max-lag"
expect "ashare --db $work/one.db bars 6" "600519.SH"
expect "ashare --db $work/client.db --base-url $url bars 6" "600036.SH"
expect "ashare --db $work/client.db --base-url http://127.0.0.1:9 bars 6" ""
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
