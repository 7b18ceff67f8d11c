// ashare ema|rsi|sma|macd|bbands|atr|kdj SYMBOL[,SYMBOL...]: an indicator's values from the local
// store or the remote (D9, D13), in either convention, as `/v1/indicators/NAME` gives them. The
// seven differ only in their indicator, hence in its own options, which come from the API's table
// so that the command line and the API never disagree on a range or a default.
#include "cli/commands/indicators.hpp"

#include "cli/commands/indicator_run.hpp"
#include "core/api/indicator_request.hpp"
#include "core/api/params.hpp"
#include "core/domain/number.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cassert>
#include <memory>
#include <optional>
#include <string>

namespace ashare::cli {
namespace {

// Where the value of each of the API's integer parameters goes in IndicatorArgs, by its name.
struct PeriodArg {
  std::string_view name;
  std::optional<std::int64_t> IndicatorArgs::*field;
};
constexpr PeriodArg k_period_args[] = {
    {"window", &IndicatorArgs::window}, {"fast", &IndicatorArgs::fast},
    {"slow", &IndicatorArgs::slow},     {"signal", &IndicatorArgs::signal},
    {"n", &IndicatorArgs::n},           {"m1", &IndicatorArgs::m1},
    {"m2", &IndicatorArgs::m2},
};

// Declare the integer option of `param` (e.g. "--fast") writing `args`, within its range, its
// default shown in --help.
void add_period_option(CLI::App& command, const api::PeriodParam& param, IndicatorArgs& args) {
  const auto arg = std::ranges::find(k_period_args, param.name, &PeriodArg::name);
  assert(arg != std::ranges::end(k_period_args));
  command.add_option("--" + std::string(param.name), args.*arg->field, std::string(param.help))
    ->check(CLI::Range(std::int64_t{param.min}, std::int64_t{param.max}))
    ->default_str(std::to_string(param.fallback))
    ->type_name("N");
}

// Declare BBANDS's --k writing `args`: passed on as text and checked as the API checks it (D13:
// greater than 0, at most api::k_max_bbands_k, no exponent).
void add_bbands_k_option(CLI::App& command, IndicatorArgs& args) {
  command
    .add_option("--k", args.k,
                "Band width in standard deviations, 0 < K <= "
                  + std::to_string(api::k_max_bbands_k))
    ->default_str(domain::format_number(api::k_default_bbands_k))
    ->type_name("K");
}

// Declare on `command` the options every indicator command takes (SYMBOLS, --convention, --raw,
// --order, --limit, --from, --to, --at, --underlying, the output options), and --series when
// `args.indicator` reads one price series (not atr and kdj).
void add_indicator_options(CLI::App& command, GlobalFlags& flags, IndicatorArgs& args) {
  command.add_option("SYMBOLS", args.symbols, "Symbols, comma-separated")->required();
  if (api::reads_series_type(args.indicator)) {
    command.add_option("--series", args.series, "Price series")
      ->check(CLI::IsMember({"open", "high", "low", "close"}, CLI::ignore_case))
      ->default_str("close");
  }
  command.add_option("--convention", flags.convention,
                     "Whose formulas: talib (default) or tdx, 通达信's (D13)")
    ->type_name("NAME"); // checked with ASHARE_CONVENTION and the file's, as the API checks it
  command.add_flag("--raw", args.raw, "Compute over raw prices; default forward-adjusted (D9)");
  command.add_option("--order", args.order, "Order by date")
    ->check(CLI::IsMember({"asc", "desc"}, CLI::ignore_case))
    ->default_str("desc");
  command.add_option("--limit", args.limit,
                     "At most N values per symbol (default: all of a --from/--to range, else 10)")
    ->check(CLI::Range(std::int64_t{1}, api::k_max_limit))
    ->type_name("N");
  command.add_option("--from", args.from, "Values on or after DATE (timestamp.gte)")
    ->type_name("DATE");
  command.add_option("--to", args.to, "Values on or before DATE (timestamp.lte)")
    ->type_name("DATE");
  command.add_option("--at", args.at, "The value of one day (timestamp)")->type_name("DATE");
  command.add_flag("--underlying", args.underlying, "Also print the series type and adjustment");
  add_output_options(command, flags, args.output);
}

} // namespace

Action setup_indicator(CLI::App& command, GlobalFlags& flags) {
  const auto row =
    std::ranges::find(k_indicator_commands, command.get_name(), &IndicatorCommand::name);
  assert(row != std::ranges::end(k_indicator_commands));
  auto args = std::make_shared<IndicatorArgs>();
  args->indicator = row->indicator;
  for (const auto& param : api::period_params(row->indicator)) {
    add_period_option(command, param, *args);
  }
  if (row->indicator == query::Indicator::bbands) {
    add_bbands_k_option(command, *args);
  }
  add_indicator_options(command, flags, *args);
  return [args](const Config& config) { return run_indicator(*args, config); };
}

} // namespace ashare::cli
