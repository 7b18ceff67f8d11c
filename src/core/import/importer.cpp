#include "core/import/importer.hpp"

#include "core/domain/symbol.hpp"
#include "core/import/canonical_csv.hpp"
#include "core/import/vendor_formats.hpp"

#include <algorithm>
#include <fstream>
#include <span>
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

std::int64_t count_factor_steps(std::span<const ParsedRow> rows) {
  std::int64_t steps = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    steps += rows[i].bar.factor != rows[i - 1].bar.factor ? 1 : 0;
  }
  return steps;
}

// Factors of the Tushare scale (a file's own column, adj_factor) mix with each other, not with a
// chain that starts at 1 or with no factors at all.
bool same_factor_scale(std::string_view stored, FactorOrigin incoming) {
  const auto name = factor_origin_name(incoming);
  if (stored.empty() || stored == "none" || name == "none" || stored == name) {
    return true; // unit factors: has_non_unit_factor guards the one harmful case
  }
  auto tushare_scale = [](std::string_view origin) {
    return origin == "file" || origin == "adj_factor";
  };
  return tushare_scale(stored) && tushare_scale(name);
}

// Refuse to load `span` when the store keeps bars of its symbol that this file does not replace
// and whose factors are on another scale, or that a pre_close chain cannot reach.
std::optional<RowProblem> check_factor_scale(store::BarStore& store,
                                             const PreparedFile& prepared,
                                             const SymbolRows& span) {
  const auto first = span.rows.front().bar.trade_date;
  const auto last = span.rows.back().bar.trade_date;
  const auto line = span.rows.front().line;
  if (prepared.factor_origin == FactorOrigin::none && store.has_non_unit_factor(span.symbol)) {
    return RowProblem{line, "factor",
                      "the file has no factors, but the store holds factors other than 1 for "
                        + span.symbol + ": importing it would rescale that history; add factors "
                                        "(a factor column, or --adj-factor FILE)"};
  }
  const auto stored = store.find_symbol(span.symbol);
  if (!stored || !store.has_bars_outside(span.symbol, first, last)) {
    return std::nullopt;
  }
  if (!same_factor_scale(stored->factor_origin, prepared.factor_origin)) {
    return RowProblem{line, "factor",
                      "the store holds " + span.symbol + " bars outside this file's dates whose "
                        "factors came from " + stored->factor_origin + ", and this file's come from "
                        + std::string(factor_origin_name(prepared.factor_origin))
                        + ": mixing them would break forward adjustment; run `ashare remove "
                        + span.symbol + "` first, or import it the same way"};
  }
  if (prepared.chain_from_store && !store.find_bar_before(span.symbol, first)) {
    return RowProblem{line, "factor",
                      "the store holds later bars of " + span.symbol
                        + " that a pre_close chain starting at " + first.iso()
                        + " cannot reach: import the older file first, or run `ashare remove "
                        + span.symbol + "` and import every file"};
  }
  return std::nullopt;
}

// Return the symbol for a file without a symbol column: --symbol, else the file's name.
Result<std::string> file_symbol(const std::filesystem::path& path, const ImportOptions& options) {
  if (!options.symbol) {
    return symbol_from_file_name(path);
  }
  auto symbol = domain::parse_symbol(*options.symbol);
  if (!symbol) {
    return make_error(ErrorCode::invalid_input, "--symbol: " + symbol.error().message);
  }
  return symbol->str();
}

// Parse `in` as `format`; `symbol` names the rows of formats without a symbol column.
Result<ParsedFile> parse_format(std::istream& in,
                                SourceFormat format,
                                const std::string& symbol,
                                const ImportOptions& options) {
  switch (format) {
  case SourceFormat::canonical:
    return parse_canonical_csv(in);
  case SourceFormat::tushare:
    return parse_tushare_daily(in);
  case SourceFormat::baostock:
    return parse_baostock_k(in, options.adjusted_input);
  case SourceFormat::akshare:
    return parse_akshare_hist(in, symbol);
  case SourceFormat::tdx:
    return parse_tdx_day(in, symbol);
  }
  return make_error(ErrorCode::internal, "unknown format");
}

// Decide where the factors of `prepared` come from, joining `options.adj_factors` if given.
Result<bool> settle_factors(PreparedFile& prepared, const ImportOptions& options) {
  auto& file = prepared.parsed;
  if (file.has_factor) {
    if (options.adj_factors) {
      return make_error(ErrorCode::invalid_input,
                        "the file has its own factor column; --adj-factor is for files without one");
    }
    prepared.factor_origin = FactorOrigin::file;
    return true;
  }
  if (options.adj_factors) {
    sort_by_symbol_and_date(file);
    const auto join = join_adj_factors(file, *options.adj_factors);
    if (!join.symbols_without_factors.empty()) {
      return make_error(ErrorCode::invalid_input,
                        "no row of the --adj-factor file matches " + join.symbols_without_factors.front()
                          + " on any date of this file");
    }
    if (join.bars_without_factor > 0) {
      prepared.notes.push_back(std::to_string(join.bars_without_factor)
                               + (join.bars_without_factor == 1 ? " bar has" : " bars have")
                               + " no adj_factor row (the first on "
                               + join.first_bar_without_factor->iso()
                               + "): their factors follow the pre_close chain");
    }
    if (join.factors_without_bar > 0) {
      prepared.notes.push_back(std::to_string(join.factors_without_bar)
                               + (join.factors_without_bar == 1 ? " adj_factor row has"
                                                                : " adj_factor rows have")
                               + " no bar in this file: ignored");
    }
    prepared.factor_origin = FactorOrigin::adj_factor;
    return true;
  }
  const bool chain = !options.adjusted_input && !file.rows.empty()
                     && std::all_of(file.rows.begin(), file.rows.end(),
                                    [](const ParsedRow& row) { return row.pre_close.has_value(); });
  if (chain) {
    prepared.chain_from_store = true;
    file.has_factor = true;
    prepared.factor_origin = FactorOrigin::pre_close_chain;
    return true;
  }
  prepared.factor_origin = FactorOrigin::none;
  if (prepared.format == SourceFormat::akshare && !options.adjusted_input) {
    prepared.notes.push_back("AkShare files cannot say whether their prices are adjusted: they "
                             "were stored as raw prices with factor 1 (export with adjust=\"\")");
  }
  return true;
}

