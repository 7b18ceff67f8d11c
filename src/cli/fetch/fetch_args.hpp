// What every `ashare fetch PROVIDER` shares on the command line (D18): its arguments, reading
// them into the core's options, and printing the report (the plan of --dry-run, one summary line,
// warnings and notes on stderr, the exit status).
#pragma once

#include "cli/config.hpp"
#include "core/fetch/fetch_report.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace ashare::cli {

struct FetchArgs {
  std::vector<std::string> symbols;
  std::optional<std::string> from;
  std::optional<std::string> to;
  std::optional<std::string> token_file; // tushare
  std::optional<std::string> source_url; // tushare
  std::optional<std::string> hosts;      // tdx: comma-separated, replacing tdx_hosts
  bool refetch = false;
  bool skip_invalid = false;
  bool dry_run = false;
  bool repair = false;
  bool quiet = false;
  std::optional<int> max_lag;
  int pace = 180; // calls a minute; 0: not paced
};

// Declare on `command` the options every provider takes (symbols, --from, --to, --refetch,
// --skip-invalid, --dry-run, --quiet, --max-lag), writing into `args`.
void add_common_fetch_options(CLI::App& command, FetchArgs& args);

// Return the core's options of `args` (symbols canonical, dates checked, the current instant from
// ASHARE_NOW or the clock), or a usage error.
Result<fetch::FetchOptions> fetch_options(const FetchArgs& args);

// Return the Tushare token (D18): from `token_file` when given, else ASHARE_TUSHARE_TOKEN or the
// config file's tushare_token, never a flag's value; a usage error says where to put one.
Result<std::string> read_token(const std::optional<std::string>& token_file, const Config& config);

// Return the TDX hosts to ask (D18): `flag` (--hosts) when given, else ASHARE_TDX_HOSTS or the
// config file's tdx_hosts, else the compiled-in public list.
std::vector<std::string> tdx_hosts(const std::optional<std::string>& flag, const Config& config);

// Print `report` of a fetch from `source` (its name in messages, "Tushare" or "TDX") and return
// the exit status.
int report_fetch(const fetch::FetchReport& report, const FetchArgs& args, std::string_view source);

} // namespace ashare::cli
