// ashare import FILE...: load canonical or vendor files (Tushare, AkShare, baostock, TDX) into the
// data store, one transaction per file, with a progress bar on a terminal; files without bars (a
// Tushare trade_cal CSV, D19) go to their own loader (import/non_bar_files.hpp).
#include "cli/commands/command.hpp"
#include "cli/output/formats.hpp"
#include "cli/output/progress.hpp"
#include "core/domain/text.hpp"
#include "core/import/importer.hpp"
#include "core/import/non_bar_files.hpp"
#include "core/members/import_members.hpp"
#include "core/query/series.hpp"
#include "core/store/bar_store.hpp"

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <memory>
#include <set>

namespace ashare::cli {
namespace {

struct ImportArgs {
  std::vector<std::string> files;
  std::string format = "auto";
  std::optional<std::string> adj_factor;
  std::optional<std::string> symbol;
  bool adjusted_input = false;
  bool skip_invalid = false;
  std::string source;
  std::optional<std::string> index; // D20: --format members
};

std::string plural(std::int64_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

std::string factor_summary(const import::ImportReport& report) {
  switch (report.factor_origin) {
  case import::FactorOrigin::file:
    return "factors from the file";
  case import::FactorOrigin::adj_factor:
    return "factors from --adj-factor, " + plural(report.adjustment_events, "step", "steps");
  case import::FactorOrigin::pre_close_chain:
    return "factors from the pre_close chain, "
           + plural(report.adjustment_events, "adjustment event", "adjustment events");
  case import::FactorOrigin::none:
    return "no factors (1.0)";
  }
  return "";
}

void print_report(const std::string& file, const import::ImportReport& report) {
  std::cout << file << ": " << import::source_format_name(report.format) << ", loaded "
            << plural(report.rows_loaded, "row", "rows") << " for "
            << plural(static_cast<std::int64_t>(report.symbols.size()), "symbol", "symbols");
  if (report.rows_skipped > 0) {
    std::cout << ", skipped " << plural(report.rows_skipped, "invalid row", "invalid rows");
  }
  if (report.suspended_skipped > 0) {
    std::cout << ", skipped "
              << plural(report.suspended_skipped, "suspended day", "suspended days");
  }
  std::cout << ", " << factor_summary(report) << "; as_of "
            << (report.as_of ? report.as_of->iso() : "none") << "\n";
}

Result<import::AdjFactorTable> load_adj_factors(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::invalid_input, path + ": cannot open the file");
  }
  auto table = import::parse_adj_factor_csv(in);
  if (!table) {
    return make_error(ErrorCode::invalid_input, path + ":" + table.error().message);
  }
  return table;
}

// Import `file`, a file of `kind` (no bars: a trade_cal CSV, D19); return whether it was committed.
bool import_non_bar(store::BarStore& store, const std::string& file, const import::NonBarKind& kind) {
  const auto loaded = kind.load(store, file);
  if (!loaded) {
    fail(domain::printable(loaded.error().message));
    return false;
  }
  std::cout << file << ": " << *loaded << "\n";
  return true;
}

// Import one file; return whether it was committed.
bool import_one(store::BarStore& store,
                const std::string& file,
                import::ImportOptions options,
                const std::string& counter) {
  ProgressBar bar("import");
  // Rows are written as they are read, so the bar follows the bytes read.
  options.progress = [&](std::int64_t rows, double fraction_read) {
    bar.show(static_cast<std::int64_t>(fraction_read * 1000), 1000,
             counter + file + ": " + with_thousands(std::to_string(rows)) + " rows");
  };
  auto report = import::import_file(store, file, options);
  bar.finish();
  if (!report) {
    fail(domain::printable(report.error().message)); // it may quote the file (D16)
    return false;
  }
  for (const auto& problem : report->problems) {
    std::cerr << domain::printable(import::format_problem(file, problem)) << "\n";
  }
  if (report->refusal) {
    std::cerr << domain::printable(import::format_problem(file, *report->refusal)) << "\n";
  }
  if (!report->committed) {
    fail(file + ": nothing imported"
         + (report->refusal ? "" : " (use --skip-invalid to load the valid rows)"));
    return false;
  }
  for (const auto& note : report->notes) {
    std::cerr << domain::printable(file + ": note: " + note) << "\n";
  }
  // D19: old-code rows dated on or after the new code's first bar are hidden behind its bars.
  const query::Aliases aliases(store.market().load_aliases());
  std::set<std::string> told;
  for (const auto& symbol : report->symbols) {
    const auto hidden = query::find_hidden_bars(store, aliases, symbol);
    if (hidden && told.insert(hidden->old_symbol).second) {
      warn(file + ": " + std::to_string(hidden->count) + (hidden->count == 1 ? " row of " : " rows of ")
           + hidden->old_symbol + " dated on or after " + hidden->new_first.iso() + ", the first bar of "
           + hidden->new_symbol + ", are hidden: either code answers " + hidden->new_symbol
           + "'s bars from that day (the code changed)");
    }
  }
  print_report(file, *report);
  return true;
}

// D20: a membership file of `index`; return whether it was committed.
bool import_members_file(store::BarStore& store, const std::string& file, const std::string& index) {
  const auto report = members::import_members(store, index, file);
  if (!report) {
    fail(domain::printable(report.error().message));
    return false;
  }
  for (const auto& warning : report->warnings) {
    warn(domain::printable(warning));
  }
  std::cout << file << ": members of " << report->index_symbol << ", "
            << plural(static_cast<std::int64_t>(report->spans), "span", "spans") << " of "
            << plural(static_cast<std::int64_t>(report->symbols), "symbol", "symbols") << " from "
            << plural(static_cast<std::int64_t>(report->rows), "row", "rows")
            << " (replacing the index's imported spans)\n";
  return true;
}

int run_import(const ImportArgs& args, const Config& config) {
  if ((args.format == "members") != args.index.has_value()) {
    return fail("--format members and --index CODE go together (D20)", k_exit_usage);
  }
  import::ImportOptions options;
  options.skip_invalid = args.skip_invalid;
  options.source = args.source;
  options.symbol = args.symbol;
  options.adjusted_input = args.adjusted_input;
  if (args.format != "auto") {
    options.format = import::find_source_format(args.format);
  }
  std::optional<import::AdjFactorTable> adj_factors;
  if (args.adj_factor) {
    auto table = load_adj_factors(*args.adj_factor);
    if (!table) {
      return fail(domain::printable(table.error().message));
    }
    adj_factors = std::move(*table);
    options.adj_factors = &*adj_factors;
  }
  const auto store = store::open_bar_store(config.db.string());
  int status = k_exit_ok;
  for (std::size_t i = 0; i < args.files.size(); ++i) {
    const std::string counter =
        args.files.size() > 1
            ? "[" + std::to_string(i + 1) + "/" + std::to_string(args.files.size()) + "] "
            : "";
    if (args.index) {
      status = import_members_file(*store, args.files[i], *args.index) ? status : k_exit_error;
      continue;
    }
    const auto* non_bar = args.format == "auto" ? import::detect_non_bar_kind(args.files[i])
                                                : import::find_non_bar_kind(args.format);
    if (non_bar != nullptr) {
      status = import_non_bar(*store, args.files[i], *non_bar) ? status : k_exit_error;
    } else if (!import_one(*store, args.files[i], options, counter)) {
      status = k_exit_error;
    }
  }
  return status;
}

} // namespace

