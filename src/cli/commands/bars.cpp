// ashare bars SYMBOL[,SYMBOL...] [FROM [TO]]: daily bars from the local store or the remote, in the
// API's semantics (D8). Without --limit every bar of the window is printed, following next_url.
#include "cli/commands/query_run.hpp"
#include "core/api/bars_request.hpp"
#include "core/api/params.hpp"

#include <CLI/CLI.hpp>
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

// D8: the note on an item that --limit cut short.
std::string more_bars_note(const BarsArgs& args, const api::BarsResponse& response, std::size_t i) {
  if (!args.limit || !response.items[i].next_url) {
    return "";
  }
  return response.items[i].symbol + ": more bars exist in the window; showing the first "
         + std::to_string(*args.limit) + " (drop --limit to see all)";
}

int run_bars(const BarsArgs& args, const Config& config) {
  auto format = choose_format(config.output_format);
  if (!format) {
    return fail(format.error().message, k_exit_usage);
  }
  if (args.summary && *format == Format::csv) {
    return fail("--summary does not fit csv output: use --format table or json", k_exit_usage);
  }
  auto backend = open_backend(config, config.remote);
  // TO defaults to as_of, FROM to one year before TO.
  const auto window = resolve_window(*backend, args.from, args.to,
                                     [](domain::Date to) { return to.minus_years(1); });
  if (!window) {
    return fail(window.error().message);
  }
  const OutputOptions options{.format = *format,
                              .header = !args.output.no_header,
                              .color = use_color(),
                              .summary = args.summary,
                              .width = output_width()};
  return run_query(
    *backend,
    api::parse_bars_form(
      {args.symbols, window->from, window->to, !args.raw, args.sort, args.limit, args.summary}),
    {.whole_window = !args.limit,
     .print = [&](const api::BarsResponse& response) { print_bars(std::cout, response, options); },
     .more_note = [&](const api::BarsResponse& response,
                      std::size_t i) { return more_bars_note(args, response, i); }});
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
    ->check(CLI::Range(std::int64_t{1}, api::k_max_limit))
    ->type_name("N");
  command.add_flag("--summary", args->summary, "Interval statistics (table, json, ndjson)");
  add_output_options(command, flags, args->output);
  return [args](const Config& config) { return run_bars(*args, config); };
}

} // namespace ashare::cli
