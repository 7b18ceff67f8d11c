// The four output formats of the query commands (table, csv, json, ndjson) for bars and indicator
// values, and what chooses the format and the colours.
#pragma once

#include "cli/config.hpp"
#include "cli/output/table.hpp"
#include "core/api/json.hpp"
#include "core/error.hpp"
#include "core/query/indicator_query.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ashare::cli {

struct OutputOptions {
  Format format = Format::csv;
  bool header = true; // csv: print the header row
  bool color = false; // table: red up, green down (A-share convention)
  bool summary = false;
  bool underlying = false;
  std::optional<std::size_t> width = std::nullopt; // table: fit this many columns (output_width)
};

// Return the format to use: `configured` (Config::output_format) when set, else table on a
// terminal and csv otherwise.
Result<Format> choose_format(const Result<std::optional<Format>>& configured);

// Return whether stdout should be coloured: a terminal and NO_COLOR unset.
bool use_color();

// Return `text` as one CSV field: as is, or double-quoted with quotes doubled when it holds a
// comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& text);

// Print `response` in `options.format` (json: the API's body of it). A table
// has a title line (symbols, first .. last date, forward-adjusted or raw prices) and a units row;
// its prices keep every digit, padded per column so the points line up; CHANGE% has at most 4
// decimals and FACTOR at most 6. Fitting `options.width`, it turns VOLUME and TURNOVER compact,
// then leaves out FACTOR, TURNOVER, VOLUME, OPEN, HIGH, LOW and CHANGE% in this order until it
// fits, with a note on stderr naming what was left out.
void print_bars(std::ostream& out, const api::BarsResponse& response, const OutputOptions& options);

// Print `response` to `query` in `options.format` (json: the API's body of it). A table's title names the symbols, the
// indicator with its parameters and convention (e.g. "MACD(12,26,9) talib"), the first .. last
// date and the adjustment; its values have at most 4 decimals (only tables round); fitting
// `options.width`, it leaves out ADJUSTED, then SERIES (--underlying) before wrapping.
void print_indicators(std::ostream& out,
                      const api::IndicatorResponse& response,
                      const query::IndicatorQuery& query,
                      const OutputOptions& options);

} // namespace ashare::cli