Action setup_import(CLI::App& command, GlobalFlags&) {
  auto args = std::make_shared<ImportArgs>();
  command.add_option("FILE", args->files, "Files to load, one transaction each")->required();
  command
      .add_option(
          "--format", args->format,
          "File format: auto (detected from the header or file signature), canonical, "
          "tushare (daily, index_daily, fund_daily), akshare (stock_zh_a_hist), baostock "
          "(query_history_k_data_plus), tdx (.day), tdx-text (TDX's text export, 不复权); or a "
          "file without bars: trade_cal (Tushare's calendar, D19), members (an index's "
          "membership, symbol,name,opt-in,opt-out, with --index; D20)")
      ->check(CLI::IsMember({"auto", "canonical", "tushare", "akshare", "baostock", "tdx",
                             "tdx-text", "trade_cal", "members"}))
      ->default_str("auto")
      ->type_name("FORMAT");
  command
      .add_option(
          "--adj-factor", args->adj_factor,
          "Tushare adj_factor CSV (ts_code,trade_date,adj_factor) to join on symbol and date; "
          "without it the factor follows the pre_close chain")
      ->type_name("FILE");
  command.add_flag("--adjusted-input", args->adjusted_input,
                   "The prices are already adjusted (qfq/hfq): store them as given, factor 1.0 "
                   "(or --adj-factor's)");
  command
      .add_option("--symbol", args->symbol,
                  "Symbol of akshare/tdx/tdx-text files whose name does not carry it (e.g. 600519.SH)")
      ->type_name("SYMBOL");
  command.add_flag("--skip-invalid", args->skip_invalid,
                   "Report invalid rows and load the rest instead of refusing the file");
  command
      .add_option("--index", args->index,
                  "--format members: the index whose membership the file holds, e.g. 000300.SH; "
                  "replaces its imported spans")
      ->type_name("CODE");
  command.add_option("--source", args->source, "Source name recorded (default: the format's name)")
      ->type_name("NAME");
  return [args](const Config& config) { return run_import(*args, config); };
}

} // namespace ashare::cli
