// Adjustment factors for vendor files that carry none in their rows: joined from a Tushare
// `adj_factor` file, or derived from the exchange's pre_close chain. The chain is
// factor[t] = factor[t-1] * close[t-1] / pre_close[t]: pre_close is the previous close made
// ex-rights by the exchange, so the ratio steps exactly on ex-dates and is 1 on every other day.
#pragma once

#include "core/error.hpp"
#include "core/import/parsed_file.hpp"

#include <cstdint>
#include <istream>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ashare::import {

// Tushare `adj_factor` rows by (symbol, YYYYMMDD).
struct AdjFactorTable {
  std::map<std::pair<std::string, std::int64_t>, double> factors;
};

// Parse a Tushare `adj_factor` CSV (ts_code, trade_date, adj_factor; other columns ignored).
// Problems are INVALID_INPUT errors reading "line: column: what is wrong".
Result<AdjFactorTable> parse_adj_factor_csv(std::istream& in);

// Sort the rows of `file` by symbol, then date.
void sort_by_symbol_and_date(ParsedFile& file);

// Set the factors of `rows` (one symbol, ascending by date) from the pre_close chain, the first
// row's factor being `start`. A row without pre_close keeps the previous factor. Return the
// number of adjustment events (rows whose factor differs from the previous row's).
std::int64_t chain_factors(std::span<ParsedRow> rows, double start);

// Return the factor that continues the chain from `previous` (the bar before `first`) to `first`.
double chain_start(const domain::Bar& previous, const ParsedRow& first);

struct AdjFactorJoin {
  std::int64_t bars_without_factor = 0; // filled in along the pre_close chain
  std::int64_t factors_without_bar = 0; // factor rows of the file's symbols with no bar: ignored
  std::optional<domain::Date> first_bar_without_factor;
  std::vector<std::string> symbols_without_factors; // not one factor row matched
};

// Set the factors of `file` (sorted by symbol and date) from `table`. Bars that have no factor
// row get one along the pre_close chain from their nearest factored neighbour (forwards, or
// backwards before the first), or the neighbour's factor when pre_close is missing.
AdjFactorJoin join_adj_factors(ParsedFile& file, const AdjFactorTable& table);

} // namespace ashare::import
