#include "cli/commands/indicator_run.hpp"

#include "core/api/indicator_request.hpp"
#include "core/api/params.hpp"
#include "core/auth/plan.hpp"

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

} // namespace ashare::cli
