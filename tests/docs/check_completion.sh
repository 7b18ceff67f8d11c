#!/usr/bin/env bash
# Load completions/ashare.bash in a real bash and check a few completions (issue 5). The binary's
# directory goes first on PATH so that symbol completion asks this build's `ashare symbols`.
# Usage: check_completion.sh ASHARE_BIN REPO_DIR
set -u
bin="$1"
repo="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
ln -s "$bin" "$work/bin/ashare"
export PATH="$work/bin:$PATH" ASHARE_DB="$work/ashare.db"
"$bin" import "$repo/tests/data/bancob_600519.SH.csv" "$repo/tests/data/bancob_600036.SH.csv" >/dev/null

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

expect "ashare b" "bars"
expect "ashare keys " "create credit list revoke"
expect "ashare bars --format " "csv json ndjson table"
expect "ashare rsi --series h" "high"
expect "ashare bars 600" "600036.SH 600519.SH"
expect "ashare sma 600519.SH,6000" "600519.SH,600036.SH"
expect "ashare keys create --plan " "basic free pro"
expect "ashare bars --s" "--sort --summary"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
