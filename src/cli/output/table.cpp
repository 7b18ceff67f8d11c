#include "cli/output/table.hpp"

#include "core/domain/number.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>
#include <sys/ioctl.h>
#include <unistd.h>

namespace ashare::cli {
namespace {

// Display width of UTF-8 text, counting each code point as one column.
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xc0) != 0x80;
  }));
}

// Return the line of `cells` in columns of `widths` and `aligns`, two spaces apart, without
// trailing spaces, wrapped in SGR `color` when it is not empty.
std::string render_line(const std::vector<std::string>& cells,
                        const std::vector<std::size_t>& widths,
                        const std::vector<Align>& aligns,
                        const std::string& color) {
  std::string line;
  for (std::size_t i = 0; i < widths.size(); ++i) {
    const std::string& cell = i < cells.size() ? cells[i] : std::string();
    const std::string padding(widths[i] - std::min(widths[i], display_width(cell)), ' ');
    if (i > 0) {
      line += "  ";
    }
    line += aligns[i] == Align::right ? padding + cell : cell + padding;
  }
  while (!line.empty() && line.back() == ' ') {
    line.pop_back();
  }
  if (!color.empty()) {
    line = "\x1b[" + color + "m" + line + "\x1b[0m";
  }
  return line;
}

std::size_t column_width(const Column& column) {
  std::size_t width = std::max(display_width(column.heading.header),
                               display_width(column.heading.unit));
  for (const auto& cell : column.cells) {
    width = std::max(width, display_width(cell));
  }
  return width;
}

// Return the number of digits after the point of decimal text (0 without a point).
int decimals_of(std::string_view text) {
  const auto point = text.find('.');
  return point == std::string_view::npos ? 0 : static_cast<int>(text.size() - point - 1);
}

// Return `value` with exactly `decimals` digits after the point, correctly rounded; never "-0".
std::string fixed(double value, int decimals) {
  std::array<char, 400> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                 std::chars_format::fixed, decimals)
                     .ptr;
  std::string text(buffer.data(), end);
  if (text.front() == '-' && text.find_first_of("123456789") == std::string::npos) {
    text.erase(0, 1);
  }
  return text;
}

// Return `shortest` (D12 text) padded with zeros to `decimals` digits after the point.
std::string padded(std::string shortest, int decimals) {
  const int have = decimals_of(shortest);
  if (have == 0 && decimals > 0) {
    shortest += '.';
  }
  shortest.append(static_cast<std::size_t>(decimals - have), '0');
  return shortest;
}

} // namespace

void print_table(std::ostream& out,
                 const std::vector<TableColumn>& columns,
                 const std::vector<std::vector<std::string>>& rows,
                 const std::vector<std::string>& row_colors) {
  Table table;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    Column column{columns[i], {}};
    for (const auto& row : rows) {
      column.cells.push_back(i < row.size() ? row[i] : std::string());
    }
    table.columns.push_back(std::move(column));
  }
  table.row_colors = row_colors;
  print_table(out, table);
}

std::size_t table_width(const Table& table) {
  std::size_t width = 0;
  for (const auto& column : table.columns) {
    width += column_width(column);
  }
  return width + (table.columns.empty() ? 0 : 2 * (table.columns.size() - 1));
}

std::vector<std::string> fit_table(Table& table, std::optional<std::size_t> width) {
  std::vector<std::string> left_out;
  if (!width || table_width(table) <= *width) {
    return left_out;
  }
  for (auto& column : table.columns) {
    if (!column.compact_cells.empty()) {
      column.cells = std::move(column.compact_cells);
      column.compact_cells.clear();
    }
  }
  while (table_width(table) > *width) {
    auto first = table.columns.end();
    for (auto it = table.columns.begin(); it != table.columns.end(); ++it) {
      if (it->leave_out_rank > 0
          && (first == table.columns.end() || it->leave_out_rank < first->leave_out_rank)) {
        first = it;
      }
    }
    if (first == table.columns.end()) {
      break; // only what is never left out remains: the terminal wraps it
    }
    left_out.push_back(first->heading.header);
    table.columns.erase(first);
  }
  return left_out;
}

