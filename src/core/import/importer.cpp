#include "core/import/importer.hpp"

#include "core/domain/kind.hpp"
#include "core/domain/symbol.hpp"
#include "core/import/canonical_csv.hpp"
#include "core/import/file_loader.hpp"
#include "core/import/parse_ahead.hpp"
#include "core/import/vendor_formats.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iterator>
#include <set>
#include <span>
#include <map>
#include <utility>

namespace ashare::import {
namespace {

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

// Parse `in` as `format`, handing the rows to `sink` when given; `symbol` names the rows of
// formats without a symbol column.
Result<ParsedFile> parse_rows(std::istream& in,
                              SourceFormat format,
                              const std::string& symbol,
                              const ImportOptions& options,
                              RowSink sink) {
  switch (format) {
  case SourceFormat::canonical:
    return parse_canonical_csv(in, std::move(sink));
  case SourceFormat::tushare:
    return parse_tushare_daily(in, std::move(sink));
  case SourceFormat::baostock:
    return parse_baostock_k(in, options.adjusted_input, std::move(sink));
  case SourceFormat::akshare:
    return parse_akshare_hist(in, symbol, std::move(sink));
  case SourceFormat::tdx:
    return parse_tdx_day(in, symbol, std::move(sink));
  case SourceFormat::tdx_text:
    return parse_tdx_text(in, symbol, std::move(sink));
  }
  return make_error(ErrorCode::internal, "unknown format");
}

// Parse `in` as parse_rows does, and refuse each row of a code D20 keeps out as a bad row, as
// D16 refuses a bad value (a fetch drops such rows before they reach the importer; the formats
// without a symbol column are refused whole by detect_file).
Result<ParsedFile> parse_format(std::istream& in,
                                SourceFormat format,
                                const std::string& symbol,
                                const ImportOptions& options,
                                RowSink sink = {}) {
  std::vector<ParsedRow> rows; // when no sink is given
  std::vector<RowProblem> kept_out;
  std::string admitted; // the last symbol let through: rows usually come grouped by symbol
  auto check = [&](ParsedRow&& row, const ParsedFile& file) {
    if (row.symbol != admitted) {
      if (auto kind = domain::kind_of_code(row.symbol); !kind) {
        kept_out.push_back({row.line, "symbol", kind.error().message});
        return;
      }
      admitted = row.symbol;
    }
    if (sink) {
      sink(std::move(row), file);
    } else {
      rows.push_back(std::move(row));
    }
  };
  auto parsed = parse_rows(in, format, symbol, options, check);
  if (!parsed) {
    return parsed;
  }
  parsed->sink = sink;
  parsed->rows = std::move(rows);
  if (!kept_out.empty()) {
    std::vector<RowProblem> problems;
    std::merge(std::make_move_iterator(parsed->problems.begin()),
               std::make_move_iterator(parsed->problems.end()),
               std::make_move_iterator(kept_out.begin()), std::make_move_iterator(kept_out.end()),
               std::back_inserter(problems),
               [](const RowProblem& a, const RowProblem& b) { return a.line < b.line; });
    parsed->problems = std::move(problems);
  }
  return parsed;
}

// Join the factors of `options.adj_factors` (given) to the rows of `prepared`.
Result<bool> join_factors(PreparedFile& prepared, const ImportOptions& options) {
  auto& file = prepared.parsed;
  if (file.has_factor) {
    return make_error(ErrorCode::invalid_input,
                      "the file has its own factor column; --adj-factor is for files without one");
  }
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

// Return how the factors of a file read by `loader` are set, when the file had no
// --adj-factor: its own column, else the pre_close chain when every row has a pre_close,
// else none (factor 1). Adds a note for AkShare files, which cannot say what their prices are.
FactorSettlement settle_factors(const ParsedFile& file,
                                const FileLoader& loader,
                                SourceFormat format,
                                const ImportOptions& options,
                                std::vector<std::string>& notes) {
  FactorSettlement settlement;
  settlement.adjusted_input = options.adjusted_input;
  if (file.has_factor) {
    settlement.origin = FactorOrigin::file;
  } else if (!options.adjusted_input && loader.rows() > 0 && loader.every_row_has_pre_close()) {
    settlement.origin = FactorOrigin::pre_close_chain;
    settlement.chain_from_store = true;
  } else {
    settlement.origin = FactorOrigin::none;
    if (format == SourceFormat::akshare && !options.adjusted_input) {
      notes.push_back("AkShare files cannot say whether their prices are adjusted: they "
                      "were stored as raw prices with factor 1 (export with adjust=\"\")");
    }
  }
  return settlement;
}

// What the first bytes of a file say: its format, and the symbol of formats that do not name it.
struct FileKind {
  SourceFormat format = SourceFormat::canonical;
  std::string symbol;
};

Result<FileKind> detect_file(std::istream& in,
                             const std::filesystem::path& path,
                             const ImportOptions& options) {
  std::string head(4096, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  in.clear();
  in.seekg(0);
  FileKind kind;
  if (options.format) {
    kind.format = *options.format;
  } else {
    auto detected = detect_source_format(path, head);
    if (!detected) {
      return detected.error();
    }
    kind.format = *detected;
  }
  if (kind.format == SourceFormat::akshare || kind.format == SourceFormat::tdx
      || kind.format == SourceFormat::tdx_text) {
    auto named = file_symbol(path, options);
    if (!named) {
      return named.error();
    }
    kind.symbol = std::move(*named);
    // D20: the file is of one symbol, so a code kept out refuses it whole.
    if (auto code_kind = domain::kind_of_code(kind.symbol); !code_kind) {
      return make_error(ErrorCode::invalid_input, path.string() + ": " + code_kind.error().message);
    }
  }
  return kind;
}

// Return a Reread over the file at `path`, parsed again: a second pass is rare, and remembering
// every row would grow with the file.
Reread reread_file(const std::filesystem::path& path,
                   const FileKind& kind,
                   const ImportOptions& options) {
  return [&path, &kind, &options](const std::function<void(const ParsedRow&)>& visit) {
    std::ifstream in(path, std::ios::binary);
    (void)parse_format(in, kind.format, kind.symbol, options,
                       [&visit](ParsedRow&& row, const ParsedFile&) { visit(row); });
  };
}

// Read the whole file at `path` and join --adj-factor's factors to it: the one import that keeps
// the file in memory (the join fills bars without a factor row from their neighbours).
Result<ImportReport> import_with_adj_factors(store::BarStore& store,
                                             std::istream& in,
                                             const std::filesystem::path& path,
                                             const FileKind& kind,
                                             const ImportOptions& options) {
  PreparedFile prepared;
  prepared.format = kind.format;
  prepared.adjusted_input = options.adjusted_input;
  auto parsed = parse_format(in, kind.format, kind.symbol, options);
  if (!parsed) {
    return make_error(ErrorCode::invalid_input, path.string() + ":" + parsed.error().message);
  }
  prepared.parsed = std::move(*parsed);
  if (auto joined = join_factors(prepared, options); !joined) {
    return make_error(ErrorCode::invalid_input, path.string() + ": " + joined.error().message);
  }
  if (in.bad()) {
    return make_error(ErrorCode::invalid_input, path.string() + ": read error");
  }
  return load_prepared_file(store, std::move(prepared), options);
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
  FileLoader loader(store, options);
  for (auto row : file.rows) {
    loader.add(std::move(row), file);
  }
  ImportReport report;
  report.format = prepared.format;
  report.notes = prepared.notes;
  FactorSettlement settlement{prepared.factor_origin, false, prepared.adjusted_input};
  if (!prepared.symbol_origins.empty()) {
    settlement.symbol_origins = &prepared.symbol_origins;
  }
  return loader.finish(
    file, settlement,
    [&file](const std::function<void(const ParsedRow&)>& visit) {
      for (const auto& row : file.rows) {
        visit(row);
      }
    },
    std::move(report));
}

Result<ImportReport> import_file(store::BarStore& store,
                                 const std::filesystem::path& path,
                                 const ImportOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return make_error(ErrorCode::invalid_input, path.string() + ": cannot open the file");
  }
  auto kind = detect_file(in, path, options);
  if (!kind) {
    return kind.error();
  }
  if (options.adj_factors) {
    return import_with_adj_factors(store, in, path, *kind, options);
  }
  std::error_code ignored;
  const auto size = static_cast<double>(std::filesystem::file_size(path, ignored));
  std::atomic<double> fraction_read = 0.0; // written by the parser's thread, read by the loader's
  FileLoader loader(store, options, [&fraction_read] { return fraction_read.load(); });
  auto parsed = parse_ahead(
    [&](RowSink sink) {
      return parse_format(in, kind->format, kind->symbol, options, std::move(sink));
    },
    [&loader](ParsedRow&& row, const ParsedFile& file) { loader.add(std::move(row), file); },
    [&in, &fraction_read, size, &options] {
      if (options.progress) {
        const auto position = in.tellg();
        fraction_read = position < 0 || size <= 0 ? 1.0 : static_cast<double>(position) / size;
      }
    });
  if (!parsed) {
    // Parsers report "line: column: what"; the file name goes in front. The loader rolls back.
    return make_error(ErrorCode::invalid_input, path.string() + ":" + parsed.error().message);
  }
  if (in.bad()) {
    return make_error(ErrorCode::invalid_input, path.string() + ": read error");
  }
  ImportReport report;
  report.format = kind->format;
  const auto settlement = settle_factors(*parsed, loader, kind->format, options, report.notes);
  return loader.finish(*parsed, settlement, reread_file(path, *kind, options), std::move(report));
}

} // namespace ashare::import
