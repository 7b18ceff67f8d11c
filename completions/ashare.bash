# bash completion for ashare: subcommands, options, enumerated values, and symbols from the local
# store (asked of the binary: `ashare symbols --names`).

_ashare_symbols() {
  ashare symbols --names 2>/dev/null
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
  local commands="bars ema rsi sma symbols info sync import remove keys serve"
  local output="--format --no-header"

  case "$prev" in
    --format) COMPREPLY=($(compgen -W "table csv json ndjson" -- "$cur")); return ;;
    --sort | --order) COMPREPLY=($(compgen -W "asc desc" -- "$cur")); return ;;
    --series) COMPREPLY=($(compgen -W "open high low close" -- "$cur")); return ;;
    --plan) COMPREPLY=($(compgen -W "free basic pro" -- "$cur")); return ;;
    --db | --keys-db | --cache-db | --ca-file | --config | --tls-cert | --tls-key | --symbols-file)
      COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac

  local command="" sub="" i
  for ((i = 1; i < cword; i++)); do
    case "${words[i]}" in
      --db | --keys-db | --cache-db | --base-url | --api-key | --ca-file | --timeout | --retries | --config) ((i++)) ;;
      -*) ;;
      *)
        if [ -z "$command" ]; then
          command="${words[i]}"
        elif [ "$command" = keys ] && [ -z "$sub" ]; then
          sub="${words[i]}"
        fi
        ;;
    esac
  done

  local options=""
  case "$command" in
    "") COMPREPLY=($(compgen -W "$commands $global" -- "$cur")); return ;;
    bars) options="--from --to --raw --sort --limit --summary $output" ;;
    ema | rsi | sma) options="--window --series --raw --order --limit --from --to --at --underlying $output" ;;
    symbols) options="$output" ;;
    info) options="" ;;
    sync) options="--symbols-file --from --to --plan" ;;
    import) options="--skip-invalid --source" ;;
    serve) options="--listen --threads --tls-cert --tls-key" ;;
    keys)
      case "$sub" in
        "") COMPREPLY=($(compgen -W "create list revoke credit" -- "$cur")); return ;;
        create) options="--plan --credits --label" ;;
      esac
      ;;
  esac

  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$options $global --help" -- "$cur"))
  elif [ "$command" = import ]; then
    COMPREPLY=($(compgen -f -- "$cur"))
  elif [[ " bars ema rsi sma sync remove " == *" $command "* ]]; then
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
