# fish completion for ashare: subcommands, options, enumerated values, files, and symbols from the
# store, or in remote mode from the cache (asked of the binary: `ashare symbols --names`).

set -l commands bars ema rsi sma macd bbands atr kdj chart symbols members info calendar fetch gaps verify sync import remove keys copy export serve
set -l query bars ema rsi sma macd bbands atr kdj
set -l indicators ema rsi sma macd bbands atr kdj
set -l keys_commands create list revoke credit copy

# Print the symbols of the store (or cache) that the command line names, each with what is
# already typed of a comma-separated list before it.
function __ashare_symbols
    set -l tokens (commandline -opc)
    set -l pass
    for i in (seq 2 (count $tokens))
        switch $tokens[$i]
            case --db --cache-db --base-url --config
                set -q tokens[(math $i + 1)]
                and set -a pass $tokens[$i] (string replace -r '^~' $HOME -- $tokens[(math $i + 1)])
            case '--db=*' '--cache-db=*' '--base-url=*' '--config=*'
                set -a pass $tokens[$i]
        end
    end
    set -l prefix (string match -r '^.*,' -- (commandline -ct)); or set prefix ''
    for symbol in (ashare $pass symbols --names 2>/dev/null)
        echo $prefix$symbol
    end
end

# Succeed when no positional argument follows the subcommand yet (the first one is a symbol).
function __ashare_first_positional
    set -l valued db keys-db cache-db base-url api-key ca-file timeout retries config from to \
        sort limit window series convention order at format overlay svg width height
    set -l tokens (commandline -opc)
    set -l seen 0
    set -l skip 0
    for token in $tokens[2..-1]
        if test $skip -eq 1
            set skip 0
        else if string match -q -- '--*=*' $token
        else if string match -q -- '--*' $token
            contains -- (string sub -s 3 -- $token) $valued; and set skip 1
        else
            set seen (math $seen + 1)
        end
    end
    test $seen -le 1 # the subcommand itself
end

complete -c ashare -f

# Global options, before or after the subcommand.
complete -c ashare -l db -r -F -d 'Data store'
complete -c ashare -l keys-db -r -F -d 'Key store'
complete -c ashare -l cache-db -r -F -d 'Remote-mode cache'
complete -c ashare -l base-url -x -d 'Remote mode: a server implementing the v1 API'
complete -c ashare -l api-key -x -d 'API key for the remote'
complete -c ashare -l ca-file -r -F -d 'CA certificates (PEM) for an HTTPS remote'
complete -c ashare -l timeout -x -d 'Remote timeout in seconds'
complete -c ashare -l retries -x -d 'Retries on connection errors and 5xx'
complete -c ashare -l offline -d 'Remote mode: answer from the cache only'
complete -c ashare -l refresh -d 'Remote mode: ask the remote as_of now'
complete -c ashare -l config -r -F -d 'Config file'
complete -c ashare -s h -l help -d 'Print help and exit'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -l version -d 'Print the version'

# Subcommands.
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a bars -d 'Print daily bars of symbols over a window'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a ema -d 'Print exponential moving average values'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a rsi -d 'Print relative strength index values'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a sma -d 'Print simple moving average values'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a macd -d 'Print MACD line, signal line and histogram values'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a bbands -d 'Print Bollinger band (BOLL) values'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a atr -d 'Print average true range values'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a kdj -d 'Print stochastic K, D and J values'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a chart -d 'Draw a candlestick chart (terminal or SVG)'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a symbols -d 'List the symbols of the local store'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a members -d "Print an index's members on a day, or every span"
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a info -d 'Show the store (or remote) and how current its data is'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a calendar -d "Print the store's trading calendar (open days) over a range"
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a sync -d 'Pull bars from the remote into the cache'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a import -d 'Load files of daily bars into the store'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a remove -d "Delete a symbol's bars, or a window of them"
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a keys -d 'Create, list, revoke, credit and copy API keys'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a copy -d 'Copy the whole store (bars and keys) to another backend'
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a export -d "Write the store's bars as Microsoft qlib data files"
complete -c ashare -n "not __fish_seen_subcommand_from $commands" -a serve -d 'Serve the v1 HTTP/JSON API'

# Symbols: the first argument of query commands, chart and remove; every argument of sync.
complete -c ashare -n "__fish_seen_subcommand_from $query chart remove; and __ashare_first_positional" -a '(__ashare_symbols)'
complete -c ashare -n '__fish_seen_subcommand_from sync' -a '(__ashare_symbols)'

