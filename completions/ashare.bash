# bash completion for ashare: subcommands, options, enumerated values, files, and symbols from the
# store, or in remote mode from the cache (asked of the binary: `ashare symbols --names`).

# Print the symbols of the store (or cache) that the command line being completed names.
_ashare_symbols() {
  local pass=() i value
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      --db | --cache-db | --base-url | --config)
        value="${words[i + 1]}"
        # bash splits --db=PATH into three words.
        [ "$value" = "=" ] && value="${words[i + 2]}"
        pass+=("${words[i]}" "${value/#\~/$HOME}")
        ;;
      --db=* | --cache-db=* | --base-url=* | --config=*) pass+=("${words[i]}") ;;
    esac
  done
  ashare "${pass[@]}" symbols --names 2>/dev/null
}

_ashare() {
  local cur prev words cword
  if declare -F _init_completion >/dev/null; then
    _init_completion || return
  else
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD - 1]}"
    words=("${COMP_WORDS[@]}")
    cword=$COMP_CWORD
  fi

  local global="--db --keys-db --cache-db --base-url --api-key --ca-file --timeout --retries --offline --refresh --config --help --version"
  local commands="bars ema rsi sma macd bbands atr kdj chart symbols members info calendar fetch gaps verify sync import remove keys copy export serve"
  local output="--format --no-header"
  # Options that take a value, so that the value is not taken for the command or a positional.
  local valued=" --db --keys-db --cache-db --base-url --api-key --ca-file --timeout --retries --config --from --to --sort --limit --window --fast --slow --signal --k --n --m1 --m2 --series --convention --order --at --format --symbols-file --plan --source --adj-factor --symbol --overlay --svg --width --height --listen --threads --max-connections --header-timeout --idle-timeout --write-timeout --drain-timeout --cache-budget --tls-cert --tls-key --credits --label --token-file --source-url --max-lag --pace --indices --kind --members --on --index "

  # The command (and keys' subcommand), and how many positionals come before the current word.
  local command="" sub="" positionals=0 i
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      -*)
        if [[ "$valued" == *" ${words[i]} "* ]]; then
          ((i++))
          [ "${words[i]}" = "=" ] && ((i++)) # bash splits --opt=VALUE into three words
        fi
        ;;
      *)
        if [ -z "$command" ]; then
          command="${words[i]}"
        elif { [ "$command" = keys ] || [ "$command" = fetch ]; } && [ -z "$sub" ]; then
          sub="${words[i]}"
        else
          ((positionals++))
        fi
        ;;
    esac
  done

  [ "$prev" = "=" ] && prev="${words[cword - 2]}"
  case "$prev" in
    --format)
      if [ "$command" = import ]; then
        COMPREPLY=($(compgen -W "auto canonical tushare akshare baostock tdx tdx-text trade_cal members" -- "$cur"))
      else
        COMPREPLY=($(compgen -W "table csv json ndjson" -- "$cur"))
      fi
      return
      ;;
    --sort | --order) COMPREPLY=($(compgen -W "asc desc" -- "$cur")); return ;;
    --series) COMPREPLY=($(compgen -W "open high low close" -- "$cur")); return ;;
    --convention) COMPREPLY=($(compgen -W "talib tdx" -- "$cur")); return ;;
    --plan) COMPREPLY=($(compgen -W "free basic pro" -- "$cur")); return ;;
    --kind)
      # D20: a comma-separated list of kinds; complete its last item.
      local taken="" item="$cur"
      if [[ "$cur" == *,* ]]; then
        taken="${cur%,*},"
        item="${cur##*,}"
      fi
      COMPREPLY=($(compgen -P "$taken" -W "stock index fund" -- "$item"))
      compopt -o nospace 2>/dev/null
      return
      ;;
    --overlay)
      # The last item of a comma-separated list: its kind (parameters are the user's to type).
      local done="" last="$cur"
      if [[ "$cur" == *,* ]]; then
        done="${cur%,*},"
        last="${cur##*,}"
      fi
      COMPREPLY=($(compgen -P "$done" -W "sma: ema: bbands rsi atr macd kdj" -- "$last"))
      compopt -o nospace 2>/dev/null
      return
      ;;
    --symbol) COMPREPLY=($(compgen -W "$(_ashare_symbols)" -- "$cur")); return ;;
    --db | --keys-db | --cache-db | --ca-file | --config | --tls-cert | --tls-key | --symbols-file | --adj-factor | --svg | --token-file)
      COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --base-url | --api-key | --timeout | --retries | --from | --to | --limit | --window | --fast | --slow | --signal | --k | --n | --m1 | --m2 | --at | --source | --width | --height | --listen | --threads | --max-connections | --header-timeout | --idle-timeout | --write-timeout | --drain-timeout | --cache-budget | --credits | --label | --source-url | --max-lag | --pace | --indices | --kind | --members)
      return ;;
  esac

  local options=""
  case "$command" in
    "") COMPREPLY=($(compgen -W "$commands $global" -- "$cur")); return ;;
    bars) options="--from --to --raw --sort --limit --summary $output" ;;
    ema | rsi | sma) options="--window --series --convention --raw --order --limit --from --to --at --underlying $output" ;;
    macd) options="--fast --slow --signal --series --convention --raw --order --limit --from --to --at --underlying $output" ;;
    bbands) options="--window --k --series --convention --raw --order --limit --from --to --at --underlying $output" ;;
    atr) options="--window --convention --raw --order --limit --from --to --at --underlying $output" ;;
    kdj) options="--n --m1 --m2 --convention --raw --order --limit --from --to --at --underlying $output" ;;
    chart) options="--from --to --raw --overlay --convention --svg --width --height" ;;
    symbols) options="--kind $output" ;;
    members) options="--on --history --source $output" ;;
    info) options="" ;;
    calendar) options="--from --to --all $output" ;;
    gaps) options="--from --to $output" ;;
    verify) options="--against --from --to --hosts --token-file --source-url --pace $output" ;;
    fetch)
      case "$sub" in
        "") COMPREPLY=($(compgen -W "tushare tdx" -- "$cur")); return ;;
        tushare) options="--from --to --indices --kind --members --token-file --source-url --refetch --repair --skip-invalid --dry-run --quiet --max-lag --pace" ;;
        tdx) options="--from --to --indices --kind --hosts --refetch --repair --skip-invalid --dry-run --quiet --max-lag --pace" ;;
      esac
      ;;
    sync) options="--symbols-file --from --to --plan" ;;
    import) options="--format --index --adj-factor --adjusted-input --symbol --skip-invalid --source" ;;
    serve) options="--listen --threads --max-connections --header-timeout --idle-timeout --write-timeout --drain-timeout --cache-budget --rate-limit --tls-cert --tls-key" ;;
    copy) options="--from --to" ;;
    export) options="--format --from --to" ;;
    keys)
      case "$sub" in
        "") COMPREPLY=($(compgen -W "create list revoke credit copy" -- "$cur")); return ;;
        create) options="--plan --credits --label" ;;
        copy) options="--from --to" ;;
      esac
      ;;
  esac

  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$options $global" -- "$cur"))
  elif [ "$command" = import ]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  elif [ "$command" = sync ] || [ "$command" = gaps ] || [ "$command" = verify ] || [ "$sub" = tushare ] || [ "$sub" = tdx ] || { [ "$positionals" -eq 0 ] && [[ " bars ema rsi sma macd bbands atr kdj chart remove " == *" $command "* ]]; }; then
    # Complete the last item of a comma-separated symbol list.
    local prefix="" last="$cur"
    if [[ "$cur" == *,* ]]; then
      prefix="${cur%,*},"
      last="${cur##*,}"
    fi
    COMPREPLY=($(compgen -P "$prefix" -W "$(_ashare_symbols)" -- "$last"))
  fi
}

complete -F _ashare ashare
