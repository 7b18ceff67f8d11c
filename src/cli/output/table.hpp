// Text tables for people: columns aligned on their decimal points, numbers at a readable precision
// (only tables round; CSV and JSON keep every digit, D12), compact volume and turnover and fewer
// columns when the terminal is narrow, a title line and a units row.
#pragma once

#include <cstddef>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace ashare::cli {

enum class Align { left, right };

struct TableColumn {
  std::string header;
  Align align = Align::left;
  std::string unit = {}; // printed under the header ("CNY", "shares"); empty: none
};

// Print `rows` under `columns`, each column as wide as its widest cell, two spaces apart. When
// `row_colors` is given, row i is wrapped in the ANSI SGR code row_colors[i] (empty: none).
void print_table(std::ostream& out,
                 const std::vector<TableColumn>& columns,
                 const std::vector<std::vector<std::string>>& rows,
                 const std::vector<std::string>& row_colors = {});

// One column of a Table: its heading, its cells top to bottom, and how it gives way to a narrow
// terminal.
struct Column {
  TableColumn heading;
  std::vector<std::string> cells;
  std::vector<std::string> compact_cells = {}; // the narrow form of `cells`; empty: none
  int leave_out_rank = 0; // 0: always shown; else left out to fit a width, rank 1 first
};

// A table with a title line above its header (and units row, when any column has a unit).
struct Table {
  std::string title;
  std::vector<Column> columns;
  std::vector<std::string> row_colors; // an ANSI SGR code per row, as print_table's
};

// Return the width of `table`'s widest line below the title, in columns.
std::size_t table_width(const Table& table);

// Fit `table` into `width` columns: when it is wider, every column switches to its compact cells;
// when it is still wider, columns are left out by leave_out_rank (1 first) until it fits or only
// rank-0 columns remain. Return the headers of the columns left out, in that order. No `width`:
// no limit, nothing changes.
std::vector<std::string> fit_table(Table& table, std::optional<std::size_t> width);

// Print `table`: its title (when not empty), the headers, the units row (when any column has a
// unit) and the rows, each column as wide as its widest text, two spaces apart.
void print_table(std::ostream& out, const Table& table);

// Return `values` as text with the same number of decimals each, so that their points line up: as
// many as the value with the most has in its shortest round-trip form (D12), shorter ones padded
// with zeros, so no digit is dropped; but at most `max_decimals` when given, longer values rounded
// to it. A value that is not finite is "-". E.g. {1650, 1650.92} -> {"1650.00", "1650.92"}.
std::vector<std::string> fixed_decimals(std::span<const double> values,
                                        std::optional<int> max_decimals = std::nullopt);

// Return `values` (volumes in shares, turnovers in CNY) the compact way, in the one unit of K
// (10^3), M (10^6) or B (10^9) that the largest magnitude reaches, with two decimals so that the
// points line up: {2561234, 45367539} -> {"2.56M", "45.37M"}. Without any value of 1000 or more:
// fixed_decimals() of `values` with at most 2 decimals.
std::vector<std::string> compact_numbers(std::span<const double> values);

// Return `number` (decimal text) with thousands separators in its whole part: "1234567.5" ->
// "1,234,567.5".
std::string with_thousands(const std::string& number);

// Return the width tables should fit: the columns of the terminal that stdout is (ioctl
// TIOCGWINSZ), else $COLUMNS when it is a positive number, else nullopt (no limit: a pipe).
std::optional<std::size_t> output_width();

} // namespace ashare::cli