# Query commands: bars, the indicators, symbols.
complete -c ashare -n "__fish_seen_subcommand_from $query symbols calendar" -l format -x -a 'table csv json ndjson' -d 'Output format'
complete -c ashare -n "__fish_seen_subcommand_from $query symbols calendar" -l no-header -d 'csv: leave out the header row'
complete -c ashare -n '__fish_seen_subcommand_from symbols' -l kind -x -a 'stock index fund' -d 'Only these kinds, comma-separated'
complete -c ashare -n "__fish_seen_subcommand_from $query chart sync" -l from -x -d 'First date (YYYY-MM-DD)'
complete -c ashare -n "__fish_seen_subcommand_from $query chart sync" -l to -x -d 'Last date (YYYY-MM-DD)'
complete -c ashare -n "__fish_seen_subcommand_from $query chart" -l raw -d 'Raw prices'
complete -c ashare -n "__fish_seen_subcommand_from $query" -l limit -x -d 'At most N per symbol'
complete -c ashare -n '__fish_seen_subcommand_from bars' -l sort -x -a 'asc desc' -d 'Order by date'
complete -c ashare -n '__fish_seen_subcommand_from bars' -l summary -d 'Interval statistics'
complete -c ashare -n '__fish_seen_subcommand_from ema rsi sma bbands atr' -l window -x -d 'Window length'
complete -c ashare -n '__fish_seen_subcommand_from macd' -l fast -x -d 'Fast EMA period, less than --slow'
complete -c ashare -n '__fish_seen_subcommand_from macd' -l slow -x -d 'Slow EMA period'
complete -c ashare -n '__fish_seen_subcommand_from macd' -l signal -x -d 'Signal line EMA period'
complete -c ashare -n '__fish_seen_subcommand_from bbands' -l k -x -d 'Band width in standard deviations'
complete -c ashare -n '__fish_seen_subcommand_from kdj' -l n -x -d 'Bars of the highest high and lowest low'
complete -c ashare -n '__fish_seen_subcommand_from kdj' -l m1 -x -d 'Smoothing of K'
complete -c ashare -n '__fish_seen_subcommand_from kdj' -l m2 -x -d 'Smoothing of D'
complete -c ashare -n '__fish_seen_subcommand_from ema rsi sma macd bbands' -l series -x -a 'open high low close' -d 'Price series'
complete -c ashare -n "__fish_seen_subcommand_from $indicators chart" -l convention -x -a 'talib tdx' -d 'Whose formulas: TA-Lib or 通达信'
complete -c ashare -n "__fish_seen_subcommand_from $indicators" -l order -x -a 'asc desc' -d 'Order by date'
complete -c ashare -n "__fish_seen_subcommand_from $indicators" -l at -x -d 'The value of one day'
complete -c ashare -n "__fish_seen_subcommand_from $indicators" -l underlying -d 'Also print the series type and adjustment'

# chart
complete -c ashare -n '__fish_seen_subcommand_from chart' -l overlay -x -a 'sma: ema: bbands rsi atr macd kdj' -d 'Indicators: sma:N,bbands,macd'
complete -c ashare -n '__fish_seen_subcommand_from chart' -l svg -r -F -d 'Write a standalone SVG file'
complete -c ashare -n '__fish_seen_subcommand_from chart' -l width -x -d 'Columns, or pixels for SVG'
complete -c ashare -n '__fish_seen_subcommand_from chart' -l height -x -d 'Rows, or pixels for SVG'

# sync
complete -c ashare -n '__fish_seen_subcommand_from sync' -l symbols-file -r -F -d 'More symbols, one a line'
complete -c ashare -n '__fish_seen_subcommand_from sync' -l plan -x -a 'free basic pro' -d "The remote key's plan"

# fetch tushare
complete -c ashare -n "__fish_seen_subcommand_from fetch; and not __fish_seen_subcommand_from tushare tdx" -a tushare -d 'Tushare Pro (a token)'
complete -c ashare -n "__fish_seen_subcommand_from fetch; and not __fish_seen_subcommand_from tushare tdx" -a tdx -d 'TDX quote servers (no key)'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -a '(__ashare_symbols)' -d 'Only this symbol'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l from -x -d 'First day (YYYY-MM-DD)'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l to -x -d 'Last day (YYYY-MM-DD)'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l token-file -r -F -d 'Read the Tushare token from a file'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l source-url -x -d "The source's address"
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l refetch -d 'Ask again for days the ledger holds'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l repair -d 'Ask again for the missing bars'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l skip-invalid -d 'Write the rest of a day whose bar fails a check'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l dry-run -d 'Print the plan and touch nothing'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l quiet -d 'Print nothing on success'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l max-lag -x -d 'Exit 1 when more open days behind'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l pace -x -d 'Calls a minute at most'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l indices -x -d 'Indices to take besides the market'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l kind -x -a 'stock index fund' -d 'Kinds of symbol to take'
complete -c ashare -n '__fish_seen_subcommand_from tushare' -l members -x -d 'Indices whose membership to take'

