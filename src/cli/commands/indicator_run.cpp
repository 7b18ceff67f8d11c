#include "cli/commands/indicator_run.hpp"

#include "core/api/indicator_request.hpp"
#include "core/api/request_checks.hpp"

#include <algorithm>
#include <iostream>
#include <memory>

namespace ashare::cli {
namespace {

// The page size of a window printed whole: the largest `limit` every plan allows (D6, Free).
constexpr std::int64_t k_page_limit = 500;

} // namespace

int run_indicator(const IndicatorArgs& args, const Config& config) {
  auto format = choose_format(config.output_format);
  if (!format) {
    return fail(format.error().message, k_exit_usage);
  }
  if (!config.convention) {
    return fail(config.convention.error().message, k_exit_usage);
  }
  auto transport = open_transport(config, config.remote);
  // Nothing cut silently (issue 12): with a window and no --limit, every value of the window, in
  // pages of the largest limit every plan allows (D6); else the API's limit (10 by default) and a
  // note when more exist.
  const bool whole_window = !args.limit && (args.from || args.to);
  const auto request = api::parse_indicator_form(
    {.indicator = args.indicator,
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
     .convention = *config.convention,
     .adjusted = !args.raw,
     .order = args.order,
     .limit = whole_window ? std::optional<std::int64_t>(k_page_limit) : args.limit,
     .at = args.at,
     .from = args.from,
     .to = args.to,
     .expand_underlying = args.underlying});
  if (!request) {
    return report_query_error(request.error(), *transport);
  }
  const auto reply = transport->get(request->to_target());
  if (reply.status != 200) {
    return report_query_error(reply, *transport);
  }
  auto response = api::indicators_from_json(reply.body);
  if (!response) {
    return fail(response.error().message);
  }
  bool paged = false;
  if (whole_window) {
    for (std::size_t i = 0; i < response->items.size(); ++i) {
      auto more = follow_indicator_pages(*transport, *response, i);
      if (!more) {
        return fail(more.error().message);
      }
      paged = paged || *more;
    }
  }
  const OutputOptions options{.format = *format,
                              .header = !args.output.no_header,
                              .color = use_color(),
                              .underlying = args.underlying,
                              .width = output_width()};
  print_indicators(std::cout, *response, request->query,
                   paged ? api::indicators_to_json(*response) : reply.body, options);
  for (std::size_t i = 0; i < response->items.size(); ++i) {
    if (response->next_urls[i]) {
      const auto shown = std::to_string(response->items[i].values.size());
      const auto& symbols = request->query.symbols;
      const std::string symbol = i < symbols.size() ? symbols[i].str() : response->items[i].symbol;
      note(symbol + ": more values exist; showing " + shown
           + (args.limit ? " (drop --limit to see every value of a --from/--to window)"
                         : " (pass --limit N, or a window with --from/--to)"));
    }
  }
  const bool none_known = std::none_of(response->items.begin(), response->items.end(),
                                      [](const auto& item) { return item.known; });
  if (none_known && explain_if_empty(*transport)) {
    return k_exit_error;
  }
  int status = k_exit_ok;
  for (const auto& item : response->items) {
    if (!item.known) {
      status = fail_with(api::unknown_symbol(item.symbol));
    }
  }
  return status;
}

} // namespace ashare::cli
