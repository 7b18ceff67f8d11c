// ashare bars SYMBOL[,SYMBOL...] [FROM [TO]]: daily bars from the local store or the remote, in the
// API's semantics (D8). Without --limit every bar of the window is printed, following next_url.
#include "cli/commands/query_run.hpp"
#include "core/api/bars_request.hpp"
#include "core/query/summary.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>

namespace ashare::cli {
namespace {

struct BarsArgs {
  std::string symbols;
  std::optional<std::string> from;
  std::optional<std::string> to;
  bool raw = false;
  std::string sort = "asc";
  std::optional<std::int64_t> limit;
  bool summary = false;
  QueryOutputArgs output;
};

int run_bars(const BarsArgs& args, const Config& config) {
  auto format = choose_format(config.output_format);
  if (!format) {
    return fail(format.error().message, k_exit_usage);
  }
  if (args.summary && *format == Format::csv) {
    return fail("--summary does not fit csv output: use --format table or json", k_exit_usage);
  }
  auto transport = open_transport(config, config.remote);
  // TO defaults to as_of, FROM to one year before TO.
  const auto window = resolve_window(*transport, args.from, args.to,
                                     [](domain::Date to) { return to.minus_years(1); });
  if (!window) {
    return fail(window.error().message);
  }
  const auto& [from, to] = *window;
  const auto request = api::parse_bars_form(
    {args.symbols, from, to, !args.raw, args.sort, args.limit, args.summary});
  if (!request) {
    return report_query_error(request.error(), *transport);
  }
  // A table or CSV is printed from the typed answer where the transport has one; JSON is the
  // API's body itself.
  std::string body;
  std::optional<api::BarsResponse> response;
  auto answer = *format == Format::json ? Transport::BarsAnswer(transport->get(request->to_target()))
                                         : transport->get_bars(*request);
  if (auto* error = std::get_if<Error>(&answer)) {
    return report_query_error(*error, *transport);
  }
  if (auto* reply = std::get_if<Reply>(&answer)) {
    if (reply->status != 200) {
      return report_query_error(*reply, *transport);
    }
    auto parsed = api::bars_from_json(reply->body);
    if (!parsed) {
      return fail(parsed.error().message);
    }
    response = std::move(*parsed);
    body = std::move(reply->body);
  } else {
    response = std::get<api::BarsResponse>(std::move(answer));
  }
  bool paged = false;
  if (!args.limit) {
    for (std::size_t i = 0; i < response->items.size(); ++i) {
      auto more = follow_bar_pages(*transport, *response, i);
      if (!more) {
        return fail(more.error().message);
      }
      paged = paged || *more;
      if (*more && response->items[i].summary) {
        // D8: the summary describes the bars returned, which are now all of them.
        response->items[i].summary =
          query::summarize(response->items[i].bars, response->from, response->to);
      }
    }
  }
  const OutputOptions options{.format = *format,
                              .header = !args.output.no_header,
                              .color = use_color(),
                              .summary = args.summary,
                              .width = output_width()};
  print_bars(std::cout, *response, paged ? api::bars_to_json(*response, std::nullopt) : body,
             options);
  const bool none_known = std::none_of(response->items.begin(), response->items.end(),
                                      [](const auto& item) { return item.known; });
  if (none_known && explain_if_empty(*transport)) {
    return k_exit_error;
  }
  int status = k_exit_ok;
  for (std::size_t i = 0; i < response->items.size(); ++i) {
    if (args.limit && response->next_urls[i]) {
      note(response->items[i].symbol + ": more bars exist in the window; showing the first "
           + std::to_string(*args.limit) + " (drop --limit to see all)");
    }
    if (i < response->errors.size() && response->errors[i]) {
      status = fail_with(*response->errors[i]);
    }
  }
  return status;
}

} // namespace

Action setup_bars(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<BarsArgs>();
  command.add_option("SYMBOLS", args->symbols, "Symbols, comma-separated, e.g. 600519.SH,000001.SZ")
    ->required();
  command.add_option("FROM,--from", args->from, "First date (default: one year before TO)")
    ->type_name("DATE");
  command.add_option("TO,--to", args->to, "Last date (default: as_of, the latest data)")
    ->type_name("DATE");
  command.add_flag("--raw", args->raw, "Raw prices (adjusted=false); default forward-adjusted (D8)");
  command.add_option("--sort", args->sort, "Order by date")
    ->check(CLI::IsMember({"asc", "desc"}, CLI::ignore_case))
    ->default_str("asc");
  command.add_option("--limit", args->limit, "At most N bars per symbol (a note tells when more exist)")
    ->check(CLI::Range(std::int64_t{1}, std::int64_t{5000}))
    ->type_name("N");
  command.add_flag("--summary", args->summary, "Interval statistics (table, json, ndjson)");
  add_output_options(command, flags, args->output);
  return [args](const Config& config) { return run_bars(*args, config); };
}

} // namespace ashare::cli