void print_table(std::ostream& out, const Table& table) {
  std::vector<std::size_t> widths;
  std::vector<Align> aligns;
  std::vector<std::string> headers;
  std::vector<std::string> units;
  std::size_t rows = 0;
  for (const auto& column : table.columns) {
    widths.push_back(column_width(column));
    aligns.push_back(column.heading.align);
    headers.push_back(column.heading.header);
    units.push_back(column.heading.unit);
    rows = std::max(rows, column.cells.size());
  }
  if (!table.title.empty()) {
    out << table.title << "\n";
  }
  out << render_line(headers, widths, aligns, "") << "\n";
  if (std::any_of(units.begin(), units.end(), [](const auto& unit) { return !unit.empty(); })) {
    out << render_line(units, widths, aligns, "") << "\n";
  }
  std::vector<std::string> cells(table.columns.size());
  for (std::size_t row = 0; row < rows; ++row) {
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      const auto& column = table.columns[i].cells;
      cells[i] = row < column.size() ? column[row] : std::string();
    }
    out << render_line(cells, widths, aligns,
                       row < table.row_colors.size() ? table.row_colors[row] : "")
        << "\n";
  }
}

std::vector<std::string> fixed_decimals(std::span<const double> values,
                                        std::optional<int> max_decimals) {
  std::vector<std::string> shortest;
  int decimals = 0;
  for (const double value : values) {
    shortest.push_back(std::isfinite(value) ? domain::format_number(value) : "-");
    if (std::isfinite(value)) {
      decimals = std::max(decimals, decimals_of(shortest.back()));
    }
  }
  if (max_decimals) {
    decimals = std::min(decimals, *max_decimals);
  }
  std::vector<std::string> out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      out.push_back("-");
    } else if (decimals_of(shortest[i]) <= decimals) {
      // Padding the shortest text keeps its every digit; formatting the double anew could not
      // promise that for long expansions.
      out.push_back(padded(std::move(shortest[i]), decimals));
    } else {
      out.push_back(fixed(values[i], decimals));
    }
  }
  return out;
}

std::vector<std::string> compact_numbers(std::span<const double> values) {
  constexpr std::array<std::pair<double, const char*>, 3> k_units{
    {{1e9, "B"}, {1e6, "M"}, {1e3, "K"}}};
  double largest = 0;
  for (const double value : values) {
    if (std::isfinite(value)) {
      largest = std::max(largest, std::fabs(value));
    }
  }
  const auto unit = std::find_if(k_units.begin(), k_units.end(),
                                 [&](const auto& candidate) { return largest >= candidate.first; });
  if (unit == k_units.end()) {
    return fixed_decimals(values, 2);
  }
  std::vector<std::string> out;
  for (const double value : values) {
    out.push_back(std::isfinite(value) ? fixed(value / unit->first, 2) + unit->second : "-");
  }
  return out;
}

std::string with_thousands(const std::string& number) {
  const auto start = number.find_first_of("0123456789");
  if (start == std::string::npos) {
    return number;
  }
  auto end = number.find('.', start);
  if (end == std::string::npos) {
    end = number.size();
  }
  std::string out = number.substr(0, start);
  for (std::size_t i = start; i < end; ++i) {
    if (i > start && (end - i) % 3 == 0) {
      out += ',';
    }
    out += number[i];
  }
  out += number.substr(end);
  return out;
}

std::optional<std::size_t> output_width() {
  winsize window{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &window) == 0 && window.ws_col > 0) {
    return window.ws_col;
  }
  const char* columns = std::getenv("COLUMNS");
  if (columns == nullptr) {
    return std::nullopt;
  }
  std::size_t width = 0;
  const std::string_view text(columns);
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), width);
  if (error != std::errc() || end != text.data() + text.size() || width == 0) {
    return std::nullopt;
  }
  return width;
}

} // namespace ashare::cli
