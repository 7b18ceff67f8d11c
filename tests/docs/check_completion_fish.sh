#!/usr/bin/env bash
# Load completions/ashare.fish in a real fish and ask fish's completion engine (`complete -C`) for
# the candidates of a few command lines (issue 5). The binary's directory goes first on PATH so
# that symbol completion asks this build's `ashare symbols --names`.
# Usage: check_completion_fish.sh ASHARE_BIN REPO_DIR
set -u
bin="$1"
repo="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
ln -s "$bin" "$work/bin/ashare"
unset ASHARE_BASE_URL ASHARE_CACHE_DB
export PATH="$work/bin:$PATH" ASHARE_DB="$work/ashare.db"
"$bin" import "$repo/tests/data/bancob_600519.SH.csv" "$repo/tests/data/bancob_600036.SH.csv" >/dev/null
"$bin" --db "$work/one.db" import "$repo/tests/data/bancob_600519.SH.csv" >/dev/null

passed=0
failed=0
expect() { # expect "COMMAND LINE" "EXPECTED CANDIDATES" (descriptions left out, sorted)
  local line="$1" want="$2" got
  got="$(ASHARE_LINE="$line" fish --no-config -c \
    'source $argv[1]; or exit 1; complete -C "$ASHARE_LINE"' "$repo/completions/ashare.fish" \
    | cut -f1 | sort | xargs)"
  if [ "$got" = "$want" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: completing '$line': got '$got', want '$want'"
  fi
}

expect "ashare b" "bars bbands"
expect "ashare s" "serve sma symbols sync"
expect "ashare keys " "copy create credit list revoke"
expect "ashare bars --format " "csv json ndjson table"
expect "ashare import --format " "akshare auto baostock canonical members tdx tdx-text trade_cal tushare"
expect "ashare rsi --series h" "high"
expect "ashare sync --plan " "basic free pro"
expect "ashare kdj --m" "--m1 --m2"
expect "ashare a" "atr"
expect "ashare macd --s" "--series --signal --slow"
expect "ashare bars 600" "600036.SH 600519.SH"
expect "ashare bars 600519.SH 2" ""
expect "ashare sma 600519.SH,6000" "600519.SH,600036.SH"
expect "ashare chart --raw 6005" "600519.SH"
expect "ashare import --symbol 6000" "600036.SH"
expect "ashare import $repo/tests/data/bancob_6005" "$repo/tests/data/bancob_600519.SH.csv"
expect "ashare bars --s" "--sort --summary"
expect "ashare import --a" "--adj-factor --adjusted-input --api-key"
expect "ashare fetch tushare --m" "--max-lag --members"
expect "ashare fetch tdx --m" "--max-lag"
expect "ashare --db $work/one.db bars 6" "600519.SH"
expect "ashare --base-url http://127.0.0.1:9 bars 6" ""
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
