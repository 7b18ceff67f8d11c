#include "cli/commands/indicator_run.hpp"

#include "core/api/indicator_request.hpp"
#include "core/api/params.hpp"
#include "core/auth/plan.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>

namespace ashare::cli {
namespace {


// The form of `args`' request, with `limit` when no --limit is given.
api::IndicatorForm indicator_form(const IndicatorArgs& args,
                                  const std::optional<std::string>& convention,
                                  std::optional<std::int64_t> limit) {
  return {.indicator = args.indicator,
          .symbols = args.symbols,
          .window = args.window,
          .fast = args.fast,
          .slow = args.slow,
          .signal = args.signal,
          .k = args.k,
          .n = args.n,
          .m1 = args.m1,
          .m2 = args.m2,
          .series_type = args.series,
          .convention = convention,
          .adjusted = !args.raw,
          .order = args.order,
          .limit = args.limit ? args.limit : limit,
          .at = args.at,
          .from = args.from,
          .to = args.to,
          .expand_underlying = args.underlying};
}

// D9: the note on an item with more values than printed.
std::string more_values_note(const IndicatorArgs& args,
                             const api::IndicatorRequest& request,
                             const api::IndicatorResponse& response,
                             std::size_t i) {
  if (!response.next_urls[i]) {
    return "";
  }
  const auto& symbols = request.query.symbols;
  const std::string symbol = i < symbols.size() ? symbols[i].str() : response.items[i].symbol;
  return symbol + ": more values exist; showing " + std::to_string(response.items[i].values.size())
         + (args.limit ? " (drop --limit to see every value of a --from/--to window)"
                       : " (pass --limit N, or a window with --from/--to)");
}

} // namespace

int run_indicator(const IndicatorArgs& args, const Config& config) {
  auto format = choose_format(config.output_format);
  if (!format) {
    return fail(format.error().message, k_exit_usage);
  }
  if (!config.convention) {
    return fail(config.convention.error().message, k_exit_usage);
  }
  auto backend = open_backend(config, config.remote);
  // Nothing cut silently (issue 12): with a window and no --limit, every value of the window, in
  // pages of the largest limit every plan allows (D6); else the API's limit (10 by default) and a
  // note when more exist.
  const bool whole_window = !args.limit && (args.from || args.to);
  const auto request = api::parse_indicator_form(indicator_form(
    args, *config.convention, whole_window ? std::optional<std::int64_t>(auth::limit_every_plan_allows()) : std::nullopt));
  const OutputOptions options{.format = *format,
                              .header = !args.output.no_header,
                              .color = use_color(),
                              .underlying = args.underlying,
                              .width = output_width()};
  return run_query(*backend, request,
                   {.whole_window = whole_window,
                    .print =
                      [&](const api::IndicatorResponse& response) {
                        print_indicators(std::cout, response, request->query, options);
                      },
                    .more_note =
                      [&](const api::IndicatorResponse& response, std::size_t i) {
                        return more_values_note(args, *request, response, i);
                      }});
}

void add_period_option(CLI::App& command,
                       const std::string& name,
                       std::optional<std::int64_t>& out,
                       std::int64_t min,
                       int fallback,
                       const std::string& description) {
  command.add_option(name, out, description)
    ->check(CLI::Range(min, std::int64_t{5000}))
    ->default_str(std::to_string(fallback))
    ->type_name("N");
}

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
    ->check(CLI::Range(std::int64_t{1}, std::int64_t{5000}))
    ->type_name("N");
  command.add_option("--from", args.from, "Values on or after DATE (timestamp.gte)")->type_name("DATE");
  command.add_option("--to", args.to, "Values on or before DATE (timestamp.lte)")->type_name("DATE");
  command.add_option("--at", args.at, "The value of one day (timestamp)")->type_name("DATE");
  command.add_flag("--underlying", args.underlying, "Also print the series type and adjustment");
  add_output_options(command, flags, args.output);
}

} // namespace ashare::cli
