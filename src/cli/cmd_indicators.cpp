// ashare ema|rsi|sma SYMBOL[,SYMBOL...]: indicator values from the local store or the remote, in
// the API's semantics (D9). One file for the three commands: they differ only in their name and
// default window, which the table below holds.
#include "cli/query_run.hpp"
#include "core/api/query_params.hpp"
#include "core/domain/symbol.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>

namespace ashare::cli {
namespace {

struct IndicatorArgs {
  std::string indicator; // "ema", "rsi", "sma"
  std::string symbols;
  std::optional<int> window;
  std::string series = "close";
  bool raw = false;
  std::string order = "desc";
  std::optional<std::int64_t> limit;
  std::optional<std::string> from;
  std::optional<std::string> to;
  std::optional<std::string> at;
  bool underlying = false;
  QueryOutputArgs output;
};

std::string target(const IndicatorArgs& args) {
  std::string query = "symbol=" + api::percent_encode(args.symbols);
  if (args.window) {
    query += "&window=" + std::to_string(*args.window);
  }
  query += "&series_type=" + args.series;
  if (args.raw) {
    query += "&adjusted=false";
  }
  query += "&order=" + args.order;
  if (args.limit) {
    query += "&limit=" + std::to_string(*args.limit);
  }
  if (args.from) {
    query += "&timestamp.gte=" + api::percent_encode(*args.from);
  }
  if (args.to) {
    query += "&timestamp.lte=" + api::percent_encode(*args.to);
  }
  if (args.at) {
    query += "&timestamp=" + api::percent_encode(*args.at);
  }
  if (args.underlying) {
    query += "&expand_underlying=true";
  }
  return "/v1/indicators/" + args.indicator + "?" + query;
}

// The symbols as the request names them, canonical, for single-symbol bodies that carry none.
std::vector<std::string> requested_symbols(const std::string& text) {
  std::vector<std::string> out;
  if (auto symbols = domain::parse_symbol_list(text)) {
    for (const auto& symbol : *symbols) {
      out.push_back(symbol.str());
    }
  }
  return out;
}

int run_indicator(const IndicatorArgs& args, const Config& config) {
  auto format = choose_format(config.format);
  if (!format) {
    std::cerr << "ashare: error: " << format.error().message << "\n";
    return k_exit_usage;
  }
  auto transport = open_transport(config, config.remote);
  const auto reply = transport->get(target(args));
  if (reply.status != 200) {
    return report_query_error(reply, *transport);
  }
  auto response = api::indicators_from_json(reply.body);
  if (!response) {
    std::cerr << "ashare: error: " << response.error().message << "\n";
    return k_exit_error;
  }
  const OutputOptions options{*format, !args.output.no_header, use_color(), false, args.underlying};
  print_indicators(std::cout, *response, requested_symbols(args.symbols), reply.body, options);
  const bool none_known = std::none_of(response->items.begin(), response->items.end(),
                                      [](const auto& item) { return item.known; });
  if (none_known && explain_if_empty(*transport)) {
    return k_exit_error;
  }
  int status = k_exit_ok;
  for (const auto& item : response->items) {
    if (!item.known) {
      std::cerr << "ashare: error: INVALID_SYMBOL: unknown symbol \"" << item.symbol << "\"\n";
      status = k_exit_error;
    }
  }
  return status;
}

Action setup_indicator(CLI::App& command, GlobalFlags& flags, const std::string& name, int window) {
  auto args = std::make_shared<IndicatorArgs>();
  args->indicator = name;
  command.add_option("SYMBOLS", args->symbols, "Symbols, comma-separated")->required();
  command.add_option("--window", args->window, "Window length")
    ->check(CLI::Range(1, 5000))
    ->default_str(std::to_string(window))
    ->type_name("N");
  command.add_option("--series", args->series, "Price series")
    ->check(CLI::IsMember({"open", "high", "low", "close"}, CLI::ignore_case))
    ->default_str("close");
  command.add_flag("--raw", args->raw, "Compute over raw prices; default forward-adjusted (D9)");
  command.add_option("--order", args->order, "Order by date")
    ->check(CLI::IsMember({"asc", "desc"}, CLI::ignore_case))
    ->default_str("desc");
  command.add_option("--limit", args->limit, "At most N values per symbol (default 10)")
    ->check(CLI::Range(std::int64_t{1}, std::int64_t{5000}))
    ->type_name("N");
  command.add_option("--from", args->from, "Values on or after DATE (timestamp.gte)")->type_name("DATE");
  command.add_option("--to", args->to, "Values on or before DATE (timestamp.lte)")->type_name("DATE");
  command.add_option("--at", args->at, "The value of one day (timestamp)")->type_name("DATE");
  command.add_flag("--underlying", args->underlying, "Also print the series type and adjustment");
  add_output_options(command, flags, args->output);
  return [args](const Config& config) { return run_indicator(*args, config); };
}

} // namespace

Action setup_ema(CLI::App& command, GlobalFlags& flags) {
  return setup_indicator(command, flags, "ema", 50);
}

Action setup_rsi(CLI::App& command, GlobalFlags& flags) {
  return setup_indicator(command, flags, "rsi", 14);
}

Action setup_sma(CLI::App& command, GlobalFlags& flags) {
  return setup_indicator(command, flags, "sma", 50);
}

} // namespace ashare::cli
