// Loading a file into the data store: one transaction per file, so a bad row leaves nothing of
// the file behind (unless the caller asks to skip bad rows), upserts so that re-importing a file
// changes nothing, change_pct computed where the file has none, and factors joined or derived
// for vendor files (import/factors.hpp). Each symbol records where its bars came from.
#pragma once

#include "core/error.hpp"
#include "core/import/factors.hpp"
#include "core/import/parsed_file.hpp"
#include "core/import/source_format.hpp"
#include "core/store/bar_store.hpp"

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ashare::import {

struct ImportOptions {
  bool skip_invalid = false; // leave bad rows out instead of refusing the file
  std::string source;        // recorded as the dataset's source (default: the format's name)
  std::optional<SourceFormat> format;         // nullopt: detect from the file
  std::optional<std::string> symbol;          // for files that do not name it (akshare, tdx)
  const AdjFactorTable* adj_factors = nullptr; // join these factors (Tushare adj_factor)
  bool adjusted_input = false;                // prices are already adjusted: store as given
  // Called now and then while rows are written, with the rows written so far and how much of
  // the file has been read (0 to 1; 1 once done).
  std::function<void(std::int64_t rows, double fraction_read)> progress;
  // Called inside the file's transaction just before it commits: what must commit with the rows
  // (a fetch's ledger row, D18).
  std::function<void(store::BarStore&)> before_commit;
};

// How a file's factors were obtained, recorded per symbol (symbol_sources.factor_origin).
enum class FactorOrigin { file, adj_factor, pre_close_chain, none };

// Return the stored name of `origin` ("file", "adj_factor", "pre_close_chain", "none").
std::string_view factor_origin_name(FactorOrigin origin);

struct ImportReport {
  bool committed = false;            // false: the file was refused and nothing was stored;
                                     // true with no row loaded: nothing to store (D16)
  std::int64_t rows_loaded = 0;
  std::int64_t rows_skipped = 0;     // bad rows left out (skip_invalid)
  std::set<std::string> symbols;     // symbols with rows loaded
  std::optional<domain::Date> as_of; // the store's as_of after the commit
  std::vector<RowProblem> problems;  // every bad row, in file order
  std::optional<RowProblem> refusal; // why a file was refused as a whole
  SourceFormat format = SourceFormat::canonical;
  FactorOrigin factor_origin = FactorOrigin::file;
  std::int64_t adjustment_events = 0;   // factor steps in the loaded rows
  std::int64_t suspended_skipped = 0;   // suspended days the file marks (baostock)
  std::vector<std::string> notes;       // things the user should know, e.g. unmatched factors
};

// A file parsed into memory with its factors set, ready to load.
struct PreparedFile {
  ParsedFile parsed;
  SourceFormat format = SourceFormat::canonical;
  FactorOrigin factor_origin = FactorOrigin::file;
  std::map<std::string, FactorOrigin> symbol_origins; // per symbol, when not factor_origin
  bool adjusted_input = false;
  std::vector<std::string> notes;
};

// Load `file` into `store` in one transaction. Bad rows (including a second row for the same
// symbol and date) refuse the file unless `options.skip_invalid`; a file without factors for a
// symbol whose stored factors are not all 1 is always refused (it would silently rescale history).
ImportReport load_parsed_file(store::BarStore& store,
                              ParsedFile file,
                              const ImportOptions& options);

// Load `file`, whose factors are set, as load_parsed_file does.
ImportReport load_prepared_file(store::BarStore& store,
                                PreparedFile file,
                                const ImportOptions& options);

// Read the file at `path` in `options.format` (detected when not given) and load its rows as
// they are read (import/file_loader.hpp), so memory stays flat whatever the file's size; then
// set the factors: the file's own, else along the pre_close chain when every row has a
// pre_close (continuing from the store's bar before each symbol's first row; a symbol whose
// stored bars lie only after the file's cannot be chained and refuses the file), else 1. With
// `options.adj_factors` the file is read into memory and the factors joined first. Errors (unreadable file, bad header, adjusted prices refused) come back as
// INVALID_INPUT with a message "path:line: column: what is wrong".
Result<ImportReport> import_file(store::BarStore& store,
                                 const std::filesystem::path& path,
                                 const ImportOptions& options);

// Format `problem` of `path` as "path:line: column: message".
std::string format_problem(const std::filesystem::path& path, const RowProblem& problem);

} // namespace ashare::import
