// ashare gaps [SYMBOL...] [--from DATE] [--to DATE]: every missing bar of the local store and why
// (D19: not_listed, suspended, absent_at_source, missing), as a table, CSV or JSON, with the
// counts per reason. Exit 0 when no bar is `missing` (a gap that `fetch --repair` can fill), 1
// when some are.
#include "cli/commands/query_run.hpp"
#include "core/domain/symbol.hpp"
#include "core/fetch/gaps.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/locator.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <memory>

namespace ashare::cli {
namespace {

struct GapsArgs {
  std::vector<std::string> symbols;
  std::optional<std::string> from;
  std::optional<std::string> to;
  QueryOutputArgs output;
};

Result<fetch::GapRequest> gap_request(const GapsArgs& args) {
  fetch::GapRequest request;
  for (const auto& text : args.symbols) {
    auto symbol = domain::parse_symbol(text);
    if (!symbol) {
      return symbol.error();
    }
    request.symbols.push_back(symbol->str());
  }
  const auto from = domain::parse_optional_iso_date(args.from, "--from");
  const auto to = domain::parse_optional_iso_date(args.to, "--to");
  if (!from || !to) {
    return from ? to.error() : from.error();
  }
  request.from = *from;
  request.to = *to;
  return request;
}

std::string counts_line(const fetch::GapReport& report) {
  std::string line = with_thousands(std::to_string(report.gaps.size())) + " gaps in "
                     + std::to_string(report.symbols) + " symbols";
  if (report.from && report.to) {
    line += " over " + report.from->iso() + ".." + report.to->iso();
  }
  for (std::size_t i = 0; i < fetch::k_gap_reasons.size(); ++i) {
    line += (i == 0 ? ": " : ", ") + with_thousands(std::to_string(report.counts[i])) + " "
            + std::string(fetch::gap_reason_name(fetch::k_gap_reasons[i]));
  }
  return line;
}

nlohmann::json summary_json(const fetch::GapReport& report) {
  nlohmann::json summary{{"gaps", report.gaps.size()}, {"symbols", report.symbols}};
  summary["from"] = report.from ? nlohmann::json(report.from->iso()) : nlohmann::json();
  summary["to"] = report.to ? nlohmann::json(report.to->iso()) : nlohmann::json();
  for (std::size_t i = 0; i < fetch::k_gap_reasons.size(); ++i) {
    summary[std::string(fetch::gap_reason_name(fetch::k_gap_reasons[i]))] = report.counts[i];
  }
  return summary;
}

void print_gaps(const fetch::GapReport& report, Format format, bool no_header) {
  switch (format) {
  case Format::table: {
    std::vector<std::vector<std::string>> rows;
    for (const auto& gap : report.gaps) {
      rows.push_back({gap.symbol, gap.day.iso(), std::string(fetch::gap_reason_name(gap.reason))});
    }
    print_table(std::cout, {{"SYMBOL"}, {"DATE"}, {"REASON"}}, rows);
    std::cerr << counts_line(report) << "\n";
    return;
  }
  case Format::csv:
    if (!no_header) {
      std::cout << "symbol,date,reason\n";
    }
    for (const auto& gap : report.gaps) {
      std::cout << gap.symbol << ',' << gap.day.iso() << ',' << fetch::gap_reason_name(gap.reason) << "\n";
    }
    std::cerr << counts_line(report) << "\n";
    return;
  case Format::json:
  case Format::ndjson: {
    nlohmann::json gaps = nlohmann::json::array();
    for (const auto& gap : report.gaps) {
      nlohmann::json item{{"symbol", gap.symbol}, {"date", gap.day.iso()},
                          {"reason", fetch::gap_reason_name(gap.reason)}};
      if (format == Format::ndjson) {
        std::cout << item.dump() << "\n";
      }
      gaps.push_back(std::move(item));
    }
    if (format == Format::json) {
      std::cout << nlohmann::json{{"gaps", gaps}, {"summary", summary_json(report)}}.dump() << "\n";
    } else {
      std::cerr << counts_line(report) << "\n";
    }
    return;
  }
  }
}

int run_gaps(const GapsArgs& args, const Config& config) {
  if (config.base_url) {
    return fail("gaps reads the local store; run it without --base-url (remote mode)", k_exit_usage);
  }
  auto format = choose_format(config.output_format);
  if (!format) {
    return fail(format.error().message, k_exit_usage);
  }
  auto request = gap_request(args);
  if (!request) {
    return fail(request.error().message, k_exit_usage);
  }
  if (!store::is_postgres_locator(config.db.string()) && !std::filesystem::exists(config.db)) {
    return fail("no store at " + config.db.string() + "; import or fetch data first");
  }
  const auto store = store::open_bar_store(config.db.string());
  const auto report = fetch::find_gaps(*store, *request);
  if (!report) {
    return fail_with(report.error());
  }
  print_gaps(*report, *format, args.output.no_header);
  return report->count(fetch::GapReason::missing) == 0 ? k_exit_ok : k_exit_error;
}

} // namespace

Action setup_gaps(CLI::App& command, GlobalFlags& flags) {
  auto args = std::make_shared<GapsArgs>();
  command.add_option("SYMBOL", args->symbols, "Only these symbols (default: every stored or listed one)");
  command.add_option("--from", args->from, "First day (default: the first ledger day of each symbol's kind, else the first stored bar)")
      ->type_name("DATE");
  command.add_option("--to", args->to, "Last day (default: the store's as_of)")->type_name("DATE");
  add_output_options(command, flags, args->output);
  return [args](const Config& config) { return run_gaps(*args, config); };
}

} // namespace ashare::cli
