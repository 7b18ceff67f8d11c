// ashare import FILE...: load canonical CSV files into the data store, one transaction per file.
#include "cli/command.hpp"
#include "core/import/importer.hpp"
#include "core/store/bar_store.hpp"

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

namespace ashare::cli {
namespace {

struct ImportArgs {
  std::vector<std::string> files;
  bool skip_invalid = false;
  std::string source = "canonical";
};

void print_report(const std::string& file, const import::ImportReport& report) {
  std::cout << file << ": loaded " << report.rows_loaded
            << (report.rows_loaded == 1 ? " row for " : " rows for ") << report.symbols.size()
            << (report.symbols.size() == 1 ? " symbol" : " symbols");
  if (report.rows_skipped > 0) {
    std::cout << ", skipped " << report.rows_skipped
              << (report.rows_skipped == 1 ? " invalid row" : " invalid rows");
  }
  std::cout << "; as_of " << (report.as_of ? report.as_of->iso() : "none") << "\n";
}

int run_import(const ImportArgs& args, const Config& config) {
  store::BarStore store(config.db);
  const import::ImportOptions options{args.skip_invalid, args.source};
  int status = k_exit_ok;
  for (const auto& file : args.files) {
    auto report = import::import_canonical_file(store, file, options);
    if (!report) {
      std::cerr << "ashare: error: " << report.error().message << "\n";
      status = k_exit_error;
      continue;
    }
    for (const auto& problem : report->problems) {
      std::cerr << import::format_problem(file, problem) << "\n";
    }
    if (report->refusal) {
      std::cerr << import::format_problem(file, *report->refusal) << "\n";
    }
    if (!report->committed) {
      std::cerr << "ashare: error: " << file << ": nothing imported"
                << (report->refusal ? "" : " (use --skip-invalid to load the valid rows)") << "\n";
      status = k_exit_error;
      continue;
    }
    print_report(file, *report);
  }
  return status;
}

} // namespace

Action setup_import(CLI::App& command, GlobalFlags&) {
  auto args = std::make_shared<ImportArgs>();
  command.add_option("FILE", args->files, "Canonical CSV files: symbol,trade_date,open,high,low,"
                                          "close,volume,turnover[,change_pct][,factor]")
    ->required();
  command.add_flag("--skip-invalid", args->skip_invalid,
                   "Report invalid rows and load the rest instead of refusing the file");
  command.add_option("--source", args->source, "Data source name recorded in meta.source")
    ->default_str("canonical")
    ->type_name("NAME");
  return [args](const Config& config) { return run_import(*args, config); };
}

} // namespace ashare::cli
