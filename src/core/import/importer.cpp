#include "core/import/importer.hpp"

#include "core/import/canonical_csv.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <utility>

namespace ashare::import {
namespace {

// Turn the later of two rows for the same (symbol, trade_date) into a problem.
void reject_duplicates(ParsedFile& file) {
  std::map<std::pair<std::string, std::int64_t>, std::int64_t> first_line;
  std::vector<ParsedRow> kept;
  kept.reserve(file.rows.size());
  for (auto& row : file.rows) {
    const auto [it, inserted] =
      first_line.emplace(std::make_pair(row.symbol, row.bar.trade_date.yyyymmdd()), row.line);
    if (inserted) {
      kept.push_back(std::move(row));
    } else {
      file.problems.push_back(RowProblem{row.line, "trade_date",
                                         "duplicate row for " + row.symbol + " on "
                                           + row.bar.trade_date.iso() + " (first on line "
                                           + std::to_string(it->second) + ")"});
    }
  }
  file.rows = std::move(kept);
  std::stable_sort(file.problems.begin(), file.problems.end(),
                   [](const RowProblem& a, const RowProblem& b) { return a.line < b.line; });
}

} // namespace

std::string format_problem(const std::filesystem::path& path, const RowProblem& problem) {
  return path.string() + ":" + std::to_string(problem.line) + ": " + problem.column + ": "
         + problem.message;
}

ImportReport load_parsed_file(store::BarStore& store, ParsedFile file, const ImportOptions& options) {
  reject_duplicates(file);
  ImportReport report;
  report.problems = file.problems;
  if (!file.problems.empty() && !options.skip_invalid) {
    return report;
  }
  report.rows_skipped = static_cast<std::int64_t>(file.problems.size());

  store::WriteTransaction transaction(store);
  std::map<std::string, std::int64_t> symbol_first_line;
  for (const auto& row : file.rows) {
    symbol_first_line.emplace(row.symbol, row.line);
  }
  if (!file.has_factor) {
    for (const auto& [symbol, line] : symbol_first_line) {
      if (store.has_non_unit_factor(symbol)) {
        report.refusal = RowProblem{
          line, "factor",
          "the file has no factor column, but the store holds factors other than 1 for " + symbol
            + ": importing it would rescale that history; add the factor column"};
        return report; // the transaction rolls back
      }
    }
  }
  for (const auto& row : file.rows) {
    store.upsert_bar(row.symbol, row.bar, !file.has_change_pct);
  }
  for (const auto& [symbol, line] : symbol_first_line) {
    // Always: rows inserted before a derived change_pct change what it derives from.
    store.recompute_change_pct(symbol);
    store.refresh_symbol(symbol);
    report.symbols.insert(symbol);
  }
  store.finish_change(options.source);
  report.as_of = store.load_dataset_info().as_of;
  transaction.commit();
  report.committed = true;
  report.rows_loaded = static_cast<std::int64_t>(file.rows.size());
  return report;
}

Result<ImportReport> import_canonical_file(store::BarStore& store,
                                           const std::filesystem::path& path,
                                           const ImportOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::invalid_input, path.string() + ": cannot open the file");
  }
  auto parsed = parse_canonical_csv(in);
  if (!parsed) {
    return make_error(ErrorCode::invalid_input, path.string() + ":" + parsed.error().message);
  }
  if (in.bad()) {
    return make_error(ErrorCode::invalid_input, path.string() + ": read error");
  }
  return load_parsed_file(store, std::move(*parsed), options);
}

} // namespace ashare::import
