// Loading a file into the data store: one transaction per file, so a bad row leaves nothing of
// the file behind (unless the caller asks to skip bad rows), upserts so that re-importing a file
// changes nothing, and change_pct computed where the file has none.
#pragma once

#include "core/error.hpp"
#include "core/import/parsed_file.hpp"
#include "core/store/bar_store.hpp"

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ashare::import {

struct ImportOptions {
  bool skip_invalid = false; // leave bad rows out instead of refusing the file
  std::string source;        // recorded as the dataset's source
};

struct ImportReport {
  bool committed = false;            // false: the file was refused and nothing was stored
  std::int64_t rows_loaded = 0;
  std::int64_t rows_skipped = 0;     // bad rows left out (skip_invalid)
  std::set<std::string> symbols;     // symbols with rows loaded
  std::optional<domain::Date> as_of; // the store's as_of after the commit
  std::vector<RowProblem> problems;  // every bad row, in file order
  std::optional<RowProblem> refusal; // why a file was refused as a whole
};

// Load `file` into `store` in one transaction. Bad rows (including a second row for the same
// symbol and date) refuse the file unless `options.skip_invalid`; a file without factors for a
// symbol whose stored factors are not all 1 is always refused (it would silently rescale history).
ImportReport load_parsed_file(store::BarStore& store,
                              ParsedFile file,
                              const ImportOptions& options);

// Read the canonical CSV at `path` and load it. Errors (unreadable file, bad header) come back as
// INVALID_INPUT with a message "path:line: column: what is wrong".
Result<ImportReport> import_canonical_file(store::BarStore& store,
                                           const std::filesystem::path& path,
                                           const ImportOptions& options);

// Format `problem` of `path` as "path:line: column: message".
std::string format_problem(const std::filesystem::path& path, const RowProblem& problem);

} // namespace ashare::import
