#!/usr/bin/env zsh
# Load completions/_ashare in a real interactive zsh (compinit, on a pseudo-terminal via zpty),
# press Tab after a few command lines and check the candidates offered (issue 5). A compadd wrapper
# in that shell prints every candidate the completion system adds; the binary's directory goes
# first on PATH so that symbol completion asks this build's `ashare symbols --names`.
# Usage: zsh -f check_completion_zsh.zsh ASHARE_BIN REPO_DIR
bin=$1
repo=$2
work=$(mktemp -d)
trap 'rm -rf -- $work' EXIT
mkdir -p $work/bin
ln -s $bin $work/bin/ashare
export PATH=$work/bin:$PATH ASHARE_DB=$work/ashare.db
unset ASHARE_BASE_URL ASHARE_CACHE_DB
$bin import $repo/tests/data/bancob_600519.SH.csv $repo/tests/data/bancob_600036.SH.csv >/dev/null
$bin --db $work/one.db import $repo/tests/data/bancob_600519.SH.csv >/dev/null

passed=0
failed=0
if ! zsh -n $repo/completions/_ashare; then
  print "FAIL: completions/_ashare does not parse"
  exit 1
fi

# The shell under test: no prompt, Tab completes, and each candidate added is printed with a
# marker; the shell exits once a completion is done.
cat >$work/init.zsh <<EOF
PS1='' PROMPT='' RPROMPT=''
fpath=(${(q)repo}/completions \$fpath)
autoload -U compinit && compinit -u -C -d ${(q)work}/zcompdump
zstyle ':completion:*' list-grouped false
zstyle ':completion:*' insert-tab false
bindkey '^I' complete-word
compadd() {
  # Calls that only compute matches (-O, -A, -D) add nothing: pass them through unseen.
  if [[ \${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
    builtin compadd "\$@"
    return
  fi
  local -a hits
  builtin compadd -A hits "\$@"
  local hit
  for hit in \$hits; do print -r -- "<<HIT>>\$IPREFIX\$hit"; done
  builtin compadd "\$@"
}
_ashare_test_done() { print -r -- '<<END>>'; exit }
comppostfuncs=(_ashare_test_done)
print -r -- '<<READY>>'
EOF

# Scanning fpath is most of a shell's start-up: do it once, into a dump the shells under test read.
zsh -fc "fpath=(${(q)repo}/completions \$fpath); autoload -U compinit && compinit -u -d ${(q)work}/zcompdump"

zmodload zsh/zpty

# Print the candidates zsh offers for LINE (completed at its end), sorted, on one line.
candidates() {
  local out chunk
  zpty ashare_test zsh -f -i
  zpty -w ashare_test "source ${(q)work}/init.zsh"
  zpty -r ashare_test chunk '*<<READY>>*'
  zpty -w -n ashare_test "$1"$'\t'
  zpty -r ashare_test out '*<<END>>*'
  zpty -d ashare_test
  # A candidate may follow the echoed command line on the same terminal line.
  out=${${out//$'\r'/}//<<HIT>>/$'\n'<<HIT>>}
  local -a hits=(${(M)${(f)out}:#<<HIT>>*})
  print -r -- ${(ou)hits#<<HIT>>}
}

expect() { # expect LINE EXPECTED
  local got=$(candidates $1)
  if [[ $got == $2 ]]; then
    (( passed++ ))
  else
    (( failed++ ))
    print -r -- "FAIL: completing '$1': got '$got', want '$2'"
  fi
}

expect "ashare b" "bars bbands"
expect "ashare keys " "copy create credit list revoke"
expect "ashare bars --format " "csv json ndjson table"
expect "ashare import --format " "akshare auto baostock canonical members tdx tdx-text trade_cal tushare"
expect "ashare rsi --series h" "high"
expect "ashare sync --plan " "basic free pro"
expect "ashare bars 600" "600036.SH 600519.SH"
expect "ashare chart 600519" "600519.SH"
expect "ashare sma 600519.SH,6000" "600519.SH,600036.SH"
expect "ashare import --symbol 6005" "600519.SH"
expect "ashare bars 600519.SH 2" ""
expect "ashare bbands 6005" "600519.SH"
expect "ashare kdj --m" "--m1 --m2"
expect "ashare --db $work/one.db bars 6" "600519.SH"
expect "ashare --base-url http://127.0.0.1:9 bars 6" ""
expect "ashare bars --s" "--sort --summary"
expect "ashare import --a" "--adj-factor --adjusted-input --api-key"
expect "ashare fetch tushare --m" "--max-lag --members"
expect "ashare keys create --p" "--plan"
print "$passed passed, $failed failed"
(( failed == 0 ))
