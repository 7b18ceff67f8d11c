// ashare export --format qlib DIR [SYMBOLS...] [--from DATE] [--to DATE]: the local store's bars
// in the file layout of Microsoft's qlib (core/qlib), adjusted from each symbol's first bar, so
// that a later export appends instead of rewriting (issue 15).
#include "cli/commands/command.hpp"
#include "cli/output/progress.hpp"
#include "cli/output/table.hpp"
#include "core/domain/date.hpp"
#include "core/domain/symbol.hpp"
#include "core/qlib/exporter.hpp"
#include "core/store/bar_store.hpp"
#include "core/store/locator.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ashare::cli {
namespace {

struct ExportArgs {
  std::string format;
  std::string dir;
  std::vector<std::string> symbols;
  std::optional<std::string> from;
  std::optional<std::string> to;
};

std::string plural(std::size_t count, const char* one, const char* many) {
  return with_thousands(std::to_string(count)) + " " + (count == 1 ? one : many);
}

// Return `request` filled from `args`, or the usage error.
Result<qlib::ExportRequest> parse_request(const ExportArgs& args) {
  qlib::ExportRequest request;
  request.dir = args.dir;
  for (const auto& text : args.symbols) {
    auto symbols = domain::parse_symbol_list(text);
    if (!symbols) {
      return symbols.error();
    }
    request.symbols.insert(request.symbols.end(), symbols->begin(), symbols->end());
  }
  for (const auto& [text, bound, name] :
       {std::tuple{&args.from, &request.from, "--from"}, std::tuple{&args.to, &request.to, "--to"}}) {
    auto date = domain::parse_optional_iso_date(*text, name);
    if (!date) {
      return date.error();
    }
    *bound = *date;
  }
  if (request.from && request.to && *request.from > *request.to) {
    return make_error(ErrorCode::invalid_parameter,
                      "--from " + *args.from + " is later than --to " + *args.to);
  }
  return request;
}

void print_report(const qlib::ExportReport& report, const std::string& dir) {
  if (report.fresh_reason) {
    note("wrote every file: " + *report.fresh_reason);
  }
  for (const auto& symbol : report.rewritten) {
    note(symbol + ": rewritten, its stored history changed since the last export");
  }
  for (const auto& symbol : report.removed) {
    note(symbol + ": removed from the export");
  }
  std::cout << "exported " << plural(static_cast<std::size_t>(report.symbols), "symbol", "symbols")
            << " (" << plural(static_cast<std::size_t>(report.bars), "bar", "bars") << ", "
            << plural(static_cast<std::size_t>(report.calendar_days), "calendar day",
                      "calendar days")
            << ") to " << dir << " in qlib's format: " << report.written.size() << " written, "
            << report.appended.size() << " appended, " << report.rewritten.size() << " rewritten, "
            << report.removed.size() << " removed\n";
  for (const auto& file : report.index_files) {
    std::cout << "index members: instruments/" << file << "\n"; // D20
  }
}

int run_export(const ExportArgs& args, const Config& config) {
  if (config.base_url) {
    return fail("export reads the local store; run it without --base-url", k_exit_usage);
  }
  auto request = parse_request(args);
  if (!request) {
    return fail(request.error().message, k_exit_usage);
  }
  // Opening a file that does not exist would create an empty store and export nothing from it.
  if (!store::is_postgres_locator(config.db.string()) && !std::filesystem::exists(config.db)) {
    return fail("no store at " + config.db.string() + "; import data first (ashare import)");
  }
  const auto store = store::open_bar_store(config.db.string());
  ProgressBar bar("export");
  const auto report = qlib::export_qlib(*store, *request, [&](std::int64_t done, std::int64_t total) {
    bar.show(done, total, done * 2 <= total ? "reading" : "writing");
  });
  bar.finish();
  if (!report) {
    return report.error().code == ErrorCode::invalid_symbol ? fail_with(report.error())
                                                            : fail(report.error().message);
  }
  print_report(*report, args.dir);
  return k_exit_ok;
}

} // namespace

Action setup_export(CLI::App& command, GlobalFlags&) {
  auto args = std::make_shared<ExportArgs>();
  command.add_option("--format", args->format, "Layout to write: qlib (Microsoft qlib's .bin files)")
    ->required()
    ->check(CLI::IsMember({"qlib"}, CLI::ignore_case))
    ->type_name("FORMAT");
  command.add_option("DIR", args->dir, "Directory to write (qlib's provider_uri)")->required();
  command.add_option("SYMBOLS", args->symbols,
                     "Symbols to export (comma-separated also; default: every stored symbol)");
  command.add_option("--from", args->from, "First date to export (default: all history)")
    ->type_name("DATE");
  command.add_option("--to", args->to, "Last date to export (default: all history)")
    ->type_name("DATE");
  return [args](const Config& config) { return run_export(*args, config); };
}

} // namespace ashare::cli
