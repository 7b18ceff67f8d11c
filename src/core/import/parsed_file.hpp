// What a format parser hands to the importer: the rows it could read and the problems of those it
// could not, each tied to a line and a column of the source file.
#pragma once

#include "core/domain/bar.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ashare::import {

struct RowProblem {
  std::int64_t line = 0;
  std::string column;  // the column at fault, e.g. "high"
  std::string message; // what is wrong, lowercase, quoting the value
};

struct ParsedRow {
  std::int64_t line = 0;
  std::string symbol; // canonical
  domain::Bar bar;    // change_pct is a placeholder when the file has none
  std::optional<double> pre_close; // the exchange's previous close, ex-rights (vendor files)
  bool has_change_pct = true;      // false: the row's change_pct is a placeholder
};

struct ParsedFile;

// Where a streaming parse hands each good row as soon as it is read, with the file as parsed so
// far (issue 11: an import keeps no file in memory). Without one, rows collect in ParsedFile::rows.
using RowSink = std::function<void(ParsedRow&&, const ParsedFile&)>;

struct ParsedFile {
  std::vector<ParsedRow> rows;      // empty when `sink` took them
  std::vector<RowProblem> problems; // rows with a problem are not in `rows`
  bool has_factor = true;           // false: every factor is the default 1.0
  bool has_change_pct = true;       // false: change_pct is computed after the rows are in
  std::int64_t suspended_skipped = 0; // rows of suspended days the format marks and we leave out
  RowSink sink;                       // set by the caller of a parser to stream the rows

  // Hand `row` to `sink`, or keep it in `rows` when there is none.
  void add_row(ParsedRow&& row) {
    if (sink) {
      sink(std::move(row), *this);
    } else {
      rows.push_back(std::move(row));
    }
  }
};

// The rows of one symbol: a run of a file's rows.
struct SymbolRows {
  std::string symbol;
  std::span<ParsedRow> rows;
};

// Return the runs of rows of `file` that share a symbol, in file order (one run per symbol once
// the file is sorted by symbol). The spans point into `file.rows`.
std::vector<SymbolRows> rows_by_symbol(ParsedFile& file);

// The bounds of D16 on what a bar may hold: anything outside refuses the row, naming the column.
inline constexpr double k_max_price = 1e9;             // prices: above 0, below this
inline constexpr double k_max_turnover = 1e15;         // CNY: from 0, below this
inline constexpr std::int64_t k_max_volume = 1'000'000'000'000'000; // shares: 0 to this
inline constexpr double k_min_change_pct = -100;       // change_pct: from this
inline constexpr double k_max_change_pct = 10000;      // ... to this
inline constexpr double k_min_factor = 1e-6;           // factors: from this
inline constexpr double k_max_factor = 1e9;            // ... to this

// Return the first problem of `bar` read on `line`, checking in order: trade_date from
// domain::k_first_session to `latest` (today at UTC+8 for an import), prices within D16's bounds,
// high >= max(open, close), low <= min(open, close), then volume, turnover, change_pct and factor
// within D16's bounds; or an empty column when valid. Values need not be finite.
RowProblem check_bar(const domain::Bar& bar, std::int64_t line, domain::Date latest);

} // namespace ashare::import