# fetch tdx
complete -c ashare -n '__fish_seen_subcommand_from tdx' -a '(__ashare_symbols)' -d 'Only this symbol'
complete -c ashare -n '__fish_seen_subcommand_from tdx' -l from -x -d 'First day (YYYY-MM-DD)'
complete -c ashare -n '__fish_seen_subcommand_from tdx' -l to -x -d 'Last day (YYYY-MM-DD)'
complete -c ashare -n '__fish_seen_subcommand_from tdx' -l hosts -x -d 'TDX servers to ask in turn'
complete -c ashare -n '__fish_seen_subcommand_from tdx' -l refetch -d 'Ask again for days the ledger holds'
complete -c ashare -n '__fish_seen_subcommand_from tdx' -l repair -d 'Ask again for the missing bars'
complete -c ashare -n '__fish_seen_subcommand_from tdx' -l skip-invalid -d 'Write the rest of a symbol whose bar fails a check'
complete -c ashare -n '__fish_seen_subcommand_from tdx' -l dry-run -d 'Print the plan and touch nothing'
complete -c ashare -n '__fish_seen_subcommand_from tdx' -l quiet -d 'Print nothing on success'
complete -c ashare -n '__fish_seen_subcommand_from tdx' -l max-lag -x -d 'Exit 1 when more open days behind'
complete -c ashare -n '__fish_seen_subcommand_from tdx' -l pace -x -d 'Calls a minute at most'
complete -c ashare -n '__fish_seen_subcommand_from tdx' -l indices -x -d 'Indices to take besides the market'
complete -c ashare -n '__fish_seen_subcommand_from tdx' -l kind -x -a 'stock index fund' -d 'Kinds of symbol to take'

# gaps
complete -c ashare -n '__fish_seen_subcommand_from gaps' -a '(__ashare_symbols)' -d 'Only this symbol'
complete -c ashare -n '__fish_seen_subcommand_from gaps' -l from -x -d 'First day (YYYY-MM-DD)'
complete -c ashare -n '__fish_seen_subcommand_from gaps' -l to -x -d 'Last day (YYYY-MM-DD)'
complete -c ashare -n '__fish_seen_subcommand_from gaps' -l format -x -a 'table csv json ndjson' -d 'Output format'
complete -c ashare -n '__fish_seen_subcommand_from gaps' -l no-header -d 'csv: leave out the header row'

# verify
complete -c ashare -n '__fish_seen_subcommand_from verify' -a '(__ashare_symbols)' -d 'Only this symbol'
complete -c ashare -n '__fish_seen_subcommand_from verify' -l against -x -a 'tdx tushare' -d 'The provider to ask again'
complete -c ashare -n '__fish_seen_subcommand_from verify' -l from -x -d 'First day (YYYY-MM-DD)'
complete -c ashare -n '__fish_seen_subcommand_from verify' -l to -x -d 'Last day (YYYY-MM-DD)'
complete -c ashare -n '__fish_seen_subcommand_from verify' -l hosts -x -d 'TDX servers to ask in turn'
complete -c ashare -n '__fish_seen_subcommand_from verify' -l token-file -r -F -d 'Read the Tushare token from a file'
complete -c ashare -n '__fish_seen_subcommand_from verify' -l source-url -x -d "The source's address"
complete -c ashare -n '__fish_seen_subcommand_from verify' -l pace -x -d 'Calls a minute at most'
complete -c ashare -n '__fish_seen_subcommand_from verify' -l format -x -a 'table csv json ndjson' -d 'Output format'
complete -c ashare -n '__fish_seen_subcommand_from verify' -l no-header -d 'csv: leave out the header row'

# calendar
complete -c ashare -n '__fish_seen_subcommand_from calendar' -l from -x -d 'First day (YYYY-MM-DD)'
complete -c ashare -n '__fish_seen_subcommand_from calendar' -l to -x -d 'Last day (YYYY-MM-DD)'
complete -c ashare -n '__fish_seen_subcommand_from calendar' -l all -d 'List closed days too'

# import
complete -c ashare -n '__fish_seen_subcommand_from import' -F
complete -c ashare -n '__fish_seen_subcommand_from import' -l format -x -d 'Input format' -a "
    auto\t'Detect from the header or signature'
    canonical\t'Canonical CSV'
    tushare\t'Tushare daily, index_daily or fund_daily CSV'
    akshare\t'AkShare stock_zh_a_hist CSV'
    baostock\t'Baostock query_history_k_data_plus CSV'
    tdx\t'TDX .day binary file'
    tdx-text\t'TDX text export, 不复权'
    trade_cal\t'Tushare trade_cal calendar CSV'
    members\t'An index membership CSV (with --index)'"
