// What every `ashare fetch PROVIDER` shares on the command line (D18): its arguments, reading
// them into the core's options, and printing the report (the plan of --dry-run, one summary line,
// warnings and notes on stderr, the exit status).
#pragma once

#include "cli/config.hpp"
#include "cli/fetch/providers.hpp"
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
  bool refetch = false;
  bool skip_invalid = false;
  bool repair = false;
  bool quiet = false;
  std::optional<int> max_lag;
  std::optional<std::string> indices; // --indices LIST (D20)
  std::optional<std::string> kinds;   // --kind LIST (D20)
  std::optional<std::string> members; // --members LIST (D20)
  ProviderArgs provider; // its own options, the pace, and --dry-run
};

// Declare on `command` the options every provider takes (symbols, --from, --to, --refetch,
// --skip-invalid, --dry-run, --repair, --quiet, --max-lag, --indices, --kind, --members, --pace from `pace`),
// writing into `args`.
void add_common_fetch_options(CLI::App& command, FetchArgs& args, int pace, std::string_view pace_help);

// Return the core's options of `args` under `config` (symbols canonical, none D20 keeps out; dates
// checked; with no symbol named, the indices of --indices, ASHARE_INDICES or `indices`, else D20's
// default list, the kinds of --kind, and the indices of --members, ASHARE_MEMBERS or `members`, else
// D20's three; the current instant from ASHARE_NOW or the clock), or a
// usage error.
Result<fetch::FetchOptions> fetch_options(const FetchArgs& args, const Config& config);

// Print `report` of a fetch from `source` (its name in messages, "Tushare" or "TDX") and return
// the exit status.
int report_fetch(const fetch::FetchReport& report, const FetchArgs& args, std::string_view source);

} // namespace ashare::cli