Result<PreparedFile> read_file(std::istream& in,
                               const std::filesystem::path& path,
                               const ImportOptions& options) {
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  in.clear();
  in.seekg(0);
  PreparedFile prepared;
  if (options.format) {
    prepared.format = *options.format;
  } else {
    auto detected = detect_source_format(path, head);
    if (!detected) {
      return detected.error();
    }
    prepared.format = *detected;
  }
  prepared.adjusted_input = options.adjusted_input;
  std::string symbol;
  if (prepared.format == SourceFormat::akshare || prepared.format == SourceFormat::tdx) {
    auto named = file_symbol(path, options);
    if (!named) {
      return named.error();
    }
    symbol = std::move(*named);
  }
  auto parsed = parse_format(in, prepared.format, symbol, options);
  if (!parsed) {
    // Parsers report "line: column: what"; the file name goes in front.
    return make_error(ErrorCode::invalid_input, path.string() + ":" + parsed.error().message);
  }
  prepared.parsed = std::move(*parsed);
  if (auto settled = settle_factors(prepared, options); !settled) {
    return make_error(ErrorCode::invalid_input, path.string() + ": " + settled.error().message);
  }
  return prepared;
}

} // namespace

std::string format_problem(const std::filesystem::path& path, const RowProblem& problem) {
  return path.string() + ":" + std::to_string(problem.line) + ": " + problem.column + ": "
         + problem.message;
}

std::string_view factor_origin_name(FactorOrigin origin) {
  switch (origin) {
  case FactorOrigin::file:
    return "file";
  case FactorOrigin::adj_factor:
    return "adj_factor";
  case FactorOrigin::pre_close_chain:
    return "pre_close_chain";
  case FactorOrigin::none:
    return "none";
  }
  return "";
}

ImportReport load_parsed_file(store::BarStore& store, ParsedFile file, const ImportOptions& options) {
  PreparedFile prepared;
  prepared.factor_origin = file.has_factor ? FactorOrigin::file : FactorOrigin::none;
  prepared.parsed = std::move(file);
  return load_prepared_file(store, std::move(prepared), options);
}

ImportReport load_prepared_file(store::BarStore& store,
                                PreparedFile prepared,
                                const ImportOptions& options) {
  auto& file = prepared.parsed;
  reject_duplicates(file);
  ImportReport report;
  report.problems = file.problems;
  report.format = prepared.format;
  report.factor_origin = prepared.factor_origin;
  report.suspended_skipped = file.suspended_skipped;
  report.notes = prepared.notes;
  if (!file.problems.empty() && !options.skip_invalid) {
    return report;
  }
  report.rows_skipped = static_cast<std::int64_t>(file.problems.size());
  sort_by_symbol_and_date(file);

  store::WriteTransaction transaction(store);
  const auto spans = rows_by_symbol(file);
  for (const auto& span : spans) {
    if (auto refusal = check_factor_scale(store, prepared, span)) {
      report.refusal = std::move(refusal);
      return report; // the transaction rolls back
    }
    if (prepared.chain_from_store) {
      const auto previous = store.find_bar_before(span.symbol, span.rows.front().bar.trade_date);
      chain_factors(span.rows, previous ? chain_start(*previous, span.rows.front()) : 1.0);
    }
    report.adjustment_events += count_factor_steps(span.rows);
  }
  const std::int64_t total = static_cast<std::int64_t>(file.rows.size());
  std::int64_t done = 0;
  for (const auto& row : file.rows) {
    store.upsert_bar(row.symbol, row.bar, !file.has_change_pct);
    if (options.progress && ++done % 2000 == 0) {
      options.progress(done, total);
    }
  }
  const std::string source =
    options.source.empty() ? std::string(source_format_name(prepared.format)) : options.source;
  for (const auto& span : spans) {
    // Always: rows inserted before a derived change_pct change what it derives from.
    store.recompute_change_pct(span.symbol);
    store.refresh_symbol(span.symbol);
    store.save_symbol_source(span.symbol,
                             store::SymbolSource{source,
                                                 std::string(factor_origin_name(prepared.factor_origin)),
                                                 prepared.adjusted_input});
    report.symbols.insert(span.symbol);
  }
  store.finish_change(source);
  report.as_of = store.load_dataset_info().as_of;
  transaction.commit();
  if (options.progress) {
    options.progress(total, total);
  }
  report.committed = true;
  report.rows_loaded = total;
  return report;
}

Result<ImportReport> import_file(store::BarStore& store,
                                 const std::filesystem::path& path,
                                 const ImportOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::invalid_input, path.string() + ": cannot open the file");
  }
  auto prepared = read_file(in, path, options);
  if (!prepared) {
    return prepared.error();
  }
  if (in.bad()) {
    return make_error(ErrorCode::invalid_input, path.string() + ": read error");
  }
  return load_prepared_file(store, std::move(*prepared), options);
}

} // namespace ashare::import