complete -c ashare -n '__fish_seen_subcommand_from import' -l index -x -d 'The index of a membership file'
complete -c ashare -n '__fish_seen_subcommand_from import' -l adj-factor -r -F -d 'Tushare adj_factor CSV'
complete -c ashare -n '__fish_seen_subcommand_from import' -l adjusted-input -d 'Store adjusted prices as given'
complete -c ashare -n '__fish_seen_subcommand_from import' -l symbol -x -a '(__ashare_symbols)' -d 'Symbol of a file whose name does not say it'
complete -c ashare -n '__fish_seen_subcommand_from import' -l skip-invalid -d 'Load the valid rows, report the others'
complete -c ashare -n '__fish_seen_subcommand_from import' -l source -x -d 'Data source recorded as meta.source'

# keys
complete -c ashare -n "__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from $keys_commands" -a create -d 'Create a key and print it once'
complete -c ashare -n "__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from $keys_commands" -a list -d 'List keys (never their plaintext)'
complete -c ashare -n "__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from $keys_commands" -a revoke -d 'Revoke a key'
complete -c ashare -n "__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from $keys_commands" -a credit -d 'Add credits to a metered key'
complete -c ashare -n "__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from $keys_commands" -a copy -d 'Copy every key into an empty key store'
complete -c ashare -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from copy' -l from -r -F -d 'Key store to copy (default: --keys-db)'
complete -c ashare -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from copy' -l to -r -F -d 'Empty key store to copy into'
# copy
complete -c ashare -n '__fish_seen_subcommand_from copy; and not __fish_seen_subcommand_from keys' -l from -r -F -d 'Store to copy (default: --db)'
complete -c ashare -n '__fish_seen_subcommand_from copy; and not __fish_seen_subcommand_from keys' -l to -r -F -d 'Empty store to copy into'
complete -c ashare -n '__fish_seen_subcommand_from create' -l plan -x -a 'free basic pro' -d 'Plan of the key'
complete -c ashare -n '__fish_seen_subcommand_from create' -l credits -x -d 'Credit balance; without it, unmetered'
complete -c ashare -n '__fish_seen_subcommand_from create' -l label -x -d 'Free text to recognise the key by'

# serve
complete -c ashare -n '__fish_seen_subcommand_from serve' -l listen -x -d 'Address to listen on (HOST:PORT)'
complete -c ashare -n '__fish_seen_subcommand_from serve' -l threads -x -d 'Network threads (default: cores)'
complete -c ashare -n '__fish_seen_subcommand_from serve' -l max-connections -x -d 'Open connections at most'
complete -c ashare -n '__fish_seen_subcommand_from serve' -l header-timeout -x -d 'Seconds for a request head'
complete -c ashare -n '__fish_seen_subcommand_from serve' -l idle-timeout -x -d 'Seconds a keep-alive connection waits'
complete -c ashare -n '__fish_seen_subcommand_from serve' -l write-timeout -x -d 'Seconds for a client to read'
complete -c ashare -n '__fish_seen_subcommand_from serve' -l drain-timeout -x -d 'Seconds in-flight requests get on SIGTERM'
complete -c ashare -n '__fish_seen_subcommand_from serve' -l cache-budget -x -d 'MiB of whole histories kept in memory'
complete -c ashare -n '__fish_seen_subcommand_from serve' -l rate-limit -d 'Limit requests a second per key (PLAN=N,...)'
complete -c ashare -n '__fish_seen_subcommand_from serve' -l tls-cert -r -F -d 'PEM certificate chain'
complete -c ashare -n '__fish_seen_subcommand_from serve' -l tls-key -r -F -d 'PEM private key'
# export
complete -c ashare -n '__fish_seen_subcommand_from export' -l format -x -a qlib -d 'Layout to write'
complete -c ashare -n '__fish_seen_subcommand_from export' -l from -x -d 'First date to export'
complete -c ashare -n '__fish_seen_subcommand_from export' -l to -x -d 'Last date to export'

# members
complete -c ashare -n '__fish_seen_subcommand_from members' -l on -x -d 'The day (default: as_of)'
complete -c ashare -n '__fish_seen_subcommand_from members' -l history -d 'Every span of the membership'
complete -c ashare -n '__fish_seen_subcommand_from members' -l source -x -a 'tushare import' -d 'Which spans answer'
complete -c ashare -n '__fish_seen_subcommand_from members' -l format -x -a 'table csv json ndjson' -d 'Output format'
complete -c ashare -n '__fish_seen_subcommand_from members' -l no-header -d 'csv: leave out the header row'
