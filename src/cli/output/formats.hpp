// Printing shared by subcommands: aligned text tables, and the four output formats of the query
// commands (table, csv, json, ndjson) for bars and indicator values.
#pragma once

#include "cli/config.hpp"
#include "core/api/json.hpp"
#include "core/error.hpp"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ashare::cli {

enum class Align { left, right };

struct TableColumn {
  std::string header;
  Align align = Align::left;
};

// Print `rows` under `columns`, each column as wide as its widest cell, two spaces apart. When
// `row_colors` is given, row i is wrapped in the ANSI SGR code row_colors[i] (empty: none).
void print_table(std::ostream& out,
                 const std::vector<TableColumn>& columns,
                 const std::vector<std::vector<std::string>>& rows,
                 const std::vector<std::string>& row_colors = {});

struct OutputOptions {
  Format format = Format::csv;
  bool header = true; // csv: print the header row
  bool color = false; // table: red up, green down (A-share convention)
  bool summary = false;
  bool underlying = false;
};

// Return the format to use: `configured` (Config::output_format) when set, else table on a
// terminal and csv otherwise.
Result<Format> choose_format(const Result<std::optional<Format>>& configured);

// Return whether stdout should be coloured: a terminal and NO_COLOR unset.
bool use_color();

// Return `value` with thousands separators: 1234567 -> "1,234,567" (D12 digits otherwise).
std::string with_thousands(const std::string& number);

// Return `text` as one CSV field: as is, or double-quoted with quotes doubled when it holds a
// comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& text);

// Print `response` in `options.format`; `body` is the API body, printed as is for json.
void print_bars(std::ostream& out,
                const api::BarsResponse& response,
                const std::string& body,
                const OutputOptions& options);

// Print `response` for `symbols` (the request's, in order) in `options.format`.
void print_indicators(std::ostream& out,
                      const api::IndicatorResponse& response,
                      const std::vector<std::string>& symbols,
                      const std::string& body,
                      const OutputOptions& options);

} // namespace ashare::cli
